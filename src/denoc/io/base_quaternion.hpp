// A floating base's quaternion as input gives it (a trajectory row, the robot file's initial.q,
// rfdsim's q0, Python's q): one tolerance, one check and one message for all of them
// (docs/floating-base.md).
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "denoc/io/number.hpp"

namespace denoc {

// Input may give a quaternion whose norm differs from 1 by this much; it is then normalised.
inline constexpr double kQuaternionNormTolerance = 1e-6;

// `quaternion` (x, y, z, w) normalised in place, and nothing returned; when its norm differs
// from 1 by more than the tolerance (or is NaN), left as it is and the fact returned, for the
// caller to prefix with where it was read.
inline std::optional<std::string> normalise_base_quaternion(
    Eigen::Ref<Eigen::Vector4d> quaternion) {
  const double norm = quaternion.norm();
  if (!(std::abs(norm - 1) <= kQuaternionNormTolerance)) {
    return "the base quaternion base_qx..base_qw has norm " + shortest(norm) +
           ", which differs from 1 by more than 1e-6";  // kQuaternionNormTolerance
  }
  quaternion /= norm;
  return std::nullopt;
}

}  // namespace denoc
