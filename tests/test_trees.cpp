// Kinematic trees: the model's topology, and the DeNOC recursions on random trees against a
// reference that shares no recursion with them (support/random_trees.hpp).
#include <gtest/gtest.h>

#include <cstdio>

#include <stdexcept>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/random_trees.hpp"

namespace trees_test {

using denoc::JointType;
using denoc::LinkSpec;
using MatX = denoc::MatX<double>;
using denoc::Model;
using Vec3 = denoc::Vec3<double>;
using VecX = denoc::VecX<double>;
using denoc_test::relative_error;
using denoc_test::tree_shapes;
using denoc_test::TreeGenerator;
using denoc_test::TreeReference;
using denoc_test::TreeShape;

std::vector<LinkSpec<double>> links_with_parents(const std::vector<int>& parents) {
  TreeGenerator gen(7);
  std::vector<LinkSpec<double>> links;
  for (int p : parents)
    links.push_back(gen.link(p));
  return links;
}

TEST(Topology, ParentsSubtreesAndDepths) {
  // base - 0 - 1 - 2
  //          \- 3
  //   base - 4 - 5
  const Model<double> m(links_with_parents({-1, 0, 1, 0, -1, 4}));
  EXPECT_FALSE(m.is_chain());
  EXPECT_EQ(m.parents(), (std::vector<int>{-1, 0, 1, 0, -1, 4}));
  const std::vector<int> ends = {4, 3, 3, 4, 6, 6}, depths = {1, 2, 3, 2, 1, 2};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(m.subtree_end(i), ends[static_cast<std::size_t>(i)]) << i;
    EXPECT_EQ(m.depth(i), depths[static_cast<std::size_t>(i)]) << i;
  }
  EXPECT_TRUE(m.supports(0, 2));
  EXPECT_TRUE(m.supports(2, 2));
  EXPECT_FALSE(m.supports(1, 3));
  EXPECT_FALSE(m.supports(3, 1));
  EXPECT_FALSE(m.supports(0, 5));
}

TEST(Topology, DefaultParentsMakeAChain) {
  std::vector<LinkSpec<double>> links = links_with_parents({-2, -2, -2});
  const Model<double> by_default(links);
  EXPECT_TRUE(by_default.is_chain());
  EXPECT_EQ(by_default.parents(), (std::vector<int>{-1, 0, 1}));
  links[1].parent = 0;
  links[2].parent = 1;
  EXPECT_TRUE(Model<double>(links).is_chain());
  EXPECT_EQ(by_default.subtree_end(0), 3);
}

TEST(Topology, NumberingThatIsNotDepthFirstIsRefused) {
  // 2's parent 0 after 1's subtree has begun elsewhere is fine (0 is an ancestor of 1);
  // a parent after its child, or returning into a closed subtree, is not.
  EXPECT_NO_THROW(Model<double>(links_with_parents({-1, 0, 0})));
  EXPECT_THROW(Model<double>(links_with_parents({-1, 2, 0})), std::invalid_argument);
  EXPECT_THROW(Model<double>(links_with_parents({-1, 0, -1, 1})), std::invalid_argument);
  EXPECT_THROW(Model<double>(links_with_parents({-1, 0, 0, 1})), std::invalid_argument);
  EXPECT_THROW(Model<double>(links_with_parents({-1, -5})), std::invalid_argument);
}

TEST(InverseDynamics, RandomTreesAgreeWithTheJacobianTransposeReference) {
  TreeGenerator gen(2025);
  double worst = 0;
  for (const TreeShape& shape : tree_shapes()) {
    const Model<double> model = gen.model(gen.tree(shape));
    denoc::Workspace<double> ws(model);
    for (int sample = 0; sample < 3; ++sample) {
      const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0),
                 qdd = gen.vector(model.dof(), 5.0);
      const TreeReference ref(model, q, qd);
      const VecX tau = denoc::inverse_dynamics(model, ws, q, qd, qdd);
      const double e = relative_error(tau, ref.torques(qd, qdd));
      worst = std::max(worst, e);
      ASSERT_LT(e, 1e-12) << "branching " << shape.branching << ", depth " << shape.depth;
    }
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", worst);
  RecordProperty("worst_relative_error", text);
}

