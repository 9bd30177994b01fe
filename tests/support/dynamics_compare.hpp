// Two models of the same robot compared by what they compute: joint forces at random states
// (with gravity, velocities and accelerations) and the inertia matrix, as the largest
// difference relative to the largest entry.
#pragma once

#include <algorithm>
#include <random>

#include "denoc/denoc.hpp"

namespace denoc_test {

struct DynamicsDifference {
  double torques = 0;
  double mass_matrix = 0;
};

inline DynamicsDifference compare_dynamics(const denoc::Model<double>& a,
                                           const denoc::Model<double>& b, int states = 20,
                                           unsigned seed = 14) {
  using denoc::VecX;
  DynamicsDifference worst;
  if (a.dof() != b.dof()) {
    worst.torques = worst.mass_matrix = 1e300;
    return worst;
  }
  const int n = a.dof();
  denoc::Workspace<double> wa(a), wb(b);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int s = 0; s < states; ++s) {
    VecX<double> q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      q[i] = u(rng);
      qd[i] = u(rng);
      qdd[i] = u(rng);
    }
    const VecX<double> ta = denoc::inverse_dynamics(a, wa, q, qd, qdd);
    const VecX<double> tb = denoc::inverse_dynamics(b, wb, q, qd, qdd);
    worst.torques = std::max(worst.torques, (ta - tb).cwiseAbs().maxCoeff() /
                                                std::max(1e-300, ta.cwiseAbs().maxCoeff()));
    const denoc::MatX<double> Ma = denoc::generalized_inertia(a, wa, q);
    const denoc::MatX<double> Mb = denoc::generalized_inertia(b, wb, q);
    worst.mass_matrix = std::max(worst.mass_matrix, (Ma - Mb).cwiseAbs().maxCoeff() /
                                                        std::max(1e-300, Ma.cwiseAbs().maxCoeff()));
  }
  return worst;
}

}  // namespace denoc_test
