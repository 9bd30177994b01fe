// One Route enum and its dispatch (engine/routes.hpp, engine/dynamics.hpp): every route that
// computes a quantity gives the family's own result through one Dynamics bundle, the names are the
// command lines', and a route asked for what it does not compute says so.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/random_chains.hpp"

namespace routes_test {

using denoc::Dynamics;
using denoc::MatX;
using denoc::Model;
using denoc::Route;
using denoc::VecX;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

TEST(Routes, NamesAreTheCommandLinesInOrder) {
  std::vector<std::string> names;
  for (const auto& [name, route] : denoc::route_names()) {
    names.push_back(name);
    EXPECT_EQ(denoc::route_name(route), name);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"denoc", "gibbs-appell", "udu", "fixman", "cholesky"}));
  EXPECT_EQ(denoc::forward_dynamics_routes(),
            (std::vector<Route>{Route::udu, Route::cholesky, Route::gibbs_appell, Route::fixman}));
  EXPECT_EQ(denoc::inverse_inertia_routes().front(), Route::udu);  // ridim's default
  EXPECT_EQ(denoc::inverse_dynamics_routes().front(), Route::denoc);
}

// Each dispatch returns what the family's function returns, and the routes agree.
TEST(Routes, DispatchAgreesWithTheFamiliesAndAcrossRoutes) {
  Generator random(23u);
  const denoc_test::Chain chain =
      random.chain(denoc::DhConvention::standard, 9, JointMix::mixed, "chain");
  const Model<double> model = chain.model();
  const VecX<double> q = random.positions(chain), qd = random.vector(9, 1.0),
                     tau = random.vector(9, 5.0);
  Dynamics<double> dynamics(model);
  denoc::Workspace<double> ws(model);
  denoc::GibbsAppellWorkspace<double> ga(model);
  denoc::FixmanWorkspace<double> fx(model);

  const VecX<double> qdd = denoc::forward_dynamics(model, ws, q, qd, tau);
  EXPECT_EQ(denoc::forward_dynamics(Route::udu, dynamics, q, qd, tau), qdd);
  EXPECT_EQ(denoc::forward_dynamics(Route::cholesky, dynamics, q, qd, tau),
            denoc::forward_dynamics_cholesky(model, ws, q, qd, tau));
  EXPECT_EQ(denoc::forward_dynamics(Route::gibbs_appell, dynamics, q, qd, tau),
            denoc::forward_dynamics_gibbs_appell(model, ga, q, qd, tau));
  EXPECT_EQ(denoc::forward_dynamics(Route::fixman, dynamics, q, qd, tau),
            denoc::forward_dynamics_fixman(model, ws, fx, q, qd, tau));
  for (Route route : denoc::forward_dynamics_routes())
    EXPECT_TRUE(denoc::forward_dynamics(route, dynamics, q, qd, tau).isApprox(qdd, 1e-9))
        << denoc::route_name(route);

  const VecX<double> id = denoc::inverse_dynamics(model, ws, q, qd, qdd);
  EXPECT_EQ(denoc::inverse_dynamics(Route::denoc, dynamics, q, qd, qdd), id);
  EXPECT_EQ(denoc::inverse_dynamics(Route::gibbs_appell, dynamics, q, qd, qdd),
            denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd));
  EXPECT_TRUE(id.isApprox(tau, 1e-9));  // qdd came from tau
  for (Route route : denoc::inverse_dynamics_routes()) {
    EXPECT_TRUE(denoc::bias_forces(route, dynamics, q, qd)
                    .isApprox(denoc::bias_forces(model, ws, q, qd), 1e-9));
    EXPECT_TRUE(denoc::gravity_forces(route, dynamics, q)
                    .isApprox(denoc::gravity_forces(model, ws, q), 1e-9));
    EXPECT_TRUE(denoc::generalized_inertia(route, dynamics, q)
                    .isApprox(denoc::generalized_inertia(model, ws, q), 1e-9));
  }
  const MatX<double> inverse = denoc::inverse_inertia_udu(model, ws, q);
  EXPECT_EQ(denoc::inverse_inertia(Route::fixman, dynamics, q),
            denoc::fixman_inverse_inertia(model, fx, q));
  for (Route route : denoc::inverse_inertia_routes())
    EXPECT_TRUE(denoc::inverse_inertia(route, dynamics, q).isApprox(inverse, 1e-9))
        << denoc::route_name(route);
}

TEST(Routes, ARouteAskedForWhatItDoesNotComputeSaysSo) {
  Generator random(5u);
  const denoc_test::Chain chain =
      random.chain(denoc::DhConvention::standard, 3, JointMix::revolute, "chain");
  const Model<double> model = chain.model();
  Dynamics<double> dynamics(model);
  const VecX<double> zero = VecX<double>::Zero(3);
  try {
    denoc::inverse_inertia(Route::denoc, dynamics, zero);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "the route denoc does not compute the inverse inertia matrix");
  }
  EXPECT_THROW(denoc::forward_dynamics(Route::denoc, dynamics, zero, zero, zero),
               std::invalid_argument);
  EXPECT_THROW(denoc::inverse_dynamics(Route::udu, dynamics, zero, zero, zero),
               std::invalid_argument);
  EXPECT_THROW(denoc::generalized_inertia(Route::fixman, dynamics, zero), std::invalid_argument);
}

}  // namespace routes_test