TEST(InverseDynamics, GravityAndBiasAreTauAtRest) {
  TreeGenerator gen(11);
  const Model<double> model = gen.model(gen.tree({3, 5, 40}));
  denoc::Workspace<double> ws(model);
  const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0);
  const VecX zero = VecX::Zero(model.dof());
  const TreeReference ref(model, q, qd), at_rest(model, q, zero);
  EXPECT_LT(relative_error(denoc::bias_forces(model, ws, q, qd), ref.torques(qd, zero)), 1e-12);
  EXPECT_LT(relative_error(denoc::gravity_forces(model, ws, q), at_rest.torques(zero, zero)),
            1e-12);
}

// Two arms on one fixed base do not interact: each arm's torques are those of the arm alone.
TEST(InverseDynamics, TwoArmsOnAFixedBaseAreEachArmAlone) {
  TreeGenerator gen(5);
  const auto& [tree, a, b] = gen.two_arms(4, 3);  // the tree, each arm alone
  denoc::Workspace<double> ws_tree(tree), ws_a(a), ws_b(b);
  const VecX q = gen.positions(tree), qd = gen.vector(7, 2.0), qdd = gen.vector(7, 5.0);
  const VecX tau = denoc::inverse_dynamics(tree, ws_tree, q, qd, qdd);
  const VecX tau_a = denoc::inverse_dynamics(a, ws_a, q.head(4), qd.head(4), qdd.head(4));
  const VecX tau_b = denoc::inverse_dynamics(b, ws_b, q.tail(3), qd.tail(3), qdd.tail(3));
  EXPECT_LT(relative_error(tau.head(4), tau_a), 1e-14);
  EXPECT_LT(relative_error(tau.tail(3), tau_b), 1e-14);
}

TEST(Energy, KineticAndPotentialOnRandomTrees) {
  TreeGenerator gen(99);
  for (const TreeShape& shape : {TreeShape{2, 6, 40}, TreeShape{4, 3, 40}}) {
    const Model<double> model = gen.model(gen.tree(shape));
    denoc::Workspace<double> ws(model);
    const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0);
    const TreeReference ref(model, q, qd);
    const double T = 0.5 * qd.dot(ref.mass_matrix() * qd);
    EXPECT_NEAR(denoc::kinetic_energy(model, ws, q, qd), T, 1e-12 * T);
    // dV/dq = g(q): the potential's gradient by central differences against the gravity forces.
    const VecX g = denoc::gravity_forces(model, ws, q);
    for (int i = 0; i < model.dof(); ++i) {
      const double h = 1e-6;
      VecX up = q, down = q;
      up[i] += h;
      down[i] -= h;
      const double dV =
          (denoc::potential_energy(model, ws, up) - denoc::potential_energy(model, ws, down)) /
          (2 * h);
      EXPECT_NEAR(dV, g[i], 1e-6 * std::max(1.0, g.cwiseAbs().maxCoeff())) << i;
    }
  }
}

TEST(Kinematics, TheToolJacobianHasColumnsOnlyOnTheLastLinksPath) {
  TreeGenerator gen(3);
  const Model<double> model = gen.model(gen.tree({3, 4, 40}));
  denoc::Workspace<double> ws(model);
  const VecX q = gen.positions(model), qd = VecX::Zero(model.dof());
  const TreeReference ref(model, q, qd);
  const auto& J = denoc::tool_jacobian(model, ws, q);
  const int tip = model.dof() - 1;
  const Vec3 origin = ws.tool_pose.p;
  const MatX expected_v = ref.linear_jacobian(tip, origin);
  const MatX expected_w = ref.angular_jacobian(tip);
  EXPECT_LT((J.topRows(3) - expected_v).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((J.bottomRows(3) - expected_w).cwiseAbs().maxCoeff(), 1e-13);
  for (int j = 0; j < model.dof(); ++j) {
    if (!model.supports(j, tip)) {
      EXPECT_TRUE(J.col(j).isZero(0)) << j;
    }
  }
}

}  // namespace trees_test
