// Simulation with the drives of docs/robot-file.md and the energy accounting of docs/csv.md: a
// pendulum with Coulomb friction stops where the analysis of its turning points says, a joint held
// by friction on a slope does not creep beyond the stated error, and kinetic + potential - work +
// dissipated stays constant on driven runs with friction and an external wrench.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/simulation.hpp"

namespace friction_sim_test {

using namespace denoc;

constexpr double kPi = 3.14159265358979323846;

// A point mass m = 1 kg on a massless rod l = 1 m, swinging in the X-Y plane, gravity -Y, with
// Coulomb friction Tc = 2 N m at the joint (G = 1). q = 0 is horizontal, theta = q + pi/2 is
// measured from the bottom.
const char* const kPendulum = R"(dh: standard
angle_unit: rad
gravity: [0, -9.81, 0]
links:
  - joint: revolute
    a: 1
    mass: 1
    drive: {Tc: 2}
)";
constexpr double kM = 1, kL = 1, kG = 9.81, kTc = 2;

// The analysis: from rest at theta_k the pendulum swings to the turning point theta_{k+1} of
// the other sign where energy lost equals friction work,
//   m g l (cos theta_{k+1} - cos theta_k) = Tc (|theta_k| + |theta_{k+1}|),
// and stays there if |m g l sin theta_{k+1}| <= Tc. Returns the rest angle; `path` is the angle
// travelled (friction work = Tc path).
double rest_angle(double theta, double& path) {
  const double k = kTc / (kM * kG * kL);
  path = 0;
  while (std::abs(std::sin(theta)) > k) {
    double lo = 0, hi = std::abs(theta);
    for (int i = 0; i < 200; ++i) {
      const double mid = (lo + hi) / 2;
      (std::cos(mid) - std::cos(theta) - k * (std::abs(theta) + mid) > 0 ? lo : hi) = mid;
    }
    path += std::abs(theta) + lo;
    theta = theta > 0 ? -lo : lo;
  }
  return theta;
}

struct SimRun {
  State x;
  IntegrationStats stats;
  double max_residual = 0;  // of kinetic + potential - work + dissipated
  double energy_scale = 0;
};

class SmoothForces : public JointForces {
 public:
  SmoothForces(double amplitude, double frequency) : amplitude_(amplitude), frequency_(frequency) {}
  void at(double t, Eigen::Ref<VecX<double>> tau) override {
    for (int i = 0; i < static_cast<int>(tau.size()); ++i)
      tau[i] = amplitude_ * std::sin(frequency_ * (i + 1) * t + i);
  }

 private:
  double amplitude_, frequency_;
};

SimRun simulate(const Model<double>& model, const VecX<double>& q0, const VecX<double>& qd0,
                double t_end, const FrictionSettings& friction, JointForces& forces,
                JointForces* wrench = nullptr, double tol = 1e-10) {
  const int n = model.dof();
  ChainDynamics system(model, Route::udu, forces);
  system.set_friction(friction);
  if (wrench) system.add_wrench(*wrench, model.tool_frame(), false);
  SimRun run;
  run.x.assign(static_cast<std::size_t>(2 * n + 2), 0.0);
  for (int i = 0; i < n; ++i) {
    run.x[static_cast<std::size_t>(i)] = q0[i];
    run.x[static_cast<std::size_t>(n + i)] = qd0[i];
  }
  IntegratorSettings settings;
  settings.rtol = settings.atol = tol;
  Workspace<double> ws(model);
  double e0 = 0;
  bool first = true;
  integrate(
      system, run.x, OutputTimes(t_end, 0.01), settings,
      [&](double, const State& x) {
        const Eigen::Map<const VecX<double>> q(x.data(), n), qd(x.data() + n, n);
        const double T = kinetic_energy(model, ws, q, qd), V = potential_energy(model, ws, q);
        const double e =
            T + V - x[static_cast<std::size_t>(2 * n)] + x[static_cast<std::size_t>(2 * n + 1)];
        if (first) e0 = e;
        first = false;
        run.max_residual = std::max(run.max_residual, std::abs(e - e0));
        run.energy_scale = std::max({run.energy_scale, std::abs(T), std::abs(V),
                                     std::abs(x[static_cast<std::size_t>(2 * n)])});
        run.x = x;
      },
      run.stats);
  return run;
}

