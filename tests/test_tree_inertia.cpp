// The inertia matrix, the cholesky route (Featherstone's sparse L^T D L with the parent array) and
// Saha's matrix of convective inertia terms C on random kinematic trees, against the reference of
// support/random_trees.hpp, which forms M as the kinetic energy's Hessian from each body's
// velocity and tau by Newton-Euler through J^T, sharing no recursion with the library.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/kernels/tree_cholesky.hpp"
#include "support/random_trees.hpp"

namespace tree_inertia_test {

using denoc::LinkSpec;
using denoc::Model;
using denoc::Workspace;
using MatX = denoc::MatX<double>;
using VecX = denoc::VecX<double>;
using denoc_test::relative_error;
using denoc_test::tree_shapes;
using denoc_test::TreeGenerator;
using denoc_test::TreeReference;
using denoc_test::TreeShape;

double scale_of(const MatX& m) {
  return std::max(1.0, m.cwiseAbs().maxCoeff());
}

std::string name(const TreeShape& shape, int n) {
  return "branching " + std::to_string(shape.branching) + ", depth " + std::to_string(shape.depth) +
         ", " + std::to_string(n) + " joints";
}

// Whether I_ij may differ from 0: one joint on the path from the base to the other.
bool on_one_path(const Model<double>& m, int i, int j) {
  return m.supports(i, j) || m.supports(j, i);
}

// The entries off the paths are exactly zero.
void expect_zero_off_paths(const Model<double>& model, const MatX& matrix,
                           const std::string& what) {
  for (int j = 0; j < model.dof(); ++j) {
    for (int i = 0; i < model.dof(); ++i) {
      if (!on_one_path(model, i, j)) {
        ASSERT_EQ(matrix(i, j), 0.0) << what << " (" << i << ", " << j << ")";
      }
    }
  }
}

// Every shape, a few states each: f(model, ws, q, qd, reference) for each.
template <typename F>
void for_random_trees(std::uint32_t seed, int samples, F&& f) {
  TreeGenerator gen(seed);
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    Workspace<double> ws(model);
    for (int sample = 0; sample < samples; ++sample) {
      const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0);
      const TreeReference ref(model, q, qd);
      SCOPED_TRACE(name(shape, model.dof()));
      f(model, ws, q, qd, ref, gen);
    }
  }
}

TEST(TreeInertia, MatrixIsTheKineticEnergysHessianWithZerosOffThePaths) {
  double worst = 0;
  for_random_trees(
      31, 3,
      [&](const Model<double>& model, Workspace<double>& ws, const VecX& q, const VecX&,
          const TreeReference& ref, TreeGenerator&) {
        ws.inertia.I.setConstant(7.0);  // stale entries from an earlier use must not survive
        const MatX& M = denoc::generalized_inertia(model, ws, q);
        const double e = relative_error(M, ref.mass_matrix());
        worst = std::max(worst, e);
        ASSERT_LT(e, 1e-12);
        expect_zero_off_paths(model, M, "I");
      });
  RecordProperty("worst_relative_error", std::to_string(worst));
  std::printf("inertia matrix: worst relative error %.3g\n", worst);
}

TEST(TreeInertia, RotorsSitOnTheDiagonal) {
  TreeGenerator gen(8);
  std::vector<LinkSpec<double>> links = gen.tree({3, 4, 40});
  for (LinkSpec<double>& link : links) {
    link.drive.Jm = gen.uniform(1e-4, 1e-3);
    link.drive.G = gen.uniform(-50, 50);
  }
  const Model<double> model = gen.model(links);
  ASSERT_TRUE(model.has_rotors());
  Workspace<double> ws(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0);
  const TreeReference ref(model, q, qd);
  EXPECT_LT(relative_error(denoc::generalized_inertia(model, ws, q), ref.mass_matrix()), 1e-12);
}

// tau = I qdd + h with the library's own inverse dynamics (and its bias forces).
TEST(TreeInertia, TorquesAreInertiaTimesAccelerationsPlusBias) {
  double worst = 0;
  for_random_trees(32, 2,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX& qd, const TreeReference&, TreeGenerator& gen) {
                     const VecX qdd = gen.vector(model.dof(), 5.0);
                     const VecX tau = denoc::inverse_dynamics(model, ws, q, qd, qdd);
                     const VecX h = denoc::bias_forces(model, ws, q, qd);
                     const VecX Mqdd = denoc::generalized_inertia(model, ws, q) * qdd;
                     const double e = relative_error(Mqdd + h, tau);
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-12);
                   });
  std::printf("tau = I qdd + h: worst relative error %.3g\n", worst);
}

