// rfdsim end to end: the real executable on the shipped robots and on files made here. Output
// times and columns (docs/csv.md), the rows against the library, agreement of algorithms and
// methods, the ridim -> rfdsim round trip on the Stanford arm, exit 1 with the rows kept and
// exit 2 on bad input (docs/errors.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "denoc/denoc.hpp"
#include "denoc/engine/run_checks.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/simulation.hpp"
#include "support/cli_support.hpp"
#include "support/fixtures.hpp"

namespace {

using cli::fields_of;
using cli::lines_of;
using cli::numbers_of;
using cli::Result;

const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";
const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";

class RfdsimCli : public cli::CliTest {
 protected:
  Result rfdsim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RFDSIM_EXE, args, input);
  }
  Result ridim(const std::string& args) { return run(DENOC_RIDIM_EXE, args); }
};

// A simulated CSV, parsed: rows[k] = {t, q..., qd..., qdd..., tau..., kinetic, potential, work,
// dissipated}.
std::vector<std::vector<double>> rows_of(const std::string& csv) {
  std::vector<std::vector<double>> rows;
  const auto lines = lines_of(csv);
  for (std::size_t k = 1; k < lines.size(); ++k)
    rows.push_back(numbers_of(lines[k]));
  return rows;
}

// Largest |a - b| over the joint positions q (columns 1..n) of two simulations.
double max_q_difference(const std::vector<std::vector<double>>& a,
                        const std::vector<std::vector<double>>& b, int n) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    for (int i = 1; i <= n; ++i)
      worst = std::max(worst, std::abs(a[k][i] - b[k][i]));
  }
  return worst;
}

denoc::VecX<double> segment(const std::vector<double>& row, int start, int n) {
  denoc::VecX<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = row[static_cast<std::size_t>(start + i)];
  return v;
}

TEST_F(RfdsimCli, FreeFallColumnsTimesAndRows) {
  const Result r = rfdsim("'" + kPlanar + "' --free-fall");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");  // quiet unless --stats
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1002u);  // header + t = 0, 0.01, ..., 10
  EXPECT_EQ(
      lines[0],
      "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3,tau1,tau2,tau3,kinetic,potential,work,dissipated");

  const denoc::RobotFile robot = denoc::load_robot_file(kPlanar);
  denoc::Workspace<double> ws(robot.model);
  const denoc::VecX<double> zero = denoc::VecX<double>::Zero(3);
  for (std::size_t k = 0; k <= 1000; ++k) {
    const std::vector<double> row = numbers_of(lines[k + 1]);
    ASSERT_EQ(row.size(), 17u);
    // The output times are the decimals k / 100, not sums of 0.01 (docs/csv.md: exact times).
    ASSERT_EQ(row[0], static_cast<double>(k) / 100) << lines[k + 1];
    if (k % 97 != 0) continue;
    // Each sampled row is a consistent state: qdd, the energies and tau = 0 recomputed.
    const denoc::VecX<double> q = segment(row, 1, 3), qd = segment(row, 4, 3);
    const denoc::VecX<double> qdd = denoc::forward_dynamics(robot.model, ws, q, qd, zero);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(row[static_cast<std::size_t>(7 + i)], qdd[i], 1e-9 * (1 + std::abs(qdd[i])));
      EXPECT_EQ(row[static_cast<std::size_t>(10 + i)], 0.0);
    }
    EXPECT_NEAR(row[13], denoc::kinetic_energy(robot.model, ws, q, qd), 1e-9);
    EXPECT_NEAR(row[14], denoc::potential_energy(robot.model, ws, q), 1e-9);
    // Released from rest at zero potential, the total energy stays zero (90 J scale).
    EXPECT_NEAR(row[13] + row[14], 0.0, 1e-5) << "t = " << row[0];
  }
  // Section 6.1, Fig. 6: joint 1 first swings negative.
  EXPECT_LT(numbers_of(lines[2])[1], 0.0);
}

