// Closed-form cases the recursions must reproduce exactly (to round-off): a pendulum, a
// vertical slider, the textbook two-link planar arm in both DH conventions, and Saha's (1999)
// three-link planar arm.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/io/trajectory.hpp"
#include "denoc/kernels/sin_cos.hpp"

namespace closed_forms_test {

using denoc::DhConvention;
using denoc::DhLink;
using denoc::JointType;
using denoc::Mat3;
using denoc::MatX;
using denoc::Model;
using denoc::Vec3;
using denoc::VecX;
using denoc::Workspace;

constexpr double kG = 9.81;

Mat3<double> rod_inertia(double izz) {
  return Vec3<double>(0.0, izz, izz).asDiagonal();
}

// A link of length l along x of its standard-DH frame (which sits at the distal end), with its
// mass centre lc from the joint axis.
DhLink<double> planar_link(double l, double lc, double m, double izz) {
  DhLink<double> link;
  link.a = l;
  link.mass = m;
  link.com = Vec3<double>(lc - l, 0, 0);
  link.inertia = rod_inertia(izz);
  return link;
}

VecX<double> vec(std::initializer_list<double> values) {
  VecX<double> v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values)
    v[i++] = x;
  return v;
}

TEST(ClosedForm, RevolutePendulum) {
  const double l = 0.7, lc = 0.45, m = 2.5, izz = 0.08;
  const Model<double> model(
      denoc::links_from_dh(DhConvention::standard, std::vector{planar_link(l, lc, m, izz)}),
      Vec3<double>(0, -kG, 0));
  Workspace<double> ws(model);
  for (double q : {-2.0, -0.3, 0.0, 0.9, 2.7}) {
    for (double qdd : {-3.0, 0.0, 1.5}) {
      const double qd = 1.7;  // a pendulum about a fixed axis: no velocity term
      const double expected = (izz + m * lc * lc) * qdd + m * kG * lc * std::cos(q);
      EXPECT_NEAR(denoc::inverse_dynamics(model, ws, vec({q}), vec({qd}), vec({qdd}))[0], expected,
                  1e-13);
    }
    EXPECT_NEAR(denoc::generalized_inertia(model, ws, vec({q}))(0, 0), izz + m * lc * lc, 1e-14);
    EXPECT_NEAR(denoc::gravity_forces(model, ws, vec({q}))[0], m * kG * lc * std::cos(q), 1e-13);
  }
}

TEST(ClosedForm, PrismaticSlider) {
  // A single slider: tau = m (qdd - g . e), e the sliding axis in the base frame. In standard
  // DH e is the base z axis; in modified DH alpha (here alpha_0) tilts it first.
  DhLink<double> link;
  link.type = JointType::prismatic;
  link.b = 0.3;
  link.alpha = 0.4;
  link.mass = 3.0;
  link.com = Vec3<double>(0.1, -0.2, 0.05);
  link.inertia = Vec3<double>(0.02, 0.03, 0.04).asDiagonal();
  const Vec3<double> gravity(0.5, 1, -kG);
  const std::pair<DhConvention, Vec3<double>> cases[] = {
      {DhConvention::standard, Vec3<double>(0, 0, 1)},
      {DhConvention::modified, Vec3<double>(0, -std::sin(0.4), std::cos(0.4))}};
  for (const auto& [convention, axis] : cases) {
    const Model<double> model(denoc::links_from_dh(convention, std::vector{link}), gravity);
    Workspace<double> ws(model);
    for (double q : {-0.5, 0.0, 1.2}) {
      for (double qdd : {-2.0, 0.0, 4.0}) {
        EXPECT_NEAR(denoc::inverse_dynamics(model, ws, vec({q}), vec({0.8}), vec({qdd}))[0],
                    3.0 * (qdd - gravity.dot(axis)), 1e-13);
      }
    }
  }
}

// Two-link planar arm (e.g. Spong, Hutchinson & Vidyasagar, §7.3), joint axes along z,
// gravity along -y.
struct TwoLink {
  double l1 = 0.5, lc1 = 0.2, m1 = 3.0, I1 = 0.07;
  double l2 = 0.4, lc2 = 0.25, m2 = 2.0, I2 = 0.03;

