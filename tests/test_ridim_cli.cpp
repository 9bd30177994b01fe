// ridim end to end: the real executable on the shipped robots and on files made here, checked
// against the library; exit codes and messages for bad input (spec §2-§4).
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "cli_support.hpp"
#include "denoc/denoc.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/robot_file.hpp"

namespace {

using cli::lines_of;
using cli::numbers_of;
using cli::Result;
using cli::slurp;

class RidimCli : public cli::CliTest {
 protected:
  Result ridim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RIDIM_EXE, args, input);
  }
};

const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";
const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";

// A random trajectory CSV for an n-joint robot, with rows written at full precision.
std::string random_trajectory(int n, int rows, std::vector<denoc::VecX<double>>& states) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  std::ostringstream csv;
  std::vector<std::string> header{"t"};
  for (const char* part : {"q", "qd", "qdd"}) {
    for (int i = 1; i <= n; ++i)
      header.push_back(part + std::to_string(i));
  }
  denoc::CsvWriter writer(csv);
  writer.header(header);
  for (int r = 0; r < rows; ++r) {
    denoc::VecX<double> state(3 * n);
    for (int i = 0; i < 3 * n; ++i)
      state[i] = u(rng);
    writer.row(0.01 * r, state);
    states.push_back(state);
  }
  writer.flush();
  return csv.str();
}

TEST_F(RidimCli, StanfordBuiltInTrajectory) {
  const Result r = ridim("'" + kStanford + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1002u);  // header + 1001 samples
  EXPECT_EQ(lines[0], "t,tau1,tau2,tau3,tau4,tau5,tau6");
  EXPECT_EQ(numbers_of(lines[1])[0], 0.0);
  EXPECT_EQ(numbers_of(lines[1001])[0], 10.0);

  // Each row equals the library's torques on the cycloidal trajectory, to the last bit.
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  denoc::Workspace<double> ws(robot.model);
  denoc::VecX<double> q(6), qd(6), qdd(6);
  for (int k : {0, 1, 377, 1000}) {
    const double t = robot.trajectory->sample_time(k);
    robot.trajectory->evaluate(t, q, qd, qdd);
    const auto row = numbers_of(lines[static_cast<std::size_t>(k) + 1]);
    EXPECT_EQ(row[0], t);
    const denoc::VecX<double>& tau = denoc::inverse_dynamics(robot.model, ws, q, qd, qdd);
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(row[static_cast<std::size_t>(i) + 1], tau[i]);
  }
}

TEST_F(RidimCli, EveryQuantityEqualsTheLibrary) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 25, states));
  const denoc::RobotFile robot = denoc::load_robot_file(kPlanar);
  const denoc::Model<double>& model = robot.model;
  denoc::Workspace<double> ws(model);
  using Q = denoc::ConstVectorRef<double>;
  // Matrices are transposed so that their column-major storage lists the row-major output order.
  struct Case {
    std::string option, header;
    std::function<denoc::MatX<double>(Q, Q, Q)> expected;
  };
  const auto torques = [&](Q q, Q qd, Q qdd) -> denoc::MatX<double> {
    return denoc::inverse_dynamics(model, ws, q, qd, qdd);
  };
  const Case cases[] = {
      {"", "t,tau1,tau2,tau3", torques},
      {"--quantity torques", "t,tau1,tau2,tau3", torques},
      {"--quantity mass-matrix", "t,M_1_1,M_1_2,M_1_3,M_2_1,M_2_2,M_2_3,M_3_1,M_3_2,M_3_3",
       [&](Q q, Q, Q) -> denoc::MatX<double> {
         return denoc::generalized_inertia(model, ws, q).transpose();
       }},
      {"--quantity inverse-mass-matrix",
       "t,Minv_1_1,Minv_1_2,Minv_1_3,Minv_2_1,Minv_2_2,Minv_2_3,Minv_3_1,Minv_3_2,Minv_3_3",
       [&](Q q, Q, Q) -> denoc::MatX<double> {
         return denoc::inverse_generalized_inertia(model, ws, q).transpose();
       }},
      {"--quantity bias", "t,h1,h2,h3",
       [&](Q q, Q qd, Q) -> denoc::MatX<double> { return denoc::bias_forces(model, ws, q, qd); }},
      {"--quantity gravity", "t,g1,g2,g3",
       [&](Q q, Q, Q) -> denoc::MatX<double> { return denoc::gravity_forces(model, ws, q); }}};
  for (const Case& c : cases) {
    const std::string& option = c.option;
    const Result r = ridim("'" + kPlanar + "' traj.csv " + option);
    ASSERT_EQ(r.status, 0) << option << ": " << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), states.size() + 1) << option;
    EXPECT_EQ(lines[0], c.header);
    for (std::size_t k = 0; k < states.size(); ++k) {
      const denoc::VecX<double>& s = states[k];
      const denoc::MatX<double> expected =
          c.expected(s.segment(0, 3), s.segment(3, 3), s.segment(6, 3));
      const auto row = numbers_of(lines[k + 1]);
      ASSERT_EQ(row.size(), static_cast<std::size_t>(expected.size()) + 1);
      EXPECT_EQ(row[0], 0.01 * static_cast<double>(k));
      for (Eigen::Index i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(row[static_cast<std::size_t>(i) + 1], expected.data()[i]) << option;
      }
    }
  }
}

