// Simulation of trees: a free-falling random tree conserves energy along the integration, through
// each route that computes the forward dynamics of a tree, and the routes agree on the motion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "denoc/denoc.hpp"
#include "denoc/simulation/simulation.hpp"
#include "support/random_trees.hpp"

namespace {

using namespace denoc;

struct Fall {
  double drift = 0, scale = 0;
  VecX<double> q_end;
};

// E(t) = T + V sampled every 0.01 s of a free fall of `seconds` from q0 at rest.
Fall free_fall(const Model<double>& model, Route route, const VecX<double>& q0, double tolerance,
               double seconds) {
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
  Fall fall;
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

TEST(Simulation, AFreeFallingTreeConservesEnergyOnEveryTreeRoute) {
  denoc_test::TreeGenerator gen(8);
  std::vector<LinkSpec<double>> links;
  do {
    links = gen.tree({3, 3, 12});
  } while (links.size() < 6);
  const Model<double> model = gen.model(links);
  ASSERT_FALSE(model.is_chain());
  const VecX<double> q0 = gen.positions(model) * 0.5;
  VecX<double> reference;
  for (Route route : {Route::udu, Route::cholesky, Route::gibbs_appell}) {
    const Fall loose = free_fall(model, route, q0, 1e-9, 2.0);
    const Fall tight = free_fall(model, route, q0, 1e-12, 2.0);
    std::cout << "[simulation] " << route_name(route) << ", a " << model.dof()
              << "-joint tree: energy drift over 2 s " << loose.drift << " J at 1e-9, "
              << tight.drift << " J at 1e-12 (energies up to " << loose.scale << " J)\n";
    EXPECT_LT(loose.drift, 1e4 * 1e-9 * loose.scale) << route_name(route);
    EXPECT_LT(tight.drift, loose.drift / 10) << route_name(route);
    if (reference.size() == 0) reference = tight.q_end;
    EXPECT_LT((tight.q_end - reference).cwiseAbs().maxCoeff(), 1e-6) << route_name(route);
  }
}

}  // namespace
