// The derivatives of the dynamics (docs/derivatives.md) on random trees, chains among them, with
// fixed and floating bases, revolute and prismatic joints, and drives with rotors and friction:
//  - against dual numbers: the DeNOC inverse dynamics and the U D U^T forward dynamics run on a
//    dual scalar along each coordinate (along integrate for the base), exact to rounding and
//    sharing nothing with the derivative recursions;
//  - against central differences of the same, in double;
//  - against identities: d tau / d qdd is the inertia matrix; tau is quadratic in qd, so
//    d tau / d qd at (q, qd) times qd is twice the velocity terms; moving a floating base along its
//    own axes or turning it about gravity leaves tau as it is; d qdd / d tau is the inverse of the
//    inertia matrix.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "denoc/denoc.hpp"
#include "support/dual.hpp"
#include "support/floating_bodies.hpp"
#include "support/random_trees.hpp"

namespace test_derivatives {

using denoc::Model;
using denoc::Vec3;
using denoc_test::Dual;
using denoc_test::relative_error;
using denoc_test::TreeGenerator;
using VecX = denoc::VecX<double>;
using MatX = denoc::MatX<double>;
using DualX = denoc::VecX<Dual>;

// Drives on every joint: rotors, viscous friction and (asymmetric) Coulomb friction.
std::vector<denoc::LinkSpec<double>> with_drives(TreeGenerator& gen,
                                                 std::vector<denoc::LinkSpec<double>> links) {
  for (denoc::LinkSpec<double>& l : links) {
    l.drive.G = gen.uniform(-50, 50);
    l.drive.Jm = gen.uniform(1e-5, 1e-4);
    l.drive.B = gen.uniform(0, 1e-3);
    l.drive.Tc_pos = gen.uniform(0, 0.1);
    l.drive.Tc_neg = -gen.uniform(0, 0.1);
  }
  return links;
}

// Fixed and floating trees of several shapes (branching 1: chains), half of them with drives.
std::vector<Model<double>> models(TreeGenerator& gen) {
  std::vector<Model<double>> out;
  int k = 0;
  for (int branching : {1, 2, 3})
    for (int depth : {1, 4, 7}) {
      const denoc_test::TreeShape shape{branching, depth, 20};
      auto links = gen.tree(shape);
      if (k++ % 2) links = with_drives(gen, links);
      out.emplace_back(links, Vec3<double>(0.4, -1.1, -9.81));
      const denoc::RigidBody<double> base = denoc_test::random_base_body(gen);
      out.emplace_back(links, Vec3<double>(1.3, -4.2, -8.1), denoc::Transform<double>(),
                       denoc::Payload<double>(), base);
    }
  return out;
}

struct State {
  VecX q, qd, qdd;
};

State random_state(TreeGenerator& gen, const Model<double>& model) {
  State s{VecX(model.nq()), gen.vector(model.nv(), 2), gen.vector(model.nv(), 3)};
  if (model.floating()) {
    s.q.head<3>() = gen.vector(3, 2);
    s.q.segment<4>(3) = gen.vector(4, 1).normalized();
  }
  s.q.tail(model.dof()) = gen.positions(model);
  return s;
}

// integrate(q, e u_j) of docs/derivatives.md to first order in e, for a dual e: the base moved by
// R (e v) and turned by the quaternion (1, e w / 2) on the right, the joints by e u_j. Exact for
// dual numbers, whose e^2 vanishes.
DualX moved(const Model<double>& model, const VecX& q, int j) {
  DualX out = q.cast<Dual>();
  if (!model.floating() || j >= 6) {
    const int k = model.floating() ? j + 1 : j;
    out[k] = Dual(q[k], 1);
    return out;
  }
  const Eigen::Quaterniond r(q[6], q[3], q[4], q[5]);
  if (j < 3) {
    const Vec3<double> dp = r.toRotationMatrix().col(j);
    for (int a = 0; a < 3; ++a)
      out[a] = Dual(q[a], dp[a]);
    return out;
  }
  Eigen::Quaterniond half(0, 0, 0, 0);
  half.vec()[j - 3] = 0.5;
  const Eigen::Quaterniond d = r * half;  // d/de of r (1, e w / 2)
  out[3] = Dual(q[3], d.x()), out[4] = Dual(q[4], d.y());
  out[5] = Dual(q[5], d.z()), out[6] = Dual(q[6], d.w());
  return out;
}

// The same in double, at a finite step: the SE(3) exponential of the base's six rates.
VecX integrate(const Model<double>& model, const VecX& q, const VecX& v) {
  VecX out = q;
  out.tail(model.dof()) += v.tail(model.dof());
  if (!model.floating()) return out;
  const Vec3<double> lin = v.head<3>(), w = v.segment<3>(3);
  const double th = w.norm();
  const denoc::Mat3<double> W = denoc::cross_matrix(w);
  denoc::Mat3<double> V = denoc::Mat3<double>::Identity();
  Eigen::Quaterniond turn = Eigen::Quaterniond::Identity();
  if (th > 0) {
    V += (1 - std::cos(th)) / (th * th) * W + (th - std::sin(th)) / (th * th * th) * W * W;
    turn = Eigen::AngleAxisd(th, w / th);
  }
  const Eigen::Quaterniond r(q[6], q[3], q[4], q[5]);
  const Eigen::Quaterniond turned = r * turn;
  out.head<3>() += r.toRotationMatrix() * (V * lin);
  out[3] = turned.x(), out[4] = turned.y(), out[5] = turned.z(), out[6] = turned.w();
  return out;
}

// tau of ridim's torques: the inverse dynamics and the drives' friction.
VecX torques(const Model<double>& model, denoc::Workspace<double>& ws, const VecX& q,
             const VecX& qd, const VecX& qdd) {
  VecX tau = denoc::inverse_dynamics(model, ws, q, qd, qdd);
  VecX friction(model.dof());
  denoc::friction_forces(model, qd.tail(model.dof()), friction);
  tau.tail(model.dof()) += friction;
  return tau;
}

// d tau / d q and d tau / d qd by dual numbers, one column per run of the DeNOC recursions.
struct Partials {
  MatX by_q, by_qd;
};
Partials dual_torque_partials(const Model<double>& model, const State& s) {
  const Model<Dual> dual_model = model.cast<Dual>();
  denoc::Workspace<Dual> ws(dual_model);
  const int nv = model.nv(), n = model.dof();
  Partials p{MatX(nv, nv), MatX(nv, nv)};
  auto derivative = [&](const DualX& q, const DualX& qd) {
    DualX tau = denoc::inverse_dynamics(dual_model, ws, q, qd, s.qdd.cast<Dual>());
    DualX friction(n);
    denoc::friction_forces(dual_model, qd.tail(n), friction);
    tau.tail(n) += friction;
    return tau.unaryExpr([](const Dual& x) { return x.derivative(); }).eval();
  };
  for (int j = 0; j < nv; ++j) {
    p.by_q.col(j) = derivative(moved(model, s.q, j), s.qd.cast<Dual>());
    DualX qd = s.qd.cast<Dual>();
    qd[j] = Dual(s.qd[j], 1);
    p.by_qd.col(j) = derivative(s.q.cast<Dual>(), qd);
  }
  return p;
}

// B of Eq. (D4) kept as T and l (inertia_variation.hpp) against its 6 x 6 definition,
// v x* I - I v x + [I v]^, formed here as matrices, on random bodies and velocities.
TEST(Derivatives, TheInertiaVariationIsItsSixBySixDefinition) {
  TreeGenerator gen(40);
  using denoc::Mat3;
  using denoc::Mat6;
  using denoc::Vec6;
  auto motion_cross_matrix = [](const Vec6<double>& m) {
    Mat6<double> X = Mat6<double>::Zero();
    X.topLeftCorner<3, 3>() = X.bottomRightCorner<3, 3>() =
        denoc::cross_matrix(Vec3<double>(m.head<3>()));
    X.bottomLeftCorner<3, 3>() = denoc::cross_matrix(Vec3<double>(m.tail<3>()));
    return X;
  };
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3<double> R = gen.rotation();
    const denoc::BodyInertia<double> I =
        denoc::BodyInertia<double>::about_mass_centre(
            gen.uniform(0.5, 5),
            R * Vec3<double>(gen.vector(3, 1).cwiseAbs()).asDiagonal() * R.transpose())
            .shifted(gen.vector(3, 1));
    const Vec6<double> v = gen.vector(6, 2), x = gen.vector(6, 1), s = gen.vector(6, 1);
    const Mat6<double> M = I.matrix(), X = motion_cross_matrix(v);
    const Vec6<double> h = M * v;
    Mat6<double> B = -X.transpose() * M - M * X;  // v x* I - I v x
    for (int j = 0; j < 6; ++j)                   // + [h]^: column j is e_j x* h
      B.col(j) -= motion_cross_matrix(Vec6<double>::Unit(j)).transpose() * h;
    const auto variation = denoc::InertiaVariation<double>::of_body(I, v, h);
    EXPECT_LT(relative_error(variation * x, Vec6<double>(B * x)), 1e-14);
    const Vec6<double> Bt_s = B.transpose() * s;  // its linear half is zero
    EXPECT_LT(relative_error(variation.transpose_times(s), Vec3<double>(Bt_s.head<3>())), 1e-14);
    EXPECT_LT(Bt_s.tail<3>().cwiseAbs().maxCoeff(), 1e-14 * Bt_s.cwiseAbs().maxCoeff());
  }
}

