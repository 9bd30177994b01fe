// Floating bases (docs/floating-base.md) on random chains and trees: the inertia matrix against
// the kinetic energy it is the Hessian of, the inverse dynamics against M a + h, the two forward
// dynamics routes and the two inverses against one another and against the formed matrix,
// gravity against the system's weight, and the world-frame Jacobian against the pose it
// differentiates; C and the U D U^T factors against the identities they satisfy.
#include <gtest/gtest.h>

#include <cmath>

#include "denoc/denoc.hpp"
#include "support/floating_bodies.hpp"
#include "support/random_trees.hpp"

namespace floating_base_test {

using denoc::Model;
using denoc::Transform;
using denoc::Vec3;
using denoc::Vec6;
using VecX = denoc::VecX<double>;
using MatX = denoc::MatX<double>;
using denoc_test::relative_error;
using denoc_test::TreeGenerator;

using denoc_test::floating_model;

// q: a random base position and unit quaternion, then the joints'.
VecX random_coordinates(TreeGenerator& gen, const Model<double>& model) {
  VecX q(model.nq());
  q.head<3>() = gen.vector(3, 2);
  q.segment<4>(3) = gen.vector(4, 1).normalized();
  q.tail(model.dof()) = gen.positions(model);
  return q;
}

std::vector<denoc_test::TreeShape> shapes() {
  std::vector<denoc_test::TreeShape> s;
  for (int branching = 1; branching <= 3; ++branching)
    for (int depth : {1, 3, 6})
      s.push_back({branching, depth, 25});
  s.push_back({1, 24, 24});  // a chain beyond the short-chain form of the inertia matrix
  return s;
}

TEST(FloatingBase, InertiaMatrixIsTheHessianOfTheKineticEnergy) {
  TreeGenerator gen(71);
  double worst = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const MatX M = denoc::generalized_inertia(model, ws, q);
    const int nv = model.nv();
    // T is quadratic in v: M_ij = T(e_i + e_j) - T(e_i) - T(e_j), and M_ii = 2 T(e_i).
    auto T = [&](const VecX& v) { return denoc::kinetic_energy(model, ws, q, v); };
    MatX reference(nv, nv);
    for (int i = 0; i < nv; ++i) {
      const VecX ei = VecX::Unit(nv, i);
      reference(i, i) = 2 * T(ei);
      for (int j = 0; j < i; ++j) {
        const VecX ej = VecX::Unit(nv, j);
        reference(i, j) = reference(j, i) = T(ei + ej) - T(ei) - T(ej);
      }
    }
    worst = std::max(worst, relative_error(M, reference));
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(FloatingBase, InverseDynamicsIsInertiaTimesAccelerationPlusBias) {
  TreeGenerator gen(72);
  double worst = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 2), a = gen.vector(model.nv(), 3);
    const VecX h = denoc::bias_forces(model, ws, q, v);
    const MatX M = denoc::generalized_inertia(model, ws, q);
    const VecX tau = denoc::inverse_dynamics(model, ws, q, v, a);
    worst = std::max(worst, relative_error(tau, VecX(M * a + h)));
  }
  EXPECT_LT(worst, 1e-13);
}

// Held still, the base must carry the whole weight: f = -m R^T g at its origin, and the moment
// of that force at the mass centre, c x f, c the system's mass centre in the base frame.
TEST(FloatingBase, GravityForcesCarryTheWholeWeight) {
  TreeGenerator gen(73);
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const VecX g = denoc::gravity_forces(model, ws, q);
    denoc::joint_poses(model, ws);
    const denoc_test::SystemMass system = denoc_test::system_mass(model, ws);
    const Vec3<double> f = -system.mass * (ws.base_pose.R.transpose() * model.gravity());
    const Vec3<double> n = denoc::cross(system.centre, f);
    EXPECT_LT((g.head<3>() - f).norm(), 1e-12 * f.norm());
    EXPECT_LT((g.segment<3>(3) - n).norm(), 1e-12 * f.norm());
  }
}

