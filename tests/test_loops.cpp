// Closed kinematic loops (docs/loops.md): the four-bar's and the slider-crank's closed-form
// kinematics and the torques of their one degree of freedom's Lagrangian; the same four-bar cut at
// two different joints; the loop equations' Jacobian and velocity product against the motion; the
// cut joints' wrenches against the spanning tree loaded by them; the inverse and forward dynamics
// of the closed system against each other; free motion that keeps its energy and its loops; a
// driven motion whose work is the energy it gains.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/simulation.hpp"
#include "support/dual.hpp"

namespace loops_test {

using denoc::RobotFile;
using denoc::Vec3;
using VecX = denoc::VecX<double>;
using denoc_test::Dual;

const std::string kRobots = DENOC_ROBOTS_DIR;

// A robot of robots/, or (a path with a slash) of tests/fixtures/.
RobotFile robot(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return denoc::load_robot_file(std::string(DENOC_TEST_FIXTURES) + "/" + name);
  return denoc::load_robot_file(kRobots + "/" + name);
}

// A planar point (x, y) of scalar T.
template <typename T>
struct Point {
  T x, y;
};

// The four-bar of robots/fourbar.yaml in closed form (crank r2 about O2 = 0, coupler r3, rocker r4
// about O4 = (r1, 0)): the coupler's far pin C from the crank pin B by the law of cosines in the
// triangle B C O4, on the elbow the file assembles (C above the line B O4).
struct FourBar {
  double r1 = 0.35, r2 = 0.1, r3 = 0.4, r4 = 0.3;
  double m2 = 1, m3 = 4, m4 = 3, g = 9.81;

  template <typename T>
  void pins(T theta, Point<T>& B, Point<T>& C) const {
    B = {r2 * cos(theta), r2 * sin(theta)};
    const T dx = r1 - B.x, dy = -B.y;  // from B to O4
    const T d2 = dx * dx + dy * dy, d = sqrt(d2);
    const T cos_beta = (r3 * r3 + d2 - r4 * r4) / (2 * r3 * d);
    const T sin_beta = sqrt(1 - cos_beta * cos_beta);
    // C = B + r3 (cos beta u + sin beta u_perp), u = (dx, dy) / d, u_perp = (-dy, dx) / d.
    C = {B.x + r3 * (cos_beta * dx - sin_beta * dy) / d,
         B.y + r3 * (cos_beta * dy + sin_beta * dx) / d};
  }

  // The generalised mass m(theta) and the potential energy V(theta) of the one degree of freedom,
  // from the closed form's velocity coefficients (dual numbers: exact first derivatives).
  void energy_coefficients(double theta, double& m, double& V) const {
    Point<Dual> B, C;
    pins(Dual(theta, 1), B, C);
    const Point<Dual> O4{Dual(r1), Dual(0)};
    const auto rod = [](Point<Dual> P, Point<Dual> Q, double mass, double length, double& m_sum,
                        double& V_sum, double g) {
      const Dual cx = (P.x + Q.x) / 2, cy = (P.y + Q.y) / 2;
      // The rod's angular velocity coefficient: d/dtheta atan2(dy, dx) = (dx dy' - dy dx') / L^2.
      const Dual dx = Q.x - P.x, dy = Q.y - P.y;
      const double w = (dx.value() * dy.derivative() - dy.value() * dx.derivative()) /
                       (dx.value() * dx.value() + dy.value() * dy.value());
      m_sum += mass * (cx.derivative() * cx.derivative() + cy.derivative() * cy.derivative()) +
               mass * length * length / 12 * w * w;
      V_sum += mass * g * cy.value();
    };
    m = 0;
    V = 0;
    rod({Dual(0), Dual(0)}, B, m2, r2, m, V, g);
    rod(B, C, m3, r3, m, V, g);
    rod(C, O4, m4, r4, m, V, g);
  }
};

// The slider-crank of robots/slider_crank.yaml: crank r, rod l, slider at x = r cos + sqrt(l^2 -
// r^2 sin^2), masses 1, 2 and 0.5 kg (rods uniform).
struct SliderCrank {
  double r = 0.1, l = 0.35, m2 = 1, m3 = 2, m4 = 0.5, g = 9.81;

