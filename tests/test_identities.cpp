// Identities that any correct implementation of the dynamics satisfies, checked on seeded random
// chains (both DH conventions, mixed revolute/prismatic joints, full inertia tensors, gravity in
// an odd direction). The reference kinematics and energies are built here from the DH spec with
// 4x4 homogeneous matrices, independently of the library's Transform, dh.hpp and model.hpp.
//
// Every residual is relative: the max-abs entry of the difference divided by the stated scale.
// Each test prints one line per identity with the largest residual over all random cases:
//   [identity] <name>  max rel residual <r>  (tol <t>, <N> cases, worst: <case>)
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/random_chains.hpp"
#include "support/worst_residual.hpp"

namespace identities_test {

using denoc::DhConvention;
using denoc::DhLink;
using denoc::JointType;
using denoc::Mat3;
using denoc::MatX;
using denoc::Model;
using denoc::Vec3;
using denoc::VecX;
using denoc::Workspace;

using denoc_test::Chain;

// ---------------------------------------------------------------------------------------------
// Independent reference: forward kinematics with 4x4 homogeneous matrices, link Jacobians (from
// the joint axes, and by central differences of the kinematics), energies, mass matrix.
namespace oracle {

using Mat4 = Eigen::Matrix4d;
using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;

Mat4 rot_x(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat4 m = Mat4::Identity();
  m(1, 1) = c;
  m(1, 2) = -s;
  m(2, 1) = s;
  m(2, 2) = c;
  return m;
}

Mat4 rot_z(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat4 m = Mat4::Identity();
  m(0, 0) = c;
  m(0, 1) = -s;
  m(1, 0) = s;
  m(1, 1) = c;
  return m;
}

Mat4 trans_x(double d) {
  Mat4 m = Mat4::Identity();
  m(0, 3) = d;
  return m;
}

Mat4 trans_z(double d) {
  Mat4 m = Mat4::Identity();
  m(2, 3) = d;
  return m;
}

// Link i at configuration q, everything in the base frame F_0.
struct LinkPose {
  Mat3<double> R;       // orientation of the DH link frame F_i
  Vec3<double> c;       // mass centre C_i
  Vec3<double> axis;    // unit axis of joint i (the z axis its Rz or Tz acts along)
  Vec3<double> origin;  // a point on that axis
};

// standard: F_{i-1} -> F_i is Rz(theta) Tz(b) Tx(a) Rx(alpha), the joint acting about/along the
//           z axis of F_{i-1};
// modified: F_{i-1} -> F_i is Rx(alpha) Tx(a) Rz(theta) Tz(b), the joint acting about/along the
//           z axis of F_{i-1} Rx(alpha) Tx(a), which is also the z axis of F_i.
// theta + q replaces theta for a revolute joint, b + q replaces b for a prismatic one.
std::vector<LinkPose> forward_kinematics(const Chain& chain, const VecX<double>& q) {
  std::vector<LinkPose> poses;
  Mat4 T = Mat4::Identity();  // F_{i-1} in the base frame
  for (int i = 0; i < chain.dof(); ++i) {
    const DhLink<double>& l = chain.dh[static_cast<std::size_t>(i)];
    const bool revolute = l.type == JointType::revolute;
    const double theta = revolute ? l.theta + q[i] : l.theta;
    const double b = revolute ? l.b : l.b + q[i];
    Mat4 axis_frame;
    if (chain.convention == DhConvention::standard) {
      axis_frame = T;
      T = T * rot_z(theta) * trans_z(b) * trans_x(l.a) * rot_x(l.alpha);
    } else {
      axis_frame = T * rot_x(l.alpha) * trans_x(l.a);
      T = axis_frame * rot_z(theta) * trans_z(b);
    }
    LinkPose pose;
    pose.R = T.topLeftCorner<3, 3>();
    pose.c = pose.R * l.com + T.topRightCorner<3, 1>();
    pose.axis = axis_frame.block<3, 1>(0, 2);
    pose.origin = axis_frame.block<3, 1>(0, 3);
    poses.push_back(pose);
  }
  return poses;
}

// v_{C_i} = Jv[i] qd and omega_i = Jw[i] qd.
struct LinkJacobians {
  std::vector<Mat3X> Jv, Jw;
};

// Analytic, from the joint axes of the 4x4 kinematics: a revolute joint j <= i contributes
// omega += z_j qd_j and v += z_j x (c_i - o_j) qd_j, a prismatic one v += z_j qd_j.
LinkJacobians axis_jacobians(const Chain& chain, const VecX<double>& q) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  const int n = chain.dof();
  LinkJacobians J;
  for (int i = 0; i < n; ++i) {
    Mat3X Jv = Mat3X::Zero(3, n), Jw = Mat3X::Zero(3, n);
    const Vec3<double>& c = poses[static_cast<std::size_t>(i)].c;
    for (int j = 0; j <= i; ++j) {
      const LinkPose& joint = poses[static_cast<std::size_t>(j)];
      if (chain.dh[static_cast<std::size_t>(j)].type == JointType::revolute) {
        Jw.col(j) = joint.axis;
        Jv.col(j) = joint.axis.cross(c - joint.origin);
      } else {
        Jv.col(j) = joint.axis;
      }
    }
    J.Jv.push_back(Jv);
    J.Jw.push_back(Jw);
  }
  return J;
}

// By central differences of the kinematics along each q_j: dc/dq_j, and omega from the skew
// part of (dR/dq_j) R^T.
LinkJacobians finite_difference_jacobians(const Chain& chain, const VecX<double>& q, double h) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  const int n = chain.dof();
  LinkJacobians J;
  J.Jv.assign(static_cast<std::size_t>(n), Mat3X::Zero(3, n));
  J.Jw.assign(static_cast<std::size_t>(n), Mat3X::Zero(3, n));
  for (int j = 0; j < n; ++j) {
    VecX<double> qp = q, qm = q;
    qp[j] += h;
    qm[j] -= h;
    const std::vector<LinkPose> plus = forward_kinematics(chain, qp);
    const std::vector<LinkPose> minus = forward_kinematics(chain, qm);
    for (std::size_t i = 0; i < poses.size(); ++i) {
      J.Jv[i].col(j) = (plus[i].c - minus[i].c) / (2 * h);
      const Mat3<double> A = (plus[i].R - minus[i].R) / (2 * h) * poses[i].R.transpose();
      const Mat3<double> W = (A - A.transpose()) / 2;
      J.Jw[i].col(j) = Vec3<double>(W(2, 1), W(0, 2), W(1, 0));
    }
  }
  return J;
}

