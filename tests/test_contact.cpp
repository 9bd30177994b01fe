// Compliant ground contact (docs/legged.md) on a box resting on its four lower corners, read from a
// URDF whose corners are frames on fixed joints: at rest each corner sinks by the static
// deflection m g / (4 k); a box sliding at v stops after v^2 / (2 mu g); a box dropped turned,
// bouncing and sliding, keeps kinetic + potential + contact + dissipated constant; touch-down and
// lift-off are located as events; and the ground never pulls.
#include <gtest/gtest.h>

#include <cmath>

#include "denoc/denoc.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/simulation.hpp"

namespace {

using denoc::Vec3;
using VecX = denoc::VecX<double>;

constexpr double kMass = 4, kGravity = 9.81;

denoc::RobotFile box() {
  denoc::ChainSelection floating;
  floating.floating_base = true;
  return denoc::load_robot_file(DENOC_TEST_FIXTURES "/box_corners.urdf", {}, floating);
}

std::vector<denoc::BodyFrame<double>> corners(const denoc::RobotFile& robot) {
  std::vector<denoc::BodyFrame<double>> points;
  for (const char* name : {"corner_1", "corner_2", "corner_3", "corner_4"})
    points.push_back(denoc::find_frame(robot, name));
  return points;
}

// [q; v; work; dissipated] for the box's origin at height z (its corners 0.1 m below), turned by
// `turn`, moving with base-frame velocity v and angular velocity w.
denoc::State box_state(double z, const Eigen::Quaterniond& turn, const Vec3<double>& v,
                       const Vec3<double>& w) {
  denoc::State x(7 + 6 + 2, 0.0);
  x[2] = z;
  x[3] = turn.x(), x[4] = turn.y(), x[5] = turn.z(), x[6] = turn.w();
  for (std::size_t k = 0; k < 3; ++k)
    x[7 + k] = v[static_cast<Eigen::Index>(k)], x[10 + k] = w[static_cast<Eigen::Index>(k)];
  return x;
}

struct Simulated {
  std::vector<VecX> rows;  // output_row with t first
  denoc::IntegrationStats stats;
};

Simulated simulate(const denoc::RobotFile& robot, const denoc::GroundSettings& ground,
                   denoc::State x, double t_end, double dt) {
  denoc::ZeroForces forces;
  denoc::ChainDynamics system(robot.model, denoc::Route::udu, forces);
  system.set_ground_contact(corners(robot), ground);
  denoc::IntegratorSettings settings;
  settings.rtol = settings.atol = 1e-10;
  Simulated run;
  const Eigen::Index width = denoc::output_row_size(robot.model, true);
  denoc::integrate(
      system, std::move(x), denoc::OutputTimes(t_end, dt), settings,
      [&](double t, const denoc::State& s) {
        VecX row(width + 1);
        row[0] = t;
        denoc::output_row(system, t, s, row.tail(width));
        run.rows.push_back(row);
      },
      run.stats);
  return run;
}

TEST(GroundContact, ABoxComesToRestAtTheStaticDeflection) {
  const denoc::RobotFile robot = box();
  const denoc::GroundSettings ground{2e4, 300, 0.8, 1e-3};
  const Simulated run = simulate(
      robot, ground,
      box_state(0.12, Eigen::Quaterniond::Identity(), Vec3<double>::Zero(), Vec3<double>::Zero()),
      3, 0.5);
  const VecX& last = run.rows.back();
  const double deflection = kMass * kGravity / (4 * ground.stiffness);  // 0.4905 mm
  EXPECT_NEAR(-(last[3] - 0.1), deflection, 1e-6 * deflection);         // z of the corners
  EXPECT_LT(Eigen::Map<const VecX>(last.data() + 8, 6).norm(), 1e-9);   // at rest
  EXPECT_GE(run.stats.events, 4);  // the four corners touching down at least
}

TEST(GroundContact, ASlidingBoxStopsAfterTheCoulombDistance) {
  const denoc::RobotFile robot = box();
  const denoc::GroundSettings ground{2e4, 300, 0.5, 1e-3};
  const double deflection = kMass * kGravity / (4 * ground.stiffness), speed = 1.0;
  const Simulated run = simulate(robot, ground,
                                 box_state(0.1 - deflection, Eigen::Quaterniond::Identity(),
                                           Vec3<double>(speed, 0, 0), Vec3<double>::Zero()),
                                 0.6, 0.01);
  const double distance = run.rows.back()[1];
  const double expected = speed * speed / (2 * ground.friction * kGravity);  // 0.10194 m
  EXPECT_NEAR(distance, expected, 2e-3 * expected);
  EXPECT_LT(std::abs(run.rows.back()[8]), 1e-6);  // stopped
}

// The box dropped from 0.3 m, turned and spinning, moving sideways: the corners bounce, touch
// down one by one and slide; every joule is kinetic, potential, in the springs or dissipated.
TEST(GroundContact, EnergyIsKineticPotentialSpringsAndDissipated) {
  const denoc::RobotFile robot = box();
  const denoc::GroundSettings ground{1e4, 20, 0.6, 1e-3};
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.3, Vec3<double>(1, 2, 0.5).normalized()));
  const Simulated run = simulate(
      robot, ground, box_state(0.4, turn, Vec3<double>(0.8, -0.3, 0), Vec3<double>(1, -2, 3)), 1.5,
      0.001);
  const Eigen::Index end =  // kinetic's column, after t, q, qd, qdd and tau
      1 + robot.model.nq() + 2 * robot.model.nv() + robot.model.dof();
  auto total = [&](const VecX& row) {
    return row[end] + row[end + 1] + row[end + 2] - row[end + 3] + row[end + 4];
  };
  const double e0 = total(run.rows.front());
  double worst = 0, most_stored = 0;
  for (const VecX& row : run.rows) {
    worst = std::max(worst, std::abs(total(row) - e0));
    most_stored = std::max(most_stored, row[end + 2]);
  }
  EXPECT_LT(worst, 1e-6 * std::abs(e0));
  EXPECT_GT(most_stored, 0.1);               // the springs took part
  EXPECT_GT(run.rows.back()[end + 4], 0.1);  // and something was dissipated, J
  EXPECT_GE(run.stats.events, 8);            // touch-downs and lift-offs
}

