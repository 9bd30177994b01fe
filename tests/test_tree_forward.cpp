// Kinematic trees through the O(n) forward dynamics (U D U^T), the O(n^2) inverse from its
// factors and the Gibbs-Appell routes, on random trees against the reference of
// support/random_trees.hpp (base-frame Jacobians, no recursion shared with the library).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/random_trees.hpp"

namespace tree_forward_test {

using denoc::LinkSpec;
using denoc::Model;
using MatX = denoc::MatX<double>;
using VecX = denoc::VecX<double>;
using denoc_test::relative_error;
using denoc_test::tree_shapes;
using denoc_test::TreeGenerator;
using denoc_test::TreeReference;
using denoc_test::TreeShape;

std::string where(const TreeShape& shape) {
  return "branching " + std::to_string(shape.branching) + ", depth " + std::to_string(shape.depth);
}

// The worst errors over every shape, reported as test properties (as 1.2e-15).
struct Worst {
  double value = 0;
  void add(double e) { value = std::max(value, e); }
  std::string text() const {
    char out[32];
    std::snprintf(out, sizeof out, "%.2e", value);
    return out;
  }
};

// A drive on every other joint: rotor inertia G^2 Jm on the diagonal of the inertia matrix.
std::vector<LinkSpec<double>> with_drives(std::vector<LinkSpec<double>> links) {
  for (std::size_t k = 0; k < links.size(); k += 2) {
    links[k].drive.Jm = 2e-4 * static_cast<double>(k + 1);
    links[k].drive.G = k % 4 ? -40.0 : 25.0;
  }
  return links;
}

// qdd from the reference: M qdd = tau - h, h = tau(q, qd, 0) by the Jacobian-transpose reference.
VecX reference_accelerations(const TreeReference& ref, const VecX& qd, const VecX& tau) {
  const VecX h = ref.torques(qd, VecX::Zero(qd.size()));
  return ref.mass_matrix().ldlt().solve(tau - h);
}

void check_udu_forward_dynamics(const Model<double>& model, TreeGenerator& gen, Worst& fd,
                                Worst& id, const std::string& label) {
  denoc::Workspace<double> ws(model), ws_id(model);
  for (int sample = 0; sample < 2; ++sample) {
    const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0),
               tau = gen.vector(model.dof(), 20.0);
    const TreeReference ref(model, q, qd);
    const VecX qdd = denoc::forward_dynamics(model, ws, q, qd, tau);
    const double e_fd = relative_error(qdd, reference_accelerations(ref, qd, tau));
    fd.add(e_fd);
    ASSERT_LT(e_fd, 1e-10) << label;
    // The library's inverse dynamics of that qdd gives tau back.
    const double e_id = relative_error(denoc::inverse_dynamics(model, ws_id, q, qd, qdd), tau);
    id.add(e_id);
    ASSERT_LT(e_id, 1e-12) << label;
  }
}

TEST(UduForwardDynamics, RandomTreesSolveTheReferenceEquationsOfMotion) {
  TreeGenerator gen(31);
  Worst fd, id;
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    check_udu_forward_dynamics(model, gen, fd, id, where(shape));
  }
  RecordProperty("worst_qdd_error", fd.text());
  RecordProperty("worst_tau_roundtrip_error", id.text());
}

// U D U^T = M, U unit upper triangular with U_ik != 0 only where joint i supports joint k.
void check_udu_factors(const Model<double>& model, const VecX& q, Worst& worst,
                       const std::string& label) {
  denoc::Workspace<double> ws(model);
  denoc::udu_factors(model, ws, q);
  const MatX& U = ws.articulated.U;
  const MatX M = TreeReference(model, q, VecX::Zero(model.dof())).mass_matrix();
  const double e = relative_error(MatX(U * ws.articulated.m_hat.asDiagonal() * U.transpose()), M);
  worst.add(e);
  ASSERT_LT(e, 1e-12) << label;
  for (int i = 0; i < model.dof(); ++i) {
    EXPECT_EQ(U(i, i), 1.0) << label;
    for (int k = 0; k < model.dof(); ++k) {
      if (i == k) continue;
      if (i < k && model.supports(i, k)) {
        EXPECT_NE(U(i, k), 0.0) << label << ": U(" << i << ", " << k << ") on a path";
      } else {
        ASSERT_EQ(U(i, k), 0.0) << label << ": U(" << i << ", " << k << ") off the paths";
      }
    }
  }
}