TEST(FloatingBase, ForwardDynamicsRoutesInvertTheInverseDynamics) {
  TreeGenerator gen(74);
  double worst_udu = 0, worst_cholesky = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 2), tau = gen.vector(model.dof(), 5);
    const VecX udu = denoc::forward_dynamics(model, ws, q, v, tau);
    const VecX cholesky = denoc::forward_dynamics_cholesky(model, ws, q, v, tau);
    VecX forces = VecX::Zero(model.nv());  // the base is not actuated
    forces.tail(model.dof()) = tau;
    worst_udu =
        std::max(worst_udu, relative_error(denoc::inverse_dynamics(model, ws, q, v, udu), forces));
    worst_cholesky = std::max(worst_cholesky, relative_error(udu, cholesky));
  }
  EXPECT_LT(worst_udu, 1e-12);
  EXPECT_LT(worst_cholesky, 1e-11);
}

TEST(FloatingBase, InverseInertiaRoutesAgreeWithTheFormedMatrix) {
  TreeGenerator gen(75);
  double worst_udu = 0, worst_cholesky = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const MatX M = denoc::generalized_inertia(model, ws, q);
    const MatX udu = denoc::inverse_inertia_udu(model, ws, q);
    const MatX cholesky = denoc::inverse_generalized_inertia(model, ws, q);
    const MatX identity = MatX::Identity(model.nv(), model.nv());
    worst_udu = std::max(worst_udu, relative_error(MatX(M * udu), identity));
    worst_cholesky = std::max(worst_cholesky, relative_error(MatX(M * cholesky), identity));
  }
  EXPECT_LT(worst_udu, 1e-11);
  EXPECT_LT(worst_cholesky, 1e-11);
}

// Along the path p(t) = p + t R v, R(t) = R exp(t [w x]) the base has the rates [v; w] at t = 0;
// the joints move at qd. The Jacobian times the rates is the frame's velocity in the world
// frame, compared with central differences of its pose.
TEST(FloatingBase, WorldJacobianDifferentiatesTheWorldPose) {
  TreeGenerator gen(76);
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 1);
    const denoc::BodyFrame<double> frame{model.dof() - 1, Transform<double>()};
    const Vec6<double> rate = denoc::frame_jacobian(model, ws, frame, q) * v;
    auto at = [&](double t) {
      const Transform<double> base = denoc::base_pose<double>(q);
      const Vec3<double> w = v.segment<3>(3);
      const Eigen::AngleAxisd turn(t * w.norm(), w.normalized());
      VecX qt = q;
      qt.head<3>() = base.p + t * base.R * v.head<3>();
      qt.segment<4>(3) = Eigen::Quaterniond(base.R * turn.toRotationMatrix()).coeffs();
      qt.tail(model.dof()) += t * v.tail(model.dof());
      return denoc::frame_pose(model, ws, frame, qt);
    };
    const double h = 1e-6;
    const Transform<double> plus = at(h), minus = at(-h);
    const Vec3<double> velocity = (plus.p - minus.p) / (2 * h);
    const denoc::Mat3<double> W = (plus.R - minus.R) / (2 * h) * at(0).R.transpose();
    const Vec3<double> omega((W(2, 1) - W(1, 2)) / 2, (W(0, 2) - W(2, 0)) / 2,
                             (W(1, 0) - W(0, 1)) / 2);
    EXPECT_LT((rate.head<3>() - velocity).norm(), 1e-7);
    EXPECT_LT((rate.tail<3>() - omega).norm(), 1e-7);
  }
}

