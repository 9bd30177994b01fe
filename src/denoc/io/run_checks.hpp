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

// With inertia_checks: warn a robot file may hold links that no rigid body has, and then the
// inertia matrix may stop being positive definite: I = U D U^T (Saha 1999) is positive definite
// exactly when every pivot m^_i is positive. Off for a file that passed the strict checks.
class PositiveDefiniteCheck {
 public:
  explicit PositiveDefiniteCheck(const RobotFile& robot);

  // Throws RunError "the inertia matrix is not positive definite (pivot i ...)".
  void check(ConstVectorRef<double> q);
  // The same with "at t = T: " before the message.
  void operator()(double t, ConstVectorRef<double> q);

 private:
  const Model<double>& model_;
  std::optional<Workspace<double>> ws_;  // only when the check is on
  std::string accepted_by_;              // the key or option that let the links in
};

}  // namespace denoc
