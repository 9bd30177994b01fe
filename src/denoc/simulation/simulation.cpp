#include "denoc/simulation/simulation.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "denoc/denoc.hpp"
#include "denoc/io/errors.hpp"

namespace denoc {

namespace odeint = boost::numeric::odeint;

ChainDynamics::ChainDynamics(const Model<double>& model, FdAlgorithm algorithm, JointForces& forces)
    : model_(model),
      algorithm_(algorithm),
      forces_(forces),
      ws_(model),
      tau_(VecX<double>::Zero(model.dof())) {}

void ChainDynamics::evaluate(const State& x, double t) {
  const int n = model_.dof();
  const Eigen::Map<const VecX<double>> q(x.data(), n), qd(x.data() + n, n);
  forces_.at(t, tau_);
  if (algorithm_ == FdAlgorithm::udu) {
    forward_dynamics(model_, ws_, q, qd, tau_);
  } else {
    forward_dynamics_cholesky(model_, ws_, q, qd, tau_);
  }
}

void ChainDynamics::operator()(const State& x, State& dxdt, double t) {
  ++evaluations_;
  evaluate(x, t);
  const int n = model_.dof();
  std::copy(x.begin() + n, x.end(), dxdt.begin());         // d(q)/dt = qd
  Eigen::Map<VecX<double>>(dxdt.data() + n, n) = ws_.qdd;  // d(qd)/dt = qdd
}

OutputTimes::OutputTimes(double t_end, double dt) : t_end_(t_end) {
  // dt as an exact ratio m / 10^e when it is a short decimal, so that k m / 10^e is the decimal
  // k dt rounded once; otherwise k dt.
  numerator_ = dt;
  double scale = 1;
  for (int e = 0; e <= 15; ++e, scale *= 10) {
    const double m = std::round(dt * scale);
    if (m > 0 && m < 0x1p53 && m / scale == dt) {
      numerator_ = m;
      denominator_ = scale;
      break;
    }
  }
  const double count = OutputTimes::count(t_end, dt);
  if (!(count <= 1e15)) throw std::invalid_argument("OutputTimes: too many output times");
  size_ = static_cast<long>(count);
}

double OutputTimes::count(double t_end, double dt) {
  if (!(t_end > 0)) return 1;
  const double last_multiple = std::floor(t_end / dt + 1e-9);
  if (!std::isfinite(last_multiple) || last_multiple > 1e15) return HUGE_VAL;
  // t_end is not a multiple of dt: one more row, at t_end itself (and always after t = 0).
  const bool extra = last_multiple == 0 || t_end - last_multiple * dt > 1e-9 * dt;
  return last_multiple + 1 + (extra ? 1 : 0);
}

double OutputTimes::operator[](long k) const {
  if (k == size_ - 1) return t_end_;
  return static_cast<double>(k) * numerator_ / denominator_;
}

namespace {

std::string shortest(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

// The smallest step that is allowed: the user's floor, and at least one that still moves t.
double step_floor(double t, const IntegratorSettings& settings) {
  const double moves_t = 8 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
  return std::max(settings.min_step, moves_t);
}

[[noreturn]] void step_underflow(double t, double step, const IntegratorSettings& settings) {
  throw RunError("at t = " + shortest(t) + ": step size underflow: the step fell to " +
                 shortest(step) + " s, below the floor of " + shortest(step_floor(t, settings)) +
                 " s, without meeting --rtol " + shortest(settings.rtol) + " and --atol " +
                 shortest(settings.atol));
}

void check_finite(const State& x, double t) {
  const auto bad = std::find_if(x.begin(), x.end(), [](double v) { return !std::isfinite(v); });
  if (bad == x.end()) return;
  const long i = bad - x.begin();
  const long n = static_cast<long>(x.size()) / 2;
  const std::string name = (i < n ? "q" : "qd") + std::to_string(i % n + 1);
  throw RunError("at t = " + shortest(t) + ": the state is no longer finite (" + name + " = " +
                 shortest(*bad) + "); the motion diverged");
}

double first_trial_step(const OutputTimes& times, const IntegratorSettings& settings) {
  if (settings.step > 0) return settings.step;
  return times.size() > 1 ? (times[1] - times[0]) / 100 : 1e-3;
}

using Observer = std::function<void(double, const State&)>;

// Classical Runge-Kutta: each output interval in equal steps no longer than settings.step.
void integrate_fixed(ChainDynamics& system, State& x, const OutputTimes& times,
                     const IntegratorSettings& settings, const Observer& observe,
                     IntegrationStats& stats) {
  odeint::runge_kutta4<State> stepper;
  observe(times[0], x);
  for (long k = 1; k < times.size(); ++k) {
    const double start = times[k - 1], interval = times[k] - start;
    const long steps =
        settings.step > 0
            ? std::max(1L, static_cast<long>(std::ceil(interval / settings.step - 1e-9)))
            : 1;
    for (long j = 0; j < steps; ++j) {
      const double t = start + interval * static_cast<double>(j) / static_cast<double>(steps);
      const double t_next = j + 1 == steps ? times[k]
                                           : start + interval * static_cast<double>(j + 1) /
                                                         static_cast<double>(steps);
      stepper.do_step(std::ref(system), x, t, t_next - t);
      ++stats.steps;
      check_finite(x, t_next);
      system.forces().release_before(t_next);
    }
    observe(times[k], x);
  }
}

// Cash-Karp 5(4) or Fehlberg 7(8) with step-size control; a step that would pass the next
// output time (or a kink of the joint forces) is shortened to end on it, so the state there is
// a step's own result.
template <class ErrorStepper>
void integrate_to_each_output(ChainDynamics& system, State& x, const OutputTimes& times,
                              const IntegratorSettings& settings, const Observer& observe,
                              IntegrationStats& stats) {
  auto controlled = odeint::make_controlled(settings.atol, settings.rtol, ErrorStepper());
  State dxdt(x.size());
  double t = times[0], h = first_trial_step(times, settings);
  system(x, dxdt, t);
  observe(t, x);
  for (long k = 1; k < times.size(); ++k) {
    const double target = times[k];
    while (t < target) {
      const double stop = std::min(target, system.forces().next_kink(t));
      const bool last = t + h >= stop - step_floor(t, settings);
      double trial = last ? stop - t : h;
      if (controlled.try_step(std::ref(system), x, dxdt, t, trial) == odeint::fail) {
        ++stats.rejected;
        if (trial < step_floor(t, settings)) step_underflow(t, trial, settings);
        h = trial;
        continue;
      }
      ++stats.steps;
      if (last) t = stop;  // exactly, not start + (stop - start)
      h = last ? std::max(h, trial) : trial;
      check_finite(x, t);
      system.forces().release_before(t);
      system(x, dxdt, t);
    }
    observe(target, x);
  }
}

// Dormand-Prince 5(4) with step-size control, free-running except that steps end on the kinks
// of the joint forces; the states at the output times in between come from its dense output
// (the continuous extension of the last step).
void integrate_dense(ChainDynamics& system, State& x, const OutputTimes& times,
                     const IntegratorSettings& settings, const Observer& observe,
                     IntegrationStats& stats) {
  auto controlled =
      odeint::make_controlled(settings.atol, settings.rtol, odeint::runge_kutta_dopri5<State>());
  State dxdt(x.size()), x_new(x.size()), dxdt_new(x.size()), x_out(x.size());
  const double t_end = times[times.size() - 1];
  double t = times[0], h = first_trial_step(times, settings);
  system(x, dxdt, t);
  observe(t, x);
  long k = 1;
  while (k < times.size()) {
    const double stop = std::min(t_end, system.forces().next_kink(t));
    const bool last = t + h >= stop - step_floor(t, settings);
    double trial = last ? stop - t : h;
    double t_new = t;
    if (controlled.try_step(std::ref(system), x, dxdt, t_new, x_new, dxdt_new, trial) ==
        odeint::fail) {
      ++stats.rejected;
      if (trial < step_floor(t, settings)) step_underflow(t, trial, settings);
      h = trial;
      continue;
    }
    ++stats.steps;
    if (last) t_new = stop;
    check_finite(x_new, t_new);
    for (; k < times.size() && times[k] <= t_new; ++k) {
      if (times[k] == t_new) {
        x_out = x_new;
      } else {
        controlled.stepper().calc_state(times[k], x_out, x, dxdt, t, x_new, dxdt_new, t_new);
      }
      observe(times[k], x_out);
    }
    x.swap(x_new);
    dxdt.swap(dxdt_new);
    t = t_new;
    h = last ? std::max(h, trial) : trial;
    system.forces().release_before(t);
  }
}

}  // namespace

void integrate(ChainDynamics& system, State x, const OutputTimes& times,
               const IntegratorSettings& settings, const Observer& observe,
               IntegrationStats& stats) {
  // The counts are filled in however the run ends.
  struct Tally {
    ChainDynamics& system;
    IntegrationStats& stats;
    long evaluations_before;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~Tally() {
      stats.rhs_evaluations = system.evaluations() - evaluations_before;
      stats.wall_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } tally{system, stats, system.evaluations()};

  check_finite(x, times[0]);
  switch (settings.method) {
    case Method::dopri5:
      integrate_dense(system, x, times, settings, observe, stats);
      break;
    case Method::cash_karp54:
      integrate_to_each_output<odeint::runge_kutta_cash_karp54<State>>(system, x, times, settings,
                                                                       observe, stats);
      break;
    case Method::fehlberg78:
      integrate_to_each_output<odeint::runge_kutta_fehlberg78<State>>(system, x, times, settings,
                                                                      observe, stats);
      break;
    case Method::rk4:
      integrate_fixed(system, x, times, settings, observe, stats);
      break;
  }
}

}  // namespace denoc
