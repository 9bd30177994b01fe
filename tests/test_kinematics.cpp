// Pose and Jacobian of the tool (docs/csv.md), joint reaction wrenches (docs/csv.md) and the
// external wrench on the tool (docs/robot-file.md), against references built here independently of
// the library's joint frames: DH forward kinematics with 4x4 matrices, finite differences, closed
// forms, and Newton-Euler for the whole chain.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <iostream>
#include <random>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/saha/reactions.hpp"
#include "support/random_chains.hpp"

namespace kinematics_test {

using namespace denoc;
using Mat4 = Eigen::Matrix4d;

Mat4 rot_x(double a) {
  Mat4 m = Mat4::Identity();
  m.block<3, 3>(0, 0) = Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()).toRotationMatrix();
  return m;
}
Mat4 rot_z(double a) {
  Mat4 m = Mat4::Identity();
  m.block<3, 3>(0, 0) = Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return m;
}
Mat4 trans(double x, double y, double z) {
  Mat4 m = Mat4::Identity();
  m.block<3, 1>(0, 3) = Eigen::Vector3d(x, y, z);
  return m;
}

// DH frames with 4x4 matrices: F[i] is the DH frame of link i (F[0] the base), K[i] the frame
// whose z axis is joint i+1's (standard: F[i]; modified: F[i+1]).
struct Frames {
  std::vector<Mat4> F, K;
};
Frames dh_frames(DhConvention convention, const std::vector<DhLink<double>>& dh,
                 const VecX<double>& q) {
  Frames fr;
  Mat4 T = Mat4::Identity();
  fr.F.push_back(T);
  for (std::size_t i = 0; i < dh.size(); ++i) {
    const DhLink<double>& l = dh[i];
    const bool rev = l.type == JointType::revolute;
    const double theta = l.theta + (rev ? q[static_cast<Eigen::Index>(i)] : 0);
    const double b = l.b + (rev ? 0 : q[static_cast<Eigen::Index>(i)]);
    if (convention == DhConvention::standard) {
      fr.K.push_back(T);
      T = T * rot_z(theta) * trans(0, 0, b) * trans(l.a, 0, 0) * rot_x(l.alpha);
    } else {
      T = T * rot_x(l.alpha) * trans(l.a, 0, 0) * rot_z(theta) * trans(0, 0, b);
      fr.K.push_back(T);
    }
    fr.F.push_back(T);
  }
  return fr;
}

// About 30 % prismatic joints (the shared generator's rows).
std::vector<DhLink<double>> random_rows(int n, std::mt19937& rng) {
  return denoc_test::random_dh_rows(n, rng, 0.3);
}

VecX<double> random_vector(int n, std::mt19937& rng, double scale = 1) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = u(rng);
  return v;
}

Transform<double> random_tool(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Transform<double> t;
  t.R = Eigen::Quaterniond(u(rng), u(rng), u(rng), 1.0).normalized().toRotationMatrix();
  t.p = Vec3<double>(0.1 * u(rng), 0.1 * u(rng), 0.15);
  return t;
}

Eigen::Vector3d vee(const Mat3<double>& W) {
  return Eigen::Vector3d(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1)) / 2;
}

// ---------------------------------------------------------------------------------------------

