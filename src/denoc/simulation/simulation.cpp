#include "denoc/simulation/simulation.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "denoc/engine/dynamics.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"
#include "denoc/kernels/tree_cholesky.hpp"

namespace denoc {

namespace odeint = boost::numeric::odeint;

ChainDynamics::ChainDynamics(const Model<double>& model, Route route, JointForces& forces)
    : dynamics_(model),
      model_(dynamics_.model()),
      route_(route),
      forces_(forces),
      ws_(dynamics_.denoc()),
      tau_(VecX<double>::Zero(model.dof())),
      qdd_(VecX<double>::Zero(model.nv())),
      tau_net_(VecX<double>::Zero(model.dof())),
      friction_(VecX<double>::Zero(model.dof())),
      wrench_samples_(VecX<double>::Zero(6)),
      holding_(VecX<double>::Zero(model.dof())),
      locked_(static_cast<std::size_t>(model.dof()), 0),
      direction_(static_cast<std::size_t>(model.dof()), 0) {}

bool ChainDynamics::has_coulomb(int i) const {
  return model_.joint(i).coulomb_pos != 0 || model_.joint(i).coulomb_neg != 0;
}

void ChainDynamics::evaluate(const State& x, double t) {
  // x = [q; v] with nq and nv entries; the joints' own are the last n of each (with a floating
  // base the base's 7 and 6 come first, docs/floating-base.md).
  const int n = model_.dof(), nq = model_.nq(), nv = model_.nv();
  const Eigen::Map<const VecX<double>> q_all(x.data(), nq), v_all(x.data() + nq, nv);
  const Eigen::Map<const VecX<double>> q(x.data() + nq - n, n), qd(x.data() + nq + nv - n, n);
  forces_.at_state(t, q_all, v_all, tau_);
  tau_net_ = tau_;
  power_in_ = tau_.dot(qd);
  power_friction_ = 0;
  if (model_.has_friction()) {
    // The drives' friction G^2 B qd + |G| Tc(qd) (docs/robot-file.md) opposes the joint forces: phi
    // of Eq. (33) loses it. A locked joint's Coulomb force is the unknown that holds it.
    const double scale = friction_settings_.velocity_scale;
    for (int i = 0; i < n; ++i) {
      const Joint<double>& j = model_.joint(i);
      double coulomb = 0;
      if (stick_slip()) {
        const int d = direction_[static_cast<std::size_t>(i)];
        coulomb = locked_[static_cast<std::size_t>(i)] ? 0
                  : d > 0                              ? j.coulomb_pos
                  : d < 0                              ? j.coulomb_neg
                                                       : 0;
      } else if (qd[i] != 0) {
        coulomb = (qd[i] > 0 ? j.coulomb_pos : j.coulomb_neg) * std::tanh(std::abs(qd[i]) / scale);
      }
      friction_[i] = j.viscous * qd[i] + coulomb;
      tau_net_[i] -= friction_[i];
      power_friction_ += friction_[i] * qd[i];
    }
  }
  const bool external = !wrenches_.empty() || contact_;
  if (external) add_external_forces(t, q_all, v_all);
  if (any_locked_) {
    solve_with_locks(q_all, v_all, external);
    return;
  }
  if (closed_) {  // the loops' accelerations, Eq. (L10)
    if (!closed_configuration(model_, loops_, *closed_, q) ||
        !closed_forward_dynamics(model_, loops_, *closed_, ws_, q, qd, tau_net_, qdd_))
      qdd_.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  const bool floating_external = external && model_.floating();
  qdd_ = forward_dynamics(route_, dynamics_, q_all, v_all,
                          floating_external ? rate_forces_ : tau_net_);
}

// The environment's wrenches: the forces gain J^T w for each (docs/robot-file.md), as
// frame_wrench_forces carries them inwards, and their power is w . J v = (J^T w) . v. With a
// floating base the wrench is in the world frame and moves the base too (docs/floating-base.md):
// the wrenches' forces on all 6 + n rates, plus the joints' net forces, go into rate_forces_. The
// ground's forces join them, their losses the dissipated power (ground_contact.hpp).
void ChainDynamics::add_external_forces(double t, const Eigen::Map<const VecX<double>>& q_all,
                                        const Eigen::Map<const VecX<double>>& v_all) {
  if (model_.floating()) rate_forces_.setZero(model_.nv());  // sized at the first call
  for (std::size_t k = 0; k < wrenches_.size(); ++k) {
    wrench_sources_[k]->at_state(t, q_all, v_all, wrench_samples_);
    wrenches_[k].w = wrench_samples_;
  }
  if (!wrenches_.empty()) {
    frame_wrench_forces(model_, ws_, q_all, wrenches_.data(), static_cast<int>(wrenches_.size()),
                        wrench_forces_);
    power_in_ += wrench_forces_.dot(v_all);  // w . J v = (J^T w) . v
    if (model_.floating()) {
      rate_forces_ += wrench_forces_;
    } else {
      tau_net_ += wrench_forces_;
    }
  }
  if (contact_) {
    contact_->evaluate(q_all, v_all, contact_modes_);
    (model_.floating() ? rate_forces_ : tau_net_) += contact_->generalized();
    power_friction_ += contact_->dissipation();
  }
  if (model_.floating()) rate_forces_.tail(model_.dof()) += tau_net_;
}

double ChainDynamics::closure(const State& x) {
  const Eigen::Map<const VecX<double>> q(x.data(), model_.nq());
  return closure_error(model_, loops_, closed_->equations, q).error;
}

void ChainDynamics::project(State& x) {
  if (closed_) {  // back onto the loops, the actuated joints held (docs/loops.md)
    const int n = model_.dof();
    Eigen::Map<VecX<double>> q(x.data(), n), qd(x.data() + n, n);
    assemble(model_, loops_, *closed_, q);
    if (closed_configuration(model_, loops_, *closed_, q)) closed_rates(loops_, *closed_, qd);
    return;
  }
  if (!model_.floating()) return;
  Eigen::Map<Eigen::Vector4d> quaternion(x.data() + 3);
  quaternion /= quaternion.norm();
}

// Locked joints (stick-slip) keep qdd_i = 0: I qdd = phi - f with f_i = 0 on the free joints,
// i.e. the free rows of I solved for the free accelerations (rows and columns of the locked
// joints replaced by the identity), then f = phi - I qdd: the force that holds each locked joint.
// With a floating base (docs/floating-base.md) I is (6 + n) x (6 + n), the base's rates are never
// locked, and the forces of every rate are the joints' net forces and J^T w of a wrench. The
// locked I is factored as L^T D L with the parent array of the rates (kernels/tree_cholesky.hpp):
// locking only removes entries, so the pattern holds.
void ChainDynamics::solve_with_locks(const Eigen::Map<const VecX<double>>& q_all,
                                     const Eigen::Map<const VecX<double>>& v_all, bool external) {
  const int n = model_.dof();
  locked_phi_ = -bias_forces(model_, ws_, q_all, v_all);  // sized at the first call
  if (model_.floating() && external) {
    locked_phi_ += rate_forces_;
  } else {
    locked_phi_.tail(n) += tau_net_;
  }
  full_inertia_ = generalized_inertia(model_, ws_, q_all);
  locked_inertia_ = full_inertia_;
  qdd_ = locked_phi_;
  lock_rates(locked_inertia_, qdd_, model_.nv() - n);
  const int* parents = model_.floating() ? model_.rate_parents().data() : model_.parents().data();
  if (!tree_ltdl_in_place(locked_inertia_, parents)) {
    qdd_.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  tree_ltdl_solve(locked_inertia_, parents, qdd_);
  holding_ = locked_phi_.tail(n);
  holding_.noalias() -= full_inertia_.bottomRows(n) * qdd_;
}

// The rows and columns of the locked joints' rates (after `offset` rates of the base) replaced by
// the identity in I, and their entries of the right-hand side set to zero: qdd_i = 0.
void ChainDynamics::lock_rates(MatX<double>& I, VecX<double>& rhs, int offset) const {
  for (int i = 0; i < model_.dof(); ++i) {
    if (!locked_[static_cast<std::size_t>(i)]) continue;
    I.row(offset + i).setZero();
    I.col(offset + i).setZero();
    I(offset + i, offset + i) = 1;
    rhs[offset + i] = 0;
  }
}

// Where joint i's rate is in the state x = [q; v] (the base's seven and six first when floating).
std::size_t ChainDynamics::rate_index(int i) const {
  return static_cast<std::size_t>(model_.nq() + model_.nv() - model_.dof() + i);
}

bool ChainDynamics::transition_due(const State& x, double t) {
  const int n = model_.dof();
  evaluate(x, t);
  if (contact_ && contact_modes_ && contact_->transition_due()) return true;
  for (int i = 0; i < n && stick_slip(); ++i) {
    if (!has_coulomb(i)) continue;
    const Joint<double>& j = model_.joint(i);
    if (locked_[static_cast<std::size_t>(i)]) {
      if (holding_[i] > j.coulomb_pos || holding_[i] < j.coulomb_neg) return true;
    } else if (direction_[static_cast<std::size_t>(i)] * x[rate_index(i)] <= 0) {
      return true;
    }
  }
  return false;
}

long ChainDynamics::settle_modes(State& x, double t) {
  const int n = model_.dof();
  long changes = 0;
  if (contact_ && contact_modes_) {  // a contact's force is continuous where it changes mode
    evaluate(x, t);
    changes += contact_->set_modes();
  }
  if (!stick_slip()) return changes;
  // Slipping joints whose rate has reached zero (or was zero at the start) stop and lock.
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (!has_coulomb(i) || locked_[k]) continue;
    const double rate = x[rate_index(i)];
    if (direction_[k] == 0) {
      direction_[k] = rate > 0 ? 1 : rate < 0 ? -1 : 0;
      if (rate != 0) continue;
    } else if (direction_[k] * rate > 0) {
      continue;
    }
    x[rate_index(i)] = 0;
    locked_[k] = 1;
    direction_[k] = 0;
    ++changes;
  }
  // Locked joints whose holding force exceeds the static friction break away, one at a time
  // (the one most beyond its limit), since freeing one changes the others' holding forces.
  for (int round = 0; round <= n; ++round) {
    any_locked_ = std::any_of(locked_.begin(), locked_.end(), [](char c) { return c != 0; });
    if (!any_locked_) break;
    evaluate(x, t);
    int worst = -1;
    double excess = 0;
    for (int i = 0; i < n; ++i) {
      if (!locked_[static_cast<std::size_t>(i)]) continue;
      const Joint<double>& j = model_.joint(i);
      const double e = std::max(holding_[i] - j.coulomb_pos, j.coulomb_neg - holding_[i]);
      if (e > excess) {
        excess = e;
        worst = i;
      }
    }
    if (worst < 0) break;
    locked_[static_cast<std::size_t>(worst)] = 0;
    direction_[static_cast<std::size_t>(worst)] = holding_[worst] > 0 ? 1 : -1;
    ++changes;
  }
  any_locked_ = std::any_of(locked_.begin(), locked_.end(), [](char c) { return c != 0; });
  return changes;
}

// With a floating base (docs/floating-base.md), the base's coordinates move with its rates
// [v; w] (both in the base frame): d(origin)/dt = R v, and the quaternion
// (e, e_w) = (qx qy qz, qw) as q (x) (0, w) / 2: de/dt = (e_w w + e x w) / 2, de_w/dt = -e . w / 2.
void base_coordinate_rates(const double* q, const double* v, double* dq) {
  const Eigen::Vector3d e(q[3], q[4], q[5]), lin(v[0], v[1], v[2]), w(v[3], v[4], v[5]);
  const double e_w = q[6];
  Eigen::Map<Eigen::Vector3d> origin_rate(dq), vector_part_rate(dq + 3);
  origin_rate = quaternion_rotation(e.x(), e.y(), e.z(), e_w) * lin;
  vector_part_rate = (e_w * w + cross(e, w)) / 2;
  dq[6] = -e.dot(w) / 2;
}

void ChainDynamics::operator()(const State& x, State& dxdt, double t) {
  ++evaluations_;
  evaluate(x, t);
  const std::size_t n = static_cast<std::size_t>(model_.dof());
  const std::size_t nq = static_cast<std::size_t>(model_.nq()),
                    nv = static_cast<std::size_t>(model_.nv());
  std::copy(x.begin() + static_cast<long>(nq + nv - n), x.begin() + static_cast<long>(nq + nv),
            dxdt.begin() + static_cast<long>(nq - n));  // d(q_joints)/dt = qd
  if (model_.floating()) base_coordinate_rates(x.data(), x.data() + nq, dxdt.data());
  Eigen::Map<VecX<double>>(dxdt.data() + nq, static_cast<Eigen::Index>(nv)) = qdd_;
  if (x.size() == nq + nv + 2) {  // work and dissipated energy
    dxdt[nq + nv] = power_in_;
    dxdt[nq + nv + 1] = power_friction_;
  }
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

// The smallest step that is allowed: the user's floor, and at least one that still moves t.
double step_floor(double t, const IntegratorSettings& settings) {
  const double moves_t = 8 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t));
  return std::max(settings.min_step, moves_t);
}

[[noreturn]] void step_underflow(double t, double step, const IntegratorSettings& settings) {
  throw RunError("at t = " + shortest(t) + ": step size underflow: the step fell to " +
                 shortest(step) + " s, below the floor of " + shortest(step_floor(t, settings)) +
                 " s, without meeting " + mention(Parameter::rtol, shortest(settings.rtol)) +
                 " and " + mention(Parameter::atol, shortest(settings.atol)));
}

void check_finite(const State& x, double t, const Model<double>& model) {
  const auto bad = std::find_if(x.begin(), x.end(), [](double v) { return !std::isfinite(v); });
  if (bad == x.end()) return;
  const long n = model.dof(), nq = model.nq(), nv = model.nv();
  const long i = std::min(bad - x.begin(), nq + nv - 1);  // work, dissipated follow qd
  const bool rate = i >= nq;
  const long k = rate ? i - nq : i, base = rate ? nv - n : nq - n;  // the base's come first
  const std::string name = k < base ? base_column_names(rate ? "qd" : "q")[std::size_t(k)]
                                    : (rate ? "qd" : "q") + std::to_string(k - base + 1);
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
      system.project(x);
      ++stats.steps;
      check_finite(x, t_next, system.model());
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
      system.project(x);
      if (last) t = stop;  // exactly, not start + (stop - start)
      h = last ? std::max(h, trial) : trial;
      check_finite(x, t, system.model());
      system.forces().release_before(t);
      system(x, dxdt, t);
    }
    observe(target, x);
  }
}