TEST(Derivatives, InverseDynamicsMatchDualNumbersOnTreesAndFloatingBases) {
  TreeGenerator gen(41);
  for (const Model<double>& model : models(gen)) {
    denoc::DerivativesWorkspace<double> ws(model);
    for (int trial = 0; trial < 3; ++trial) {
      const State s = random_state(gen, model);
      denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd, true);
      const Partials expected = dual_torque_partials(model, s);
      EXPECT_LT(relative_error(ws.dtau_dq, expected.by_q), 1e-12)
          << model.dof() << " joints, floating " << model.floating();
      EXPECT_LT(relative_error(ws.dtau_dv, expected.by_qd), 1e-12)
          << model.dof() << " joints, floating " << model.floating();
    }
  }
}

TEST(Derivatives, InverseDynamicsMatchCentralDifferencesAlongIntegrate) {
  TreeGenerator gen(42);
  for (const Model<double>& model : models(gen)) {
    denoc::Workspace<double> id(model);
    denoc::DerivativesWorkspace<double> ws(model);
    const State s = random_state(gen, model);
    denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd, true);
    const int nv = model.nv();
    const double h = 1e-6;
    MatX by_q(nv, nv), by_qd(nv, nv);
    for (int j = 0; j < nv; ++j) {
      const VecX e = h * VecX::Unit(nv, j);
      by_q.col(j) = (torques(model, id, integrate(model, s.q, e), s.qd, s.qdd) -
                     torques(model, id, integrate(model, s.q, -e), s.qd, s.qdd)) /
                    (2 * h);
      by_qd.col(j) =
          (torques(model, id, s.q, s.qd + e, s.qdd) - torques(model, id, s.q, s.qd - e, s.qdd)) /
          (2 * h);
    }
    EXPECT_LT(relative_error(ws.dtau_dq, by_q), 1e-7) << model.dof() << " joints";
    EXPECT_LT(relative_error(ws.dtau_dv, by_qd), 1e-7) << model.dof() << " joints";
    // The forces the recursions carry are the inverse dynamics', and d tau / d qdd the inertia
    // matrix of the DeNOC's composite bodies.
    EXPECT_LT(relative_error(ws.tau, denoc::inverse_dynamics(model, id, s.q, s.qd, s.qdd)), 1e-13);
    EXPECT_LT(relative_error(ws.dtau_da, MatX(denoc::generalized_inertia(model, id, s.q))), 1e-13);
  }
}

