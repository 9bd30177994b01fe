// ridim and rfdsim end to end on the extensions of docs/robot-file.md and docs/csv.md (drives,
// friction, tool, payload, pose, Jacobian, reactions, external wrench, energy accounting): the real
// executables checked against definitions computed here, and the exit codes and messages for bad
// input.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "denoc/denoc.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/cli_support.hpp"

namespace {

using cli::lines_of;
using cli::numbers_of;
using cli::random_trajectory;
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

TEST_F(ExtrasCli, PoseJacobianAndReactionsEqualTheLibrary) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 12, states));
  const denoc::RobotFile robot = denoc::load_robot_file(kDrives);
  denoc::Workspace<double> ws(robot.model);
  const Result pose = ridim("'" + kDrives + "' traj.csv --quantity pose");
  const Result jac = ridim("'" + kDrives + "' traj.csv --quantity jacobian");
  const Result rea = ridim("'" + kDrives + "' traj.csv --quantity reactions");
  const Result rea_nf = ridim("'" + kDrives + "' traj.csv --quantity reactions --no-friction");
  ASSERT_EQ(pose.status, 0) << pose.err;
  ASSERT_EQ(jac.status, 0) << jac.err;
  ASSERT_EQ(rea.status, 0) << rea.err;
  EXPECT_EQ(lines_of(pose.out)[0], "t,x,y,z,R_1_1,R_1_2,R_1_3,R_2_1,R_2_2,R_2_3,R_3_1,R_3_2,R_3_3");
  EXPECT_EQ(lines_of(jac.out)[0].substr(0, 26), "t,J_1_1,J_1_2,J_1_3,J_2_1,");
  std::string header = "t";
  for (int i = 1; i <= 3; ++i) {
    for (const char* c : {"f", "n"}) {
      for (const char* axis : {"_x", "_y", "_z"})
        header += "," + (c + std::to_string(i)) + axis;
    }
  }
  EXPECT_EQ(lines_of(rea.out)[0], header);
  EXPECT_EQ(rea.out, rea_nf.out);  // the drive terms are not in the reactions
  const auto P = rows_of(pose.out), J = rows_of(jac.out), W = rows_of(rea.out);
  for (std::size_t k = 0; k < states.size(); ++k) {
    const auto q = states[k].segment(0, 3), qd = states[k].segment(3, 3),
               qdd = states[k].segment(6, 3);
    const denoc::Transform<double> T = denoc::tool_pose(robot.model, ws, q);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(P[k][1 + static_cast<std::size_t>(i)], T.p[i]);
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(P[k][4 + static_cast<std::size_t>(3 * i + j)], T.R(i, j));
    }
    const auto& Jl = denoc::tool_jacobian(robot.model, ws, q);
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(J[k][1 + static_cast<std::size_t>(3 * i + j)], Jl(i, j));
    }
    denoc::inverse_dynamics(robot.model, ws, q, qd, qdd);
    const auto& R = denoc::joint_reactions(robot.model, ws, q);
    for (int i = 0; i < 18; ++i)
      EXPECT_EQ(W[k][1 + static_cast<std::size_t>(i)], R.data()[i]);
  }
}

// --frame LINK names a link of the robot file: its DH frame for the pose and the Jacobian (whose
// columns beyond that link are zero), and the point the wrench acts at, which the joints beyond
// it do not feel.
TEST_F(ExtrasCli, FrameNamesALinkWhosePoseJacobianAndWrenchAreTheLibrarys) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 6, states));
  write("w.csv", "t,fx,fy,fz,nx,ny,nz\n0,1,-2,3,0.4,-0.5,0.6\n");
  const denoc::RobotFile robot = denoc::load_robot_file(kDrives);
  denoc::Workspace<double> ws(robot.model);
  const denoc::BodyFrame<double> forearm{1, denoc::split_dh(robot.convention, robot.dh[1]).post};
  const std::string args = "'" + kDrives + "' traj.csv --frame forearm ";
  const Result pose = ridim(args + "--quantity pose");
  const Result jac = ridim(args + "--quantity jacobian");
  const Result plain = ridim("'" + kDrives + "' traj.csv --no-friction");
  const Result pushed = ridim(args + "--no-friction --wrench w.csv");
  ASSERT_EQ(pose.status, 0) << pose.err;
  ASSERT_EQ(jac.status, 0) << jac.err;
  ASSERT_EQ(pushed.status, 0) << pushed.err;
  const auto P = rows_of(pose.out), J = rows_of(jac.out), T0 = rows_of(plain.out),
             T1 = rows_of(pushed.out);
  denoc::Vec6<double> w;
  w << 1, -2, 3, 0.4, -0.5, 0.6;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const auto q = states[k].segment(0, 3);
    const denoc::Transform<double> X = denoc::frame_pose(robot.model, ws, forearm, q);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(P[k][1 + static_cast<std::size_t>(i)], X.p[i]);
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(P[k][4 + static_cast<std::size_t>(3 * i + j)], X.R(i, j));
    }
    const Eigen::Matrix<double, 6, Eigen::Dynamic> Jf =
        denoc::frame_jacobian(robot.model, ws, forearm, q);
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(J[k][1 + static_cast<std::size_t>(3 * i + 2)], 0.0);  // the hand's joint
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(J[k][1 + static_cast<std::size_t>(3 * i + j)], Jf(i, j));
    }
    const denoc::VecX<double> change = -Jf.transpose() * w;
    for (int j = 0; j < 3; ++j) {
      const std::size_t c = 1 + static_cast<std::size_t>(j);
      EXPECT_NEAR(T1[k][c] - T0[k][c], change[j], 1e-12 * (1 + std::abs(T0[k][c]))) << j;
    }
  }
  const Result unknown = ridim("'" + kDrives + "' traj.csv --quantity pose --frame elbow");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("--frame elbow: no link of that name (links: base, upper arm, "
                             "forearm, hand)"),
            std::string::npos)
      << unknown.err;
}