  Eigen::Vector2d torque(const Eigen::Vector2d& q, const Eigen::Vector2d& qd,
                         const Eigen::Vector2d& qdd) const {
    const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
    const double d11 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2;
    const double d12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
    const double d22 = m2 * lc2 * lc2 + I2;
    const double hc = -m2 * l1 * lc2 * s2;
    const double g1 =
        (m1 * lc1 + m2 * l1) * kG * std::cos(q[0]) + m2 * lc2 * kG * std::cos(q[0] + q[1]);
    const double g2 = m2 * lc2 * kG * std::cos(q[0] + q[1]);
    return {d11 * qdd[0] + d12 * qdd[1] + hc * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + g1,
            d12 * qdd[0] + d22 * qdd[1] - hc * qd[0] * qd[0] + g2};
  }
};

std::vector<DhLink<double>> two_link_rows(const TwoLink& arm, DhConvention convention) {
  if (convention == DhConvention::standard) {
    return {planar_link(arm.l1, arm.lc1, arm.m1, arm.I1),
            planar_link(arm.l2, arm.lc2, arm.m2, arm.I2)};
  }
  // Modified DH: link i's frame sits on joint i, and the row of link 2 carries a_1.
  DhLink<double> first, second;
  first.mass = arm.m1;
  first.com = Vec3<double>(arm.lc1, 0, 0);
  first.inertia = rod_inertia(arm.I1);
  second.a = arm.l1;
  second.mass = arm.m2;
  second.com = Vec3<double>(arm.lc2, 0, 0);
  second.inertia = rod_inertia(arm.I2);
  return {first, second};
}

TEST(ClosedForm, TwoLinkPlanarArm) {
  const TwoLink arm;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    const Model<double> model(denoc::links_from_dh(convention, two_link_rows(arm, convention)),
                              Vec3<double>(0, -kG, 0));
    Workspace<double> ws(model);
    const Eigen::Vector2d states[][3] = {{{0.3, -0.7}, {1.1, -0.4}, {0.5, 2.0}},
                                         {{-1.2, 2.2}, {-2.0, 3.0}, {-1.0, 0.3}},
                                         {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}}};
    for (const auto& s : states) {
      const Eigen::Vector2d expected = arm.torque(s[0], s[1], s[2]);
      const VecX<double> tau = denoc::inverse_dynamics(model, ws, s[0], s[1], s[2]);
      EXPECT_NEAR(tau[0], expected[0], 1e-12);
      EXPECT_NEAR(tau[1], expected[1], 1e-12);
    }
  }
}

// Saha (1999) §6.1: the three-link planar arm, joint axes along z, gravity along -y, whose
// torques the paper finds in closed form from the DeNOC recursion (matching Angeles 1997). Here
// they are written from the Lagrangian: with phi_k = theta_1 + .. + theta_k, link k of length
// a_k with its mass centre r_k along it, and the coefficients A = (m2 r2 + m3 a2) a1, B = m3 a1
// r3, C = m3 a2 r3 of cos theta_2, cos(theta_2 + theta_3) and cos theta_3 in the kinetic energy,
// tau = M qdd + c + g with M and c below. The numbers are robots/planar3.yaml's (uniform rods).
struct ThreeLink {
  double a[3] = {0.4, 0.3, 0.2}, m[3] = {4, 3, 2};
  double r(int k) const { return a[k] / 2; }
  double I(int k) const { return m[k] * a[k] * a[k] / 12; }  // about the mass centre
  double A() const { return (m[1] * r(1) + m[2] * a[1]) * a[0]; }
  double B() const { return m[2] * a[0] * r(2); }
  double C() const { return m[2] * a[1] * r(2); }

