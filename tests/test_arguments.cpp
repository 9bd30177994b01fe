// The library's public functions refuse what they cannot compute (model/arguments.hpp), in
// Release as in Debug, with std::invalid_argument naming the function and the argument: a vector
// of the wrong length (a floating base's coordinates are 7 + n, its rates 6 + n), a workspace built
// for another model, Gibbs-Appell on a floating base, the extended Fixman method on a tree, a frame
// on a link the model lacks. And a Dynamics bundle keeps its model alive.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "denoc/denoc.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/motion/body_motion.hpp"

namespace arguments_test {

using denoc::MatX;
using denoc::Model;
using denoc::VecX;

const std::string kRobots = DENOC_ROBOTS_DIR;

Model<double> stanford() {
  return denoc::load_robot_file(kRobots + "/stanford.yaml").model;
}
Model<double> solo(bool floating) {
  denoc::ChainSelection selection;
  selection.floating_base = floating;
  return denoc::load_robot_file(kRobots + "/solo12.urdf", {}, selection).model;
}

// Runs f, which must throw std::invalid_argument whose message holds every one of `words`.
template <typename F>
void expect_refused(F f, std::initializer_list<const char*> words) {
  try {
    f();
    ADD_FAILURE() << "not refused";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    for (const char* word : words)
      EXPECT_NE(message.find(word), std::string::npos) << message;
  }
}

TEST(Arguments, AVectorOfTheWrongLengthIsRefusedByName) {
  const Model<double> model = stanford();  // 6 joints
  denoc::Workspace<double> ws(model);
  const VecX<double> six = VecX<double>::Zero(6), three = VecX<double>::Zero(3);
  expect_refused([&] { denoc::inverse_dynamics(model, ws, three, six, six); },
                 {"inverse_dynamics", "q has 3 entries", "6 joints"});
  expect_refused([&] { denoc::inverse_dynamics(model, ws, six, six, three); }, {"qdd has 3"});
  expect_refused([&] { denoc::bias_forces(model, ws, six, three); }, {"bias_forces", "qd"});
  expect_refused([&] { denoc::forward_dynamics(model, ws, six, six, three); },
                 {"forward_dynamics", "tau has 3"});
  expect_refused([&] { denoc::generalized_inertia(model, ws, three); }, {"generalized_inertia"});
  expect_refused([&] { denoc::inverse_inertia_udu(model, ws, three); }, {"inverse_inertia_udu"});
  expect_refused([&] { denoc::convective_inertia(model, ws, six, three); }, {"convective_inertia"});
  expect_refused([&] { denoc::kinetic_energy(model, ws, six, three); }, {"kinetic_energy"});
  expect_refused([&] { denoc::tool_pose(model, ws, three); }, {"frame_pose", "q has 3"});
  expect_refused([&] { denoc::update_joint_frames(model, ws, three); },
                 {"update_joint_frames", "q has 3"});
  denoc::GibbsAppellWorkspace<double> ga(model);
  expect_refused([&] { denoc::gibbs_appell_inertia(model, ga, three); },
                 {"gibbs_appell_inertia", "q has 3"});
  denoc::FixmanWorkspace<double> fx(model);
  expect_refused([&] { denoc::fixman_solve(model, fx, six, three); }, {"fixman_apply", "b has 3"});
  // The right lengths still compute: the holding torques of the arm are not all zero.
  EXPECT_GT(denoc::gravity_forces(model, ws, six).norm(), 1.0);
}

TEST(Arguments, AWorkspaceOfAnotherModelIsRefused) {
  const Model<double> arm = stanford();
  const Model<double> tree = solo(false);
  denoc::Workspace<double> of_arm(arm);
  const VecX<double> q = VecX<double>::Zero(tree.dof());
  expect_refused([&] { denoc::gravity_forces(tree, of_arm, q); },
                 {"gravity_forces", "the workspace was built for another model"});
  expect_refused([&] { denoc::joint_poses(tree, of_arm); }, {"joint_poses", "another model"});
  // A chain's workspace of the same length lacks the per-joint sums of a tree's recursions.
  denoc::LinkSpec<double> link = arm.links().front();
  link.parent = denoc::LinkSpec<double>::kPrevious;
  const Model<double> chain_of_12(std::vector<denoc::LinkSpec<double>>(12, link));
  ASSERT_TRUE(chain_of_12.is_chain());
  denoc::Workspace<double> of_chain(chain_of_12);
  expect_refused([&] { denoc::forward_dynamics(tree, of_chain, q, q, q); }, {"another model"});
}

TEST(Arguments, TheVectorsMustBeOfTheBasesKind) {
  const Model<double> floating = solo(true), fixed = solo(false);
  denoc::Workspace<double> ws(floating), ws_fixed(fixed);
  const VecX<double> joints = VecX<double>::Zero(floating.dof());
  // One function per quantity for either base: with a floating base it takes 7 + n coordinates
  // and 6 + n rates, and the joints' alone are refused by name (they would leave the base's
  // motion of an earlier call in ws).
  expect_refused([&] { denoc::inverse_dynamics(floating, ws, joints, joints, joints); },
                 {"inverse_dynamics", "q has 12 entries", "19 coordinates"});
  expect_refused([&] { denoc::generalized_inertia(floating, ws, joints); },
                 {"generalized_inertia", "19 coordinates"});
  expect_refused([&] { denoc::forward_dynamics(floating, ws, joints, joints, joints); },
                 {"forward_dynamics", "19 coordinates"});
  VecX<double> q = VecX<double>::Zero(floating.nq());
  q[6] = 1;
  const VecX<double> v = VecX<double>::Zero(floating.nv());
  expect_refused([&] { denoc::inverse_dynamics(floating, ws, q, joints, v); },
                 {"qd has 12 entries", "18 rates"});
  expect_refused([&] { denoc::inverse_dynamics(floating, ws, q, v, joints); },
                 {"qdd has 12 entries", "18 rates"});
  // A fixed base takes the joints' n, and a floating base's coordinates are refused.
  expect_refused([&] { denoc::generalized_inertia(fixed, ws_fixed, q); },
                 {"generalized_inertia", "q has 19 entries", "12 joints"});
  // Gibbs-Appell's recursions have no base: they refuse a floating one by name.
  denoc::GibbsAppellWorkspace<double> ga(floating);
  expect_refused(
      [&] { denoc::gibbs_appell_inverse_dynamics(floating, ga, joints, joints, joints); },
      {"gibbs_appell_inverse_dynamics takes a fixed base"});
  // At rest the base carries the weight: its vertical force is m g.
  const double weight = denoc::gravity_forces(floating, ws, q)[2];
  EXPECT_NEAR(weight, denoc::generalized_inertia(floating, ws, q)(0, 0) * 9.81, 1e-9);
}

TEST(Arguments, FixmanRefusesATreeInsteadOfAnsweringWrongly) {
  const Model<double> tree = solo(false);
  denoc::FixmanWorkspace<double> fx(tree);
  const VecX<double> q = VecX<double>::Zero(tree.dof());
  expect_refused([&] { denoc::fixman_solve(tree, fx, q, q); }, {"fixman_factor", "tree"});
}

TEST(Arguments, AFrameOnALinkTheModelLacksIsRefused) {
  const Model<double> model = stanford();
  denoc::Workspace<double> ws(model);
  const VecX<double> q = VecX<double>::Zero(6);
  const denoc::BodyFrame<double> beyond{6, {}};
  expect_refused([&] { denoc::frame_pose(model, ws, beyond, q); },
                 {"frame_pose", "link 7", "links 1 to 6"});
  expect_refused([&] { denoc::frame_jacobian(model, ws, beyond, q); }, {"frame_jacobian"});
  denoc::gravity_forces(model, ws, q);
  expect_refused(
      [&] {
        denoc::apply_frame_wrench(model, ws, beyond,
                                  denoc::Vec6<double>(denoc::Vec6<double>::Zero()));
      },
      {"apply_frame_wrench"});
  denoc::BodyMotionWorkspace<double> motion(model);
  expect_refused([&] { denoc::frame_velocity(motion, beyond); }, {"no link 7"});
}

TEST(Arguments, ADynamicsBundleOwnsItsModel) {
  // Built from a temporary: the bundle keeps its own.
  denoc::Dynamics<double> dynamics(stanford());
  const VecX<double> q = VecX<double>::Zero(6);
  const VecX<double> g = denoc::gravity_forces(denoc::Route::denoc, dynamics, q);
  denoc::Workspace<double> ws(dynamics.model());
  EXPECT_EQ(g, denoc::gravity_forces(dynamics.model(), ws, q));
  // Shared: the same model, not a copy.
  auto shared = std::make_shared<const Model<double>>(stanford());
  denoc::Dynamics<double> sharing(shared);
  EXPECT_EQ(&sharing.model(), shared.get());
  expect_refused([] { denoc::Dynamics<double>(std::shared_ptr<const Model<double>>()); }, {"null"});
}

// ridim's and the Python module's engines keep their own model too: built from robot files that
// are gone before the first sample (the sanitizer build would stop on a read of one), their torques
// and forward dynamics still invert each other.
TEST(Arguments, TheSampleEnginesKeepTheirOwnModel) {
  const std::string path = kRobots + "/stanford.yaml";
  denoc::SampleQuantities torques(denoc::load_robot_file(path), denoc::Quantity::torques,
                                  denoc::Route::denoc);
  denoc::ForwardDynamics forward(denoc::load_robot_file(path), denoc::Route::udu);
  const VecX<double> q = VecX<double>::Constant(6, 0.3), qd = VecX<double>::Constant(6, -0.2);
  const VecX<double> qdd = VecX<double>::LinSpaced(6, -1, 1);
  VecX<double> tau(torques.size());
  torques.evaluate(q, qd, qdd, tau);
  EXPECT_GT(tau.norm(), 1.0);
  EXPECT_LT((forward(q, qd, tau) - qdd).norm(), 1e-10);
}

}  // namespace arguments_test
