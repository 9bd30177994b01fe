// ridim's and the Python module's samples of a robot with loops (docs/loops.md): the actuated
// joints' q, qd and qdd given, every joint's state found by assembly (from the previous sample's
// solution) and Eqs. (L6)-(L7), then the quantity: the actuators' forces (torques, Eq. (L8)),
// every joint's state (joint-states), the cut joints' wrenches (constraint-forces, Eq. (L9)), or
// any other quantity of the spanning tree at that state.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "denoc/engine/quantities.hpp"
#include "denoc/loops/assembly.hpp"

namespace denoc {

class ClosedLoopSamples {
 public:
  // `robot` has loops; its assembled initial q is the first guess.
  ClosedLoopSamples(const RobotFile& robot, Quantity quantity, Route route,
                    const QuantitySettings& settings = {});

  // The columns after t, and how many.
  const std::vector<std::string>& columns() const { return columns_; }
  Eigen::Index size() const { return static_cast<Eigen::Index>(columns_.size()); }
  int actuated() const { return static_cast<int>(loops_.actuated.size()); }

  // The quantity at the actuated joints' q, qd, qdd (one entry per actuated joint each) into
  // `row`. Throws RunError (naming no time) when the loops do not close there, or when the
  // actuated joints do not fix the passive ones.
  void evaluate(ConstVectorRef<double> q_a, ConstVectorRef<double> qd_a,
                ConstVectorRef<double> qdd_a, Eigen::Ref<VecX<double>> row);

  // Every joint's state at the last sample evaluated.
  const VecX<double>& q() const { return q_; }
  const VecX<double>& qd() const { return qd_; }
  const VecX<double>& qdd() const { return qdd_; }
  // Whether the loop equations are redundant (rank below their number): the wrenches are then
  // those of least norm.
  bool redundant() const { return redundant_; }

  // Every joint's q from the actuated joints' (assembled from the last solution); RunError when a
  // loop does not close.
  const VecX<double>& assemble(ConstVectorRef<double> q_a);

 private:
  void close(ConstVectorRef<double> q_a, ConstVectorRef<double> qd_a, ConstVectorRef<double> qdd_a);

  Model<double> model_;
  Loops<double> loops_;
  Quantity quantity_;
  ClosedLoopWorkspace<double> ws_;
  std::unique_ptr<SampleQuantities> tree_;  // torques of the tree, or the quantity asked
  std::vector<std::string> columns_;
  VecX<double> q_, qd_, qdd_, tau_tree_;
  bool redundant_ = false;
};

}  // namespace denoc
