// The quantities of a frame and of the whole robot in the world frame (docs/legged.md), on random
// trees with revolute and prismatic joints, fixed and floating, each against an independent
// computation: a frame's velocity against the geometric Jacobian times the rates, its
// acceleration against the rate of that velocity along the motion, the centre of mass against the
// poses of the mass centres, J_G v and A_G v against the velocity and the momentum summed body by
// body, A_G against the base's rows of the inertia matrix, and the momentum's rate in free motion
// against the weight (the joints' forces are internal).
#include <gtest/gtest.h>

#include <cmath>

#include "denoc/denoc.hpp"
#include "denoc/motion/centre_of_mass.hpp"
#include "support/floating_bodies.hpp"
#include "support/random_trees.hpp"

namespace {

using denoc::BodyFrame;
using denoc::Model;
using denoc::Transform;
using denoc::Vec3;
using denoc::Vec6;
using VecX = denoc::VecX<double>;
using MatX = denoc::MatX<double>;
using denoc_test::relative_error;
using denoc_test::TreeGenerator;

std::vector<denoc_test::TreeShape> shapes() {
  std::vector<denoc_test::TreeShape> s;
  for (int branching = 1; branching <= 3; ++branching)
    for (int depth : {1, 3, 6})
      s.push_back({branching, depth, 25});
  return s;
}

// Fixed-base and floating-base models of each shape.
std::vector<Model<double>> models(TreeGenerator& gen) {
  std::vector<Model<double>> out;
  for (const denoc_test::TreeShape& shape : shapes()) {
    out.emplace_back(gen.tree(shape), Vec3<double>(0.4, -1.1, -9.81));
    out.push_back(denoc_test::floating_model(gen, shape));
  }
  return out;
}

// q: with a floating base a random position and unit quaternion first.
VecX random_coordinates(TreeGenerator& gen, const Model<double>& model) {
  VecX q(model.nq());
  if (model.floating()) {
    q.head<3>() = gen.vector(3, 2);
    q.segment<4>(3) = gen.vector(4, 1).normalized();
  }
  q.tail(model.dof()) = gen.positions(model);
  return q;
}

// A frame on a random link (or the base), placed anywhere.
BodyFrame<double> random_frame(TreeGenerator& gen, const Model<double>& model) {
  return {gen.integer(-1, model.dof() - 1),
          Transform<double>{gen.rotation(), Vec3<double>(gen.vector(3, 0.5))}};
}

// q(t) to second order along the motion with rates v + t a: the joints' coordinates by Taylor,
// the base's position by p + t R v + t^2/2 R (dv + w x v), its orientation R exp(t w + t^2/2 dw).
VecX along_motion(const Model<double>& model, const VecX& q, const VecX& v, const VecX& a,
                  double t) {
  VecX out = q;
  const int n = model.dof();
  out.tail(n) += t * v.tail(n) + t * t / 2 * a.tail(n);
  if (!model.floating()) return out;
  const Transform<double> base = denoc::base_pose<double>(q);
  const Vec3<double> lin = v.head<3>(), w = v.segment<3>(3);
  out.head<3>() =
      base.p + t * base.R * lin + t * t / 2 * base.R * (a.head<3>() + w.cross(lin)).eval();
  const Vec3<double> turn = t * w + t * t / 2 * a.segment<3>(3);
  const Eigen::AngleAxisd rotation(turn.norm(), turn.normalized());
  out.segment<4>(3) = Eigen::Quaterniond(base.R * rotation.toRotationMatrix()).coeffs();
  return out;
}

// The frame's world Jacobian by the kinematics of the pose and Jacobian quantities.
MatX world_jacobian(const Model<double>& model, denoc::Workspace<double>& ws,
                    const BodyFrame<double>& frame, const VecX& q) {
  return denoc::frame_jacobian(model, ws, frame, q);
}

TEST(Frames, VelocityIsTheJacobianTimesTheRates) {
  TreeGenerator gen(181);
  double worst = 0;
  for (const Model<double>& model : models(gen)) {
    denoc::Workspace<double> ws(model);
    denoc::BodyMotionWorkspace<double> motion(model);
    for (int trial = 0; trial < 3; ++trial) {
      const VecX q = random_coordinates(gen, model), v = gen.vector(model.nv(), 2);
      const BodyFrame<double> frame = random_frame(gen, model);
      denoc::body_poses(model, motion, q);
      denoc::body_velocities(model, motion, v);
      const VecX expected = world_jacobian(model, ws, frame, q) * v;
      worst = std::max(worst, relative_error(denoc::frame_velocity(motion, frame), expected));
    }
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(Frames, AccelerationIsTheRateOfTheVelocity) {
  TreeGenerator gen(182);
  double worst = 0;
  for (const Model<double>& model : models(gen)) {
    denoc::BodyMotionWorkspace<double> motion(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 2), a = gen.vector(model.nv(), 3);
    const BodyFrame<double> frame = random_frame(gen, model);
    auto velocity = [&](double t) {
      denoc::body_poses(model, motion, along_motion(model, q, v, a, t));
      denoc::body_velocities(model, motion, VecX(v + t * a));
      return denoc::frame_velocity(motion, frame);
    };
    const double h = 1e-4;
    const Vec6<double> rate = (velocity(h) - velocity(-h)) / (2 * h);
    denoc::body_poses(model, motion, q);
    denoc::body_velocities(model, motion, v);
    denoc::body_accelerations(model, motion, v, a);
    worst = std::max(worst, relative_error(denoc::frame_acceleration(motion, frame), rate));
  }
  EXPECT_LT(worst, 1e-6);
}

TEST(CentreOfMass, IsTheMassWeightedMeanOfTheMassCentresPoses) {
  TreeGenerator gen(183);
  for (const Model<double>& model : models(gen)) {
    denoc::Workspace<double> ws(model);
    denoc::CentroidalWorkspace<double> centroidal(model);
    const VecX q = random_coordinates(gen, model);
    // Each mass centre as a frame at d_i on its link, placed by the pose quantity's kinematics.
    auto place = [&](const BodyFrame<double>& f) { return denoc::frame_pose(model, ws, f, q).p; };
    double mass = model.floating() ? model.base_body().mass : 0;
    Vec3<double> moment =
        model.floating()
            ? Vec3<double>(mass *
                           place({-1, {denoc::Mat3<double>::Identity(), model.base_body().com}}))
            : Vec3<double>::Zero();
    for (int i = 0; i < model.dof(); ++i) {
      const double m = model.joint(i).M.mass;
      mass += m;
      moment += m * place({i, {denoc::Mat3<double>::Identity(), model.joint(i).d}});
    }
    const Vec3<double> G = denoc::centre_of_mass(model, centroidal, q);
    EXPECT_NEAR(centroidal.mass, mass, 1e-13 * mass);
    EXPECT_LT(relative_error(G, moment / mass), 1e-13);
  }
}

TEST(CentreOfMass, VelocityIsItsJacobianTimesTheRates) {
  TreeGenerator gen(184);
  double worst = 0;
  for (const Model<double>& model : models(gen)) {
    denoc::CentroidalWorkspace<double> ws(model);
    const VecX q = random_coordinates(gen, model), v = gen.vector(model.nv(), 2);
    const Vec3<double> velocity = denoc::centre_of_mass_velocity(model, ws, q, v);
    const VecX expected = denoc::centre_of_mass_jacobian(model, ws, q) * v;
    worst = std::max(worst, relative_error(velocity, expected));
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(Centroidal, MatrixTimesTheRatesIsTheMomentumSummedBodyByBody) {
  TreeGenerator gen(185);
  double worst = 0, worst_linear = 0;
  for (const Model<double>& model : models(gen)) {
    denoc::CentroidalWorkspace<double> ws(model);
    const VecX q = random_coordinates(gen, model), v = gen.vector(model.nv(), 2);
    const Vec6<double> h = denoc::centroidal_momentum(model, ws, q, v);
    const VecX from_matrix = denoc::centroidal_matrix(model, ws, q) * v;
    worst = std::max(worst, relative_error(from_matrix, h));
    // l = m dG/dt, and the first rows of A_G are m J_G.
    const Vec3<double> l = ws.mass * denoc::centre_of_mass_velocity(model, ws, q, v);
    worst_linear = std::max(worst_linear, relative_error(h.head<3>(), l));
    const MatX Ag_linear = denoc::centroidal_matrix(model, ws, q).topRows(3);
    const MatX JG = denoc::centre_of_mass_jacobian(model, ws, q);
    worst_linear = std::max(worst_linear, relative_error(Ag_linear, MatX(ws.mass * JG)));
  }
  EXPECT_LT(worst, 1e-13);
  EXPECT_LT(worst_linear, 1e-13);
}

// With the base's rates [v; w] in its own frame, the first six rows of M v are the momentum in
// the base frame: R^T l and R^T k_p about the base origin p. So A_G = [R M_v; R M_w + [(p - G) x]
// R M_v], M_v and M_w those rows of the inertia matrix of the dynamics routes.
TEST(Centroidal, FloatingMatrixIsTheBaseRowsOfTheInertiaMatrixCarriedToTheCentreOfMass) {
  TreeGenerator gen(186);
  double worst = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = denoc_test::floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    denoc::CentroidalWorkspace<double> centroidal(model);
    const VecX q = random_coordinates(gen, model);
    const MatX M = denoc::generalized_inertia(model, ws, q);
    const Transform<double> base = denoc::base_pose<double>(q);
    const Vec3<double> G = denoc::centre_of_mass(model, centroidal, q);
    MatX expected(6, model.nv());
    expected.topRows(3) = base.R * M.topRows(3);
    expected.bottomRows(3) = base.R * M.middleRows(3, 3) +
                             denoc::cross_matrix(Vec3<double>(base.p - G)) * expected.topRows(3);
    worst =
        std::max(worst, relative_error(denoc::centroidal_matrix(model, centroidal, q), expected));
  }
  EXPECT_LT(worst, 1e-13);
}

// Free of any wrench but gravity, dh_G/dt = [m g; 0] whatever the joints' forces: they are
// internal. The rate is the central difference along the motion that the forward dynamics gives.
TEST(Centroidal, MomentumChangesOnlyByTheWeightWhenTheBaseIsFree) {
  TreeGenerator gen(187);
  double worst = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = denoc_test::floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    denoc::CentroidalWorkspace<double> centroidal(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 1), tau = gen.vector(model.dof(), 5);
    const VecX a = denoc::forward_dynamics(model, ws, q, v, tau);
    auto momentum = [&](double t) {
      return denoc::centroidal_momentum(model, centroidal, along_motion(model, q, v, a, t),
                                        VecX(v + t * a));
    };
    const double h = 1e-4;
    const Vec6<double> rate = (momentum(h) - momentum(-h)) / (2 * h);
    Vec6<double> weight = Vec6<double>::Zero();
    denoc::centre_of_mass(model, centroidal, q);
    weight.head<3>() = centroidal.mass * model.gravity();
    worst = std::max(worst, relative_error(rate, weight));
  }
  EXPECT_LT(worst, 1e-6);
}

// A fixed base leaves itself out: one link turning about z at the base origin, its mass centre at
// radius r, gives G at r, dG/dt = w x G, and k_G = I_zz w (the link about its own mass centre).
TEST(Centroidal, OneTurningLinkInClosedForm) {
  denoc::LinkSpec<double> link;
  link.mass = 3;
  link.com = Vec3<double>(0.5, 0, 0);
  link.inertia = Vec3<double>(0.1, 0.2, 0.3).asDiagonal();
  const Model<double> model({link});
  denoc::CentroidalWorkspace<double> ws(model);
  const double angle = 0.7, rate = 2.0;
  const VecX q = VecX::Constant(1, angle), v = VecX::Constant(1, rate);
  const Vec3<double> G = denoc::centre_of_mass(model, ws, q);
  EXPECT_NEAR(ws.mass, 3, 1e-15);
  EXPECT_LT((G - Vec3<double>(0.5 * std::cos(angle), 0.5 * std::sin(angle), 0)).norm(), 1e-15);
  const Vec6<double> h = denoc::centroidal_momentum(model, ws, q, v);
  const Vec3<double> velocity = Vec3<double>(0, 0, rate).cross(G);
  EXPECT_LT((h.head<3>() - 3 * velocity).norm(), 1e-14);
  EXPECT_LT((h.tail<3>() - Vec3<double>(0, 0, 0.3 * rate)).norm(), 1e-14);
}

}  // namespace