TEST(Derivatives, VelocityTermsAreQuadraticInTheRates) {
  // tau = M qdd + c(q, qd) + g with c of degree 2 in qd, so (d tau / d qd) qd = 2 c (Euler).
  TreeGenerator gen(43);
  for (const Model<double>& model : models(gen)) {
    denoc::Workspace<double> id(model);
    denoc::DerivativesWorkspace<double> ws(model);
    const State s = random_state(gen, model);
    denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd);
    const VecX h = denoc::bias_forces(model, id, s.q, s.qd);  // a copy: both share one buffer
    const VecX c = h - denoc::gravity_forces(model, id, s.q);
    EXPECT_LT(relative_error(VecX(ws.dtau_dv * s.qd), VecX(2 * c)), 1e-12);
  }
}

TEST(Derivatives, AFloatingBaseMovedAlongItsAxesOrTurnedAboutGravityFeelsNothing) {
  TreeGenerator gen(44);
  for (const Model<double>& model : models(gen)) {
    if (!model.floating()) continue;
    denoc::DerivativesWorkspace<double> ws(model);
    const State s = random_state(gen, model);
    denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd);
    const double scale = ws.dtau_dq.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 1.0);
    // A translation of the base moves everything, gravity uniform: nothing changes.
    EXPECT_LT(ws.dtau_dq.leftCols<3>().cwiseAbs().maxCoeff() / scale, 1e-13);
    // A turn about the vertical, gravity's direction in the base frame.
    const Vec3<double> up = denoc::base_pose<double>(s.q).R.transpose() * model.gravity();
    const VecX turn_about_gravity = ws.dtau_dq.middleCols<3>(3) * up.normalized();
    EXPECT_LT(turn_about_gravity.cwiseAbs().maxCoeff() / scale, 1e-13);
  }
}