// Inertia of link i about C_i in the base frame: R_i I_i R_i^T.
Mat3<double> world_inertia(const Chain& chain, const std::vector<LinkPose>& poses, std::size_t i) {
  return poses[i].R * chain.dh[i].inertia * poses[i].R.transpose();
}

// M = sum_i m_i Jv_i^T Jv_i + Jw_i^T (R_i I_i R_i^T) Jw_i: the Hessian of T w.r.t. qd.
MatX<double> mass_matrix(const Chain& chain, const VecX<double>& q, const LinkJacobians& J) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  MatX<double> M = MatX<double>::Zero(chain.dof(), chain.dof());
  for (std::size_t i = 0; i < poses.size(); ++i) {
    M += chain.dh[i].mass * J.Jv[i].transpose() * J.Jv[i] +
         J.Jw[i].transpose() * world_inertia(chain, poses, i) * J.Jw[i];
  }
  return M;
}

MatX<double> mass_matrix(const Chain& chain, const VecX<double>& q) {
  return mass_matrix(chain, q, axis_jacobians(chain, q));
}

// T = 1/2 sum_i (m_i |v_{C_i}|^2 + omega_i^T R_i I_i R_i^T omega_i).
double kinetic_energy(const Chain& chain, const VecX<double>& q, const VecX<double>& qd) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  const LinkJacobians J = axis_jacobians(chain, q);
  double T = 0;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const Vec3<double> v = J.Jv[i] * qd, w = J.Jw[i] * qd;
    T += (chain.dh[i].mass * v.squaredNorm() + w.dot(world_inertia(chain, poses, i) * w)) / 2;
  }
  return T;
}

// V = -sum_i m_i g . c_i.
double potential_energy(const Chain& chain, const VecX<double>& q) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  double V = 0;
  for (std::size_t i = 0; i < poses.size(); ++i)
    V -= chain.dh[i].mass * chain.gravity.dot(poses[i].c);
  return V;
}