// The first time in (t, t_new] past a stick-slip transition, to 1e-12 s, by bisection on the
// step's dense output; the state there is left in x_out.
template <typename DenseStepper>
double locate_transition(ChainDynamics& system, DenseStepper& stepper, const State& x,
                         const State& dxdt, double t, const State& x_new, const State& dxdt_new,
                         double t_new, State& x_out) {
  double lo = t, hi = t_new;
  for (int iteration = 0; iteration < 100 && hi - lo > 1e-12; ++iteration) {
    const double mid = lo + (hi - lo) / 2;
    stepper.calc_state(mid, x_out, x, dxdt, t, x_new, dxdt_new, t_new);
    if (system.transition_due(x_out, mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  stepper.calc_state(hi, x_out, x, dxdt, t, x_new, dxdt_new, t_new);
  return hi;
}

// Dormand-Prince 5(4) with step-size control, free-running except that steps end on the kinks
// of the joint forces; the states at the output times in between come from its dense output
// (the continuous extension of the last step).
//
// With `events`, the stick-slip transitions of Coulomb friction (CoulombModel::stick_slip) and
// the contacts' touch-down and lift-off are events: between transitions every joint is either
// locked or slips in a known direction and every contact presses or not, so the right-hand side
// is smooth. After each accepted step the end state is tested
// (ChainDynamics::transition_due); if a transition lies inside the step, bisection on the step's
// dense output locates it to 1e-12 s, the rows before it are written, the modes change there
// (ChainDynamics::settle_modes) and the integration restarts from it.
void integrate_dense(ChainDynamics& system, State& x, const OutputTimes& times,
                     const IntegratorSettings& settings, const Observer& observe,
                     IntegrationStats& stats, bool events) {
  auto controlled =
      odeint::make_controlled(settings.atol, settings.rtol, odeint::runge_kutta_dopri5<State>());
  State dxdt(x.size()), x_new(x.size()), dxdt_new(x.size()), x_out(x.size());
  const double t_end = times[times.size() - 1];
  double t = times[0], h = first_trial_step(times, settings);
  if (events) {
    stats.events = 0;
    system.settle_modes(x, t);
  }
  system(x, dxdt, t);
  observe(t, x);
  long k = 1, stalled = 0;
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
    system.project(x_new);
    if (last) t_new = stop;
    check_finite(x_new, t_new, system.model());
    if (events && system.transition_due(x_new, t_new)) {
      const double hi = locate_transition(system, controlled.stepper(), x, dxdt, t, x_new, dxdt_new,
                                          t_new, x_out);
      State x_event = x_out;
      system.project(x_event);
      for (; k < times.size() && times[k] < hi; ++k) {
        controlled.stepper().calc_state(times[k], x_out, x, dxdt, t, x_new, dxdt_new, t_new);
        system.project(x_out);
        observe(times[k], x_out);
      }
      stats.events += system.settle_modes(x_event, hi);
      // Transitions piling up within a nanosecond of each other mean modes that chatter.
      stalled = hi - t > 1e-9 ? 0 : stalled + 1;
      if (stalled > 1000) {
        throw RunError("at t = " + shortest(hi) +
                       ": transitions without progress (stick-slip or contact modes chatter)");
      }
      x = x_event;
      t = hi;
      h = std::max(trial / 2, step_floor(t, settings) * 16);
      system(x, dxdt, t);
      system.forces().release_before(t);
      if (k < times.size() && times[k] == t) observe(times[k++], x);
      continue;
    }
    for (; k < times.size() && times[k] <= t_new; ++k) {
      if (times[k] == t_new) {
        x_out = x_new;
      } else {
        controlled.stepper().calc_state(times[k], x_out, x, dxdt, t, x_new, dxdt_new, t_new);
        system.project(x_out);
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

  check_finite(x, times[0], system.model());
  const bool stick_slip = system.friction_settings().coulomb == CoulombModel::stick_slip;
  // Touch-down and lift-off are located on dopri5's dense output; the other methods take the
  // contacts' forces as they come, kinks and all.
  const bool contact_events = system.ground_contact() && settings.method == Method::dopri5;
  system.use_contact_modes(contact_events);
  if (stick_slip || contact_events) {  // on dopri5's dense output (rfdsim checks the method)
    integrate_dense(system, x, times, settings, observe, stats, true);
    return;
  }
  switch (settings.method) {
    case Method::dopri5:
      integrate_dense(system, x, times, settings, observe, stats, false);
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

Eigen::Index output_row_size(const Model<double>& model, bool contact) {
  return model.nq() + 2 * model.nv() + model.dof() + (contact ? 5 : 4);
}

Eigen::Index output_row_size(const ChainDynamics& system) {
  const Model<double>& model = system.model();
  const Eigen::Index forces =
      system.has_loops() ? static_cast<Eigen::Index>(system.loops().actuated.size()) : model.dof();
  return model.nq() + 2 * model.nv() + forces + (system.ground_contact() ? 5 : 4) +
         (system.has_loops() ? 1 : 0);
}

void output_row(ChainDynamics& system, double t, const State& x, Eigen::Ref<VecX<double>> row) {
  const Model<double>& model = system.model();
  const int nq = model.nq(), nv = model.nv(), end = nq + 2 * nv + model.dof();
  const Eigen::Map<const VecX<double>> q(x.data(), nq), qd(x.data() + nq, nv);
  system.evaluate(x, t);
  row.head(nq + 2 * nv) << q, qd, system.qdd();
  Eigen::Index k = nq + 2 * nv;
  if (system.has_loops()) {  // the actuated joints' forces
    for (int i : system.loops().actuated)
      row[k++] = system.tau()[i];
  } else {
    row.segment(k, model.dof()) = system.tau();
    k = end;
  }
  Workspace<double>& ws = system.ws();
  row[k++] = kinetic_energy(model, ws, q, qd);
  row[k++] = potential_energy(model, ws, q);
  if (system.ground_contact()) row[k++] = system.ground_contact()->stored_energy();
  row[k++] = x[static_cast<std::size_t>(nq + nv)];      // work
  row[k++] = x[static_cast<std::size_t>(nq + nv + 1)];  // dissipated
  if (system.has_loops()) row[k++] = system.closure(x);
}

const std::vector<std::pair<std::string, Method>>& method_names() {
  static const std::vector<std::pair<std::string, Method>> names = {
      {"dopri5", Method::dopri5},
      {"cash-karp54", Method::cash_karp54},
      {"fehlberg78", Method::fehlberg78},
      {"rk4", Method::rk4}};
  return names;
}

const std::vector<std::pair<std::string, CoulombModel>>& coulomb_model_names() {
  static const std::vector<std::pair<std::string, CoulombModel>> names = {
      {"regularised", CoulombModel::regularised}, {"stick-slip", CoulombModel::stick_slip}};
  return names;
}

}  // namespace denoc
