// Trees against Orocos KDL's TreeIdSolver_RNE, the recursive Newton-Euler of another library on
// the same random trees: each link of the model is two KDL segments, a fixed one for its
// placement relative to the parent and one whose joint turns or slides about its z axis, carrying
// the link's mass, mass centre and inertia about it (KDL's inertia is in the segment's tip frame,
// which here is J_i). KDL numbers the joints in the order the segments are added: depth-first, as
// the model does.
#include <gtest/gtest.h>

#include <cstdio>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#include <string>

#include "denoc/denoc.hpp"
#include "support/random_trees.hpp"

namespace {

using VecX = denoc::VecX<double>;

KDL::Frame kdl_frame(const denoc::Transform<double>& X) {
  const auto& R = X.R;
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0),
                                  R(2, 1), R(2, 2)),
                    KDL::Vector(X.p.x(), X.p.y(), X.p.z()));
}

KDL::Tree kdl_tree(const denoc::Model<double>& model) {
  KDL::Tree tree("base");
  for (int i = 0; i < model.dof(); ++i) {
    const denoc::LinkSpec<double>& l = model.links()[static_cast<std::size_t>(i)];
    const std::string place = "place" + std::to_string(i), link = "link" + std::to_string(i);
    const std::string hook = l.parent < 0 ? "base" : "link" + std::to_string(l.parent);
    EXPECT_TRUE(tree.addSegment(
        KDL::Segment(place, KDL::Joint(KDL::Joint::Fixed), kdl_frame(l.placement)), hook));
    const auto& I = l.inertia;
    const KDL::RigidBodyInertia inertia(
        l.mass, KDL::Vector(l.com.x(), l.com.y(), l.com.z()),
        KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
    const KDL::Joint joint(l.type == denoc::JointType::revolute ? KDL::Joint::RotZ
                                                                : KDL::Joint::TransZ);
    EXPECT_TRUE(tree.addSegment(KDL::Segment(link, joint, KDL::Frame::Identity(), inertia), place));
  }
  return tree;
}

KDL::JntArray kdl_array(const VecX& v) {
  KDL::JntArray a(static_cast<unsigned>(v.size()));
  a.data = v;
  return a;
}

TEST(Kdl, TreeIdSolverRneAgreesOnRandomTrees) {
  denoc_test::TreeGenerator gen(314);
  double worst = 0;
  for (int branching = 1; branching <= 4; ++branching) {
    for (int depth = 1; depth <= 10; ++depth) {
      const denoc::Model<double> model = gen.model(gen.tree({branching, depth, 40}));
      const KDL::Tree tree = kdl_tree(model);
      ASSERT_EQ(tree.getNrOfJoints(), static_cast<unsigned>(model.dof()));
      const denoc::Vec3<double>& g = model.gravity();
      KDL::TreeIdSolver_RNE kdl(tree, KDL::Vector(g.x(), g.y(), g.z()));
      denoc::Workspace<double> ws(model);
      const VecX q = gen.positions(model), qd = gen.vector(model.dof(), 2.0),
                 qdd = gen.vector(model.dof(), 5.0);
      KDL::JntArray tau_kdl(static_cast<unsigned>(model.dof()));
      ASSERT_GE(
          kdl.CartToJnt(kdl_array(q), kdl_array(qd), kdl_array(qdd), KDL::WrenchMap(), tau_kdl), 0);
      const VecX tau = denoc::inverse_dynamics(model, ws, q, qd, qdd);
      const double e = (tau - tau_kdl.data).cwiseAbs().maxCoeff() /
                       std::max(1.0, tau_kdl.data.cwiseAbs().maxCoeff());
      worst = std::max(worst, e);
      EXPECT_LT(e, 1e-12) << "branching " << branching << ", depth " << depth;
    }
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", worst);
  RecordProperty("worst_relative_error", text);
}

}  // namespace
