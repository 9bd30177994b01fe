#include "denoc/engine/quantities.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "denoc/engine/dynamics.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/frames.hpp"

namespace denoc {

std::vector<Route> algorithms_for(Quantity quantity) {
  if (quantity == Quantity::inverse_mass_matrix) {
    // udu first: the fastest of the three on the Stanford arm (docs/performance.md).
    return inverse_inertia_routes();
  }
  if (quantity == Quantity::pose || quantity == Quantity::jacobian ||
      quantity == Quantity::reactions || of_motion(quantity) || needs_loops(quantity)) {
    return {Route::denoc};  // from the DeNOC joint frames and backward recursion
  }
  if (quantity == Quantity::coriolis) return {Route::denoc};  // Saha (1999) Eqs. (25)-(29)
  if (quantity == Quantity::udu) return {Route::udu};         // the factors that route solves with
  // One recursion for the derivatives (docs/derivatives.md); M^-1 for the forward dynamics' from
  // the U D U^T factors.
  if (quantity == Quantity::torque_derivatives) return {Route::denoc};
  if (quantity == Quantity::acceleration_derivatives) return {Route::udu};
  return inverse_dynamics_routes();
}

namespace {

// The routes that carry no floating base (docs/floating-base.md): InputError naming them.
void check_floating_base(Route chosen) {
  if (chosen == Route::gibbs_appell || chosen == Route::fixman)
    throw InputError(mention(Parameter::algorithm, route_name(chosen)) +
                     ": the route carries no floating base (its recursions start from a fixed "
                     "one); the robot's base is floating (docs/floating-base.md)");
}

void check_fixman(Route chosen, const RobotFile& robot) {
  if (chosen == Route::fixman && !fixman_supports(robot.model))
    throw InputError(robot.path + ": " + mention(Parameter::algorithm, "fixman") + ": " +
                     fixman_unsupported_reason(robot.model) + "; " +
                     mention(Parameter::algorithm, "udu") + " and " +
                     mention(Parameter::algorithm, "cholesky") + " take this robot");
}

}  // namespace

Route choose_route(Quantity quantity, std::optional<Route> chosen_route, const RobotFile& robot) {
  const std::vector<Route> allowed = algorithms_for(quantity);
  const Route chosen = chosen_route.value_or(allowed.front());
  if (std::find(allowed.begin(), allowed.end(), chosen) == allowed.end()) {
    std::string names;
    for (Route a : allowed)
      names += (names.empty() ? "" : ", ") + route_name(a);
    throw InputError(mention(Parameter::algorithm, route_name(chosen)) + " does not compute " +
                     mention(Parameter::quantity, quantity_name(quantity)) +
                     "; the routes for it are " + names);
  }
  if (robot.model.floating()) check_floating_base(chosen);
  check_fixman(chosen, robot);
  return chosen;
}

void check_forward_route(Route route, const RobotFile& robot) {
  if (robot.model.floating()) check_floating_base(route);
  check_fixman(route, robot);
}

std::optional<BodyFrame<double>> choose_frame(Quantity quantity, const std::string& name,
                                              bool wrench, const RobotFile& robot) {
  const bool pose = takes_frame(quantity);
  return frame_or_tool(
      robot, name, pose || wrench,
      pose ? mention(Parameter::quantity, quantity_name(quantity)) : mention(Parameter::wrench));
}

SampleQuantities::SampleQuantities(const RobotFile& robot, Quantity quantity, Route route,
                                   const QuantitySettings& settings)
    : rows_(std::make_shared<const Model<double>>(robot.model), quantity, route,
            settings.frame.value_or(robot.model.tool_frame()),
            settings.friction && robot.model.has_friction()),
      model_(rows_.model()),
      quantity_(quantity),
      friction_(settings.friction && robot.model.has_friction()),
      wrench_in_tool_frame_(settings.wrench_in_tool_frame),
      size_(quantity_row_size(quantity, robot.model.dof(), robot.model.floating())),
      friction_forces_(VecX<double>::Zero(robot.dof())),
      check_positive_definite_(robot, model_,
                               quantity == Quantity::inverse_mass_matrix ||
                                   quantity == Quantity::udu ||
                                   quantity == Quantity::acceleration_derivatives) {
  if (LaneDynamics::supports(quantity, route, robot.model))
    lanes_ = std::make_unique<LaneDynamics>(robot.model);
}

void SampleQuantities::evaluate_samples(int count, const LanePointers& samples) {
  const Eigen::Index nq = model_.nq(), nv = model_.nv();
  if (!lanes_) {
    for (int k = 0; k < count; ++k) {
      evaluate(Eigen::Map<const VecX<double>>(samples.q[k], nq),
               Eigen::Map<const VecX<double>>(samples.qd[k], nv),
               Eigen::Map<const VecX<double>>(samples.qdd[k], nv),
               Eigen::Map<VecX<double>>(samples.out[k], size_));
    }
    return;
  }
  for (int k = 0; k < count; ++k)
    check_positive_definite_.check(Eigen::Map<const VecX<double>>(samples.q[k], nq));
  lanes_->evaluate(quantity_, friction_, count, samples);
}

void SampleQuantities::evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                ConstVectorRef<double> qdd, Eigen::Ref<VecX<double>> row,
                                const Vec6<double>* wrench) {
  if (lanes_ && !wrench) {  // as one sample of a batch, so that both give the same numbers
    evaluate_samples(
        1, lane_pointers(0, 1, {q.data(), 0}, {qd.data(), 0}, {qdd.data(), 0}, {row.data(), 0}));
    return;
  }
  const FrameWrench<double> applied{rows_.frame(), wrench ? *wrench : Vec6<double>::Zero(),
                                    wrench_in_tool_frame_};
  evaluate(q, qd, qdd, row, &applied, wrench ? 1 : 0);
}