TEST(CoulombFriction, PendulumStopsWhereTheAnalysisSays) {
  const RobotFile robot = parse_robot_file(kPendulum, "pendulum.yaml");
  double path = 0;
  const double theta0 = 1.0, theta_rest = rest_angle(theta0, path);
  const double band = std::asin(kTc / (kM * kG * kL));
  ASSERT_LT(std::abs(theta_rest), band);
  VecX<double> q0(1), qd0(1);
  q0 << theta0 - kPi / 2;
  qd0 << 0;
  ZeroForces none;
  const double t_end = 5;

  FrictionSettings stick;
  stick.coulomb = CoulombModel::stick_slip;
  const SimRun exact = simulate(robot.model, q0, qd0, t_end, stick, none);
  const double theta_exact = exact.x[0] + kPi / 2;
  std::cout << "[coulomb] pendulum from theta = 1 rad, Tc = 2 N m: analysis stops at " << theta_rest
            << " rad (band +-" << band << "), friction work " << kTc * path
            << " J\n[coulomb] stick-slip: stops at " << theta_exact << " (error "
            << theta_exact - theta_rest << "), qd " << exact.x[1] << ", dissipated " << exact.x[3]
            << " J, steps " << exact.stats.steps << ", rejected " << exact.stats.rejected
            << ", events " << exact.stats.events << ", energy residual " << exact.max_residual
            << " J\n";
  EXPECT_NEAR(theta_exact, theta_rest, 1e-7);
  EXPECT_EQ(exact.x[1], 0.0);                 // locked
  EXPECT_NEAR(exact.x[3], kTc * path, 1e-7);  // dissipated = friction work of the analysis
  EXPECT_GE(exact.stats.events, 3);
  EXPECT_LT(exact.max_residual, 1e-7);

  for (double scale : {1e-3, 1e-4}) {
    FrictionSettings smooth;
    smooth.velocity_scale = scale;
    const SimRun reg = simulate(robot.model, q0, qd0, t_end, smooth, none);
    const double theta_reg = reg.x[0] + kPi / 2;
    // The stated error: creep at v_s atanh(|load| / Tc) for at most t_end.
    const double load = kM * kG * kL * std::sin(theta_rest);
    const double bound = scale * std::atanh(std::abs(load) / kTc) * t_end;
    std::cout << "[coulomb] regularised v_s = " << scale << ": at t = 5 s theta = " << theta_reg
              << " (from the analysis " << theta_reg - theta_rest << ", stated bound " << bound
              << "), steps " << reg.stats.steps << ", rejected " << reg.stats.rejected
              << ", energy residual " << reg.max_residual << " J\n";
    EXPECT_LT(std::abs(theta_reg - theta_rest), bound);
    EXPECT_LT(reg.max_residual, 1e-6);
  }
}

TEST(CoulombFriction, JointHeldOnASlopeDoesNotCreepBeyondTheStatedError) {
  const RobotFile robot = parse_robot_file(kPendulum, "pendulum.yaml");
  const double theta = 0.15;  // |m g l sin theta| = 1.47 N m < Tc = 2 N m: friction holds it
  VecX<double> q0(1), qd0(1);
  q0 << theta - kPi / 2;
  qd0 << 0;
  ZeroForces none;
  const double t_end = 10;
  FrictionSettings stick;
  stick.coulomb = CoulombModel::stick_slip;
  const SimRun exact = simulate(robot.model, q0, qd0, t_end, stick, none);
  EXPECT_EQ(exact.x[0], q0[0]);      // locked from the start: no creep at all
  EXPECT_EQ(exact.stats.events, 0);  // the initial lock is the starting mode, not a transition
  const double load = kM * kG * kL * std::sin(theta);
  for (double scale : {1e-3, 1e-4}) {
    FrictionSettings smooth;
    smooth.velocity_scale = scale;
    const SimRun reg = simulate(robot.model, q0, qd0, t_end, smooth, none);
    const double creep = std::abs(reg.x[0] - q0[0]);
    const double bound = scale * std::atanh(load / kTc) * t_end;
    std::cout << "[coulomb] held on a slope (load " << load << " N m, Tc 2 N m), 10 s: stick-slip "
              << "creep 0, regularised v_s = " << scale << " creep " << creep
              << " rad (stated bound " << bound << ", steps " << reg.stats.steps << ")\n";
    EXPECT_LT(creep, bound);
    EXPECT_GT(creep, 0.5 * bound);  // the bound is the rate it creeps at, not a loose one
  }
}