// C v = h - g, and dI/dt - 2 C skew-symmetric: with the base's rates in its own frame the
// inertia matrix depends on the joints' coordinates only, so dI/dt is its central difference
// along the joints' rates.
TEST(FloatingBase, ConvectiveInertiaGivesTheBiasAndASkewSymmetricRate) {
  TreeGenerator gen(78);
  double worst_bias = 0, worst_skew = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const int n = model.dof();
    const VecX q = random_coordinates(gen, model), v = gen.vector(model.nv(), 2);
    const MatX C = denoc::convective_inertia(model, ws, q, v);
    const VecX h = denoc::bias_forces(model, ws, q, v);  // a copy: g reuses its storage
    const VecX h_less_g = h - denoc::gravity_forces(model, ws, q);
    worst_bias = std::max(worst_bias, relative_error(VecX(C * v), h_less_g));
    const double dt = 1e-6;
    VecX ahead = q, behind = q;
    ahead.tail(n) += dt * v.tail(n);
    behind.tail(n) -= dt * v.tail(n);
    const MatX M_ahead = denoc::generalized_inertia(model, ws, ahead);
    const MatX rate = (M_ahead - denoc::generalized_inertia(model, ws, behind)) / (2 * dt);
    const MatX K = rate - 2 * C;
    worst_skew =
        std::max(worst_skew, (K + K.transpose()).cwiseAbs().maxCoeff() / K.cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst_bias, 1e-13);
  EXPECT_LT(worst_skew, 1e-8);  // the central difference's truncation and rounding
}

// I = U D U^T with U unit upper triangular, non-zero above the diagonal only where rate i
// supports rate k (Model::rate_parents), and D positive.
TEST(FloatingBase, UduFactorsRebuildTheInertiaMatrix) {
  TreeGenerator gen(79);
  double worst = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Dynamics<double> d(model);
    const VecX q = random_coordinates(gen, model);
    const MatX M = denoc::generalized_inertia(model, d.denoc(), q);
    const denoc::UduFactors<double> f = denoc::udu_factors(denoc::Route::udu, d, q);
    ASSERT_EQ(f.U.rows(), model.nv());
    worst = std::max(worst, relative_error(MatX(f.U * f.d.asDiagonal() * f.U.transpose()), M));
    EXPECT_GT(f.d.minCoeff(), 0);
    for (int k = 0; k < model.nv(); ++k) {
      EXPECT_EQ(f.U(k, k), 1);
      std::vector<bool> supports(static_cast<std::size_t>(model.nv()), false);
      for (int i = model.rate_parents()[k]; i >= 0; i = model.rate_parents()[i])
        supports[static_cast<std::size_t>(i)] = true;
      for (int i = 0; i < model.nv(); ++i) {
        const bool zero = i > k || (i < k && !supports[static_cast<std::size_t>(i)]);
        if (zero) {
          EXPECT_EQ(f.U(i, k), 0) << "U(" << i << ", " << k << ")";
        }
      }
    }
  }
  EXPECT_LT(worst, 1e-13);
}

// The pivots that a run's positive-definiteness check computes on a workspace of its own
// (udu_pivots: Eqs. 47-50 alone) are bit for bit those the O(n) forward dynamics leaves. A base
// whose inertia no rigid body has (moments of -100 kg m^2, as inertia_checks: warn may let in)
// makes the base's pivot M^_0 indefinite, which they report, the joints' pivots still positive.
TEST(FloatingBase, PivotsOfTheirOwnAreTheForwardDynamicsPivots) {
  TreeGenerator gen(83);
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    denoc::PivotWorkspace<double> own(model);
    const VecX q = random_coordinates(gen, model);
    denoc::forward_dynamics(model, ws, q, gen.vector(model.nv(), 1), gen.vector(model.nv(), 1));
    const denoc::UduPivots<double> pivots = denoc::udu_pivots(model, own, q);
    EXPECT_TRUE(pivots.base_positive_definite);
    EXPECT_EQ(pivots.joints, denoc::last_udu_pivots(model, ws).joints);
  }
  denoc::RigidBody<double> no_body = denoc_test::random_base_body(gen);
  no_body.inertia = -100 * denoc::Mat3<double>::Identity();
  const Model<double> model(gen.tree({2, 3, 25}), Vec3<double>(0, 0, -9.81), Transform<double>(),
                            denoc::Payload<double>(), no_body);
  denoc::PivotWorkspace<double> own(model);
  const VecX q = random_coordinates(gen, model);
  const denoc::UduPivots<double> pivots = denoc::udu_pivots(model, own, q);
  EXPECT_FALSE(pivots.base_positive_definite);
  EXPECT_GT(pivots.joints.minCoeff(), 0);
  denoc::PivotWorkspace<double> other(floating_model(gen, {1, 1, 1}));
  EXPECT_THROW(denoc::udu_pivots(model, other, q), std::invalid_argument);
}