TEST_F(RidimCli, StandardInputAndOutputFile) {
  std::vector<denoc::VecX<double>> states;
  const std::string csv = random_trajectory(3, 10, states);
  const Result from_file = ridim("'" + kPlanar + "' " + write("traj.csv", csv).string());
  const Result from_stdin = ridim("'" + kPlanar + "' - -o out.csv", csv);
  ASSERT_EQ(from_stdin.status, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, "");  // quiet when writing a file
  EXPECT_EQ(slurp(dir_ / "out.csv"), from_file.out);
}

TEST_F(RidimCli, MalformedTrajectoryNamesTheLine) {
  const std::string header = "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n";
  const std::string good = "0,1,2,3,4,5,6,7,8,9\n";
  const std::string later = "0.05,1,2,3,4,5,6,7,8,9\n";  // time increases row to row
  write("short.csv", header + good + later + "0.1,1,2,3,4,5,6,7,8\n" + good);
  Result r = ridim("'" + kPlanar + "' short.csv -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("short.csv:4: expected 10 columns, found 9"), std::string::npos) << r.err;
  // The two rows before the bad one stay in the output.
  EXPECT_EQ(lines_of(slurp(dir_ / "out.csv")).size(), 3u);

  write("word.csv", header + good + "0,1,abc,3,4,5,6,7,8,9\n");
  r = ridim("'" + kPlanar + "' word.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("word.csv:3: column 3 (q2): 'abc' is not a finite number"),
            std::string::npos)
      << r.err;

  write("header.csv", "t,q1,q2\n" + good);
  r = ridim("'" + kPlanar + "' header.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("header.csv:1: header has 3 columns, expected 10"), std::string::npos)
      << r.err;

  r = ridim("'" + kPlanar + "' missing.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.csv: cannot open"), std::string::npos) << r.err;
}

TEST_F(RidimCli, BadRobotFileNamesTheKeyAndKeepsTheOutputFile) {
  std::string text = slurp(kPlanar);
  text.replace(text.find("mass: 3"), 7, "mass: -3");
  write("bad.yaml", text);
  write("out.csv", "precious\n");
  Result r = ridim("bad.yaml -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.yaml: links[1].mass: must be positive"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out.csv"), "precious\n");

  text = slurp(kPlanar);
  text.replace(text.find("    mass: 2\n"), 12, "");
  write("nomass.yaml", text);
  r = ridim("nomass.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nomass.yaml: links[2].mass: missing"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(RidimCli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(ridim("").status, 2);
  EXPECT_EQ(ridim("'" + kPlanar + "' --quantity torque-ish").status, 2);
  EXPECT_EQ(ridim("no-such-robot.yaml").status, 2);
  const Result help = ridim("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--quantity"), std::string::npos);
}

}  // namespace