// sum_i m_i |g| |c_i|: the size of the terms of V, the scale of its relative residual (V itself
// can cancel to near zero).
double potential_energy_scale(const Chain& chain, const VecX<double>& q) {
  const std::vector<LinkPose> poses = forward_kinematics(chain, q);
  double scale = 0;
  for (std::size_t i = 0; i < poses.size(); ++i)
    scale += chain.dh[i].mass * chain.gravity.norm() * poses[i].c.norm();
  return scale;
}

// dV/dq by central differences.
VecX<double> potential_gradient(const Chain& chain, const VecX<double>& q, double h) {
  VecX<double> grad(chain.dof());
  for (int j = 0; j < chain.dof(); ++j) {
    VecX<double> qp = q, qm = q;
    qp[j] += h;
    qm[j] -= h;
    grad[j] = (potential_energy(chain, qp) - potential_energy(chain, qm)) / (2 * h);
  }
  return grad;
}

// The velocity terms of Lagrange's equations, C(q, qd) qd = Mdot qd - 1/2 d(qd^T M qd)/dq, with
// the analytic M above and central differences in q (Mdot = dM/dq along qd).
VecX<double> velocity_terms(const Chain& chain, const VecX<double>& q, const VecX<double>& qd,
                            double h) {
  const MatX<double> M_dot =
      (mass_matrix(chain, q + h * qd) - mass_matrix(chain, q - h * qd)) / (2 * h);
  VecX<double> grad(chain.dof());
  for (int k = 0; k < chain.dof(); ++k) {
    VecX<double> qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    grad[k] = (qd.dot(mass_matrix(chain, qp) * qd) - qd.dot(mass_matrix(chain, qm) * qd)) / (2 * h);
  }
  return M_dot * qd - grad / 2;
}

}  // namespace oracle

// ---------------------------------------------------------------------------------------------
// Seeded random chains and states.
namespace random_chains {

using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;
using denoc_test::random_chains::kPi;

constexpr int kLengths[] = {1, 2, 3, 6, 7, 12};
constexpr int kStatesPerChain = 3;

struct Case {
  std::string name;
  Chain chain;
  VecX<double> q, qd, qdd;
};

// Per convention and length: two mixed chains, one all-revolute, one all-prismatic; each with
// kStatesPerChain random states. 2 x 6 x 4 x 3 = 144 cases, the same on every run.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> out;
    Generator gen(20240611u);
    const std::pair<JointMix, const char*> mixes[] = {{JointMix::mixed, "mixed#0"},
                                                      {JointMix::mixed, "mixed#1"},
                                                      {JointMix::revolute, "revolute"},
                                                      {JointMix::prismatic, "prismatic"}};
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      for (int n : kLengths) {
        for (const auto& [mix, mix_name] : mixes) {
          const std::string name =
              std::string(convention == DhConvention::standard ? "standard" : "modified") +
              " n=" + std::to_string(n) + " " + mix_name;
          const Chain chain = gen.chain(convention, n, mix, name);
          for (int s = 0; s < kStatesPerChain; ++s) {
            out.push_back({name + " state " + std::to_string(s), chain, gen.positions(chain),
                           gen.vector(n, 2.0), gen.vector(n, 3.0)});
          }
        }
      }
    }
    return out;
  }();
  return all;
}

}  // namespace random_chains

// ---------------------------------------------------------------------------------------------
// Residual bookkeeping.

template <typename Derived>
double max_abs(const Eigen::MatrixBase<Derived>& x) {
  return x.size() == 0 ? 0.0 : static_cast<double>(x.cwiseAbs().maxCoeff());
}

// |a - b|_max / max(|a|_max, |b|_max, extra_scale).
template <typename A, typename B>
double relative_residual(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b,
                         double extra_scale = 0) {
  const double scale = std::max({max_abs(a), max_abs(b), extra_scale});
  return scale > 0 ? max_abs(a - b) / scale : max_abs(a - b);
}

using denoc_test::WorstResidual;

constexpr double kStep = 1e-6;  // central-difference step in q (rad or m)

// ---------------------------------------------------------------------------------------------
// The identities.

using random_chains::cases;

// (1) tau(q, qd, qdd) = M(q) qdd + h(q, qd); scale max(|tau|, |M qdd|, |h|).
TEST(Identities, InverseDynamicsEqualsMassMatrixTimesQddPlusBias) {
  WorstResidual split("tau=M*qdd+h", "tau_eq_M_qdd_plus_h", 1e-12);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const VecX<double> tau = denoc::inverse_dynamics(model, ws, c.q, c.qd, c.qdd);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const VecX<double> h = denoc::bias_forces(model, ws, c.q, c.qd);
    const VecX<double> Mqdd = M * c.qdd;
    split.check(relative_residual(tau, Mqdd + h, std::max(max_abs(Mqdd), max_abs(h))), c.name);
  }
  split.report();
}