// Pressed into the ground and pulled out fast, a point feels no pull: the force is zero where
// k d + c d' < 0 and where d <= 0; where it presses, it is k d + c d' with friction within mu N.
TEST(GroundContact, TheGroundPushesAndNeverPulls) {
  const denoc::RobotFile robot = box();
  const denoc::GroundSettings ground{1e4, 100, 0.5, 1e-3};
  denoc::GroundContact contact(robot.model, corners(robot), ground);
  VecX q = VecX::Zero(7), v = VecX::Zero(6);
  q[6] = 1;
  q[2] = 0.1 - 0.002;                          // 2 mm deep
  v[0] = 0.3;                                  // sliding along x
  for (double rate : {0.5, 0.1, 0.0, -0.1}) {  // v_z: rising fast, rising, still, sinking
    v[2] = rate;
    contact.evaluate(q, v, false);
    const double d = 0.002, d_rate = -rate;
    const double normal = std::max(0.0, ground.stiffness * d + ground.damping * d_rate);
    for (int k = 0; k < contact.size(); ++k) {
      EXPECT_NEAR(contact.force(k).z(), normal, 1e-12) << rate;
      EXPECT_LE(std::hypot(contact.force(k).x(), contact.force(k).y()),
                ground.friction * normal + 1e-12);
      EXPECT_LE(contact.force(k).x(), 0);  // against the sliding
    }
  }
  q[2] = 0.1 + 0.001;  // above the ground
  v[2] = -1;
  contact.evaluate(q, v, false);
  for (int k = 0; k < contact.size(); ++k)
    EXPECT_EQ(contact.force(k).norm(), 0);
  EXPECT_THROW(denoc::GroundContact(robot.model, corners(robot), {-1, 0, 0, 0.01}),
               denoc::InputError);
  EXPECT_THROW(denoc::GroundContact(robot.model, corners(robot), {1, 0, 0, 0}), denoc::InputError);
}

}  // namespace