TEST(Derivatives, ForwardDynamicsMatchDualNumbersAndMinvIsTheInverseInertia) {
  TreeGenerator gen(45);
  for (const Model<double>& model : models(gen)) {
    denoc::Workspace<double> id(model);
    denoc::DerivativesWorkspace<double> ws(model);
    const State s = random_state(gen, model);
    const int n = model.dof(), nv = model.nv();
    // The accelerations that the torques of s give: the forward dynamics' point.
    const VecX tau = torques(model, id, s.q, s.qd, s.qdd);
    const MatX minv = denoc::forward_dynamics_derivatives(model, id, ws, s.q, s.qd, s.qdd, true);
    const MatX M = denoc::generalized_inertia(model, id, s.q);
    EXPECT_LT(relative_error(MatX(minv * M), MatX(MatX::Identity(nv, nv))), 1e-10);
    // Dual numbers through the O(n) forward dynamics, tau held: column by column.
    const Model<Dual> dual_model = model.cast<Dual>();
    denoc::Workspace<Dual> dual_ws(dual_model);
    MatX by_q(nv, nv), by_qd(nv, nv);
    auto qdd = [&](const DualX& q, const DualX& qd) {
      DualX forces = tau.cast<Dual>();
      DualX friction(n);
      denoc::friction_forces(dual_model, qd.tail(n), friction);
      forces.tail(n) -= friction;
      const DualX out = denoc::forward_dynamics(dual_model, dual_ws, q, qd, forces);
      return out.unaryExpr([](const Dual& x) { return x.derivative(); }).eval();
    };
    for (int j = 0; j < nv; ++j) {
      by_q.col(j) = qdd(moved(model, s.q, j), s.qd.cast<Dual>());
      DualX qd = s.qd.cast<Dual>();
      qd[j] = Dual(s.qd[j], 1);
      by_qd.col(j) = qdd(s.q.cast<Dual>(), qd);
    }
    EXPECT_LT(relative_error(ws.dqdd_dq, by_q), 1e-10) << n << " joints";
    EXPECT_LT(relative_error(ws.dqdd_dv, by_qd), 1e-10) << n << " joints";
  }
}

TEST(Derivatives, RefuseAWorkspaceOrVectorOfAnotherSize) {
  TreeGenerator gen(46);
  const std::vector<Model<double>> all = models(gen);
  const Model<double>& model = all[2];
  const Model<double>& other = all[4];
  denoc::DerivativesWorkspace<double> ws(other);
  const State s = random_state(gen, model);
  EXPECT_THROW(denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd),
               std::invalid_argument);
  denoc::DerivativesWorkspace<double> right(model);
  EXPECT_THROW(denoc::inverse_dynamics_derivatives(model, right, s.q, s.qd, VecX(s.qdd.head(1))),
               std::invalid_argument);
}

TEST(Derivatives, FloatAgreesWithDouble) {
  TreeGenerator gen(47);
  for (const Model<double>& model : models(gen)) {
    const Model<float> single = model.cast<float>();
    denoc::DerivativesWorkspace<double> ws(model);
    denoc::DerivativesWorkspace<float> ws_float(single);
    const State s = random_state(gen, model);
    denoc::inverse_dynamics_derivatives(model, ws, s.q, s.qd, s.qdd);
    denoc::inverse_dynamics_derivatives(single, ws_float, denoc::VecX<float>(s.q.cast<float>()),
                                        denoc::VecX<float>(s.qd.cast<float>()),
                                        denoc::VecX<float>(s.qdd.cast<float>()));
    EXPECT_LT(relative_error(MatX(ws_float.dtau_dq.cast<double>()), ws.dtau_dq), 1e-3);
  }
}

}  // namespace test_derivatives
