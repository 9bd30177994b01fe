#include "denoc/io/run_checks.hpp"

#include <charconv>

#include "denoc/floating/floating_dynamics.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/saha/forward_dynamics.hpp"

namespace denoc {

PositiveDefiniteCheck::PositiveDefiniteCheck(const RobotFile& robot)
    : model_(robot.model),
      accepted_by_(robot.format == "urdf" ? "--inertia-checks warn"
                                          : "the robot file's inertia_checks: warn") {
  if (robot.check_positive_definite) ws_.emplace(robot.model);
}

void PositiveDefiniteCheck::operator()(double t, ConstVectorRef<double> q) {
  if (!ws_) return;
  try {
    check(q);
  } catch (const RunError& e) {
    throw RunError("at t = " + shortest(t) + ": " + e.what());
  }
}

void PositiveDefiniteCheck::check(ConstVectorRef<double> q) {
  if (!ws_) return;
  udu_factors(model_, *ws_, q.tail(model_.dof()));  // the joints' coordinates
  if (model_.floating() && !factor_base_pivot(model_, *ws_)) {
    throw RunError(
        "the inertia matrix is not positive definite (the floating base's pivot, its "
        "6x6 articulated mass, is not); " +
        accepted_by_ + " accepted links that no rigid body has");
  }
  // The recursion runs tip to base: the tipmost pivot that fails is the cause, and the ones
  // nearer the base, computed from it, are often nan.
  for (int i = model_.dof() - 1; i >= 0; --i) {
    if (!(ws_->m_hat[i] > 0)) {
      throw RunError("the inertia matrix is not positive definite (pivot " + std::to_string(i + 1) +
                     " of its U D U^T factors is " + shortest(ws_->m_hat[i]) + "); " +
                     accepted_by_ + " accepted links that no rigid body has");
    }
  }
}

}  // namespace denoc
