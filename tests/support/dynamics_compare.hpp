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
  if (a.dof() != b.dof() || a.floating() != b.floating()) {
    worst.torques = worst.mass_matrix = 1e300;
    return worst;
  }
  // Through the routes, so that a floating base (7 + n coordinates, 6 + n rates) is compared with
  // its base moving too.
  denoc::Dynamics<double> da(a), db(b);
  const denoc::Route route = denoc::Route::denoc;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int s = 0; s < states; ++s) {
    VecX<double> q(a.nq()), qd(a.nv()), qdd(a.nv());
    for (int i = 0; i < a.nq(); ++i)
      q[i] = u(rng);
    for (int i = 0; i < a.nv(); ++i)
      qd[i] = u(rng), qdd[i] = u(rng);
    if (a.floating()) q.segment<4>(3).normalize();  // the base's unit quaternion
    const VecX<double> ta = denoc::inverse_dynamics(route, da, q, qd, qdd);
    const VecX<double> tb = denoc::inverse_dynamics(route, db, q, qd, qdd);
    worst.torques = std::max(worst.torques, (ta - tb).cwiseAbs().maxCoeff() /
                                                std::max(1e-300, ta.cwiseAbs().maxCoeff()));
    const denoc::MatX<double> Ma = denoc::generalized_inertia(route, da, q);
    const denoc::MatX<double> Mb = denoc::generalized_inertia(route, db, q);
    worst.mass_matrix = std::max(worst.mass_matrix, (Ma - Mb).cwiseAbs().maxCoeff() /
                                                        std::max(1e-300, Ma.cwiseAbs().maxCoeff()));
  }
  return worst;
}

}  // namespace denoc_test