TEST(Kinematics, PoseMatchesDhProductAndJacobianItsFiniteDifferences) {
  std::mt19937 rng(1311);
  double worst_pose = 0, worst_jacobian = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 2, 6, 9}) {
      const std::vector<DhLink<double>> rows = random_rows(n, rng);
      const Transform<double> tool_in_F = random_tool(rng);  // relative to F_n, as a robot file
      const Transform<double> post = split_dh(convention, rows.back()).post;
      const Model<double> model(links_from_dh(convention, rows), Vec3<double>(0, 0, -9.81),
                                post * tool_in_F, Payload<double>());
      Workspace<double> ws(model);
      Mat4 tool4 = Mat4::Identity();
      tool4.block<3, 3>(0, 0) = tool_in_F.R;
      tool4.block<3, 1>(0, 3) = tool_in_F.p;
      auto reference = [&](const VecX<double>& q) {
        return Mat4(dh_frames(convention, rows, q).F.back() * tool4);
      };
      for (int k = 0; k < 3; ++k) {
        const VecX<double> q = random_vector(n, rng, 2);
        const Transform<double> pose = tool_pose(model, ws, q);
        const Mat4 T = reference(q);
        worst_pose = std::max(worst_pose, (pose.R - T.block<3, 3>(0, 0)).cwiseAbs().maxCoeff());
        worst_pose = std::max(worst_pose, (pose.p - T.block<3, 1>(0, 3)).cwiseAbs().maxCoeff());
        const Eigen::Matrix<double, 6, Eigen::Dynamic> J = tool_jacobian(model, ws, q);
        const double h = 1e-6;
        for (int j = 0; j < n; ++j) {
          VecX<double> qp = q, qm = q;
          qp[j] += h;
          qm[j] -= h;
          const Mat4 Tp = reference(qp), Tm = reference(qm);
          const Eigen::Vector3d v = (Tp.block<3, 1>(0, 3) - Tm.block<3, 1>(0, 3)) / (2 * h);
          const Mat3<double> Rdot = (Tp.block<3, 3>(0, 0) - Tm.block<3, 3>(0, 0)) / (2 * h);
          const Eigen::Vector3d w = vee(Rdot * T.block<3, 3>(0, 0).transpose());
          worst_jacobian = std::max(worst_jacobian, (J.col(j).head<3>() - v).cwiseAbs().maxCoeff());
          worst_jacobian = std::max(worst_jacobian, (J.col(j).tail<3>() - w).cwiseAbs().maxCoeff());
        }
      }
    }
  }
  std::cout << "[kinematics] pose vs 4x4 DH product: max abs " << worst_pose
            << "; J vs central differences (h 1e-6): max abs " << worst_jacobian << "\n";
  EXPECT_LT(worst_pose, 1e-14);
  EXPECT_LT(worst_jacobian, 1e-8);
}

TEST(Kinematics, PlanarArmClosedForm) {
  // planar3.yaml: a = 0.4, 0.3, 0.2; no tool, so the hand's DH frame at its tip:
  // x = sum a_k cos s_k, y = sum a_k sin s_k, s_k = q_1 + ... + q_k, R = Rz(s_3);
  // J column j: v = sum_{k >= j} a_k (-sin s_k, cos s_k, 0), omega = (0, 0, 1).
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/planar3.yaml");
  Workspace<double> ws(robot.model);
  const double a[3] = {0.4, 0.3, 0.2};
  std::mt19937 rng(3);
  for (int k = 0; k < 5; ++k) {
    const VecX<double> q = random_vector(3, rng, 3);
    double s[3], x = 0, y = 0;
    for (int i = 0; i < 3; ++i) {
      s[i] = (i ? s[i - 1] : 0) + q[i];
      x += a[i] * std::cos(s[i]);
      y += a[i] * std::sin(s[i]);
    }
    const Transform<double> pose = tool_pose(robot.model, ws, q);
    EXPECT_NEAR(pose.p.x(), x, 1e-15);
    EXPECT_NEAR(pose.p.y(), y, 1e-15);
    EXPECT_NEAR(pose.p.z(), 0, 1e-15);
    EXPECT_NEAR(pose.R(0, 0), std::cos(s[2]), 1e-15);
    EXPECT_NEAR(pose.R(1, 0), std::sin(s[2]), 1e-15);
    EXPECT_NEAR(pose.R(2, 2), 1, 1e-15);
    const auto& J = tool_jacobian(robot.model, ws, q);
    for (int j = 0; j < 3; ++j) {
      double vx = 0, vy = 0;
      for (int i = j; i < 3; ++i) {
        vx -= a[i] * std::sin(s[i]);
        vy += a[i] * std::cos(s[i]);
      }
      EXPECT_NEAR(J(0, j), vx, 1e-15);
      EXPECT_NEAR(J(1, j), vy, 1e-15);
      EXPECT_NEAR(J(2, j), 0, 1e-15);
      EXPECT_NEAR(J(5, j), 1, 1e-15);
    }
  }
}

