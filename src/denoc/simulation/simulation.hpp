// Simulation (RFDSIM, Saha 1999 Section 5.2): the equations of motion as a first-order system
// x = [q; qd], dx/dt = [qd; qdd(q, qd, tau(t))], integrated by Boost.Odeint's Runge-Kutta
// methods, with the state reported at exact output times whatever steps the integrator takes.
#pragma once

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "denoc/engine/dynamics.hpp"
#include "denoc/loops/closed_dynamics.hpp"
#include "denoc/model/model.hpp"
#include "denoc/model/spatial.hpp"
#include "denoc/simulation/ground_contact.hpp"

namespace denoc {

enum class Method {
  dopri5,       // Dormand-Prince 5(4), adaptive, dense output between steps
  cash_karp54,  // Cash-Karp 5(4), adaptive; steps end on the output times
  fehlberg78,   // Runge-Kutta-Fehlberg 7(8), adaptive; steps end on the output times
  rk4           // classical fourth order, fixed step
};

// The names of the methods and of the Coulomb models (rfdsim --method, --coulomb; the Python
// module's method= and coulomb=).
const std::vector<std::pair<std::string, Method>>& method_names();

// The joint forces tau(t) that drive the chain.
class JointForces {
 public:
  virtual ~JointForces() = default;
  // tau at time t (t >= the last time passed to release_before).
  virtual void at(double t, Eigen::Ref<VecX<double>> tau) = 0;
  // tau at time t and state (q, v) (the base's coordinates and rates first with a floating base):
  // a controller's feedback. The inputs given in advance ignore the state.
  virtual void at_state(double t, ConstVectorRef<double> /*q*/, ConstVectorRef<double> /*v*/,
                        Eigen::Ref<VecX<double>> tau) {
    at(t, tau);
  }
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

// The forces of the actuated joints of a robot with loops (docs/loops.md), one per actuated joint
// from `source`, as the n joint forces: zero on the passive joints.
class ActuatedForces : public JointForces {
 public:
  ActuatedForces(JointForces& source, std::vector<int> actuated)
      : source_(source),
        actuated_(std::move(actuated)),
        values_(VecX<double>::Zero(static_cast<Eigen::Index>(actuated_.size()))) {}
  void at(double t, Eigen::Ref<VecX<double>> tau) override {
    source_.at(t, values_);
    tau.setZero();
    for (std::size_t k = 0; k < actuated_.size(); ++k)
      tau[actuated_[k]] = values_[static_cast<Eigen::Index>(k)];
  }
  void release_before(double t) override { source_.release_before(t); }
  double next_kink(double t) override { return source_.next_kink(t); }

 private:
  JointForces& source_;
  std::vector<int> actuated_;
  VecX<double> values_;
};

// The joint forces and the external wrenches (ChainDynamics::add_wrench) as the integrator sees
// its input: tau's values, and the kinks and releases of all of them, since each is only piecewise
// smooth and adaptive steps must end on every sample.
class InputsWithWrenches : public JointForces {
 public:
  InputsWithWrenches(JointForces& tau, std::vector<JointForces*> wrenches)
      : tau_(tau), wrenches_(std::move(wrenches)) {}
  void at(double t, Eigen::Ref<VecX<double>> tau) override { tau_.at(t, tau); }
  void at_state(double t, ConstVectorRef<double> q, ConstVectorRef<double> v,
                Eigen::Ref<VecX<double>> tau) override {
    tau_.at_state(t, q, v, tau);
  }
  void release_before(double t) override {
    tau_.release_before(t);
    for (JointForces* w : wrenches_)
      w->release_before(t);
  }
  double next_kink(double t) override {
    double kink = tau_.next_kink(t);
    for (JointForces* w : wrenches_)
      kink = std::min(kink, w->next_kink(t));
    return kink;
  }