  void energy_coefficients(double theta, double& m, double& V) const {
    const Dual t(theta, 1);
    const Point<Dual> B{r * cos(t), r * sin(t)};
    const Point<Dual> P{B.x + sqrt(l * l - B.y * B.y), Dual(0)};
    m = 0;
    V = 0;
    const auto add = [&](Point<Dual> c, double mass, double inertia, double w) {
      m += mass * (c.x.derivative() * c.x.derivative() + c.y.derivative() * c.y.derivative()) +
           inertia * w * w;
      V += mass * g * c.y.value();
    };
    add({B.x / 2, B.y / 2}, m2, m2 * r * r / 12, 1);
    const Dual dx = P.x - B.x, dy = P.y - B.y;
    const double w3 = (dx.value() * dy.derivative() - dy.value() * dx.derivative()) / (l * l);
    add({(B.x + P.x) / 2, (B.y + P.y) / 2}, m3, m3 * l * l / 12, w3);
    add(P, m4, 0, 0);  // the slider does not turn
  }
};

// The torque of a one-degree-of-freedom Lagrangian L = m(theta) thetad^2 / 2 - V(theta):
//   tau = m thetadd + m'(theta) thetad^2 / 2 + V'(theta),
// m' and V' by fourth-order central differences of the closed form (error about 1e-12).
template <typename Mechanism>
double lagrangian_torque(const Mechanism& mech, double theta, double thetad, double thetadd) {
  const double h = 1e-3;
  double m[5], V[5];
  for (int k = 0; k < 5; ++k)
    mech.energy_coefficients(theta + (k - 2) * h, m[k], V[k]);
  const auto derivative = [h](const double* f) {
    return (f[0] - 8 * f[1] + 8 * f[3] - f[4]) / (12 * h);
  };
  return m[2] * thetadd + derivative(m) * thetad * thetad / 2 + derivative(V);
}

VecX one(double v) {
  return VecX::Constant(1, v);
}

TEST(Loops, TheFourBarAssemblesToItsClosedForm) {
  const RobotFile r = robot("fourbar.yaml");
  EXPECT_EQ(r.mobility, 1);
  denoc::ClosedLoopSamples samples(r, denoc::Quantity::joint_states, denoc::Route::denoc);
  const FourBar bar;
  // Each configuration from the last, as a trajectory's rows are: a full turn of the crank.
  for (double theta = 0; theta < 6.3; theta += 0.05) {
    const VecX& q = samples.assemble(one(theta));
    Point<double> B, C;
    bar.pins(theta, B, C);
    // The coupler points from B to C (angle q1 + q2), the rocker from C to O4 (q1 + q2 + q3).
    const double coupler = q[0] + q[1], rocker = coupler + q[2];
    EXPECT_NEAR(std::cos(coupler), (C.x - B.x) / bar.r3, 1e-12) << theta;
    EXPECT_NEAR(std::sin(coupler), (C.y - B.y) / bar.r3, 1e-12) << theta;
    EXPECT_NEAR(std::cos(rocker), (bar.r1 - C.x) / bar.r4, 1e-12) << theta;
    EXPECT_NEAR(std::sin(rocker), (0 - C.y) / bar.r4, 1e-12) << theta;
  }
}

TEST(Loops, TheSliderCrankAssemblesToItsClosedForm) {
  const RobotFile r = robot("slider_crank.yaml");
  EXPECT_EQ(r.mobility, 1);
  denoc::ClosedLoopSamples samples(r, denoc::Quantity::joint_states, denoc::Route::denoc);
  const SliderCrank sc;
  for (double theta = 0; theta < 6.3; theta += 0.05) {
    const VecX& q = samples.assemble(one(theta));
    const double x =
        sc.r * std::cos(theta) + std::sqrt(sc.l * sc.l - std::pow(sc.r * std::sin(theta), 2));
    const double rod = q[0] + q[1];
    EXPECT_NEAR(sc.r * std::cos(theta) + sc.l * std::cos(rod), x, 1e-12) << theta;
    EXPECT_NEAR(sc.r * std::sin(theta) + sc.l * std::sin(rod), 0, 1e-12) << theta;
    EXPECT_NEAR(std::remainder(q[0] + q[1] + q[2], 2 * M_PI), 0, 1e-12) << theta;  // unturned
  }
}

// The 3-RRR's platform where its closed-form inverse kinematics puts it: the base joints' angles
// for a platform pose (centre, turn) by the law of cosines in each leg (robots/planar_3rrr.yaml),
// assembled; the platform's frame (at pin C_1, x towards the centre) is then where the pose says.
TEST(Loops, The3RrrPlatformIsWhereItsInverseKinematicsPutsIt) {
  const RobotFile r = robot("planar_3rrr.yaml");
  EXPECT_EQ(r.mobility, 3);
  const double Rb = 0.5, rp = 0.15, L1 = 0.3, L2 = 0.3;
  denoc::ClosedLoopSamples samples(r, denoc::Quantity::joint_states, denoc::Route::denoc);
  denoc::KinematicsWorkspace<double> ws(r.dof());
  for (int step = 0; step <= 20; ++step) {  // the platform moved and turned in small steps
    const double s = step / 20.0, cx = 0.04 * s, cy = -0.03 * s, turn = 0.3 * s;
    VecX q_a(3);
    for (int k = 0; k < 3; ++k) {
      const double phi = (90 + 120 * k) * M_PI / 180;
      const double ax = Rb * std::cos(phi), ay = Rb * std::sin(phi);
      const double x = cx + rp * std::cos(phi + turn) - ax, y = cy + rp * std::sin(phi + turn) - ay;
      const double D = std::hypot(x, y);
      q_a[k] = std::atan2(y, x) + std::acos((L1 * L1 + D * D - L2 * L2) / (2 * L1 * D)) - phi;
    }
    const VecX q = samples.assemble(q_a);
    const denoc::Transform<double>& platform =
        denoc::frame_pose(r.model, ws, denoc::BodyFrame<double>{2, {}}, q);
    const Vec3<double> centre = platform * Vec3<double>(rp, 0, 0);
    EXPECT_NEAR(centre.x(), cx, 1e-12) << step;
    EXPECT_NEAR(centre.y(), cy, 1e-12) << step;
    // x points from C_1 (at 90 degrees + turn) towards the centre: at -90 degrees + turn.
    EXPECT_NEAR(std::atan2(platform.R(1, 0), platform.R(0, 0)), turn - M_PI / 2, 1e-12) << step;
  }
}

// The Stewart-Gough platform where its legs' lengths |c + R p'_k - b_k| put it
// (robots/stewart_gough.yaml's geometry): assembled from those lengths, its frame moves by the
// same displacement.
TEST(Loops, TheStewartPlatformIsWhereItsLegLengthsPutIt) {
  const RobotFile r = robot("stewart_gough.yaml");
  EXPECT_EQ(r.mobility, 6);
  std::vector<Vec3<double>> b, p;
  const Vec3<double> home_centre(0, 0, 0.6);
  for (int k = 0; k < 3; ++k) {
    for (int sign : {-1, 1}) {
      const double base = (120 * k + sign * 10) * M_PI / 180;
      const double top = (120 * k + sign * 50) * M_PI / 180;
      b.emplace_back(0.5 * std::cos(base), 0.5 * std::sin(base), 0);
      p.emplace_back(0.3 * std::cos(top), 0.3 * std::sin(top), 0.6);
    }
  }
  denoc::ClosedLoopSamples samples(r, denoc::Quantity::joint_states, denoc::Route::denoc);
  denoc::KinematicsWorkspace<double> ws(r.dof());
  const denoc::BodyFrame<double> platform{5, {}};
  const denoc::Transform<double> home = denoc::frame_pose(r.model, ws, platform, *r.initial_q);
  for (int step = 1; step <= 10; ++step) {
    const double s = step / 10.0;
    const Vec3<double> centre = home_centre + Vec3<double>(0.03, -0.02, 0.05) * s;
    const Eigen::Matrix3d turn = (Eigen::AngleAxisd(0.1 * s, Eigen::Vector3d::UnitZ()) *
                                  Eigen::AngleAxisd(0.08 * s, Eigen::Vector3d::UnitX()))
                                     .toRotationMatrix();
    VecX lengths(6);
    for (int k = 0; k < 6; ++k)
      lengths[k] = (centre + turn * (p[k] - home_centre) - b[k]).norm();
    const VecX q = samples.assemble(lengths);
    const denoc::Transform<double> pose = denoc::frame_pose(r.model, ws, platform, q);
    EXPECT_LT((pose.R - turn * home.R).norm(), 1e-12) << step;
    EXPECT_LT((pose.p - (centre + turn * (home.p - home_centre))).norm(), 1e-12) << step;
  }
}

// The actuator's force is the Lagrangian's, at rest, at constant speed and accelerating.
template <typename Mechanism>
void expect_lagrangian_torques(const std::string& file, const Mechanism& mech) {
  const RobotFile r = robot(file);
  denoc::ClosedLoopSamples samples(r, denoc::Quantity::torques, denoc::Route::denoc);
  VecX tau(1);
  for (double theta = 0; theta < 6.3; theta += 0.05) {
    for (const auto& [rate, acceleration] : {std::pair{0.0, 0.0}, {6.0, 0.0}, {-4.0, 15.0}}) {
      samples.evaluate(one(theta), one(rate), one(acceleration), tau);
      EXPECT_NEAR(tau[0], lagrangian_torque(mech, theta, rate, acceleration), 1e-9)
          << file << " at theta " << theta << ", rate " << rate;
    }
  }
}

TEST(Loops, TheFourBarsTorqueIsItsLagrangians) {
  expect_lagrangian_torques("fourbar.yaml", FourBar());
}

TEST(Loops, TheSliderCranksTorqueIsItsLagrangians) {
  expect_lagrangian_torques("slider_crank.yaml", SliderCrank());
}

// Power balance, tau_a . qd_a = dE/dt: along a crank motion theta(t) = 0.3 + 5 t + 4 t^2, the
// actuator's power against the rate of the energy E = T + V of the assembled states (the tree's
// kinetic and potential energy, by a central difference in time), for the four-bar and the
// slider-crank.
TEST(Loops, TheActuatorsPowerIsTheRateOfTheEnergy) {
  for (const char* file : {"fourbar.yaml", "slider_crank.yaml"}) {
    const RobotFile r = robot(file);
    const int n = r.dof();
    denoc::ClosedLoopSamples torques(r, denoc::Quantity::torques, denoc::Route::denoc);
    denoc::ClosedLoopSamples states(r, denoc::Quantity::joint_states, denoc::Route::denoc);
    denoc::Workspace<double> ws(r.model);
    VecX tau(1), row(3 * n);
    const auto energy = [&](double t) {
      states.evaluate(one(0.3 + 5 * t + 4 * t * t), one(5 + 8 * t), one(8), row);
      const VecX q = row.head(n), qd = row.segment(n, n);
      return denoc::kinetic_energy(r.model, ws, q, qd) + denoc::potential_energy(r.model, ws, q);
    };
    for (double t = 0; t < 1; t += 0.01) {  // a turn and more, one configuration from the last
      const double h = 1e-5;
      const double rate = (energy(t + h) - energy(t - h)) / (2 * h);
      torques.evaluate(one(0.3 + 5 * t + 4 * t * t), one(5 + 8 * t), one(8), tau);
      EXPECT_NEAR(tau[0] * (5 + 8 * t), rate, 1e-6 * (1 + std::abs(rate))) << file << " t " << t;
    }
  }
}

// tests/fixtures/fourbar_cut_at_pin.yaml is robots/fourbar.yaml cut at the coupler-rocker pin
// instead of the ground pivot: a tree of two branches. The crank needs the same torque.
TEST(Loops, TheFourBarCutAtAnotherJointNeedsTheSameTorque) {
  const RobotFile chain = robot("fourbar.yaml");
  const RobotFile tree =
      denoc::load_robot_file(std::string(DENOC_TEST_FIXTURES) + "/fourbar_cut_at_pin.yaml");
  ASSERT_FALSE(tree.model.is_chain());
  EXPECT_EQ(tree.mobility, 1);
  denoc::ClosedLoopSamples a(chain, denoc::Quantity::torques, denoc::Route::denoc);
  denoc::ClosedLoopSamples b(tree, denoc::Quantity::torques, denoc::Route::denoc);
  std::mt19937 random(42);
  std::uniform_real_distribution<double> uniform(-1, 1);
  VecX tau_a(1), tau_b(1);
  for (int k = 0; k < 130; ++k) {  // a turn of the crank, one configuration from the last
    const VecX q = one(0.05 * k), qd = one(8 * uniform(random));
    const VecX qdd = one(30 * uniform(random));
    a.evaluate(q, qd, qdd, tau_a);
    b.evaluate(q, qd, qdd, tau_b);
    EXPECT_NEAR(tau_a[0], tau_b[0], 1e-11 * (1 + std::abs(tau_a[0])));
  }
}

// Along q(t) = q + qd t + qdd t^2 / 2 with qd = G qd_a and qdd = G qdd_a + beta (Eqs. (L6)-(L7)),
// the closure error grows as t^3: J and gamma are the first and second derivatives of the loop
// equations along the motion. Checked on a revolute (3-RRR), prismatic (slider-crank; and the
// inverted slider-crank's, between two moving bodies) and spherical (Stewart-Gough) cut.
TEST(Loops, TheJacobianAndVelocityProductFollowTheMotion) {
  for (const char* file : {"planar_3rrr.yaml", "slider_crank.yaml", "stewart_gough.yaml",
                           "./inverted_slider_crank.yaml"}) {
    const RobotFile r = robot(file);
    const int n = r.dof(), f = static_cast<int>(r.loops.actuated.size());
    denoc::ClosedLoopSamples samples(r, denoc::Quantity::joint_states, denoc::Route::denoc);
    VecX row(3 * n);
    const VecX& q_a = *r.initial_q;
    VecX actuated_q(f), actuated_qd(f), actuated_qdd(f);
    for (int k = 0; k < f; ++k) {
      actuated_q[k] = q_a[r.loops.actuated[static_cast<std::size_t>(k)]];
      actuated_qd[k] = 0.5 + 0.1 * k;
      actuated_qdd[k] = 1.0 - 0.3 * k;
    }
    samples.evaluate(actuated_q, actuated_qd, actuated_qdd, row);
    const VecX q = row.head(n), qd = row.segment(n, n), qdd = row.tail(n);
    denoc::LoopWorkspace<double> ws(r.model, r.loops);
    double previous = 0;
    for (double t : {1e-2, 1e-3}) {
      const VecX moved = q + qd * t + qdd * (t * t / 2);
      const double error = denoc::loop_residual(r.model, r.loops, ws, moved).norm();
      if (previous > 0) {
        EXPECT_LT(error, previous / 500) << file;  // t^3: a thousand times smaller
      }
      EXPECT_LT(error, 10 * t * t * t) << file;
      previous = error;
    }
  }
}

// The cut joints' wrenches (Eq. (L9)) applied to the spanning tree as external wrenches, lambda on
// body a and -lambda on body b at frame_a's origin, with the actuators' forces give the tree's
// inverse dynamics: computed by the tree's own wrench pass (frame_wrench_forces), not by J^T.
TEST(Loops, TheCutJointsWrenchesLoadTheTreeAsTheLoopsDo) {
  for (const char* file : {"fourbar.yaml", "slider_crank.yaml", "stewart_gough.yaml",
                           "./inverted_slider_crank.yaml"}) {
    const RobotFile r = robot(file);
    const int n = r.dof(), f = static_cast<int>(r.loops.actuated.size());
    denoc::ClosedLoopSamples states(r, denoc::Quantity::joint_states, denoc::Route::denoc);
    denoc::ClosedLoopSamples torques(r, denoc::Quantity::torques, denoc::Route::denoc);
    denoc::ClosedLoopSamples wrenches(r, denoc::Quantity::constraint_forces, denoc::Route::denoc);
    VecX q_a(f), qd_a(f), qdd_a(f);
    for (int k = 0; k < f; ++k) {
      q_a[k] = (*r.initial_q)[r.loops.actuated[static_cast<std::size_t>(k)]] + 0.01 * k;
      qd_a[k] = 0.3 - 0.1 * k;
      qdd_a[k] = -0.5 + 0.2 * k;
    }
    VecX row(3 * n), tau_a(f), lambda(6 * static_cast<int>(r.loops.cuts.size()));
    states.evaluate(q_a, qd_a, qdd_a, row);
    torques.evaluate(q_a, qd_a, qdd_a, tau_a);
    wrenches.evaluate(q_a, qd_a, qdd_a, lambda);
    const VecX q = row.head(n), qd = row.segment(n, n), qdd = row.tail(n);

    denoc::Workspace<double> ws(r.model);
    VecX expected = denoc::inverse_dynamics(r.model, ws, q, qd, qdd);
    denoc::BodyMotionWorkspace<double> motion(r.model);
    denoc::body_poses(r.model, motion, q);
    std::vector<denoc::FrameWrench<double>> loads;
    for (std::size_t k = 0; k < r.loops.cuts.size(); ++k) {
      const denoc::CutJoint<double>& cut = r.loops.cuts[k];
      const denoc::Vec6<double> w = lambda.segment<6>(6 * static_cast<int>(k));
      loads.push_back({cut.a, w, true});
      // The same point and axes on body b: frame_a's pose seen from body b's link frame.
      const denoc::LinkMotion<double> a = denoc::link_motion(motion, cut.a.link);
      const denoc::LinkMotion<double> b = denoc::link_motion(motion, cut.b.link);
      const denoc::Transform<double> a_pose = denoc::Transform<double>{a.R, a.o} * cut.a.placement;
      const denoc::Transform<double> on_b = denoc::Transform<double>{b.R, b.o}.inverse() * a_pose;
      loads.push_back({{cut.b.link, on_b}, -w, true});
    }
    VecX generalized(n);
    denoc::frame_wrench_forces(r.model, ws, q, loads.data(), static_cast<int>(loads.size()),
                               generalized);
    for (int k = 0; k < f; ++k)
      expected[r.loops.actuated[static_cast<std::size_t>(k)]] -= tau_a[k];
    EXPECT_LT((expected - generalized).norm(), 1e-9 * (1 + expected.norm())) << file;
  }
}

// Forward dynamics (Eq. (L10)) at the actuators' forces of the inverse dynamics (Eq. (L8)) gives
// back the accelerations: the reduced inertia G^T M G and the projection G^T tau_tree agree.
TEST(Loops, ForwardDynamicsUndoesInverseDynamics) {
  for (const char* file : {"fourbar.yaml", "planar_3rrr.yaml", "stewart_gough.yaml"}) {
    const RobotFile r = robot(file);
    const int n = r.dof(), f = static_cast<int>(r.loops.actuated.size());
    denoc::ClosedLoopSamples states(r, denoc::Quantity::joint_states, denoc::Route::denoc);
    denoc::ClosedLoopSamples torques(r, denoc::Quantity::torques, denoc::Route::denoc);
    VecX q_a(f), qd_a(f), qdd_a(f), row(3 * n), tau_a(f);
    for (int k = 0; k < f; ++k) {
      q_a[k] = (*r.initial_q)[r.loops.actuated[static_cast<std::size_t>(k)]];
      qd_a[k] = 0.2 * (k + 1);
      qdd_a[k] = 1.5 - k;
    }
    states.evaluate(q_a, qd_a, qdd_a, row);
    torques.evaluate(q_a, qd_a, qdd_a, tau_a);
    VecX tau = VecX::Zero(n), qdd(n);
    for (int k = 0; k < f; ++k)
      tau[r.loops.actuated[static_cast<std::size_t>(k)]] = tau_a[k];
    denoc::ClosedLoopWorkspace<double> ws(r.model, r.loops);
    const VecX q = row.head(n), qd = row.segment(n, n);
    ASSERT_TRUE(denoc::closed_configuration(r.model, r.loops, ws, q));
    denoc::Workspace<double> tree(r.model);
    ASSERT_TRUE(denoc::closed_forward_dynamics(r.model, r.loops, ws, tree, q, qd, tau, qdd));
    EXPECT_LT((qdd - row.tail(n)).norm(), 1e-10 * (1 + qdd.norm())) << file;
  }
}

// rfdsim's integration from the robot file's (assembled) initial state at rtol = atol = 1e-10,
// `forces` driving it: each output row (docs/loops.md: q, qd, qdd, tau_a, kinetic, potential,
// work, dissipated, closure) to `observe`.
void simulate(const RobotFile& r, denoc::JointForces& forces, double t_end, double dt,
              const std::function<void(const VecX&)>& observe) {
  const int n = r.dof();
  denoc::ChainDynamics system(r.model, denoc::Route::udu, forces);
  system.set_loops(r.loops);
  denoc::State x(static_cast<std::size_t>(2 * n + 2), 0.0);
  for (int i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = (*r.initial_q)[i];
    x[static_cast<std::size_t>(n + i)] = (*r.initial_qd)[i];
  }
  denoc::IntegratorSettings settings;
  settings.rtol = settings.atol = 1e-10;
  denoc::IntegrationStats stats;
  VecX row(denoc::output_row_size(system));
  denoc::integrate(
      system, x, denoc::OutputTimes(t_end, dt), settings,
      [&](double t, const denoc::State& s) {
        denoc::output_row(system, t, s, row);
        observe(row);
      },
      stats);
}

// Where the energies start in an output row: after q, qd, qdd and the actuated joints' forces.
Eigen::Index kinetic_column(const RobotFile& r) {
  return 3 * r.dof() + static_cast<Eigen::Index>(r.loops.actuated.size());
}

// Free motion keeps its energy, and the closure error stays below 1e-9 (docs/loops.md).
TEST(Loops, FreeMotionKeepsItsEnergyAndItsLoops) {
  for (const char* file : {"fourbar.yaml", "slider_crank.yaml", "stewart_gough.yaml"}) {
    const RobotFile r = robot(file);
    const Eigen::Index k = kinetic_column(r);
    denoc::ZeroForces none;
    double first = NAN, worst_energy = 0, worst_closure = 0;
    simulate(r, none, 0.5, 0.05, [&](const VecX& row) {
      const double energy = row[k] + row[k + 1];
      if (std::isnan(first)) first = energy;
      worst_energy = std::max(worst_energy, std::abs(energy - first));
      worst_closure = std::max(worst_closure, row[row.size() - 1]);
    });
    EXPECT_LT(worst_energy, 1e-7 * (1 + std::abs(first))) << file;
    EXPECT_LT(worst_closure, 1e-9) << file;
  }
}

// A driven four-bar: the work the crank's torque does is the energy the mechanism gains.
TEST(Loops, TheWorkDoneIsTheEnergyGained) {
  const RobotFile r = robot("fourbar.yaml");
  struct Sine : denoc::JointForces {
    void at(double t, Eigen::Ref<VecX> tau) override {
      tau.setZero();
      tau[0] = 2 * std::sin(3 * t);
    }
  } drive;
  const Eigen::Index k = kinetic_column(r);
  double first = NAN, worst = 0, work_seen = 0;
  simulate(r, drive, 1, 0.1, [&](const VecX& row) {
    const double energy = row[k] + row[k + 1], work = row[k + 2];
    if (std::isnan(first)) first = energy;
    worst = std::max(worst, std::abs(energy - first - work));
    work_seen = std::max(work_seen, std::abs(work));
  });
  EXPECT_GT(work_seen, 0.1);
  EXPECT_LT(worst, 1e-7);
}

// A loop that cannot close, and actuated joints that do not match the mobility, are the robot
// file's errors naming the loop or the key.
TEST(Loops, BadLoopsAreRefusedNamingThem) {
  const std::string path = kRobots + "/fourbar.yaml";
  const std::string text = denoc::read_robot_text(path);
  const auto message = [&](const std::string& from, const std::string& to) {
    std::string changed = text;
    const std::size_t at = changed.find(from);
    if (at == std::string::npos) return "'" + from + "' is not in " + path;
    changed.replace(at, from.size(), to);
    try {
      denoc::parse_robot_file(changed, path);
    } catch (const denoc::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A rocker too short to reach the ground pivot.
  const std::string open = message("a: 0.3\n", "a: 0.05\n");
  EXPECT_NE(open.find("loops[0]"), std::string::npos) << open;
  EXPECT_NE(open.find("'ground_pivot' does not close"), std::string::npos) << open;
  const std::string two = message("actuated: [crank]", "actuated: [crank, coupler]");
  EXPECT_NE(two.find("actuated"), std::string::npos) << two;
  EXPECT_NE(two.find("leave 1 degree of freedom"), std::string::npos) << two;
}

}  // namespace loops_test