// (2) M symmetric (exactly, to round-off) and positive definite: LLT succeeds and the smallest
// eigenvalue is positive (reported relative to the largest).
TEST(Identities, MassMatrixIsSymmetricPositiveDefinite) {
  WorstResidual symmetry("M=M^T", "M_symmetric", 1e-15);
  WorstResidual definite("M>0", "M_min_rel_eigenvalue", 0.0);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    symmetry.check(relative_residual(M, M.transpose()), c.name);
    const Eigen::LLT<MatX<double>> llt(M);
    EXPECT_EQ(llt.info(), Eigen::Success) << "LLT of M failed at " << c.name;
    const Eigen::SelfAdjointEigenSolver<MatX<double>> eig(M, Eigen::EigenvaluesOnly);
    ASSERT_EQ(eig.info(), Eigen::Success) << c.name;
    definite.check_min(eig.eigenvalues().minCoeff() / eig.eigenvalues().maxCoeff(), c.name);
  }
  symmetry.report();
  definite.report("min lambda_min/lambda_max");
}

// (3) M = d^2 T / d qd^2 with T from the independent kinematics: M = sum m Jv^T Jv + Jw^T I Jw,
// Jacobians by central differences of the 4x4 kinematics (tol 1e-7, step 1e-6), and, tighter,
// from the joint axes of the same kinematics (tol 1e-12). Scale |M|_max. The two reference
// routes are also checked against each other, so that the oracle itself is tested.
TEST(Identities, MassMatrixEqualsKineticEnergyHessian) {
  WorstResidual fd("M=Hess_qd(T) [FD Jacobians]", "M_eq_T_hessian_fd", 1e-7);
  WorstResidual axes("M=Hess_qd(T) [axis Jacobians]", "M_eq_T_hessian_axes", 1e-12);
  WorstResidual oracle_consistency("oracle: FD vs axis Jacobians", "oracle_fd_vs_axes", 1e-7);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const MatX<double> M_fd =
        oracle::mass_matrix(c.chain, c.q, oracle::finite_difference_jacobians(c.chain, c.q, kStep));
    const MatX<double> M_axes = oracle::mass_matrix(c.chain, c.q);
    fd.check(relative_residual(M, M_fd), c.name);
    axes.check(relative_residual(M, M_axes), c.name);
    oracle_consistency.check(relative_residual(M_fd, M_axes), c.name);
  }
  fd.report();
  axes.report();
  oracle_consistency.report();
}

// (4) g(q) = dV/dq, V from the independent kinematics, central differences (step 1e-6, tol
// 1e-7, scale max(|g|, |dV/dq|)).
TEST(Identities, GravityForcesEqualPotentialEnergyGradient) {
  WorstResidual gradient("g=dV/dq", "g_eq_grad_V", 1e-7);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const VecX<double> g = denoc::gravity_forces(model, ws, c.q);
    gradient.check(relative_residual(g, oracle::potential_gradient(c.chain, c.q, kStep)), c.name);
  }
  gradient.report();
}

// (5) The library's energies equal the independent ones: T relative to T (> 0), V relative to
// sum m |g| |c_i| (V itself can cancel to near zero). Tol 1e-12.
TEST(Identities, EnergiesMatchIndependentKinematics) {
  WorstResidual kinetic("T_lib=T_ref", "kinetic_energy", 1e-12);
  WorstResidual potential("V_lib=V_ref", "potential_energy", 1e-12);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const double T = denoc::kinetic_energy(model, ws, c.q, c.qd);
    const double T_ref = oracle::kinetic_energy(c.chain, c.q, c.qd);
    kinetic.check(std::abs(T - T_ref) / std::abs(T_ref), c.name);
    const double V = denoc::potential_energy(model, ws, c.q);
    const double V_ref = oracle::potential_energy(c.chain, c.q);
    potential.check(std::abs(V - V_ref) / oracle::potential_energy_scale(c.chain, c.q), c.name);
  }
  kinetic.report();
  potential.report();
}

