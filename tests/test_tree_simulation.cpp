// Simulation of trees: a free-falling random tree conserves energy along the integration, through
// each route that computes the forward dynamics of a tree, and the routes agree on the motion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "denoc/denoc.hpp"
#include "support/free_fall.hpp"
#include "support/random_trees.hpp"

namespace tree_simulation_test {

using namespace denoc;

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
    const denoc_test::FreeFall loose = denoc_test::free_fall(model, route, q0, 1e-9, 2.0);
    const denoc_test::FreeFall tight = denoc_test::free_fall(model, route, q0, 1e-12, 2.0);
    std::cout << "[simulation] " << route_name(route) << ", a " << model.dof()
              << "-joint tree: energy drift over 2 s " << loose.drift << " J at 1e-9, "
              << tight.drift << " J at 1e-12 (energies up to " << loose.scale << " J)\n";
    EXPECT_LT(loose.drift, 1e4 * 1e-9 * loose.scale) << route_name(route);
    EXPECT_LT(tight.drift, loose.drift / 10) << route_name(route);
    if (reference.size() == 0) reference = tight.q_end;
    EXPECT_LT((tight.q_end - reference).cwiseAbs().maxCoeff(), 1e-6) << route_name(route);
  }
}

}  // namespace tree_simulation_test