TEST(Kinematics, StanfordArmAtItsInitialConfiguration) {
  // q = (0, 90 deg, 0, 0, 0, 0) (Saha's Section 6.2): worked by hand from Table 3, the last frame
  // has x along -Z, y along Y, z along X of the base, at (0.6, 0.1, 0.2) m: b_1 = 0.2 up the
  // column, b_2 = 0.1 sideways, b_4 = 0.6 out along the boom, which points along X.
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/stanford.yaml");
  Workspace<double> ws(robot.model);
  const Transform<double> pose = tool_pose(robot.model, ws, *robot.initial_q);
  Mat3<double> R;
  R << 0, 0, 1, 0, 1, 0, -1, 0, 0;
  EXPECT_LT((pose.R - R).cwiseAbs().maxCoeff(), 1e-15) << pose.R;
  EXPECT_LT((pose.p - Vec3<double>(0.6, 0.1, 0.2)).cwiseAbs().maxCoeff(), 1e-15) << pose.p;
}

// ---------------------------------------------------------------------------------------------
// Reactions and the external wrench.

// A random driven chain with tool and payload; the reference sees the payload as a body of its
// own (the library folds it into the last link).
struct LoadedChain {
  DhConvention convention;
  std::vector<DhLink<double>> rows;
  Transform<double> tool_in_F;  // relative to F_n
  Payload<double> payload;
  Vec3<double> gravity = Vec3<double>(1.3, -4.2, -8.1);
  Model<double> model;
};

LoadedChain loaded_chain(DhConvention convention, int n, std::mt19937& rng) {
  LoadedChain c;
  c.convention = convention;
  c.rows = random_rows(n, rng);
  c.tool_in_F = random_tool(rng);
  c.payload.mass = 1.7;
  c.payload.com = Vec3<double>(0.02, 0.03, 0.04);
  c.payload.inertia = Vec3<double>(0.01, 0.02, 0.015).asDiagonal();
  std::vector<LinkSpec<double>> specs = links_from_dh(convention, c.rows);
  for (LinkSpec<double>& s : specs) {
    s.drive.Jm = 1e-5;  // drives: their terms must stay out of the reactions
    s.drive.G = 50;
    s.drive.B = 1e-3;
    s.drive.Tc_pos = 0.1;
    s.drive.Tc_neg = -0.1;
  }
  const Transform<double> post = split_dh(convention, c.rows.back()).post;
  c.model = Model<double>(specs, c.gravity, post * c.tool_in_F, c.payload);
  return c;
}

// A body of the reference: mass, its mass centre and inertia in the frame `frame` of body index.
struct Body {
  double m;
  Eigen::Vector3d com;
  Mat3<double> I;
  int frame;  // index into F (1..n); n + 1 for the tool frame
};

std::vector<Body> bodies_of(const LoadedChain& c) {
  std::vector<Body> bodies;
  for (std::size_t i = 0; i < c.rows.size(); ++i)
    bodies.push_back({c.rows[i].mass, c.rows[i].com, c.rows[i].inertia, static_cast<int>(i) + 1});
  bodies.push_back(
      {c.payload.mass, c.payload.com, c.payload.inertia, static_cast<int>(c.rows.size()) + 1});
  return bodies;
}

std::vector<Mat4> frames_with_tool(const LoadedChain& c, const VecX<double>& q) {
  std::vector<Mat4> F = dh_frames(c.convention, c.rows, q).F;
  Mat4 tool4 = Mat4::Identity();
  tool4.block<3, 3>(0, 0) = c.tool_in_F.R;
  tool4.block<3, 1>(0, 3) = c.tool_in_F.p;
  F.push_back(F.back() * tool4);
  return F;
}