// The Stanford arm of the robot file with drives, a tool and a payload added here.
Model<double> stanford_with_drives() {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/stanford.yaml");
  std::vector<LinkSpec<double>> specs = robot.model.links();
  for (LinkSpec<double>& s : specs) {
    s.drive.Jm = 2e-4;
    s.drive.G = -10;
    s.drive.B = 1e-3;
    s.drive.Tc_pos = 0.05;
    s.drive.Tc_neg = -0.04;
  }
  Transform<double> tool;
  tool.p = Vec3<double>(0, 0, 0.1);
  Payload<double> payload;
  payload.mass = 0.5;
  payload.com = Vec3<double>(0, 0.01, 0.03);
  payload.inertia = Vec3<double>(1e-3, 1e-3, 2e-3).asDiagonal();
  return Model<double>(specs, robot.model.gravity(), tool, payload);
}

Model<double> random_driven_chain(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<DhLink<double>> rows;
  for (int i = 0; i < n; ++i) {
    DhLink<double> r;
    r.type = i == 2 ? JointType::prismatic : JointType::revolute;
    r.a = 0.3 * u(rng);
    r.b = 0.3 * u(rng);
    r.alpha = kPi * u(rng);
    r.theta = kPi * u(rng);
    r.mass = 2 + u(rng);
    r.com = Vec3<double>(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng));
    r.inertia = Vec3<double>(0.05, 0.04, 0.07).asDiagonal();
    rows.push_back(r);
  }
  std::vector<LinkSpec<double>> specs = links_from_dh(DhConvention::standard, rows);
  for (LinkSpec<double>& s : specs) {
    s.drive.Jm = 1e-4 * (1.5 + u(rng));
    s.drive.G = 20;
    s.drive.B = 1e-4;
    s.drive.Tc_pos = 5e-3;
    s.drive.Tc_neg = -5e-3;
  }
  Payload<double> payload;
  payload.mass = 1;
  return Model<double>(specs, Vec3<double>(0, 0, -9.81), Transform<double>(), payload);
}

class SmoothWrench : public JointForces {
 public:
  void at(double t, Eigen::Ref<VecX<double>> w) override {
    for (int i = 0; i < 6; ++i)
      w[i] = (i < 3 ? 5.0 : 0.5) * std::cos(1.3 * t + i);
  }
};

TEST(EnergyAccounting, KineticPlusPotentialMinusWorkPlusDissipatedIsConstant) {
  std::mt19937 rng(1341);
  const RobotFile planar = load_robot_file(DENOC_ROBOTS_DIR "/planar3_drives.yaml");
  const Model<double> stanford = stanford_with_drives();
  const Model<double> seven = random_driven_chain(7, rng);
  struct Case {
    const char* name;
    const Model<double>* model;
    double amplitude;
  };
  double worst = 0;
  for (const Case& c :
       {Case{"planar3_drives", &planar.model, 5.0}, Case{"Stanford + drives", &stanford, 3.0},
        Case{"random 7-link + drives", &seven, 3.0}}) {
    const int n = c.model->dof();
    VecX<double> q0 = VecX<double>::Constant(n, 0.3), qd0 = VecX<double>::Constant(n, 0.2);
    for (CoulombModel coulomb : {CoulombModel::regularised, CoulombModel::stick_slip}) {
      FrictionSettings friction;
      friction.coulomb = coulomb;
      friction.velocity_scale = 1e-2;
      SmoothForces forces(c.amplitude, 1.1);
      SmoothWrench wrench;
      const SimRun run = simulate(*c.model, q0, qd0, 2.0, friction, forces, &wrench, 1e-10);
      const double rel = run.max_residual / run.energy_scale;
      worst = std::max(worst, rel);
      std::cout << "[energy] " << c.name << ", "
                << (coulomb == CoulombModel::stick_slip ? "stick-slip" : "regularised 1e-2")
                << ", driven, wrench, rtol = atol = 1e-10, 2 s: |T + V - W + D - E0| max "
                << run.max_residual << " J (scale " << run.energy_scale << " J, rel " << rel
                << "), dissipated " << run.x[static_cast<std::size_t>(2 * n + 1)] << " J, steps "
                << run.stats.steps;
      if (run.stats.events >= 0) std::cout << ", events " << run.stats.events;  // stick-slip only
      std::cout << "\n";
      EXPECT_GT(run.x[static_cast<std::size_t>(2 * n + 1)], 0);
      EXPECT_LT(rel, 1e-6) << c.name;
    }
  }
}

}  // namespace friction_sim_test
