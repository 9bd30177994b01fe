// Simulation (RFDSIM, Saha 1999 Section 5.2): the equations of motion as a first-order system
// x = [q; qd], dx/dt = [qd; qdd(q, qd, tau(t))], integrated by Boost.Odeint's Runge-Kutta
// methods, with the state reported at exact output times whatever steps the integrator takes.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "denoc/model/model.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

enum class FdAlgorithm {
  udu,      // O(n), through I = U D U^T (forward_dynamics)
  cholesky  // O(n^3), forming I and factoring it (forward_dynamics_cholesky)
};

enum class Method {
  dopri5,       // Dormand-Prince 5(4), adaptive, dense output between steps
  cash_karp54,  // Cash-Karp 5(4), adaptive; steps end on the output times
  fehlberg78,   // Runge-Kutta-Fehlberg 7(8), adaptive; steps end on the output times
  rk4           // classical fourth order, fixed step
};

// The joint forces tau(t) that drive the chain.
class JointForces {
 public:
  virtual ~JointForces() = default;
  // tau at time t (t >= the last time passed to release_before).
  virtual void at(double t, Eigen::Ref<VecX<double>> tau) = 0;
  // The integrator will not ask for times before t again; streamed inputs may drop samples.
  virtual void release_before(double /*t*/) {}
  // The first time after t where tau(t) has a kink (a sample of a piecewise-linear input);
  // adaptive steps end there rather than straddle it. Infinity when tau is smooth.
  virtual double next_kink(double /*t*/) { return std::numeric_limits<double>::infinity(); }
};

// tau = 0: motion under gravity alone.
class ZeroForces : public JointForces {
 public:
  void at(double, Eigen::Ref<VecX<double>> tau) override { tau.setZero(); }
};

using State = std::vector<double>;  // [q1..qn, qd1..qdn]

// The right-hand side dx/dt = f(x, t), with its own workspace and a count of its evaluations.
class ChainDynamics {
 public:
  ChainDynamics(const Model<double>& model, FdAlgorithm algorithm, JointForces& forces);

  void operator()(const State& x, State& dxdt, double t);

  // qdd and tau at (x, t) into the workspace (ws().qdd, tau()), without counting an evaluation.
  void evaluate(const State& x, double t);

  const Model<double>& model() const { return model_; }
  Workspace<double>& ws() { return ws_; }
  const VecX<double>& tau() const { return tau_; }
  JointForces& forces() { return forces_; }
  long evaluations() const { return evaluations_; }

 private:
  const Model<double>& model_;
  FdAlgorithm algorithm_;
  JointForces& forces_;
  Workspace<double> ws_;
  VecX<double> tau_;
  long evaluations_ = 0;
};

struct IntegratorSettings {
  Method method = Method::dopri5;
  double rtol = 1e-9;
  double atol = 1e-9;
  double step = 0;      // rk4: the fixed step (0: one step per output interval);
                        // adaptive methods: the first trial step (0: output interval / 100)
  double min_step = 0;  // adaptive methods fail when the step falls below this
                        // (0: only when the step no longer changes t)
};

struct IntegrationStats {
  long steps = 0;            // accepted steps
  long rejected = 0;         // rejected trial steps (adaptive methods)
  long rhs_evaluations = 0;  // evaluations of dx/dt by the integrator
  double wall_seconds = 0;
};

// The output times 0, dt, 2 dt, ..., t_end, computed rather than stored (a long run has many).
// t_k is the decimal product k dt rounded once (for dt = 0.1, t_3 prints as 0.3, not
// 0.30000000000000004); the last time is t_end itself, whether or not dt divides it.
class OutputTimes {
 public:
  OutputTimes(double t_end, double dt);  // t_end >= 0, dt > 0, count(t_end, dt) <= 1e15
  long size() const { return size_; }
  // How many times there are, as a double so that any t_end / dt can be asked (spec §11 bounds
  // it before anything runs): 0, dt, ... up to t_end, and t_end itself when dt does not divide
  // it, so t_end < dt gives the two rows 0 and t_end.
  static double count(double t_end, double dt);
  double operator[](long k) const;

 private:
  double t_end_;
  double numerator_ = 0, denominator_ = 1;  // dt = numerator / denominator, both exact
  long size_ = 1;
};

// Integrates x from t = 0 to the last output time, calling observe(t, x) at each of them.
// Throws RunError, after observing every time reached, if the step size underflows or the
// state stops being finite; `stats` holds the counts up to then.
void integrate(ChainDynamics& system, State x, const OutputTimes& times,
               const IntegratorSettings& settings,
               const std::function<void(double, const State&)>& observe, IntegrationStats& stats);

}  // namespace denoc