  Eigen::Matrix3d inertia(const Eigen::Vector3d& q) const {
    const double K3 = I(2) + m[2] * r(2) * r(2);
    const double K2 = I(1) + m[1] * r(1) * r(1) + m[2] * a[1] * a[1] + K3;
    const double K1 = I(0) + m[0] * r(0) * r(0) + (m[1] + m[2]) * a[0] * a[0] + K2;
    const double c2 = std::cos(q[1]), c3 = std::cos(q[2]), c23 = std::cos(q[1] + q[2]);
    Eigen::Matrix3d M;
    M(0, 0) = K1 + 2 * A() * c2 + 2 * B() * c23 + 2 * C() * c3;
    M(0, 1) = K2 + A() * c2 + B() * c23 + 2 * C() * c3;
    M(0, 2) = K3 + B() * c23 + C() * c3;
    M(1, 1) = K2 + 2 * C() * c3;
    M(1, 2) = K3 + C() * c3;
    M(2, 2) = K3;
    M(1, 0) = M(0, 1);
    M(2, 0) = M(0, 2);
    M(2, 1) = M(1, 2);
    return M;
  }
  // The Coriolis and centrifugal terms, from the Christoffel symbols of M.
  Eigen::Vector3d velocity_terms(const Eigen::Vector3d& q, const Eigen::Vector3d& qd) const {
    const double s2 = std::sin(q[1]), s3 = std::sin(q[2]), s23 = std::sin(q[1] + q[2]);
    const double w1 = qd[0], w12 = qd[0] + qd[1], u23 = qd[1] + qd[2];
    return {-A() * s2 * qd[1] * (2 * w1 + qd[1]) - B() * s23 * u23 * (2 * w1 + u23) -
                C() * s3 * qd[2] * (2 * w12 + qd[2]),
            A() * s2 * w1 * w1 + B() * s23 * w1 * w1 - C() * s3 * qd[2] * (2 * w12 + qd[2]),
            B() * s23 * w1 * w1 + C() * s3 * w12 * w12};
  }
  Eigen::Vector3d gravity(const Eigen::Vector3d& q) const {
    const double c1 = std::cos(q[0]), c12 = std::cos(q[0] + q[1]);
    const double c123 = std::cos(q[0] + q[1] + q[2]);
    const double g3 = m[2] * r(2) * c123, g2 = (m[1] * r(1) + m[2] * a[1]) * c12 + g3;
    return kG * Eigen::Vector3d((m[0] * r(0) + (m[1] + m[2]) * a[0]) * c1 + g2, g2, g3);
  }
};

// The shipped planar3 file against those closed forms: the inertia matrix, the gravity torques
// and the torques at random states and along the paper's trajectory (Eq. 38, each joint 0 to pi
// in 10 s), within 1e-13 of the largest torque.
TEST(ClosedForm, ThreeLinkPlanarArmOfSection61) {
  const denoc::RobotFile robot =
      denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml");
  ASSERT_TRUE(robot.trajectory.has_value());
  const ThreeLink arm;
  Workspace<double> ws(robot.model);
  std::vector<std::array<Eigen::Vector3d, 3>> states;
  std::mt19937 rng(61);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int k = 0; k < 20; ++k)
    states.push_back({Eigen::Vector3d(u(rng), u(rng), u(rng)),
                      Eigen::Vector3d(u(rng), u(rng), u(rng)),
                      Eigen::Vector3d(u(rng), u(rng), u(rng))});
  for (int i = 0; i <= 1000; i += 50) {
    VecX<double> q(3), qd(3), qdd(3);
    robot.trajectory->evaluate(robot.trajectory->sample_time(i), q, qd, qdd);
    states.push_back({q, qd, qdd});
  }
  for (const auto& [q, qd, qdd] : states) {
    const Eigen::Vector3d expected =
        arm.inertia(q) * qdd + arm.velocity_terms(q, qd) + arm.gravity(q);
    const VecX<double> tau = denoc::inverse_dynamics(robot.model, ws, q, qd, qdd);
    EXPECT_LT((tau - expected).cwiseAbs().maxCoeff(), 1e-13 * expected.cwiseAbs().maxCoeff())
        << "tau " << tau.transpose() << "\nclosed form " << expected.transpose();
    EXPECT_LT(
        (denoc::generalized_inertia(robot.model, ws, q) - arm.inertia(q)).cwiseAbs().maxCoeff(),
        1e-14);
    EXPECT_LT((denoc::gravity_forces(robot.model, ws, q) - arm.gravity(q)).cwiseAbs().maxCoeff(),
              1e-13);
  }
}