// Newton-Euler of the bodies from `first` (0-based link index) outwards, by finite differences
// along q(t) = q + qd t + qdd t^2 / 2: the wrench [f; n about point o] in the base frame that
// holds them to that motion against gravity, i.e. sum m (a - g) and
// sum (c - o) x m (a - g) + I alpha + omega x I omega.
Vec6<double> subchain_wrench(const LoadedChain& c, const VecX<double>& q, const VecX<double>& qd,
                             const VecX<double>& qdd, std::size_t first, const Eigen::Vector3d& o) {
  const double h = 1e-3;
  auto frames_at = [&](double t) {
    return frames_with_tool(c, VecX<double>(q + qd * t + qdd * (t * t / 2)));
  };
  auto omega_at = [&](double t, int frame) {
    const Mat4 Fp = frames_at(t + h)[frame], Fm = frames_at(t - h)[frame], F0 = frames_at(t)[frame];
    const Mat3<double> Rdot = (Fp.block<3, 3>(0, 0) - Fm.block<3, 3>(0, 0)) / (2 * h);
    return vee(Rdot * F0.block<3, 3>(0, 0).transpose());
  };
  const std::vector<Mat4> Fm = frames_at(-h), F0 = frames_at(0), Fp = frames_at(h);
  Eigen::Vector3d f = Eigen::Vector3d::Zero(), n = Eigen::Vector3d::Zero();
  for (const Body& b : bodies_of(c)) {
    if (b.frame <= static_cast<int>(first)) continue;
    auto com = [&](const Mat4& F) {
      return Eigen::Vector3d(F.block<3, 3>(0, 0) * b.com + F.block<3, 1>(0, 3));
    };
    const Eigen::Vector3d c0 = com(F0[b.frame]);
    const Eigen::Vector3d a = (com(Fp[b.frame]) - 2 * c0 + com(Fm[b.frame])) / (h * h);
    const Mat3<double> R = F0[b.frame].block<3, 3>(0, 0);
    const Mat3<double> Iw = R * b.I * R.transpose();
    const Eigen::Vector3d w = omega_at(0, b.frame);
    const Eigen::Vector3d alpha = (omega_at(h, b.frame) - omega_at(-h, b.frame)) / (2 * h);
    const Eigen::Vector3d force = b.m * (a - c.gravity);
    f += force;
    n += (c0 - o).cross(force) + Iw * alpha + w.cross(Iw * w);
  }
  Vec6<double> out;
  out << f, n;
  return out;
}

TEST(Reactions, AxisComponentIsTheJointForceAndTheBaseJointBalancesTheChain) {
  std::mt19937 rng(1321);
  double worst_axis = 0, worst_base = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 3, 6}) {
      const LoadedChain c = loaded_chain(convention, n, rng);
      Workspace<double> ws(c.model);
      for (int k = 0; k < 3; ++k) {
        const VecX<double> q = random_vector(n, rng, 2), qd = random_vector(n, rng, 1),
                           qdd = random_vector(n, rng, 1);
        Vec6<double> w;  // on the tool, at its origin, base frame
        w << random_vector(6, rng, 5);
        inverse_dynamics(c.model, ws, q, qd, qdd);
        apply_tool_wrench(c.model, ws, w);
        const VecX<double> tau_w = ws.id.tau;
        const auto& R = joint_reactions(c.model, ws, q);
        // The joint force is the reaction's axis component: n_z or f_z in K_i, less the rotor
        // term the inverse dynamics adds (no friction there).
        for (int i = 0; i < n; ++i) {
          const double axis = c.model.joint(i).type == JointType::revolute ? R(5, i) : R(2, i);
          const double joint = tau_w[i] - c.model.joint(i).rotor_inertia * qdd[i];
          worst_axis =
              std::max(worst_axis, std::abs(axis - joint) / std::max(1.0, std::abs(joint)));
        }
        // Joint 1 carries what Newton-Euler of all bodies needs, less what the environment
        // supplies at the tool; compared in K_1 about its origin.
        const Mat4 K = dh_frames(convention, c.rows, q).K[0];
        const Eigen::Vector3d o = K.block<3, 1>(0, 3);
        const Mat3<double> RK = K.block<3, 3>(0, 0);
        Vec6<double> need = subchain_wrench(c, q, qd, qdd, 0, o);
        const Eigen::Vector3d p_tool = frames_with_tool(c, q).back().block<3, 1>(0, 3);
        need.head<3>() -= w.head<3>();
        need.tail<3>() -= w.tail<3>() + (p_tool - o).cross(Eigen::Vector3d(w.head<3>()));
        Vec6<double> expected;
        expected << RK.transpose() * need.head<3>(), RK.transpose() * need.tail<3>();
        worst_base = std::max(worst_base, (R.col(0) - expected).cwiseAbs().maxCoeff() /
                                              std::max(1.0, expected.cwiseAbs().maxCoeff()));
      }
    }
  }
  std::cout << "[reactions] axis component vs joint force: max rel " << worst_axis
            << "; joint 1 vs Newton-Euler of the whole chain (finite differences): max rel "
            << worst_base << "\n";
  EXPECT_LT(worst_axis, 1e-13);
  EXPECT_LT(worst_base, 1e-6);
}