TEST(UduFactors, RandomTreesFactorTheReferenceMassMatrixOnPathsOnly) {
  TreeGenerator gen(47);
  Worst worst;
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    check_udu_factors(model, gen.positions(model), worst, where(shape));
  }
  RecordProperty("worst_UDUt_error", worst.text());
}

TEST(InverseInertiaUdu, RandomTreesInvertTheReferenceMassMatrix) {
  TreeGenerator gen(53);
  Worst worst;
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    denoc::Workspace<double> ws(model);
    for (int sample = 0; sample < 2; ++sample) {
      const VecX q = gen.positions(model);
      const MatX M = TreeReference(model, q, VecX::Zero(model.dof())).mass_matrix();
      const MatX inverse = M.inverse();
      const MatX& X = denoc::inverse_inertia_udu(model, ws, q);
      const double e = relative_error(X, inverse);
      worst.add(e);
      ASSERT_LT(e, 1e-10) << where(shape);
      ASSERT_EQ(X, X.transpose()) << where(shape);
    }
  }
  RecordProperty("worst_inverse_error", worst.text());
}

// Gibbs-Appell: inverse dynamics, D with zeros between branches, and forward dynamics.
void check_gibbs_appell(const Model<double>& model, TreeGenerator& gen, Worst& id, Worst& D,
                        Worst& fd, const std::string& label) {
  denoc::GibbsAppellWorkspace<double> ga(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0),
             qdd = gen.vector(model.dof(), 5.0), tau = gen.vector(model.dof(), 20.0);
  const TreeReference ref(model, q, qd);
  const double e_id = relative_error(denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd),
                                     ref.torques(qd, qdd));
  id.add(e_id);
  ASSERT_LT(e_id, 1e-12) << label;
  const MatX& inertia = denoc::gibbs_appell_inertia(model, ga, q);
  const double e_D = relative_error(inertia, ref.mass_matrix());
  D.add(e_D);
  ASSERT_LT(e_D, 1e-12) << label;
  for (int i = 0; i < model.dof(); ++i) {
    for (int k = 0; k < model.dof(); ++k) {
      if (!model.supports(i, k) && !model.supports(k, i)) {
        ASSERT_EQ(inertia(i, k), 0.0) << label << ": D(" << i << ", " << k << ")";
      }
    }
  }
  const double e_fd = relative_error(denoc::forward_dynamics_gibbs_appell(model, ga, q, qd, tau),
                                     reference_accelerations(ref, qd, tau));
  fd.add(e_fd);
  ASSERT_LT(e_fd, 1e-10) << label;
}

TEST(GibbsAppell, RandomTreesAgreeWithTheReference) {
  TreeGenerator gen(61);
  Worst id, D, fd;
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    for (int sample = 0; sample < 2; ++sample)
      check_gibbs_appell(model, gen, id, D, fd, where(shape));
  }
  RecordProperty("worst_tau_error", id.text());
  RecordProperty("worst_D_error", D.text());
  RecordProperty("worst_qdd_error", fd.text());
}

TEST(GibbsAppell, BiasAndGravityAreTauAtRest) {
  TreeGenerator gen(67);
  const Model<double> model = gen.model(gen.tree({3, 5, 40}));
  denoc::GibbsAppellWorkspace<double> ga(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0);
  const VecX zero = VecX::Zero(model.dof());
  const TreeReference ref(model, q, qd), at_rest(model, q, zero);
  EXPECT_LT(relative_error(denoc::gibbs_appell_bias(model, ga, q, qd), ref.torques(qd, zero)),
            1e-12);
  EXPECT_LT(relative_error(denoc::gibbs_appell_gravity(model, ga, q), at_rest.torques(zero, zero)),
            1e-12);
}

