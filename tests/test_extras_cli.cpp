// ridim and rfdsim end to end on the extensions of spec §6-§7 (drives, friction, tool, payload,
// pose, Jacobian, reactions, external wrench, energy accounting): the real executables checked
// against definitions computed here, and the exit codes and messages for bad input.
#include <gtest/gtest.h>

#include <cmath>
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

class ExtrasCli : public cli::CliTest {
 protected:
  Result ridim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RIDIM_EXE, args, input);
  }
  Result rfdsim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RFDSIM_EXE, args, input);
  }
};

const std::string kDrives = std::string(DENOC_ROBOTS_DIR) + "/planar3_drives.yaml";
const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";

// A random trajectory CSV for an n-joint robot, rows at full precision.
std::string random_trajectory(int n, int rows, std::vector<denoc::VecX<double>>& states,
                              unsigned seed = 7) {
  std::mt19937 rng(seed);
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

std::vector<std::vector<double>> rows_of(const std::string& out) {
  std::vector<std::vector<double>> rows;
  const auto lines = lines_of(out);
  for (std::size_t k = 1; k < lines.size(); ++k)
    rows.push_back(numbers_of(lines[k]));
  return rows;
}

// The drives of planar3_drives.yaml, at the joint: G^2 B and |G| Tc (qd > 0, qd < 0).
const double kViscous[3] = {1e4 * 5e-6, 6400 * 4e-6, 2500 * 2e-6};
const double kCoulombPos[3] = {100 * 5e-3, 80 * 4e-3, 50 * 2e-3};
const double kCoulombNeg[3] = {-100 * 5e-3, -80 * 4e-3, -50 * 3e-3};

TEST_F(ExtrasCli, FrictionIsWhatNoFrictionLeavesOut) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 20, states));
  for (const char* quantity : {"torques", "bias"}) {
    const Result with = ridim("'" + kDrives + "' traj.csv --quantity " + quantity);
    const Result without = ridim("'" + kDrives + "' traj.csv --no-friction --quantity " + quantity);
    ASSERT_EQ(with.status, 0) << with.err;
    ASSERT_EQ(without.status, 0) << without.err;
    const auto a = rows_of(with.out), b = rows_of(without.out);
    ASSERT_EQ(a.size(), states.size());
    for (std::size_t k = 0; k < states.size(); ++k) {
      for (int i = 0; i < 3; ++i) {
        const double qd = states[k][3 + i];
        const double expected = kViscous[i] * qd + (qd > 0   ? kCoulombPos[i]
                                                    : qd < 0 ? kCoulombNeg[i]
                                                             : 0);
        EXPECT_NEAR(a[k][1 + i] - b[k][1 + i], expected, 1e-12) << quantity;
      }
    }
  }
  // Gravity is gravity alone: the same with or without friction, and without the rotors.
  const Result g1 = ridim("'" + kDrives + "' traj.csv --quantity gravity");
  const Result g2 = ridim("'" + kDrives + "' traj.csv --quantity gravity --no-friction");
  EXPECT_EQ(g1.out, g2.out);
}

TEST_F(ExtrasCli, BadDriveKeysExitWithTwoNamingFileKeyAndLine) {
  std::string text = slurp(kDrives);
  text.replace(text.find("G: -80"), 6, "G: 0");
  write("bad.yaml", text);
  write("out.csv", "precious\n");
  Result r = ridim("bad.yaml -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.yaml: links[1].drive.G: must not be 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(line 35)"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out.csv"), "precious\n");
  r = rfdsim("bad.yaml --free-fall -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("links[1].drive.G"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out.csv"), "precious\n");

  text = slurp(kDrives);
  text.replace(text.find("mass: 1 "), 8, "mass: -1 ");
  write("payload.yaml", text);
  r = ridim("payload.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("payload.yaml: payload.mass: must be positive (line"), std::string::npos)
      << r.err;
}

}  // namespace
