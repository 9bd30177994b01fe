// A free fall from rest integrated by rfdsim's integrator, with the energy E = T + V sampled
// along it: the physical check of the forward-dynamics routes on any model (docs/trees.md).
#pragma once

#include <algorithm>
#include <cmath>

#include "denoc/denoc.hpp"
#include "denoc/simulation/simulation.hpp"

namespace denoc_test {

struct FreeFall {
  double drift = 0;  // the largest |E(t) - E(0)|
  double scale = 0;  // the largest |T| + |V|
  denoc::VecX<double> q_end;
};

// E(t) = T + V sampled every 0.01 s of a free fall of `seconds` from q0 at rest, through `route`
// at relative and absolute tolerance `tolerance`.
inline FreeFall free_fall(const denoc::Model<double>& model, denoc::Route route,
                          const denoc::VecX<double>& q0, double tolerance, double seconds) {
  using namespace denoc;
  ZeroForces forces;
  ChainDynamics system(model, route, forces);
  Workspace<double> ws(model);
  IntegratorSettings settings;
  settings.rtol = settings.atol = tolerance;
  IntegrationStats stats;
  const int n = model.dof();
  State x(2 * static_cast<std::size_t>(n), 0.0);
  std::copy(q0.data(), q0.data() + n, x.begin());
  double e0 = 0;
  FreeFall fall;
  integrate(
      system, x, OutputTimes(seconds, 0.01), settings,
      [&](double t, const State& s) {
        const Eigen::Map<const VecX<double>> q(s.data(), n), qd(s.data() + n, n);
        const double T = kinetic_energy(model, ws, q, qd), V = potential_energy(model, ws, q);
        if (t == 0) e0 = T + V;
        fall.drift = std::max(fall.drift, std::abs(T + V - e0));
        fall.scale = std::max(fall.scale, std::abs(T) + std::abs(V));
        fall.q_end = q;
      },
      stats);
  return fall;
}

}  // namespace denoc_test