// With a floating base q has 7 + n entries, qd and qdd 6 + n (docs/floating-base.md). The row
// is quantity_rows.hpp's, with the drives' friction G^2 B qd + |G| Tc(qd) (docs/robot-file.md)
// on the joints' forces of torques and bias, unless switched off.
void SampleQuantities::evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                ConstVectorRef<double> qdd, Eigen::Ref<VecX<double>> row,
                                const FrameWrench<double>* wrenches, int count) {
  check_positive_definite_.check(q);
  rows_(q, qd, qdd, row, wrenches, count);
  if ((quantity_ == Quantity::inverse_mass_matrix ||
       quantity_ == Quantity::acceleration_derivatives) &&
      !row.allFinite())
    throw RunError("the inertia matrix is not positive definite, so it has no inverse");
  if (friction_ && (quantity_ == Quantity::torques || quantity_ == Quantity::bias)) {
    friction_forces(model_, qd.tail(model_.dof()), friction_forces_);
    row.tail(model_.dof()) += friction_forces_;
  }
}

ForwardDynamics::ForwardDynamics(const RobotFile& robot, Route route, bool friction)
    : dynamics_(robot.model),
      model_(dynamics_.model()),
      route_(route),
      friction_(friction && robot.model.has_friction()),
      friction_forces_(VecX<double>::Zero(robot.dof())),
      generalized_(VecX<double>::Zero(robot.model.nv())),
      check_positive_definite_(robot, model_, true) {
  check_forward_route(route, robot);
  if (LaneDynamics::supports_forward(route, robot.model)) {
    lanes_ = std::make_unique<LaneDynamics>(robot.model);
    qdd_.resize(robot.dof());
  }
}

void ForwardDynamics::evaluate_samples(int count, const LanePointers& samples,
                                       Eigen::Index tau_size) {
  if (lanes_ && tau_size == model_.dof()) {
    lanes_->forward(friction_, count, samples);
    for (int k = 0; k < count && check_positive_definite_.on(); ++k) {
      lanes_->pivots(k, pivots_);
      check_positive_definite_.check_pivots(pivots_);
    }
    return;
  }
  const Eigen::Index nq = model_.nq(), nv = model_.nv();
  for (int k = 0; k < count; ++k) {
    Eigen::Map<VecX<double>>(samples.out[k], nv) =
        (*this)(Eigen::Map<const VecX<double>>(samples.q[k], nq),
                Eigen::Map<const VecX<double>>(samples.qd[k], nv),
                Eigen::Map<const VecX<double>>(samples.qdd[k], tau_size));
  }
}

const VecX<double>& ForwardDynamics::operator()(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                                ConstVectorRef<double> tau) {
  const Eigen::Index n = model_.dof(), nv = model_.nv();
  if (q.size() != model_.nq() || qd.size() != nv || (tau.size() != n && tau.size() != nv)) {
    throw InputError("forward dynamics: q, qd and tau have " + std::to_string(q.size()) + ", " +
                     std::to_string(qd.size()) + " and " + std::to_string(tau.size()) +
                     " entries; the robot takes " + std::to_string(model_.nq()) + ", " +
                     std::to_string(nv) + " and " +
                     (n == nv ? std::to_string(n)
                              : std::to_string(n) + " (the joints' forces) or " +
                                    std::to_string(nv) + " (the base's wrench first)"));
  }
  if (lanes_) {  // as one sample of a batch, so that both give the same numbers
    evaluate_samples(
        1, lane_pointers(0, 1, {q.data(), 0}, {qd.data(), 0}, {tau.data(), 0}, {qdd_.data(), 0}),
        n);
    return qdd_;
  }
  // Under inertia_checks: warn, M must be positive definite: the O(n) route's own pivots say so;
  // the other routes' factors are not read, and a factorisation of the check's own does.
  if (route_ != Route::udu) check_positive_definite_.check(q);
  // n forces with a floating base: the base unactuated, its six generalized forces zero.
  const bool joints_only = tau.size() != nv;
  if (joints_only) generalized_.tail(n) = tau;
  const ConstVectorRef<double> forces = joints_only ? ConstVectorRef<double>(generalized_) : tau;
  if (friction_) {
    net_ = forces;  // sized at the first call
    friction_forces(model_, qd.tail(n), friction_forces_);
    net_.tail(n) -= friction_forces_;
  }
  const VecX<double>& qdd =
      forward_dynamics(route_, dynamics_, q, qd, friction_ ? ConstVectorRef<double>(net_) : forces);
  if (route_ == Route::udu) check_positive_definite_.check_factors(dynamics_.denoc());
  return qdd;
}

}  // namespace denoc
