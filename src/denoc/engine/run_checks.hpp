// What ridim, rfdsim and the Python module check and say the same way while they run: the
// inertia matrix that stops being positive definite under inertia_checks: warn
// (docs/robot-file.md).
#pragma once

#include <optional>
#include <string>

#include "denoc/io/number.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

template <typename S>
struct UduPivots;  // saha/forward_dynamics.hpp

// With inertia_checks: warn a robot file may hold links that no rigid body has, and then the
// inertia matrix may stop being positive definite: I = U D U^T (Saha 1999) is positive definite
// exactly when every pivot m^_i is positive. Off for a file that passed the strict checks, and
// where `needed` is false: only what factorises or inverts I (forward dynamics, the inverse
// inertia matrix, U D U^T) needs it; torques, bias, gravity, poses run as under strict checks.
class PositiveDefiniteCheck {
 public:
  explicit PositiveDefiniteCheck(const RobotFile& robot, bool needed = true);
  // The same on `model`, the robot's model as its caller keeps it (which must outlive the check;
  // `robot` need not).
  PositiveDefiniteCheck(const RobotFile& robot, const Model<double>& model, bool needed);

  bool on() const { return ws_.has_value(); }
  // From Eqs. (47)-(50) of its own at q (the joints' pivots and the floating base's), for the
  // routes whose factors it cannot read. Throws RunError "the inertia matrix is not positive
  // definite (pivot i ...)".
  void check(ConstVectorRef<double> q);
  // The same with "at t = T: " before the message.
  void operator()(double t, ConstVectorRef<double> q);
  // From the factors the O(n) route left in `ws` (its pivots m^_i, and the floating base's
  // factored pivot), at no cost of its own.
  void check_factors(const Workspace<double>& ws) const;
  // From the joints' pivots m^_i alone (a fixed base), wherever they were computed (the packs).
  void check_pivots(ConstVectorRef<double> m_hat) const;

 private:
  void check_pivots(const UduPivots<double>& pivots) const;

  const Model<double>& model_;
  std::optional<PivotWorkspace<double>> ws_;  // only when the check is on
  std::string accepted_by_;                   // the key or option that let the links in
};

}  // namespace denoc