// (6) M M^-1 = 1 and M^-1 M = 1, max-abs entry of the difference, tol 1e-10.
TEST(Identities, InverseMassMatrixIsTheInverse) {
  WorstResidual right("M*Minv=1", "M_Minv_identity", 1e-10);
  WorstResidual left("Minv*M=1", "Minv_M_identity", 1e-10);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const MatX<double> M_inv = denoc::inverse_generalized_inertia(model, ws, c.q);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const MatX<double> I = MatX<double>::Identity(c.chain.dof(), c.chain.dof());
    right.check(max_abs(M * M_inv - I), c.name);
    left.check(max_abs(M_inv * M - I), c.name);
  }
  right.report("max abs residual");
  left.report("max abs residual");
}

// (7) float agrees with double: the model cast to float, the inputs rounded to float (and the
// double reference fed the same rounded inputs); |x_f - x_d|_max / max(1, |x_d|_max) < 1e-4.
TEST(Identities, FloatAgreesWithDouble) {
  WorstResidual torque("tau float=double", "float_tau", 1e-4);
  WorstResidual inertia("M float=double", "float_M", 1e-4);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    const Model<float> model_f = model.cast<float>();
    ASSERT_EQ(model_f.dof(), model.dof());
    Workspace<double> ws(model);
    Workspace<float> ws_f(model_f);
    const VecX<float> q_f = c.q.cast<float>(), qd_f = c.qd.cast<float>(),
                      qdd_f = c.qdd.cast<float>();
    const VecX<double> q = q_f.cast<double>(), qd = qd_f.cast<double>(), qdd = qdd_f.cast<double>();
    const VecX<double> tau = denoc::inverse_dynamics(model, ws, q, qd, qdd);
    const VecX<double> tau_f =
        denoc::inverse_dynamics(model_f, ws_f, q_f, qd_f, qdd_f).cast<double>();
    torque.check(max_abs(tau_f - tau) / std::max(1.0, max_abs(tau)), c.name);
    const MatX<double> M = denoc::generalized_inertia(model, ws, q);
    const MatX<double> M_f = denoc::generalized_inertia(model_f, ws_f, q_f).cast<double>();
    inertia.check(max_abs(M_f - M) / std::max(1.0, max_abs(M)), c.name);
  }
  torque.report();
  inertia.report();
}

// (8) Column j of M equals tau(q, 0, e_j) - g(q): the O(n^2) composite-body GIM against the O(n)
// recursion. Scale |M|_max, tol 1e-12.
TEST(Identities, MassMatrixColumnsFromInverseDynamics) {
  WorstResidual columns("M e_j=tau(q,0,e_j)-g", "M_columns_from_tau", 1e-12);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const int n = c.chain.dof();
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const VecX<double> g = denoc::gravity_forces(model, ws, c.q);
    const VecX<double> zero = VecX<double>::Zero(n);
    MatX<double> M_tau(n, n);
    for (int j = 0; j < n; ++j) {
      const VecX<double> e_j = VecX<double>::Unit(n, j);
      M_tau.col(j) = denoc::inverse_dynamics(model, ws, c.q, zero, e_j) - g;
    }
    columns.check(relative_residual(M, M_tau), c.name);
  }
  columns.report();
}

// (9) The velocity terms h(q, qd) - g(q) = C(q, qd) qd equal Lagrange's Mdot qd - 1/2 d(qd^T M
// qd)/dq, with M from the independent kinematics and central differences in q (step 1e-6, tol
// 1e-7). Scale: max of both sides and |M|_max |qd|_max^2, the natural size of the velocity terms
// (for one joint both sides are zero: the reference is then pure difference noise, ~1e-10).
// (1)-(8) never test the velocity terms.
TEST(Identities, BiasForcesFollowLagrangesEquations) {
  WorstResidual lagrange("h-g=Mdot*qd-dT/dq", "velocity_terms_lagrange", 1e-7);
  for (const auto& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const VecX<double> h = denoc::bias_forces(model, ws, c.q, c.qd);
    const VecX<double> g = denoc::gravity_forces(model, ws, c.q);
    const VecX<double> expected = oracle::velocity_terms(c.chain, c.q, c.qd, kStep);
    const double natural_size =
        max_abs(oracle::mass_matrix(c.chain, c.q)) * std::pow(max_abs(c.qd), 2);
    lagrange.check(relative_residual(VecX<double>(h - g), expected, natural_size), c.name);
  }
  lagrange.report();
}

}  // namespace identities_test