TEST_F(RfdsimCli, OutputTimesAreDecimalsAndEndAtTEnd) {
  const Result r = rfdsim("'" + kPlanar + "' --free-fall --t-end 1 --dt 0.3");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> times;
  for (const std::string& line : lines_of(r.out))
    times.push_back(fields_of(line)[0]);
  EXPECT_EQ(times, (std::vector<std::string>{"t", "0", "0.3", "0.6", "0.9", "1"}));
}

TEST_F(RfdsimCli, AlgorithmsAndMethodsAgree) {
  const std::string tight = "'" + kPlanar + "' --free-fall --t-end 1 --rtol 1e-12 --atol 1e-12";
  const Result udu = rfdsim(tight);
  ASSERT_EQ(udu.status, 0) << udu.err;
  const auto reference = rows_of(udu.out);
  const Result cholesky = rfdsim(tight + " --algorithm cholesky");
  ASSERT_EQ(cholesky.status, 0) << cholesky.err;
  EXPECT_LT(max_q_difference(rows_of(cholesky.out), reference, 3), 1e-9);
  for (const char* method : {"cash-karp54", "fehlberg78"}) {
    const Result r = rfdsim(tight + " --method " + method);
    ASSERT_EQ(r.status, 0) << method << ": " << r.err;
    EXPECT_LT(max_q_difference(rows_of(r.out), reference, 3), 1e-9) << method;
  }
  // Fixed-step RK4: global error O(h^4), about 1e-12 rad at h = 1e-4 s.
  const Result rk4 = rfdsim("'" + kPlanar + "' --free-fall --t-end 1 --method rk4 --step 1e-4");
  ASSERT_EQ(rk4.status, 0) << rk4.err;
  EXPECT_LT(max_q_difference(rows_of(rk4.out), reference, 3), 1e-9);
  // The default tolerance is looser but the same motion.
  const Result loose = rfdsim("'" + kPlanar + "' --free-fall --t-end 1");
  EXPECT_LT(max_q_difference(rows_of(loose.out), reference, 3), 1e-6);
}

// docs/command-line.md: the four forward-dynamics routes integrate the same motion of the Stanford
// arm and of planar3 (thin rods, which the Fixman route borders); a robot with drives' rotors is
// refused by the Fixman route with exit 2, before any output.
TEST_F(RfdsimCli, EveryAlgorithmGivesTheSameMotion) {
  const std::string tight = "'" + kStanford + "' --free-fall --t-end 0.5 --rtol 1e-12 --atol 1e-12";
  const Result udu = rfdsim(tight);
  ASSERT_EQ(udu.status, 0) << udu.err;
  const auto reference = rows_of(udu.out);
  for (const char* algorithm : {"cholesky", "gibbs-appell", "fixman"}) {
    const Result r = rfdsim(tight + " --algorithm " + algorithm);
    ASSERT_EQ(r.status, 0) << algorithm << ": " << r.err;
    EXPECT_LT(max_q_difference(rows_of(r.out), reference, 6), 1e-9) << algorithm;
  }
  const std::string planar = "'" + kPlanar + "' --free-fall --t-end 0.5 --rtol 1e-12 --atol 1e-12";
  const Result planar_udu = rfdsim(planar), planar_fixman = rfdsim(planar + " --algorithm fixman");
  ASSERT_EQ(planar_fixman.status, 0) << planar_fixman.err;
  EXPECT_LT(max_q_difference(rows_of(planar_fixman.out), rows_of(planar_udu.out), 3), 1e-9);
  const Result refused = rfdsim("'" + std::string(DENOC_ROBOTS_DIR) +
                                "/planar3_drives.yaml' --free-fall --algorithm fixman -o out.csv");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--algorithm fixman: the drives"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv"));
}

TEST_F(RfdsimCli, InitialStateOverridesInSiUnits) {
  // The Stanford file gives q in degrees; --q0 is rad and m (joint 3 is prismatic).
  const Result r = rfdsim("'" + kStanford +
                          "' --free-fall --t-end 0.1 --q0 0.1,0.2,0.3,0,0,0 --qd0 0,0,0,0,0,1.5");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<double> first = numbers_of(lines_of(r.out)[1]);
  const std::vector<double> expected{0, 0.1, 0.2, 0.3, 0, 0, 0, 0, 0, 0, 0, 0, 1.5};
  EXPECT_EQ(std::vector<double>(first.begin(), first.begin() + 13), expected);

  // Without overrides, the robot file's `initial` block: q2 = 90 deg.
  const Result file = rfdsim("'" + kStanford + "' --free-fall --t-end 0");
  ASSERT_EQ(file.status, 0) << file.err;
  const auto rows = rows_of(file.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0][2], M_PI / 2);
}