TEST(Reactions, StaticArmCarriesTheWeightsOutboard) {
  std::mt19937 rng(1322);
  double worst = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    const int n = 5;
    const LoadedChain c = loaded_chain(convention, n, rng);
    Workspace<double> ws(c.model);
    const VecX<double> q = random_vector(n, rng, 2);
    gravity_forces(c.model, ws, q);
    const auto& R = joint_reactions(c.model, ws, q);
    const Frames fr = dh_frames(convention, c.rows, q);
    const std::vector<Mat4> F = frames_with_tool(c, q);
    for (int i = 0; i < n; ++i) {
      // Joint i holds the weights of bodies i..n and the payload: force -sum m g, moment
      // -sum m (c - o_K) x g about the origin of K_i.
      Eigen::Vector3d f = Eigen::Vector3d::Zero(), m = Eigen::Vector3d::Zero();
      const Eigen::Vector3d o = fr.K[static_cast<std::size_t>(i)].block<3, 1>(0, 3);
      for (const Body& b : bodies_of(c)) {
        if (b.frame <= i) continue;
        const Eigen::Vector3d cb =
            F[b.frame].block<3, 3>(0, 0) * b.com + F[b.frame].block<3, 1>(0, 3);
        f -= b.m * c.gravity;
        m -= b.m * (cb - o).cross(c.gravity);
      }
      const Mat3<double> RK = fr.K[static_cast<std::size_t>(i)].block<3, 3>(0, 0);
      worst = std::max(worst, (RK * R.col(i).head<3>() - f).cwiseAbs().maxCoeff());
      worst = std::max(worst, (RK * R.col(i).tail<3>() - m).cwiseAbs().maxCoeff());
    }
  }
  std::cout << "[reactions] static arm vs weights outboard: max abs " << worst << " (N, N m)\n";
  EXPECT_LT(worst, 1e-12);
}

TEST(ExternalWrench, TorqueChangeIsMinusJacobianTransposeTimesWrench) {
  std::mt19937 rng(1331);
  double worst = 0, worst_fd = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 4, 7}) {
      const LoadedChain c = loaded_chain(convention, n, rng);
      Workspace<double> ws(c.model);
      const VecX<double> q = random_vector(n, rng, 2), qd = random_vector(n, rng, 1),
                         qdd = random_vector(n, rng, 1);
      Vec6<double> w;
      w << random_vector(6, rng, 5);
      const VecX<double> tau0 = inverse_dynamics(c.model, ws, q, qd, qdd);
      apply_tool_wrench(c.model, ws, w);
      const VecX<double> change = ws.id.tau - tau0;
      const MatX<double> J = tool_jacobian(c.model, ws, q);
      worst = std::max(worst, (change + J.transpose() * w).cwiseAbs().maxCoeff());
      // J itself against central differences of the tool pose (4x4 reference).
      MatX<double> Jfd(6, n);
      const double h = 1e-6;
      const Mat3<double> R0 = frames_with_tool(c, q).back().block<3, 3>(0, 0);
      for (int j = 0; j < n; ++j) {
        VecX<double> qp = q, qm = q;
        qp[j] += h;
        qm[j] -= h;
        const Mat4 Tp = frames_with_tool(c, qp).back(), Tm = frames_with_tool(c, qm).back();
        Jfd.col(j) << (Tp.block<3, 1>(0, 3) - Tm.block<3, 1>(0, 3)) / (2 * h),
            vee((Tp.block<3, 3>(0, 0) - Tm.block<3, 3>(0, 0)) / (2 * h) * R0.transpose());
      }
      worst_fd = std::max(worst_fd, (change + Jfd.transpose() * w).cwiseAbs().maxCoeff());
    }
  }
  std::cout << "[wrench] tau(w) - tau(0) + J^T w: max abs " << worst
            << " N m; with J from central differences: " << worst_fd << "\n";
  EXPECT_LT(worst, 1e-12);
  EXPECT_LT(worst_fd, 1e-7);
}

}  // namespace kinematics_test