// Rotor inertias of drives on a tree, through both routes and the factors.
TEST(Drives, RotorInertiaOnATreeThroughUduAndGibbsAppell) {
  TreeGenerator gen(71);
  Worst fd, id, D, ga_fd, udu, inverse;
  for (const TreeShape& shape : {TreeShape{2, 6, 40}, TreeShape{3, 4, 40}, TreeShape{4, 3, 40}}) {
    const Model<double> model = gen.model(with_drives(gen.tree(shape)));
    ASSERT_TRUE(model.has_rotors());
    check_udu_forward_dynamics(model, gen, fd, id, where(shape));
    check_gibbs_appell(model, gen, id, D, ga_fd, where(shape));
    const VecX q = gen.positions(model);
    check_udu_factors(model, q, udu, where(shape));
    denoc::Workspace<double> ws(model);
    const MatX M = TreeReference(model, q, VecX::Zero(model.dof())).mass_matrix();
    inverse.add(relative_error(denoc::inverse_inertia_udu(model, ws, q), MatX(M.inverse())));
  }
  EXPECT_LT(inverse.value, 1e-10);
  fd.add(ga_fd.value);
  RecordProperty("worst_qdd_error", fd.text());
}

// Two arms on one fixed base do not interact: the tree's accelerations are each arm's alone.
TEST(UduForwardDynamics, TwoArmsOnAFixedBaseAreEachArmAlone) {
  TreeGenerator gen(5);
  const auto& [tree, a, b] = gen.two_arms(4, 3);  // the tree, each arm alone
  denoc::Workspace<double> ws_tree(tree), ws_a(a), ws_b(b);
  denoc::GibbsAppellWorkspace<double> ga_tree(tree), ga_a(a);
  const VecX q = gen.positions(tree), qd = gen.vector(7, 2.0), tau = gen.vector(7, 10.0);
  const VecX qdd = denoc::forward_dynamics(tree, ws_tree, q, qd, tau);
  EXPECT_LT(relative_error(qdd.head(4),
                           denoc::forward_dynamics(a, ws_a, q.head(4), qd.head(4), tau.head(4))),
            1e-13);
  EXPECT_LT(relative_error(qdd.tail(3),
                           denoc::forward_dynamics(b, ws_b, q.tail(3), qd.tail(3), tau.tail(3))),
            1e-13);
  const MatX& X = denoc::inverse_inertia_udu(tree, ws_tree, q);
  EXPECT_EQ(X.topRightCorner(4, 3), MatX::Zero(4, 3));  // no coupling between the arms
  const VecX ga_qdd = denoc::forward_dynamics_gibbs_appell(tree, ga_tree, q, qd, tau);
  EXPECT_LT(relative_error(ga_qdd.head(4), denoc::forward_dynamics_gibbs_appell(
                                               a, ga_a, q.head(4), qd.head(4), tau.head(4))),
            1e-13);
}

// The recursions' chain code (ChainTopology, model/topology.hpp) against their tree code, which
// is its reference: two arms on one fixed base, run as a tree, give each arm's numbers, run as a
// chain, for the quantities of the DeNOC and Gibbs-Appell routes not held above (the inverse's
// blocks, the U D U^T pivots, the Gibbs-Appell torques, inertia matrix, bias and gravity).
TEST(Topology, ChainCodeAgreesWithTheTreeCodeOnTwoArms) {
  TreeGenerator gen(11);
  const auto& [tree, a, b] = gen.two_arms(5, 3);  // the tree, each arm alone
  denoc::Workspace<double> ws(tree), ws_a(a), ws_b(b);
  denoc::GibbsAppellWorkspace<double> ga(tree), ga_a(a), ga_b(b);
  const VecX q = gen.positions(tree), qd = gen.vector(8, 2.0), qdd = gen.vector(8, 5.0);
  const VecX qa = q.head(5), qb = q.tail(3), qda = qd.head(5), qdb = qd.tail(3);
  const VecX qdda = qdd.head(5), qddb = qdd.tail(3);
  const auto blocks = &TreeGenerator::block_diagonal;
  const auto joined = &TreeGenerator::stacked;
  EXPECT_LT(relative_error(denoc::inverse_inertia_udu(tree, ws, q),
                           blocks(denoc::inverse_inertia_udu(a, ws_a, qa),
                                  denoc::inverse_inertia_udu(b, ws_b, qb))),
            1e-12);
  denoc::forward_dynamics(tree, ws, q, qd, qdd);
  denoc::forward_dynamics(a, ws_a, qa, qda, qdda);
  denoc::forward_dynamics(b, ws_b, qb, qdb, qddb);
  EXPECT_LT(relative_error(denoc::last_udu_pivots(tree, ws).joints,
                           joined(denoc::last_udu_pivots(a, ws_a).joints,
                                  denoc::last_udu_pivots(b, ws_b).joints)),
            1e-14);
  EXPECT_LT(relative_error(denoc::gibbs_appell_inverse_dynamics(tree, ga, q, qd, qdd),
                           joined(denoc::gibbs_appell_inverse_dynamics(a, ga_a, qa, qda, qdda),
                                  denoc::gibbs_appell_inverse_dynamics(b, ga_b, qb, qdb, qddb))),
            1e-14);
  EXPECT_LT(relative_error(denoc::gibbs_appell_bias(tree, ga, q, qd),
                           joined(denoc::gibbs_appell_bias(a, ga_a, qa, qda),
                                  denoc::gibbs_appell_bias(b, ga_b, qb, qdb))),
            1e-14);
  EXPECT_LT(relative_error(denoc::gibbs_appell_gravity(tree, ga, q),
                           joined(denoc::gibbs_appell_gravity(a, ga_a, qa),
                                  denoc::gibbs_appell_gravity(b, ga_b, qb))),
            1e-14);
  EXPECT_LT(relative_error(denoc::gibbs_appell_inertia(tree, ga, q),
                           blocks(denoc::gibbs_appell_inertia(a, ga_a, qa),
                                  denoc::gibbs_appell_inertia(b, ga_b, qb))),
            1e-14);
}