// A deg suffix takes a revolute joint's value in degrees (deg/s for --qd0), the robot file's
// angle_unit; a bare value beyond a turn is still rad, with a warning naming --q0 and the joint.
TEST_F(RfdsimCli, InitialStateInDegreesBySuffix) {
  const std::string args = "'" + kStanford + "' --free-fall --t-end 0.05";
  // The Stanford file's initial.q is [0, 90, 0, 0, 0, 0] deg, its qd zero.
  const Result file = rfdsim(args);
  ASSERT_EQ(file.status, 0) << file.err;
  Result r = rfdsim(args + " --q0 0,90deg,0,0rad,0,0");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, file.out);
  // --set initial.qd[1]=30 is in the file's angle_unit, degrees: the same as 30deg/s.
  const Result set = rfdsim(args + " --set 'initial.qd[1]=30'");
  ASSERT_EQ(set.status, 0) << set.err;
  for (const char* qd0 : {"0,30deg/s,0,0,0,0", "0,30deg,0,0,0,0"}) {
    r = rfdsim(args + " --q0 0,90deg,0,0,0,0 --qd0 " + qd0);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, set.out) << qd0;
  }

  r = rfdsim(args + " --q0 0,90,0.5,0,-400,6.28");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "rfdsim: warning: --q0: taken as rad, more than a turn: joint 2 (moving link "
            "shoulder): 90, joint 5 (moving link wrist pitch): -400; write 90deg and so on if "
            "degrees were meant\n");
  EXPECT_EQ(numbers_of(lines_of(r.out)[1])[2], 90.0);  // taken as given
  // Rates get no warning: a joint turning faster than 2 pi rad/s is ordinary.
  r = rfdsim(args + " --qd0 0,0,0,10,0,0");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");

  // A prismatic joint (3, the boom) has no degrees.
  r = rfdsim(args + " --q0 0,90deg,0.1deg,0,0,0");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.err,
      "rfdsim: --q0: joint 3 (moving link boom) is prismatic: its position is in m; write 0.1 "
      "without deg or rad\n");
  EXPECT_EQ(r.out, "");
}

// ridim --describe prints the header lines this robot's trajectory and torque files need: a file
// written with them (and zeros) is accepted by ridim and by rfdsim --torques at the first try.
TEST_F(RfdsimCli, DescribePrintsTheHeadersBothAppsAccept) {
  const Result described = ridim("'" + kStanford + "' --describe");
  ASSERT_EQ(described.status, 0) << described.err;
  EXPECT_NE(described.out.find("(joints 1, 2, 4-6: rad, rad/s, rad/s^2, N m; joint 3: m, m/s, "
                               "m/s^2, N)"),
            std::string::npos)
      << described.out;
  const auto header_after = [&](const std::string& label) {
    for (const std::string& line : lines_of(described.out)) {
      if (line.rfind(label, 0) == 0) return line.substr(line.find_first_not_of(' ', label.size()));
    }
    ADD_FAILURE() << "no line " << label << " in\n" << described.out;
    return std::string();
  };
  const auto with_a_zero_row = [](const std::string& header) {
    std::string csv = header + "\n0";
    for (std::size_t k = 1; k < fields_of(header).size(); ++k)
      csv += ",0";
    return csv + "\n";
  };
  const std::string trajectory = header_after("  ridim's trajectory:");
  EXPECT_EQ(fields_of(trajectory).size(), 19u) << trajectory;
  write("traj.csv", with_a_zero_row(trajectory));
  Result r = ridim("'" + kStanford + "' traj.csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 2u) << r.out;

  const std::string torques = header_after("  joint forces (tau):");
  EXPECT_EQ(fields_of(torques).size(), 7u) << torques;
  write("tau.csv", with_a_zero_row(torques));
  r = rfdsim("'" + kStanford + "' --torques tau.csv --t-end 0.01");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 3u) << r.out;
}