// Two arms on one fixed base: I is block-diagonal, each block the arm's alone (the chain's code).
TEST(TreeInertia, TwoArmsOnAFixedBaseAreEachArmAlone) {
  TreeGenerator gen(5);
  const auto& [tree, a, b] = gen.two_arms(5, 4);  // the tree, each arm alone
  Workspace<double> ws(tree), ws_a(a), ws_b(b);
  const VecX q = gen.positions(tree), qd = gen.vector(9, 2.0), tau = gen.vector(9, 3.0);
  const VecX qa = q.head(5), qb = q.tail(4);
  const VecX qda = qd.head(5), qdb = qd.tail(4);
  EXPECT_LT(relative_error(denoc::generalized_inertia(tree, ws, q),
                           TreeGenerator::block_diagonal(denoc::generalized_inertia(a, ws_a, qa),
                                                         denoc::generalized_inertia(b, ws_b, qb))),
            1e-14);
  EXPECT_LT(relative_error(
                denoc::inverse_generalized_inertia(tree, ws, q),
                TreeGenerator::block_diagonal(denoc::inverse_generalized_inertia(a, ws_a, qa),
                                              denoc::inverse_generalized_inertia(b, ws_b, qb))),
            1e-12);
  EXPECT_LT(
      relative_error(denoc::convective_inertia(tree, ws, q, qd),
                     TreeGenerator::block_diagonal(denoc::convective_inertia(a, ws_a, qa, qda),
                                                   denoc::convective_inertia(b, ws_b, qb, qdb))),
      1e-13);
  EXPECT_LT(relative_error(denoc::forward_dynamics_cholesky(tree, ws, q, qd, tau),
                           TreeGenerator::stacked(
                               denoc::forward_dynamics_cholesky(a, ws_a, qa, qda, tau.head(5)),
                               denoc::forward_dynamics_cholesky(b, ws_b, qb, qdb, tau.tail(4)))),
            1e-11);
}

// Featherstone's L^T D L: L has entries only on the paths (no fill-in) and L^T D L = I; on a
// chain the dense I = L L^T.
TEST(TreeCholesky, FactorIsAsSparseAsTheMatrixAndReproducesIt) {
  double worst = 0;
  for_random_trees(33, 2,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX&, const TreeReference&, TreeGenerator&) {
                     const MatX I = denoc::generalized_inertia(model, ws, q);
                     ASSERT_TRUE(denoc::factor_inertia_for(model, ws));
                     EXPECT_TRUE(ws.inertia.factored);
                     const MatX L = ws.inertia.L.triangularView<Eigen::Lower>();
                     expect_zero_off_paths(model, L, "L");
                     MatX product;
                     if (model.is_chain()) {  // (branching 1 grows chains)
                       product = L * L.transpose();
                     } else {
                       const MatX U = ws.inertia.L.triangularView<Eigen::UnitLower>();
                       product = U.transpose() * ws.inertia.L.diagonal().asDiagonal() * U;
                     }
                     const double e = relative_error(product, I);
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-12);
                   });
  std::printf("L^T D L = I: worst relative error %.3g\n", worst);
}

// The factor by dot products (tree_ltdl, the library's) against Table 6.3 in place
// (tree_ltdl_in_place, the reference): the same L and D, on the paths and off them.
TEST(TreeCholesky, DotProductFactorIsTheReferenceFactor) {
  double worst = 0;
  int trees = 0;
  for_random_trees(37, 2,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX&, const TreeReference&, TreeGenerator&) {
                     const int n = model.dof();
                     const MatX I = denoc::generalized_inertia(model, ws, q);
                     MatX reference = I;
                     ASSERT_TRUE(denoc::tree_ltdl_in_place(reference, model.parents().data()));
                     MatX LD = MatX::Zero(n, n);
                     VecX scratch(n);
                     ASSERT_TRUE(denoc::tree_ltdl(I, LD, scratch, model.parents().data(),
                                                  model.subtree_ends().data()));
                     const double e =
                         relative_error(MatX(LD.triangularView<Eigen::Lower>()),
                                        MatX(reference.triangularView<Eigen::Lower>()));
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-13);
                     trees += !model.is_chain();
                   });
  EXPECT_GT(trees, 0);
  std::printf("dot-product factor against Table 6.3: worst relative difference %.3g\n", worst);
}

