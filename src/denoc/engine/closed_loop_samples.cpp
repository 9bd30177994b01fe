#include "denoc/engine/closed_loop_samples.hpp"

#include <algorithm>

#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"

namespace denoc {

namespace {

std::vector<std::string> loop_columns(Quantity quantity, const RobotFile& robot) {
  const int n = robot.dof();
  std::vector<std::string> names;
  switch (quantity) {
    case Quantity::torques:
      return actuated_columns(robot.loops, {"tau"});
    case Quantity::joint_states:
      for (const char* prefix : {"q", "qd", "qdd"}) {
        for (int i = 1; i <= n; ++i)
          names.push_back(prefix + std::to_string(i));
      }
      return names;
    case Quantity::constraint_forces:
      for (const CutJoint<double>& cut : robot.loops.cuts) {
        for (const char* part : {"_fx", "_fy", "_fz", "_nx", "_ny", "_nz"})
          names.push_back(cut.name + part);
      }
      return names;
    default:
      return quantity_columns(quantity, n, false);
  }
}

}  // namespace

ClosedLoopSamples::ClosedLoopSamples(const RobotFile& robot, Quantity quantity, Route route,
                                     const QuantitySettings& settings)
    : model_(robot.model),
      loops_(robot.loops),
      quantity_(quantity),
      ws_(model_, loops_),
      columns_(loop_columns(quantity, robot)),
      q_(robot.initial_state(false)),
      qd_(VecX<double>::Zero(robot.dof())),
      qdd_(VecX<double>::Zero(robot.dof())) {
  if (!robot.has_loops()) throw std::invalid_argument("ClosedLoopSamples: the robot has no loops");
  const bool tree_forces = quantity == Quantity::torques || needs_loops(quantity);
  if (quantity != Quantity::joint_states) {
    tree_ = std::make_unique<SampleQuantities>(robot, tree_forces ? Quantity::torques : quantity,
                                               route, settings);
  }
  redundant_ = loops_.equations() != robot.dof() - robot.mobility;
}

const VecX<double>& ClosedLoopSamples::assemble(ConstVectorRef<double> q_a) {
  if (q_a.size() != actuated())
    throw std::invalid_argument("ClosedLoopSamples: " + std::to_string(q_a.size()) +
                                " actuated positions for " + std::to_string(actuated()) +
                                " actuated joints");
  for (int k = 0; k < actuated(); ++k)
    q_[loops_.actuated[static_cast<std::size_t>(k)]] = q_a[k];
  const ClosureError closure = denoc::assemble(model_, loops_, ws_, q_);
  if (!(closure.error <= kClosureTolerance)) {
    throw RunError(closure_failure(loops_, closure) +
                   " (the actuated joints' positions out of the mechanism's reach?)");
  }
  return q_;
}

void ClosedLoopSamples::close(ConstVectorRef<double> q_a, ConstVectorRef<double> qd_a,
                              ConstVectorRef<double> qdd_a) {
  if (qd_a.size() != actuated() || qdd_a.size() != actuated())
    throw std::invalid_argument("ClosedLoopSamples: qd and qdd need one entry per actuated joint");
  assemble(q_a);
  if (!closed_configuration(model_, loops_, ws_, q_)) {
    throw RunError(
        "the actuated joints do not fix the passive ones here (a singular configuration of the "
        "loops)");
  }
  for (int k = 0; k < actuated(); ++k) {
    const int i = loops_.actuated[static_cast<std::size_t>(k)];
    qd_[i] = qd_a[k];
    qdd_[i] = qdd_a[k];
  }
  closed_rates(loops_, ws_, qd_);
  closed_accelerations(model_, loops_, ws_, qd_, qdd_);
}

void ClosedLoopSamples::evaluate(ConstVectorRef<double> q_a, ConstVectorRef<double> qd_a,
                                 ConstVectorRef<double> qdd_a, Eigen::Ref<VecX<double>> row) {
  close(q_a, qd_a, qdd_a);
  if (quantity_ == Quantity::joint_states) {
    row << q_, qd_, qdd_;
    return;
  }
  if (quantity_ != Quantity::torques && !needs_loops(quantity_)) {
    tree_->evaluate(q_, qd_, qdd_, row);
    return;
  }
  tau_tree_.resize(model_.dof());
  tree_->evaluate(q_, qd_, qdd_, tau_tree_);  // friction included as the settings say
  const VecX<double>& tau_a = actuator_forces(ws_, tau_tree_);
  if (quantity_ == Quantity::torques) {
    row = tau_a;
  } else {
    row = cut_joint_wrenches(loops_, ws_, tau_tree_, tau_a);
  }
}

}  // namespace denoc