// What a new user reads first: every default shown, what - means for -o, the units of --q0, and
// lines that fit a terminal (descriptions reflowed by hand: CLI11 does not wrap them).
TEST_F(RfdsimCli, HelpOfBothAppsShowsDefaultsAndUnitsInShortLines) {
  const Result rfdsim_help = rfdsim("--help"), ridim_help = ridim("--help");
  ASSERT_EQ(rfdsim_help.status, 0);
  ASSERT_EQ(ridim_help.status, 0);
  // The programs by their names, not by the path of the binary (a deep build folder).
  EXPECT_EQ(rfdsim_help.out.find("Usage: rfdsim "), rfdsim_help.out.find("Usage:"));
  EXPECT_EQ(ridim_help.out.find("Usage: ridim "), ridim_help.out.find("Usage:"));
  for (const Result* help : {&rfdsim_help, &ridim_help}) {
    EXPECT_NE(help->out.find("FILE instead of standard output"), std::string::npos) << help->out;
    EXPECT_NE(help->out.find("- is standard output"), std::string::npos) << help->out;
    for (const std::string& line : lines_of(help->out))
      EXPECT_LE(line.size(), 110u) << line;
  }
  EXPECT_NE(rfdsim_help.out.find("--coulomb-velocity FLOAT=" +
                                 denoc::shortest(denoc::FrictionSettings{}.velocity_scale)),
            std::string::npos)
      << rfdsim_help.out;
  EXPECT_NE(rfdsim_help.out.find("SI units at t = 0, dt, 2 dt, ..., t-end, to standard output"),
            std::string::npos)
      << rfdsim_help.out;
  EXPECT_NE(rfdsim_help.out.find("degrees with a deg suffix"), std::string::npos);
}

// -o - is standard output in both apps, the same bytes as no -o.
TEST_F(RfdsimCli, OutputDashIsStandardOutput) {
  const std::string robot = "'" + kPlanar + "'";
  for (const std::string& args : {robot + " --free-fall --t-end 0.1"}) {
    const Result plain = rfdsim(args), dash = rfdsim(args + " -o -");
    ASSERT_EQ(dash.status, 0) << dash.err;
    EXPECT_EQ(dash.out, plain.out);
    EXPECT_EQ(lines_of(dash.out).size(), 12u);
  }
  for (const std::string& args : {robot, robot + " --describe"}) {
    const Result plain = ridim(args), dash = ridim(args + " -o -");
    ASSERT_EQ(dash.status, 0) << dash.err;
    EXPECT_EQ(dash.out, plain.out);
    EXPECT_GT(dash.out.size(), 100u);
  }
  EXPECT_FALSE(cli::fs::exists(dir_ / "-"));
}

TEST_F(RfdsimCli, OutputFileStatsAndStandardInput) {
  const std::string args = "'" + kPlanar + "' --free-fall --t-end 0.5";
  const Result to_stdout = rfdsim(args);
  const Result to_file = rfdsim(args + " -o out.csv --stats");
  ASSERT_EQ(to_file.status, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");  // quiet when writing a file, even with --stats
  EXPECT_EQ(read("out.csv"), to_stdout.out);
  EXPECT_TRUE(std::regex_match(
      to_file.err, std::regex("rfdsim: steps [1-9][0-9]*, rejected [0-9]+, right-hand-side "
                              "evaluations [1-9][0-9]*, wall time [0-9.]+ s\n")))
      << to_file.err;

  // A run that fails still counts its steps, after the message saying why; a command line that
  // is refused ran nothing, so it has no statistics.
  const Result failed = rfdsim("'" + kPlanar + "' --torques missing.csv --stats");
  EXPECT_EQ(failed.status, 2);
  EXPECT_TRUE(std::regex_match(failed.err, std::regex("rfdsim: missing.csv: cannot open[^\n]*\n"
                                                      "rfdsim: steps 0, rejected 0, [^\n]*\n")))
      << failed.err;
  const Result refused = rfdsim("'" + kPlanar + "' --stats");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err,
            "rfdsim: give one of --free-fall or --torques TAU.csv\n"
            "Run 'rfdsim --help' for usage.\n");

  // A constant zero torque is the free fall; from standard input too.
  const Result zero =
      rfdsim("'" + kPlanar + "' --torques - --t-end 0.5", "t,tau1,tau2,tau3\n0,0,0,0\n");
  ASSERT_EQ(zero.status, 0) << zero.err;
  EXPECT_EQ(zero.out, to_stdout.out);
}