// An external wrench w (world frame) on a frame of a link or of the base: the forces become
// those of no wrench less J^T w, J the frame's world Jacobian; and forces on every rate, the
// base's included, come back from both forward dynamics routes.
TEST(FloatingBase, ExternalWrenchIsTheJacobianTransposeAndDrivesTheForwardDynamics) {
  TreeGenerator gen(80);
  double worst_wrench = 0, worst_udu = 0, worst_cholesky = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    const Model<double> model = floating_model(gen, shape);
    denoc::Workspace<double> ws(model);
    const VecX q = random_coordinates(gen, model);
    const VecX v = gen.vector(model.nv(), 2), a = gen.vector(model.nv(), 3);
    for (int link : {-1, model.dof() - 1, model.dof() / 2}) {
      denoc::BodyFrame<double> frame;
      frame.link = link;
      frame.placement = Transform<double>{gen.rotation(), Vec3<double>(gen.vector(3, 0.3))};
      const Vec6<double> w = gen.vector(6, 10);
      const MatX J = denoc::frame_jacobian(model, ws, frame, q);
      const VecX expected = denoc::inverse_dynamics(model, ws, q, v, a) - J.transpose() * w;
      denoc::inverse_dynamics(model, ws, q, v, a);
      const denoc::FrameWrench<double> wrench{frame, w};
      const VecX with_wrench = denoc::apply_frame_wrenches(model, ws, q, &wrench, 1);
      worst_wrench = std::max(worst_wrench, relative_error(with_wrench, expected));
    }
    const VecX forces = gen.vector(model.nv(), 5);
    const VecX udu = denoc::forward_dynamics(model, ws, q, v, forces);
    const VecX cholesky = denoc::forward_dynamics_cholesky(model, ws, q, v, forces);
    worst_udu =
        std::max(worst_udu, relative_error(denoc::inverse_dynamics(model, ws, q, v, udu), forces));
    worst_cholesky = std::max(worst_cholesky, relative_error(udu, cholesky));
  }
  EXPECT_LT(worst_wrench, 1e-13);
  EXPECT_LT(worst_udu, 1e-12);
  EXPECT_LT(worst_cholesky, 1e-11);
}

// Each route keeps its result in data of its own: the udu route's accelerations and inverse
// stay as they were after the cholesky route runs at another state (they shared one buffer with
// a floating base once), and the reverse.
TEST(FloatingBase, EachRouteKeepsItsOwnResult) {
  TreeGenerator gen(82);
  const Model<double> model = floating_model(gen, {2, 3, 10});
  denoc::Workspace<double> ws(model);
  const VecX q1 = random_coordinates(gen, model), q2 = random_coordinates(gen, model);
  const VecX v = gen.vector(model.nv(), 2), tau = gen.vector(model.nv(), 5);
  const VecX& udu = denoc::forward_dynamics(model, ws, q1, v, tau);
  const VecX udu_copy = udu;
  const VecX& cholesky = denoc::forward_dynamics_cholesky(model, ws, q2, v, tau);
  const VecX cholesky_copy = cholesky;
  EXPECT_EQ(udu, udu_copy);
  const MatX& inverse_udu = denoc::inverse_inertia_udu(model, ws, q1);
  const MatX inverse_udu_copy = inverse_udu;
  const MatX& inverse_cholesky = denoc::inverse_generalized_inertia(model, ws, q2);
  EXPECT_EQ(inverse_udu, inverse_udu_copy);
  EXPECT_GT((inverse_udu - inverse_cholesky).norm(), 1e-6);  // two states: two matrices
  EXPECT_EQ(cholesky, cholesky_copy);
}

