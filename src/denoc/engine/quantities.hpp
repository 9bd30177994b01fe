// The quantities ridim writes at each sample (docs/csv.md), computed in one place for ridim and
// the Python module: the joint forces with the drives' friction and an external wrench, the
// inertia matrix, its inverse, C, the U D U^T factors, the pose and Jacobian of a frame, and the
// joint reactions, by the route chosen (routes.hpp) through the dispatch of dynamics.hpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "denoc/engine/dynamics.hpp"
#include "denoc/engine/lane_quantities.hpp"
#include "denoc/engine/quantity_rows.hpp"
#include "denoc/engine/quantity_table.hpp"
#include "denoc/engine/run_checks.hpp"
#include "denoc/io/robot_file.hpp"

namespace denoc {

// The routes that compute `quantity`, its default first.
std::vector<Route> algorithms_for(Quantity quantity);

// `chosen`, or the quantity's default; InputError naming both when the route does not compute
// the quantity (docs/command-line.md) or cannot treat this robot (a floating base, Fixman's
// limits).
Route choose_route(Quantity quantity, std::optional<Route> chosen, const RobotFile& robot);

// The frame of `name` (io/frames.hpp), or none for the tool frame; InputError when the quantity
// or a wrench needs a frame and the robot, a tree, has no one tool (docs/trees.md).
std::optional<BodyFrame<double>> choose_frame(Quantity quantity, const std::string& name,
                                              bool wrench, const RobotFile& robot);

struct QuantitySettings {
  bool friction = true;               // false: the drives' B and Tc left out (ridim --no-friction)
  bool wrench_in_tool_frame = false;  // a wrench's components in the frame it acts on
  std::optional<BodyFrame<double>> frame;  // pose, jacobian and the wrench: none = the tool frame
};

// One quantity by one route for one robot, evaluated sample after sample without allocating: the
// families' workspaces are built once (dynamics.hpp). It keeps its own copy of the robot's model,
// so the robot file need not outlive it.
class SampleQuantities {
 public:
  SampleQuantities(const RobotFile& robot, Quantity quantity, Route route,
                   const QuantitySettings& settings = {});

  // The entries of one row (docs/csv.md, the columns after t).
  Eigen::Index size() const { return size_; }

  // The quantity at (q, qd, qdd) (nq, nv, nv entries) into `row`, matrices row by row, in the
  // column order of docs/csv.md. `wrench` (base or world frame, or the frame's own axes with
  // wrench_in_tool_frame) acts on the frame when given. Throws RunError (no time in the message)
  // when the inertia matrix is not positive definite where that is checked or inverted.
  // Where packs compute the quantity, evaluate takes them too (one lane used, without a wrench),
  // so that a sample has the same numbers alone and in a batch.
  void evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd, ConstVectorRef<double> qdd,
                Eigen::Ref<VecX<double>> row, const Vec6<double>* wrench = nullptr);
  // The same with `count` wrenches, each on its own frame (torques, bias and reactions take them;
  // the other quantities have no use for them). No packs: one sample.
  void evaluate(ConstVectorRef<double> q, ConstVectorRef<double> qd, ConstVectorRef<double> qdd,
                Eigen::Ref<VecX<double>> row, const FrameWrench<double>* wrenches, int count);
  // Samples evaluated per call of evaluate_samples: a pack's width where the quantity, route
  // and robot allow packs (lane_quantities.hpp), else 1.
  int samples_per_call() const { return lanes_ ? LaneDynamics::width : 1; }
  // Up to samples_per_call() samples at once, without a wrench: sample k's q, qd and qdd at
  // samples.q[k], qd[k], qdd[k], its row into samples.out[k]. The rows are evaluate's (within
  // 1e-14 of them with packs: docs/performance.md). Throws RunError as evaluate does, naming no
  // sample: a caller that must name it evaluates that call's samples again one by one.
  void evaluate_samples(int count, const LanePointers& samples);

 private:
  QuantityRows<double> rows_;   // owns the model, so that the robot file may go
  const Model<double>& model_;  // rows_.model()
  Quantity quantity_;
  bool friction_;
  bool wrench_in_tool_frame_;
  Eigen::Index size_;
  VecX<double> friction_forces_;
  PositiveDefiniteCheck check_positive_definite_;
  std::unique_ptr<LaneDynamics> lanes_;  // where packs compute the quantity
};

// InputError unless `route` computes the forward dynamics of this robot (rfdsim --algorithm):
// gibbs-appell and fixman carry no floating base, and fixman has its limits (lee/fixman.hpp).
void check_forward_route(Route route, const RobotFile& robot);

// qdd from I(q) qdd = tau - h(q, qd) - the drives' friction at qd (unless `friction` is false):
// the inverse of SampleQuantities' torques. tau holds the joints' n forces; with a floating base
// it may instead hold 6 + n generalized forces (the wrench on the base first:
// docs/floating-base.md), and n forces leave the base unactuated. Returns the route's storage in
// `d`; NaN entries when I is not positive definite.
class ForwardDynamics {
 public:
  ForwardDynamics(const RobotFile& robot, Route route, bool friction = true);
  // InputError when q, qd or tau has another size than nq, nv and n or nv.
  const VecX<double>& operator()(ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                 ConstVectorRef<double> tau);
  // Samples evaluated per call of evaluate_samples (as SampleQuantities'): a pack's width on the
  // O(n) route with a fixed base, else 1. Where packs apply, operator() takes them too.
  int samples_per_call() const { return lanes_ ? LaneDynamics::width : 1; }
  // Up to samples_per_call() samples at once: q, qd and tau at samples.q[k], qd[k] and qdd[k],
  // each tau of `tau_size` entries (n, or nv with a floating base), qdd into samples.out[k].
  void evaluate_samples(int count, const LanePointers& samples, Eigen::Index tau_size);

 private:
  Dynamics<double> dynamics_;   // owns the model, so that the robot file may go
  const Model<double>& model_;  // dynamics_.model()
  Route route_;
  bool friction_;
  VecX<double> net_, friction_forces_;
  VecX<double> generalized_;  // n joint forces with a floating base: the base's six zeros first
  PositiveDefiniteCheck check_positive_definite_;
  VecX<double> pivots_;                  // a sample's pivots from the packs, for the check
  std::unique_ptr<LaneDynamics> lanes_;  // packs, on the O(n) route with a fixed base
  VecX<double> qdd_;                     // their result for one sample
};

}  // namespace denoc