TEST_F(RfdsimCli, TorquesAreInterpolatedLinearlyThenHeld) {
  write("tau.csv", "t,tau1,tau2,tau3\n0,1,2,3\n1,3,2,-1\n");
  const Result r = rfdsim("'" + kPlanar + "' --torques tau.csv --t-end 2 --dt 0.25");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 9u);
  for (const auto& row : rows) {
    const double s = std::min(row[0], 1.0);  // held after the last sample
    EXPECT_EQ(row[10], 1 + 2 * s) << "t = " << row[0];
    EXPECT_EQ(row[11], 2.0);
    EXPECT_EQ(row[12], 3 - 4 * s);
  }
}

// Torques from ridim along the Stanford arm's cycloidal trajectory (Section 6.2), fed back to
// rfdsim, reproduce the trajectory as far as the linear interpolation of the torques allows.
// The arm is open-loop unstable along it (the linearised system has an eigenvalue near 4.8/s),
// so the O(h^2) interpolation error grows by e^(4.8 t): asserted over the first second, where
// the error must shrink 100-fold for 10-fold finer samples, whatever the tolerance.
class RoundTrip : public RfdsimCli {
 protected:
  // Largest joint error against the exact trajectory up to t_end.
  double max_error(const std::string& torques, const std::string& options, double t_end) {
    const Result r = rfdsim("'" + kStanford + "' --torques " + torques + " --t-end " +
                            std::to_string(t_end) + " " + options);
    EXPECT_EQ(r.status, 0) << r.err;
    double worst = 0;
    denoc::VecX<double> q(6), qd(6), qdd(6);
    for (const auto& row : rows_of(r.out)) {
      robot_.trajectory->evaluate(row[0], q, qd, qdd);
      for (int i = 0; i < 6; ++i)
        worst = std::max(worst, std::abs(row[static_cast<std::size_t>(i + 1)] - q[i]));
    }
    return worst;
  }
  void make_torques(const std::string& name, int samples) {
    std::string text = cli::slurp(kStanford);
    text.replace(text.find("samples: 1001"), 13, "samples: " + std::to_string(samples));
    write("arm.yaml", text);
    const Result r = ridim("arm.yaml -o " + name);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  denoc::RobotFile robot_ = denoc::load_robot_file(kStanford);
};

TEST_F(RoundTrip, StanfordArmTrajectoryFromItsTorques) {
  make_torques("tau.csv", 1001);
  make_torques("tau_fine.csv", 10001);
  const std::string tight = "--rtol 1e-12 --atol 1e-12";
  const double coarse = max_error("tau.csv", "", 1), coarse_tight = max_error("tau.csv", tight, 1);
  const double fine = max_error("tau_fine.csv", tight, 1);
  std::printf(
      "[round trip] Stanford, t <= 1 s: %.3g (1001 samples), %.3g (tight), %.3g "
      "(10001 samples, tight)\n",
      coarse, coarse_tight, fine);
  EXPECT_LT(coarse, 1e-6);
  EXPECT_NEAR(coarse_tight, coarse, 0.1 * coarse);  // interpolation error, not tolerance
  EXPECT_GT(coarse / fine, 50.0);                   // O(h^2)
  std::printf("[round trip] Stanford, t <= 10 s: %.3g (default), %.3g (tight)\n",
              max_error("tau.csv", "", 10), max_error("tau.csv", tight, 10));
}

TEST_F(RfdsimCli, FailureWhileRunningKeepsTheRows) {
  // Joint forces of 1e300 from t = 0.06 on: the state overflows soon after t = 0.05.
  write("spike.csv", "t,tau1,tau2,tau3\n0,0,0,0\n0.05,0,0,0\n0.06,1e300,1e300,1e300\n");
  Result r = rfdsim("'" + kPlanar + "' --torques spike.csv -o out.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rfdsim: at t = 0.05"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no longer finite"), std::string::npos) << r.err;
  auto rows = rows_of(read("out.csv"));
  ASSERT_EQ(rows.size(), 6u);  // t = 0, ..., 0.05, complete and finite
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 17u);
    for (double x : row)
      EXPECT_TRUE(std::isfinite(x));
  }
  EXPECT_EQ(rows.back()[0], 0.05);