// frame_wrench_forces, each wrench carried inwards, gives J^T w summed over the wrenches, J each
// frame's Jacobian (world frame) and w in the world frame, or given in the frame's own axes and
// turned by its orientation; apply_frame_wrenches takes the same sum out of the forces of
// inverse_dynamics. On fixed and floating bases, and for frames on the base too.
TEST(FloatingBase, FrameWrenchForcesAreTheJacobianTranspose) {
  TreeGenerator gen(81);
  double worst = 0, worst_applied = 0;
  for (const denoc_test::TreeShape& shape : shapes()) {
    for (bool floating : {false, true}) {
      const Model<double> model =
          floating ? floating_model(gen, shape) : gen.model(gen.tree(shape));
      denoc::Workspace<double> ws(model);
      const VecX q = floating ? random_coordinates(gen, model) : gen.vector(model.nq(), 3);
      std::vector<denoc::FrameWrench<double>> wrenches;
      VecX expected = VecX::Zero(model.nv());
      for (int link : {-1, model.dof() - 1, model.dof() / 2}) {
        for (bool in_frame_axes : {false, true}) {
          denoc::BodyFrame<double> frame;
          frame.link = link;
          frame.placement = Transform<double>{gen.rotation(), Vec3<double>(gen.vector(3, 0.3))};
          const Vec6<double> w = gen.vector(6, 10);
          Vec6<double> w_world = w;
          if (in_frame_axes) {
            const denoc::Mat3<double> R = denoc::frame_pose(model, ws, frame, q).R;
            w_world << R * w.head<3>(), R * w.tail<3>();
          }
          expected += denoc::frame_jacobian(model, ws, frame, q).transpose() * w_world;
          wrenches.push_back({frame, w, in_frame_axes});
        }
      }
      const int count = static_cast<int>(wrenches.size());
      VecX forces = VecX::Constant(model.nv(), 7);  // overwritten, not added to
      denoc::frame_wrench_forces(model, ws, q, wrenches.data(), count, forces);
      worst = std::max(worst, relative_error(forces, expected));
      const VecX v = gen.vector(model.nv(), 2), a = gen.vector(model.nv(), 3);
      const VecX plain = denoc::inverse_dynamics(model, ws, q, v, a);  // ws left at this state
      const VecX applied = denoc::apply_frame_wrenches(model, ws, q, wrenches.data(), count);
      worst_applied = std::max(worst_applied, relative_error(applied, plain - expected));
    }
  }
  EXPECT_LT(worst, 1e-13);
  EXPECT_LT(worst_applied, 1e-13);
}

// The routes that do not carry the base refuse a floating one by name, and a fixed base refuses
// the coordinates of a floating one.
TEST(FloatingBase, RoutesThatDoNotCarryTheBaseRefuseIt) {
  TreeGenerator gen(77);
  const Model<double> model = floating_model(gen, {2, 3, 10});
  denoc::Dynamics<double> d(model);
  const VecX q = random_coordinates(gen, model), v = VecX::Zero(model.nv());
  EXPECT_THROW(denoc::inverse_dynamics(denoc::Route::gibbs_appell, d, q, v, v),
               std::invalid_argument);
  EXPECT_THROW(denoc::forward_dynamics(denoc::Route::fixman, d, q, v, VecX::Zero(model.dof())),
               std::invalid_argument);
  const Model<double> fixed = gen.model(gen.tree({2, 3, 10}));
  denoc::Workspace<double> ws(fixed);
  EXPECT_THROW(denoc::generalized_inertia(fixed, ws, VecX::Zero(fixed.nq() + 7)),
               std::invalid_argument);
}

}  // namespace floating_base_test