 private:
  JointForces& tau_;
  std::vector<JointForces*> wrenches_;
};

// [q; qd] (with a floating base its 7 + n coordinates and 6 + n rates, docs/floating-base.md),
// optionally followed by [work, dissipated].
using State = std::vector<double>;

// How Coulomb friction of the drives (docs/robot-file.md) is simulated (rfdsim --coulomb).
enum class CoulombModel {
  // Tc(qd) tanh(|qd| / v_s): smooth, so every integrator takes it; the friction falls short of
  // Tc by the factor tanh(|qd| / v_s) (under 0.1% above 3.8 v_s), and a joint that should stick
  // creeps at the rate where tanh(|qd| / v_s) = |load| / Tc, v_s atanh(|load| / Tc).
  regularised,
  // Exact: a joint whose rate reaches zero is locked while the force that holds it stays within
  // [Tc-, Tc+], and slips with friction Tc(direction) otherwise; the transitions are located as
  // events (to 1e-12 s) and the integration restarts at each (dopri5 only).
  stick_slip
};

const std::vector<std::pair<std::string, CoulombModel>>& coulomb_model_names();

struct FrictionSettings {
  CoulombModel coulomb = CoulombModel::regularised;
  double velocity_scale = 1e-3;  // v_s of the regularised model, rad/s or m/s
};

// The right-hand side dx/dt = f(x, t), with its own workspaces and a count of its evaluations.
// `route` is one of forward_dynamics_routes().
class ChainDynamics {
 public:
  ChainDynamics(const Model<double>& model, Route route, JointForces& forces);

  void operator()(const State& x, State& dxdt, double t);

  // qdd and tau at (x, t) (qdd(), tau()), without counting an evaluation.
  void evaluate(const State& x, double t);

  // With a floating base, the quaternion of x scaled back to unit norm: the integrators call it
  // after every accepted step and on every interpolated output state (docs/floating-base.md:
  // the step's error is estimated before, and the correction is no larger than the error the
  // step made in the norm, which the exact motion keeps at 1). Nothing otherwise.
  void project(State& x);

  const Model<double>& model() const { return model_; }
  Workspace<double>& ws() { return dynamics_.denoc(); }
  const VecX<double>& tau() const { return tau_; }
  const VecX<double>& qdd() const { return qdd_; }
  JointForces& forces() { return forces_; }
  long evaluations() const { return evaluations_; }

  // docs/robot-file.md and docs/csv.md: the drives' friction (viscous always, Coulomb as `friction`
  // says) and external wrenches, each on its frame (`source` gives t,fx..nz, in the base frame,
  // the world frame with a floating base, or in the frame's own axes; its at_state a
  // controller's), act besides tau; several add. The sources' kinks and releases reach the
  // integrator through forces(): give the system an InputsWithWrenches. With a state of 2n + 2
  // entries the last two integrate the power put in (tau . qd and the wrenches') and the power
  // friction takes out: the `work` and `dissipated` columns.
  void set_friction(const FrictionSettings& friction) { friction_settings_ = friction; }
  void add_wrench(JointForces& source, const BodyFrame<double>& frame, bool in_frame_axes) {
    wrench_sources_.push_back(&source);
    wrenches_.push_back({frame, Vec6<double>::Zero(), in_frame_axes});
    wrench_forces_.setZero(model_.nv());
  }
  // Ground contact at the origins of `points` (ground_contact.hpp): their forces act besides tau,
  // the springs' energy is the `contact` column and their losses are dissipated. The integrator
  // locates touch-down and lift-off as events on dopri5 (use_contact_modes).
  void set_ground_contact(const std::vector<BodyFrame<double>>& points,
                          const GroundSettings& ground) {
    contact_ = std::make_unique<GroundContact>(model_, points, ground);
  }
  const GroundContact* ground_contact() const { return contact_.get(); }
  // Closed loops (docs/loops.md): the motion keeps them closed. tau acts on the actuated joints
  // only (the forces give n entries, zero on the passive joints); the accelerations are those of
  // Eq. (L10), and project() puts each accepted state back on the loops: q assembled with the
  // actuated joints held, qd = G qd_a (coordinate partitioning; the integrator's error control
  // sees the actuated joints' motion, which determines the rest).
  void set_loops(const Loops<double>& loops) {
    loops_ = loops;
    closed_ = std::make_unique<ClosedLoopWorkspace<double>>(model_, loops_);
  }
  bool has_loops() const { return closed_ != nullptr; }
  const Loops<double>& loops() const { return loops_; }
  // The closure error of the state x (m or rad): the largest entry of Eq. (L1).
  double closure(const State& x);
  // Whether the contacts push as their modes say (events located) or as they press at each
  // evaluation; the integrator sets it.
  void use_contact_modes(bool modes) { contact_modes_ = modes; }
  const FrictionSettings& friction_settings() const { return friction_settings_; }
  double power_in() const { return power_in_; }                // at the last evaluate
  double power_dissipated() const { return power_friction_; }  // at the last evaluate
  const VecX<double>& friction() const { return friction_; }   // the friction forces