// The routes of engine/dynamics.hpp reach the tree recursions (udu, gibbs-appell) instead of
// refusing.
TEST(Routes, UduAndGibbsAppellRunOnTrees) {
  TreeGenerator gen(73);
  const Model<double> model = gen.model(gen.tree({3, 4, 30}));
  denoc::Dynamics<double> d(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 1.0),
             tau = gen.vector(model.dof(), 10.0);
  const TreeReference ref(model, q, qd);
  const VecX expected = reference_accelerations(ref, qd, tau);
  for (denoc::Route route : {denoc::Route::udu, denoc::Route::gibbs_appell})
    EXPECT_LT(relative_error(denoc::forward_dynamics(route, d, q, qd, tau), expected), 1e-10)
        << denoc::route_name(route);
  const MatX inverse = ref.mass_matrix().inverse();
  EXPECT_LT(relative_error(denoc::inverse_inertia(denoc::Route::udu, d, q), inverse), 1e-10);
  EXPECT_LT(relative_error(denoc::generalized_inertia(denoc::Route::gibbs_appell, d, q),
                           ref.mass_matrix()),
            1e-12);
  EXPECT_LT(relative_error(denoc::inverse_dynamics(denoc::Route::gibbs_appell, d, q, qd,
                                                   VecX::Zero(model.dof())),
                           ref.torques(qd, VecX::Zero(model.dof()))),
            1e-12);
  EXPECT_EQ(denoc::udu_factors(denoc::Route::udu, d, q).U.rows(), model.dof());
}

// The float instantiation runs the tree code paths, to single precision.
TEST(Float, TreeRoutesInSinglePrecision) {
  TreeGenerator gen(79);
  const Model<double> model = gen.model(gen.tree({3, 4, 30}));
  const Model<float> model_f = model.cast<float>();
  ASSERT_FALSE(model_f.is_chain());
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 1.0),
             tau = gen.vector(model.dof(), 10.0);
  const denoc::VecX<float> q_f = q.cast<float>(), qd_f = qd.cast<float>(),
                           tau_f = tau.cast<float>();
  denoc::Workspace<double> ws(model);
  denoc::Workspace<float> ws_f(model_f);
  denoc::GibbsAppellWorkspace<float> ga_f(model_f);
  const VecX qdd = denoc::forward_dynamics(model, ws, q, qd, tau);
  const VecX qdd_f = denoc::forward_dynamics(model_f, ws_f, q_f, qd_f, tau_f).cast<double>();
  EXPECT_LT(relative_error(qdd_f, qdd), 1e-3);
  const VecX ga_qdd_f =
      denoc::forward_dynamics_gibbs_appell(model_f, ga_f, q_f, qd_f, tau_f).cast<double>();
  EXPECT_LT(relative_error(ga_qdd_f, qdd), 1e-3);
  const MatX inverse = denoc::inverse_inertia_udu(model, ws, q);
  const MatX inverse_f = denoc::inverse_inertia_udu(model_f, ws_f, q_f).cast<double>();
  EXPECT_LT(relative_error(inverse_f, inverse), 1e-3);
}

}  // namespace tree_forward_test
