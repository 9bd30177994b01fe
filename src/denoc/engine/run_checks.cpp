#include "denoc/engine/run_checks.hpp"

#include <charconv>

#include "denoc/io/errors.hpp"
#include "denoc/saha/forward_dynamics.hpp"

namespace denoc {

PositiveDefiniteCheck::PositiveDefiniteCheck(const RobotFile& robot, bool needed)
    : PositiveDefiniteCheck(robot, robot.model, needed) {}

PositiveDefiniteCheck::PositiveDefiniteCheck(const RobotFile& robot, const Model<double>& model,
                                             bool needed)
    : model_(model),
      accepted_by_(robot.format == "urdf" ? mention(Parameter::inertia_checks, "warn")
                                          : "the robot file's inertia_checks: warn") {
  if (robot.check_positive_definite && needed) ws_.emplace(model);
}

void PositiveDefiniteCheck::operator()(double t, ConstVectorRef<double> q) {
  if (!ws_) return;
  try {
    check(q);
  } catch (const RunError& e) {
    throw RunError("at t = " + shortest(t) + ": " + e.message());
  }
}

void PositiveDefiniteCheck::check(ConstVectorRef<double> q) {
  if (!ws_) return;
  check_pivots(udu_pivots(model_, *ws_, q));
}

void PositiveDefiniteCheck::check_factors(const Workspace<double>& ws) const {
  if (!ws_) return;
  check_pivots(last_udu_pivots(model_, ws));
}

void PositiveDefiniteCheck::check_pivots(const UduPivots<double>& pivots) const {
  if (!ws_) return;
  if (!pivots.base_positive_definite) {
    throw RunError(
        "the inertia matrix is not positive definite (the floating base's pivot, its "
        "6x6 articulated mass, is not); " +
        accepted_by_ + " accepted links that no rigid body has");
  }
  check_pivots(pivots.joints);
}

void PositiveDefiniteCheck::check_pivots(ConstVectorRef<double> m_hat) const {
  if (!ws_) return;
  // The recursion runs tip to base: the tipmost pivot that fails is the cause, and the ones
  // nearer the base, computed from it, are often nan.
  for (int i = model_.dof() - 1; i >= 0; --i) {
    if (!(m_hat[i] > 0)) {
      throw RunError("the inertia matrix is not positive definite (pivot " + std::to_string(i + 1) +
                     " of its U D U^T factors is " + shortest(m_hat[i]) + "); " + accepted_by_ +
                     " accepted links that no rigid body has");
    }
  }
}

}  // namespace denoc