  // A tolerance no step can meet, with a floor on the step size.
  r = rfdsim("'" + kPlanar + "' --free-fall --rtol 1e-30 --atol 1e-30 --min-step 1e-6 -o out.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rfdsim: at t = 0: step size underflow"), std::string::npos) << r.err;
  rows = rows_of(read("out.csv"));
  ASSERT_EQ(rows.size(), 1u);  // the initial state
  EXPECT_EQ(rows[0][0], 0.0);
}

TEST_F(RfdsimCli, BadInputExitsWithTwoAndKeepsTheOutputFile) {
  std::string text = cli::slurp(kPlanar);
  text.replace(text.find("mass: 3"), 7, "mass: -3");
  write("bad.yaml", text);
  write("short.csv", "t,tau1,tau2\n0,0,0\n");
  write("words.csv", "t,tau1,tau2,tau3\n0,0,zero,0\n");
  const std::string planar = "'" + kPlanar + "' ";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {planar, "give one of --free-fall or --torques"},
      {planar + "--free-fall --torques short.csv", "--free-fall excludes --torques"},
      {planar + "--free-fall --method rk5", "--method: rk5 not in"},
      {planar + "--free-fall --algorithm lu", "--algorithm: lu not in"},
      {planar + "--free-fall --dt 0", "--dt: must be positive"},
      {planar + "--free-fall --t-end -1", "--t-end"},
      {planar + "--free-fall --rtol -1", "--rtol: must be positive"},
      {planar + "--free-fall --q0 1,2", "--q0: expected 3 values, found 2"},
      {planar + "--free-fall --qd0 1,2,x", "--qd0"},
      {"missing.yaml --free-fall", "missing.yaml: cannot open"},
      {"bad.yaml --free-fall", "bad.yaml: links[1].mass: must be positive"},
      {planar + "--torques missing.csv", "missing.csv: cannot open"},
      {planar + "--torques short.csv", "short.csv:1: header has 3 columns, expected 4"},
      {planar + "--torques words.csv", "words.csv:2: column 3 (tau2)"},
  };
  for (const Case& c : cases) {
    write("out.csv", "precious\n");
    const Result r = rfdsim(c.args + " -o out.csv");
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_EQ(r.err.rfind("rfdsim: ", 0), 0u) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(read("out.csv"), "precious\n") << c.args;
    EXPECT_EQ(r.out, "");
  }

  // Found while streaming the torques: the rows before the bad one's time stay written.
  write("decreasing.csv", "t,tau1,tau2,tau3\n0,0,0,0\n0.5,0,0,0\n0.4,0,0,0\n");
  const Result r = rfdsim(planar + "--torques decreasing.csv -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("decreasing.csv:4: t must increase"), std::string::npos) << r.err;
  const auto rows = rows_of(read("out.csv"));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front()[0], 0.0);

  const Result help = rfdsim("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--algorithm"), std::string::npos);
}

TEST_F(RfdsimCli, UrdfRobotFileWithTip) {
  write("pendulum.urdf", denoc_test::fixture_text("pendulum_tip.urdf"));
  const Result r =
      run(DENOC_RFDSIM_EXE, "pendulum.urdf --free-fall --t-end 0.1 --q0 0.5 --tip tip");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> lines = cli::lines_of(r.out);
  ASSERT_EQ(lines.size(), 12u);
  // A point pendulum of length 1 released at 0.5 rad about +y (the bob at -z): the angular
  // acceleration is -g sin(q) / l.
  const std::vector<double> first = cli::numbers_of(lines[1]);
  EXPECT_NEAR(first[3], -9.81 * std::sin(0.5), 1e-12);
}