TEST(ClosedForm, CycloidalTrajectoryMatchesItsDerivatives) {
  denoc::CycloidalTrajectory<double> traj;
  traj.duration = 10;
  traj.samples = 11;
  traj.from = vec({0.0, 1.5});
  traj.to = vec({3.0, -0.5});
  VecX<double> q(2), qd(2), qdd(2), qp(2), qm(2), unused(2);
  traj.evaluate(0.0, q, qd, qdd);
  EXPECT_EQ(q, traj.from);
  EXPECT_EQ(qd.norm(), 0.0);
  traj.evaluate(traj.sample_time(10), q, qd, qdd);
  EXPECT_EQ(traj.sample_time(10), 10.0);
  EXPECT_NEAR((q - traj.to).norm(), 0.0, 1e-15);
  EXPECT_NEAR(qd.norm(), 0.0, 1e-15);
  // Interior: central differences of q and qd give qd and qdd.
  const double h = 1e-5;
  for (double t : {1.3, 5.0, 8.7}) {
    traj.evaluate(t, q, qd, qdd);
    traj.evaluate(t + h, qp, unused, unused);
    traj.evaluate(t - h, qm, unused, unused);
    EXPECT_LT(((qp - qm) / (2 * h) - qd).norm(), 1e-9);
    VecX<double> qdp(2), qdm(2);
    traj.evaluate(t + h, unused, qdp, unused);
    traj.evaluate(t - h, unused, qdm, unused);
    EXPECT_LT(((qdp - qdm) / (2 * h) - qdd).norm(), 1e-9);
  }
}

// The joint rotations' sin and cos (denoc::sin_cos) against the C library, which is correctly
// rounded or nearly so: within one unit in the last place of 1 (the scale of a rotation
// matrix entry) everywhere, within two of the value itself where it is not small, and exact
// at the quadrant boundaries that the reduction must get right.
TEST(SinCos, AgreesWithTheCLibrary) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> joint_range(-20, 20), far(-1e5, 1e5);
  double worst_abs = 0, worst_rel = 0;
  auto check = [&](double q) {
    double s, c;
    denoc::sin_cos(q, s, c);
    for (const auto& [value, expected] : {std::pair{s, std::sin(q)}, std::pair{c, std::cos(q)}}) {
      worst_abs = std::max(worst_abs, std::abs(value - expected));
      if (std::abs(expected) > 1e-3)
        worst_rel = std::max(worst_rel, std::abs(value - expected) / std::abs(expected));
    }
  };
  for (int k = 0; k < 200000; ++k) {
    check(joint_range(rng));
    check(far(rng));
  }
  for (int k = -64; k <= 64; ++k) {  // octant edges, where the quadrant and the series switch
    const double edge = k * M_PI / 4;
    check(edge);
    check(std::nextafter(edge, 1e9));
    check(std::nextafter(edge, -1e9));
  }
  EXPECT_LE(worst_abs, std::numeric_limits<double>::epsilon());
  EXPECT_LE(worst_rel, 2 * std::numeric_limits<double>::epsilon());

  double s, c;
  denoc::sin_cos(0.0, s, c);
  EXPECT_EQ(s, 0.0);
  EXPECT_EQ(c, 1.0);
  denoc::sin_cos(M_PI / 2, s, c);  // fl(pi/2) is not pi/2: cos is 6.1e-17, not 0
  EXPECT_EQ(s, 1.0);
  EXPECT_NEAR(c, std::cos(M_PI / 2), 1e-30);
  for (double q : {1e6, -3e7}) {  // beyond the reduction's range: the C library's values
    denoc::sin_cos(q, s, c);
    EXPECT_EQ(s, std::sin(q));
    EXPECT_EQ(c, std::cos(q));
  }
  denoc::sin_cos(std::numeric_limits<double>::quiet_NaN(), s, c);
  EXPECT_TRUE(std::isnan(s) && std::isnan(c));
  // The joint frames take all angles at once: the same values, angles beyond the reduction's
  // range and NaN among them.
  const std::vector<double> angles = {0.3, -2.5, 1e6, 7.0, std::nan(""), -4e5, 1e5, M_PI};
  std::vector<double> sines(angles.size()), cosines(angles.size());
  denoc::sin_cos(angles.data(), static_cast<int>(angles.size()), sines.data(), cosines.data());
  for (std::size_t k = 0; k < angles.size(); ++k) {
    denoc::sin_cos(angles[k], s, c);
    EXPECT_TRUE(sines[k] == s || (std::isnan(s) && std::isnan(sines[k]))) << angles[k];
    EXPECT_TRUE(cosines[k] == c || (std::isnan(c) && std::isnan(cosines[k]))) << angles[k];
  }
  float sf, cf;
  denoc::sin_cos(0.5f, sf, cf);
  EXPECT_EQ(sf, static_cast<float>(std::sin(0.5)));
  EXPECT_EQ(cf, static_cast<float>(std::cos(0.5)));
}

}  // namespace closed_forms_test