// qdd of the cholesky route (the library's h and I, the sparse factor) against a dense LLT solve
// of the reference's M and h.
TEST(TreeCholesky, AccelerationsAgreeWithADenseSolveOfTheReference) {
  double worst = 0;
  for_random_trees(34, 2,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX& qd, const TreeReference& ref, TreeGenerator& gen) {
                     const VecX tau = gen.vector(model.dof(), 10.0);
                     const VecX h = ref.torques(qd, VecX::Zero(model.dof()));
                     const VecX expected = ref.mass_matrix().llt().solve(tau - h);
                     const VecX qdd = denoc::forward_dynamics_cholesky(model, ws, q, qd, tau);
                     const double e = relative_error(qdd, expected);
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-10);
                   });
  std::printf("cholesky route qdd: worst relative error %.3g\n", worst);
}

TEST(TreeCholesky, InverseAgreesWithTheReferenceInverse) {
  double worst = 0;
  for_random_trees(35, 2,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX&, const TreeReference& ref, TreeGenerator&) {
                     const MatX expected = ref.mass_matrix().inverse();
                     const MatX& inverse = denoc::inverse_generalized_inertia(model, ws, q);
                     const double e = relative_error(inverse, expected);
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-10);
                     ASSERT_EQ((inverse - inverse.transpose()).cwiseAbs().maxCoeff(), 0.0);
                   });
  std::printf("cholesky route inverse: worst relative error %.3g\n", worst);
}

// The kernel on its own: a solve is the inverse times the right-hand side.
TEST(TreeCholesky, SolveIsTheInverseTimesTheVector) {
  TreeGenerator gen(36);
  const Model<double> model = gen.model(gen.tree({4, 5, 40}));
  Workspace<double> ws(model);
  const VecX q = gen.positions(model), b = gen.vector(model.dof(), 1.0);
  const MatX inverse = denoc::inverse_generalized_inertia(model, ws, q);
  VecX x = b;
  denoc::tree_ltdl_solve(ws.inertia.L, model.parents().data(), x);
  EXPECT_LT(relative_error(x, inverse * b), 1e-12);
}

// A massless leaf makes I singular: NaN accelerations and inverse, inertia.factored false, as the
// dense route on a chain with the same link.
TEST(TreeCholesky, NotPositiveDefiniteGivesNaNAsTheDenseRoute) {
  TreeGenerator gen(37);
  for (bool tree : {false, true}) {  // the leaf on the chain's tip (dense), then on link 1
    std::vector<LinkSpec<double>> links;
    for (int i = 0; i < 3; ++i)
      links.push_back(gen.link(i - 1));
    LinkSpec<double> massless = gen.link(tree ? 0 : 2);
    massless.mass = 0;
    massless.inertia.setZero();
    links.push_back(massless);
    const Model<double> model = gen.model(links);
    ASSERT_EQ(model.is_chain(), !tree);
    Workspace<double> ws(model);
    const VecX q = gen.positions(model), v = gen.vector(model.dof(), 1.0);
    const VecX qdd = denoc::forward_dynamics_cholesky(model, ws, q, v, v);
    EXPECT_FALSE(ws.inertia.factored);
    EXPECT_TRUE(qdd.array().isNaN().all());
    EXPECT_TRUE(denoc::inverse_generalized_inertia(model, ws, q).array().isNaN().all());
    EXPECT_FALSE(ws.inertia.factored);
  }
}

// The route dispatch: every route but Fixman's takes trees, and they agree with the reference.
TEST(TreeCholesky, RoutesTakeTreesWhereExtended) {
  TreeGenerator gen(38);
  const Model<double> model = gen.model(gen.tree({3, 4, 40}));
  denoc::Dynamics<double> d(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 1.0);
  const TreeReference ref(model, q, qd);
  const MatX M = ref.mass_matrix();
  using denoc::Route;
  EXPECT_LT(relative_error(denoc::generalized_inertia(Route::denoc, d, q), M), 1e-12);
  EXPECT_LT(relative_error(denoc::inverse_inertia(Route::cholesky, d, q), M.inverse()), 1e-10);
  const VecX expected = M.llt().solve(qd - ref.torques(qd, VecX::Zero(model.dof())));
  EXPECT_LT(relative_error(denoc::forward_dynamics(Route::cholesky, d, q, qd, qd), expected),
            1e-10);
  EXPECT_NO_THROW(denoc::convective_inertia(Route::denoc, d, q, qd));
  // The other routes that extend to trees agree; Fixman's does not extend, and refuses them.
  EXPECT_LT(relative_error(denoc::forward_dynamics(Route::udu, d, q, qd, qd), expected), 1e-10);
  EXPECT_LT(relative_error(denoc::inverse_inertia(Route::udu, d, q), M.inverse()), 1e-10);
  EXPECT_LT(relative_error(denoc::generalized_inertia(Route::gibbs_appell, d, q), M), 1e-12);
  EXPECT_THROW(denoc::forward_dynamics(Route::fixman, d, q, qd, qd), std::invalid_argument);
  EXPECT_THROW(denoc::inverse_inertia(Route::fixman, d, q), std::invalid_argument);
}