// The robot library: every file in robots/ (YAML and URDF) loads and runs a few samples through
// both apps (ridim's every quantity on a trajectory CSV, rfdsim a short free fall), the trees
// (robots/solo12.urdf, baxter.urdf, simple_humanoid.urdf) as the chains. A file that does not load
// fails here.
TEST_F(RfdsimCli, EveryShippedRobotRunsThroughBothApps) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(DENOC_ROBOTS_DIR)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    const denoc::RobotFile robot = denoc::load_robot_file(path);
    const int n = robot.dof(), nq = robot.model.nq(), nv = robot.model.nv();
    ASSERT_GT(n, 0);
    // With a floating base (docs/floating-base.md) each block starts with the base's columns;
    // with loops (docs/loops.md) the actuated joints' only, near the assembled initial state.
    const bool loops = robot.has_loops();
    const int f = static_cast<int>(robot.loops.actuated.size());
    std::vector<std::string> header =
        denoc::state_columns({"q", "qd", "qdd"}, n, robot.model.floating()).names;
    if (loops) {
      header = {"t"};
      for (const std::string& name : denoc::actuated_columns(robot.loops, {"q", "qd", "qdd"}))
        header.push_back(name);
    }
    std::string csv;
    for (const std::string& name : header)
      csv += (csv.empty() ? "" : ",") + name;
    csv += '\n';
    for (int k = 0; k < 3; ++k) {
      std::vector<double> state(static_cast<std::size_t>(loops ? 3 * f : nq + 2 * nv));
      for (std::size_t i = 0; i < state.size(); ++i)
        state[i] = std::sin(1.3 * k + 0.7 * static_cast<double>(i));
      for (int a = 0; loops && a < f; ++a)  // small steps from the initial configuration
        state[static_cast<std::size_t>(a)] =
            (*robot.initial_q)[robot.loops.actuated[static_cast<std::size_t>(a)]] +
            0.01 * state[static_cast<std::size_t>(a)];
      if (robot.model.floating()) {  // a unit quaternion
        const double norm =
            std::hypot(std::hypot(state[3], state[4]), std::hypot(state[5], state[6]));
        for (std::size_t i = 3; i < 7; ++i)
          state[i] /= norm;
      }
      csv += denoc::shortest(0.1 * k);
      for (double x : state)
        csv += "," + denoc::shortest(x);
      csv += '\n';
    }
    write("traj.csv", csv);
    for (const char* quantity :
         {"torques", "mass-matrix", "inverse-mass-matrix", "bias", "gravity"}) {
      const Result r = ridim("'" + path + "' traj.csv --quantity " + quantity);
      ASSERT_EQ(r.status, 0) << quantity << ": " << r.err;
      const std::vector<std::string> lines = lines_of(r.out);
      ASSERT_EQ(lines.size(), 4u) << quantity;
      for (std::size_t k = 1; k < lines.size(); ++k) {
        for (double x : numbers_of(lines[k]))
          EXPECT_TRUE(std::isfinite(x)) << quantity << ": " << lines[k];
      }
    }
    const Result sim = rfdsim("'" + path + "' --free-fall --t-end 0.05 --dt 0.01");
    ASSERT_EQ(sim.status, 0) << sim.err;
    const auto rows = rows_of(sim.out);
    ASSERT_EQ(rows.size(), 6u);
    // Released from rest, kinetic + potential - work + dissipated stays constant (docs/csv.md; the
    // drives' and URDF joints' friction dissipates).
    const std::size_t kinetic = static_cast<std::size_t>(1 + nq + 2 * nv + (loops ? f : n));
    const auto energy = [kinetic](const std::vector<double>& row) {
      return row[kinetic] + row[kinetic + 1] - row[kinetic + 2] + row[kinetic + 3];
    };
    const double e0 = energy(rows.front()), e1 = energy(rows.back());
    EXPECT_NEAR(e1, e0, 1e-6 * (1 + std::abs(rows.front()[kinetic + 1])));
    ++count;
  }
  EXPECT_GE(count, 8);  // stanford, planar3, puma560, puma560_akb, ur5, panda (2), iiwa14
}