  // The modes of the events (CoulombModel::stick_slip, and the contacts' with their modes): which
  // joints are locked, the direction in which each slipping joint moves, the force that holds a
  // locked joint, and which contacts press.
  bool has_coulomb(int i) const;
  bool locked(int i) const { return locked_[static_cast<std::size_t>(i)] != 0; }
  const VecX<double>& holding_force() const { return holding_; }
  // Modes consistent with x at t: joints at rest locked unless the holding force exceeds the
  // static friction, contacts pressing where they press. Returns the number of modes changed;
  // may set qd_i = 0 in x.
  long settle_modes(State& x, double t);
  // True if x at t lies beyond a transition: a slipping joint's rate has reached zero or
  // reversed, a locked joint's holding force has left [Tc-, Tc+], a contact touched down or
  // lifted off.
  bool transition_due(const State& x, double t);

 private:
  void add_external_forces(double t, const Eigen::Map<const VecX<double>>& q_all,
                           const Eigen::Map<const VecX<double>>& v_all);
  bool stick_slip() const { return friction_settings_.coulomb == CoulombModel::stick_slip; }
  void solve_with_locks(const Eigen::Map<const VecX<double>>& q_all,
                        const Eigen::Map<const VecX<double>>& v_all, bool external);
  void lock_rates(MatX<double>& I, VecX<double>& rhs, int offset) const;
  std::size_t rate_index(int i) const;

  Dynamics<double> dynamics_;   // owns the model, so that the caller's may go
  const Model<double>& model_;  // dynamics_.model()
  Route route_;
  JointForces& forces_;
  Workspace<double>& ws_;  // dynamics_.denoc(): the joint frames, the tool and the locked solve's I
  VecX<double> tau_;
  VecX<double> qdd_;  // the chosen route's result, copied out of its workspace storage
  long evaluations_ = 0;
  FrictionSettings friction_settings_;
  std::vector<JointForces*> wrench_sources_;
  std::vector<FrameWrench<double>> wrenches_;  // each source's frame, its value at the state
  std::unique_ptr<GroundContact> contact_;
  Loops<double> loops_;
  std::unique_ptr<ClosedLoopWorkspace<double>> closed_;
  bool contact_modes_ = false;
  VecX<double> tau_net_, friction_, wrench_samples_, holding_;
  VecX<double> rate_forces_;     // with a floating base and wrenches: the forces of all 6 + n rates
  VecX<double> locked_phi_;      // with a floating base and locked joints: forces less the bias
  VecX<double> wrench_forces_;   // the wrenches' J^T w, on every rate
  MatX<double> full_inertia_;    // I with no joint locked; sized by the first locked solve
  MatX<double> locked_inertia_;  // I with the locks, then its L^T D L factor in place
  std::vector<char> locked_;
  std::vector<int> direction_;
  bool any_locked_ = false;
  double power_in_ = 0, power_friction_ = 0;
};

// The entries of an output row after t (docs/csv.md): q, qd, qdd, tau, kinetic, potential, work,
// dissipated (nq + 2 nv + n + 4), with ground contact `contact` after potential; with loops
// (docs/loops.md) tau of the actuated joints only, and `closure` last.
Eigen::Index output_row_size(const Model<double>& model, bool contact = false);
Eigen::Index output_row_size(const ChainDynamics& system);

// That row at the output time t of the state x ([q; qd; work; dissipated]): the system evaluated
// there (not counted as an integrator's evaluation), the energies from its workspace.
void output_row(ChainDynamics& system, double t, const State& x, Eigen::Ref<VecX<double>> row);

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
  long events = -1;  // stick-slip, touch-down and lift-off transitions located (-1: none sought)
  double wall_seconds = 0;
};

// The output times 0, dt, 2 dt, ..., t_end, computed rather than stored (a long run has many).
// t_k is the decimal product k dt rounded once (for dt = 0.1, t_3 prints as 0.3, not
// 0.30000000000000004); the last time is t_end itself, whether or not dt divides it.
class OutputTimes {
 public:
  OutputTimes(double t_end, double dt);  // t_end >= 0, dt > 0, count(t_end, dt) <= 1e15
  long size() const { return size_; }
  // How many times there are, as a double so that any t_end / dt can be asked (docs/errors.md
  // bounds it before anything runs): 0, dt, ... up to t_end, and t_end itself when dt does not
  // divide it, so t_end < dt gives the two rows 0 and t_end.
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