TEST_F(ExtrasCli, WrenchChangesTorquesByMinusJacobianTransposeTimesWrench) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 30, states));  // t = 0 .. 0.29
  // Samples at 0.05 and 0.2: held before, linear between, held after.
  write("w.csv", "t,fx,fy,fz,nx,ny,nz\n0.05,1,2,3,0.1,0.2,0.3\n0.2,-3,1,0,0.5,0,-0.4\n");
  auto wrench_at = [](double t) {
    denoc::Vec6<double> a, b;
    a << 1, 2, 3, 0.1, 0.2, 0.3;
    b << -3, 1, 0, 0.5, 0, -0.4;
    if (t <= 0.05) return a;
    if (t >= 0.2) return b;
    const double s = (t - 0.05) / 0.15;
    return denoc::Vec6<double>(a + s * (b - a));
  };
  const Result plain = ridim("'" + kDrives + "' traj.csv");
  const Result jac = ridim("'" + kDrives + "' traj.csv --quantity jacobian");
  const Result pose = ridim("'" + kDrives + "' traj.csv --quantity pose");
  for (const char* frame : {"base", "tool"}) {
    const Result pushed =
        ridim("'" + kDrives + "' traj.csv --wrench w.csv --wrench-frame " + frame);
    ASSERT_EQ(pushed.status, 0) << pushed.err;
    const auto A = rows_of(plain.out), B = rows_of(pushed.out), J = rows_of(jac.out),
               P = rows_of(pose.out);
    double worst = 0;
    for (std::size_t k = 0; k < states.size(); ++k) {
      denoc::Vec6<double> w = wrench_at(A[k][0]);
      if (std::string(frame) == "tool") {
        Eigen::Matrix3d R;
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j)
            R(i, j) = P[k][4 + static_cast<std::size_t>(3 * i + j)];
        }
        w << R * w.head<3>(), R * w.tail<3>();
      }
      for (int j = 0; j < 3; ++j) {
        double jtw = 0;
        for (int i = 0; i < 6; ++i)
          jtw += J[k][1 + static_cast<std::size_t>(3 * i + j)] * w[i];
        worst = std::max(worst, std::abs(B[k][1 + static_cast<std::size_t>(j)] -
                                         A[k][1 + static_cast<std::size_t>(j)] + jtw));
      }
    }
    std::cout << "[wrench] ridim --wrench-frame " << frame
              << ": max |tau(w) - tau(0) + J^T w| = " << worst << " N m\n";
    EXPECT_LT(worst, 1e-12);
  }
  write("bad.csv", "t,fx,fy,fz,nx,ny\n0,1,2,3,4,5\n");
  const Result bad = ridim("'" + kDrives + "' traj.csv --wrench bad.csv");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.csv:1:"), std::string::npos) << bad.err;
  EXPECT_EQ(ridim("'" + kDrives + "' traj.csv --wrench w.csv --wrench-frame world").status, 2);
}

// kinetic + potential - work + dissipated along an rfdsim output (columns 13..16 for n = 3).
double energy_drift(const std::vector<std::vector<double>>& rows, double& dissipated) {
  double worst = 0;
  const auto e = [](const std::vector<double>& r) { return r[13] + r[14] - r[15] + r[16]; };
  for (const auto& r : rows)
    worst = std::max(worst, std::abs(e(r) - e(rows.front())));
  dissipated = rows.back()[16];
  return worst;
}

TEST_F(ExtrasCli, RfdsimFrictionModelsWrenchAndEnergyColumns) {
  write("w.csv", "t,fx,fy,fz,nx,ny,nz\n0,0,-20,0,0,0,0\n1,10,0,0,0,0,1\n");
  const std::string base =
      "'" + kDrives + "' --free-fall --t-end 2 --dt 0.01 --rtol 1e-10 --atol 1e-10";
  for (const std::string options :
       {" --coulomb stick-slip", " --coulomb regularised --coulomb-velocity 1e-2",
        " --coulomb stick-slip --wrench w.csv", " --wrench w.csv --wrench-frame tool"}) {
    const Result r = rfdsim(base + options + " --stats");
    ASSERT_EQ(r.status, 0) << options << ": " << r.err;
    EXPECT_EQ(lines_of(r.out)[0].substr(lines_of(r.out)[0].size() - 33),
              "kinetic,potential,work,dissipated");
    const auto rows = rows_of(r.out);
    ASSERT_EQ(rows.size(), 201u);
    double dissipated = 0;
    const double drift = energy_drift(rows, dissipated);
    std::cout << "[rfdsim]" << options << ": |T + V - W + D - E0| max " << drift
              << " J, dissipated " << dissipated << " J; " << r.err;
    EXPECT_LT(drift, 1e-6) << options;
    EXPECT_GT(dissipated, 0);
    EXPECT_EQ(r.err.find(", events ") != std::string::npos,
              options.find("stick-slip") != std::string::npos)
        << r.err;
  }
  Result r = rfdsim(base + " --coulomb stick-slip --method rk4");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--method dopri5"), std::string::npos) << r.err;
  r = rfdsim(base + " --coulomb-velocity 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--coulomb-velocity: must be positive"), std::string::npos) << r.err;
  r = rfdsim(base + " --coulomb sticky");
  EXPECT_EQ(r.status, 2);
  r = rfdsim(base + " --wrench missing.csv -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.csv: cannot open wrench file"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv"));
}

}  // namespace