// C qd = h - g: the bias forces less gravity, both from the reference.
TEST(TreeConvectiveInertia, TimesJointRatesIsBiasLessGravity) {
  double worst = 0;
  for_random_trees(
      39, 3,
      [&](const Model<double>& model, Workspace<double>& ws, const VecX& q, const VecX& qd,
          const TreeReference& ref, TreeGenerator&) {
        const VecX zero = VecX::Zero(model.dof());
        const VecX expected =
            ref.torques(qd, zero) - TreeReference(model, q, zero).torques(zero, zero);
        ws.convective.C.setConstant(7.0);  // stale entries from an earlier use must not survive
        const MatX& C = denoc::convective_inertia(model, ws, q, qd);
        const double e = relative_error(C * qd, expected);
        worst = std::max(worst, e);
        ASSERT_LT(e, 1e-12);
        expect_zero_off_paths(model, C, "C");
      });
  std::printf("C qd = h - g: worst relative error %.3g\n", worst);
}

// dI/dt - 2 C is skew-symmetric, dI/dt by central differences of I along qd.
TEST(TreeConvectiveInertia, InertiaRateLessTwiceCIsSkewSymmetric) {
  double worst = 0;
  for_random_trees(40, 1,
                   [&](const Model<double>& model, Workspace<double>& ws, const VecX& q,
                       const VecX& qd, const TreeReference&, TreeGenerator&) {
                     const double step = 1e-6;
                     const MatX up = denoc::generalized_inertia(model, ws, VecX(q + step * qd));
                     const MatX down = denoc::generalized_inertia(model, ws, VecX(q - step * qd));
                     const MatX K =
                         (up - down) / (2 * step) - 2 * denoc::convective_inertia(model, ws, q, qd);
                     const double e = (K + K.transpose()).cwiseAbs().maxCoeff() / scale_of(K);
                     worst = std::max(worst, e);
                     ASSERT_LT(e, 1e-7);
                   });
  std::printf("dI/dt - 2 C skew defect: worst %.3g of max|K|\n", worst);
}

// Single precision runs the same templates: close to double on a well-conditioned tree.
TEST(TreeInertia, FloatAgreesWithDouble) {
  TreeGenerator gen(41);
  const Model<double> model = gen.model(gen.tree({3, 4, 40}));
  const Model<float> model_f = model.cast<float>();
  Workspace<double> ws(model);
  Workspace<float> ws_f(model_f);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 1.0),
             tau = gen.vector(model.dof(), 5.0);
  const denoc::VecX<float> q_f = q.cast<float>(), qd_f = qd.cast<float>(),
                           tau_f = tau.cast<float>();
  const auto close = [](const auto& single, const auto& dbl, double tolerance) {
    const MatX s = single.template cast<double>();
    return relative_error(s, dbl) < tolerance;
  };
  EXPECT_TRUE(close(denoc::generalized_inertia(model_f, ws_f, q_f),
                    denoc::generalized_inertia(model, ws, q), 1e-5));
  EXPECT_TRUE(close(denoc::convective_inertia(model_f, ws_f, q_f, qd_f),
                    denoc::convective_inertia(model, ws, q, qd), 1e-4));
  EXPECT_TRUE(close(denoc::inverse_generalized_inertia(model_f, ws_f, q_f),
                    denoc::inverse_generalized_inertia(model, ws, q), 1e-3));
  EXPECT_TRUE(close(denoc::forward_dynamics_cholesky(model_f, ws_f, q_f, qd_f, tau_f),
                    denoc::forward_dynamics_cholesky(model, ws, q, qd, tau), 1e-3));
}

}  // namespace tree_inertia_test
