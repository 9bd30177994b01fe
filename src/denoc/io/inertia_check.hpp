// The physical-consistency check of a rigid body's inertia tensor, shared by the YAML and URDF
// readers: a rigid body's principal moments are non-negative and obey the triangle inequality
// (each is at most the sum of the other two).
#pragma once

#include <algorithm>
#include <sstream>
#include <string>

#include <Eigen/Eigenvalues>

#include "denoc/model/spatial.hpp"

namespace denoc {

struct InertiaProblem {
  enum Kind { none, negative, triangle } kind = none;
  std::string what;  // e.g. "principal moments 0, 0, 0.35 violate the triangle inequality"
};

inline InertiaProblem inertia_problem(const Mat3<double>& I) {
  const Vec3<double> moments = Eigen::SelfAdjointEigenSolver<Mat3<double>>(I).eigenvalues();
  const double tolerance = 1e-12 * std::max(1.0, moments.cwiseAbs().maxCoeff());
  std::ostringstream shown;
  shown << moments[0] << ", " << moments[1] << ", " << moments[2];
  if (moments[0] < -tolerance) {
    return {InertiaProblem::negative,
            "not positive semi-definite (principal moments " + shown.str() + ")"};
  }
  if (moments[0] + moments[1] < moments[2] - tolerance) {
    return {InertiaProblem::triangle,
            "principal moments " + shown.str() + " violate the triangle inequality"};
  }
  return {};
}

}  // namespace denoc