// inertia_checks: warn (docs/robot-file.md): a state at which the inertia matrix is not positive
// definite stops the simulation with exit 1 and a message saying so.
TEST_F(RfdsimCli, InertiaChecksWarnFailsWhenTheMassMatrixIsSingular) {
  std::string text = cli::slurp(kPlanar);
  text.replace(text.find("dh: standard"), 12, "dh: standard\ninertia_checks: warn");
  text.replace(text.find("    mass: 2\n"), 11, "    mass: 0\n");
  text.replace(text.find("inertia: {yy: 0.006666666666666667, zz: 0.006666666666666667}"), 62,
               "inertia: {}");
  write("singular.yaml", text);
  const Result r = rfdsim("singular.yaml --free-fall --t-end 0.1");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("rfdsim: warning: singular.yaml: accepted by inertia_checks: warn"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the inertia matrix is not positive definite"), std::string::npos) << r.err;

  // The same failure in both apps is one message: the time as the CSVs write it (t = 0, not
  // 0.000000), the pivot and what let the links in. Only the program's name differs.
  const Result ridim_run = ridim("singular.yaml --quantity udu");
  EXPECT_EQ(ridim_run.status, 1) << ridim_run.err;
  const std::string failure = lines_of(r.err).back(),
                    ridim_failure = lines_of(ridim_run.err).back();
  EXPECT_EQ(
      failure.rfind("rfdsim: at t = 0: the inertia matrix is not positive definite (pivot 3", 0),
      0u)
      << failure;
  EXPECT_EQ(failure.substr(std::string("rfdsim").size()),
            ridim_failure.substr(std::string("ridim").size()));
}

// A robot with loops (docs/loops.md): the torque file gives the actuated joints, the columns end
// in the closure error, which stays below 1e-9; --q0 that cannot close, a torque file of every
// joint and stick-slip are exit 2.
TEST_F(RfdsimCli, LoopsAreHeldAndTheirClosureWritten) {
  const std::string crank = std::string(DENOC_ROBOTS_DIR) + "/slider_crank.yaml";
  write("tau.csv", "t,tau1\n0,1\n1,-1\n");
  const Result r =
      rfdsim("'" + crank + "' --torques tau.csv --t-end 1 --dt 0.1 --rtol 1e-10 --atol 1e-10");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 12u);
  const std::vector<std::string> header = fields_of(lines[0]);
  EXPECT_EQ(header[10], "tau1");
  EXPECT_EQ(header[11], "kinetic");
  EXPECT_EQ(header.back(), "closure");
  for (const auto& row : rows_of(r.out)) {
    EXPECT_LT(row.back(), 1e-9);
    // The work the crank's torque did is the energy gained: work = kinetic + potential - E(0).
    EXPECT_NEAR(row[11] + row[12] - (rows_of(r.out)[0][11] + rows_of(r.out)[0][12]), row[13], 1e-8);
  }
  const Result far = rfdsim("'" + crank + "' --free-fall --q0 0,0,0.2 --t-end 0.1 --dt 0.1");
  EXPECT_EQ(far.status, 0) << far.err;  // a guess: assembled
  const Result open = rfdsim("'" + crank + "' --free-fall --q0 0,3,0 --t-end 0.1 --dt 0.1");
  EXPECT_EQ(open.status, 2) << open.err;
  write("all.csv", "t,tau1,tau2,tau3\n0,1,0,0\n");
  const Result all = rfdsim("'" + crank + "' --torques all.csv --t-end 0.1 --dt 0.1");
  EXPECT_EQ(all.status, 2);
  EXPECT_NE(all.err.find("all.csv"), std::string::npos) << all.err;
  const Result sticky =
      rfdsim("'" + crank + "' --free-fall --coulomb stick-slip --t-end 0.1 --dt 0.1");
  EXPECT_EQ(sticky.status, 2);
  EXPECT_NE(sticky.err.find("stick-slip"), std::string::npos) << sticky.err;
}

}  // namespace
