// ridim and rfdsim end to end on floating bases (docs/floating-base.md): Solo 12 read with
// --floating-base simulated by rfdsim and its rows fed back to ridim (the base's forces vanish,
// the joints' are rfdsim's); a floating robot YAML made here, its inertia matrix and gravity
// forces against what a rigid system must have and its pose and Jacobian against the fixed-base
// ones carried by the base; C, the U D U^T factors and --wrench against the identities they
// satisfy; the operation counts; the quaternion, header and --q0 checks; the options a floating
// base refuses; and the rows written before a bad row kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>

#include "denoc/io/csv.hpp"
#include "support/cli_support.hpp"

namespace {

using cli::fields_of;
using cli::lines_of;
using cli::numbers_of;
using cli::Result;

const std::string kSolo = std::string(DENOC_ROBOTS_DIR) + "/solo12.urdf";

// The columns of a floating-base trajectory for n joints, written out here rather than taken
// from the library: t, base_x..base_qw, q1..qn, base_vx..base_wz, qd1..qdn, base_dvx..base_dwz,
// qdd1..qddn.
std::vector<std::string> trajectory_header(int n) {
  std::vector<std::string> names{"t",       "base_x",  "base_y",  "base_z",
                                 "base_qx", "base_qy", "base_qz", "base_qw"};
  for (int i = 1; i <= n; ++i)
    names.push_back("q" + std::to_string(i));
  for (const char* c : {"base_vx", "base_vy", "base_vz", "base_wx", "base_wy", "base_wz"})
    names.push_back(c);
  for (int i = 1; i <= n; ++i)
    names.push_back("qd" + std::to_string(i));
  for (const char* c : {"base_dvx", "base_dvy", "base_dvz", "base_dwx", "base_dwy", "base_dwz"})
    names.push_back(c);
  for (int i = 1; i <= n; ++i)
    names.push_back("qdd" + std::to_string(i));
  return names;
}

std::string join(const std::vector<std::string>& fields, std::size_t count) {
  std::string line;
  for (std::size_t i = 0; i < count; ++i)
    line += (i ? "," : "") + fields[i];
  return line;
}

std::string as_text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

std::vector<std::vector<double>> rows_of(const std::string& csv) {
  std::vector<std::vector<double>> rows;
  const auto lines = lines_of(csv);
  for (std::size_t k = 1; k < lines.size(); ++k)
    rows.push_back(numbers_of(lines[k]));
  return rows;
}

// A floating-base robot YAML: a base body of 3 kg and three links (revolute, prismatic,
// revolute) of 1.5 + 1 + 0.5 kg, gravity 9.81 m/s^2 along the world's -z.
constexpr double kTotalMass = 6.0, kGravity = 9.81;
const std::string kFloatingYaml = R"(name: floating three links
dh: standard
angle_unit: rad
gravity: [0, 0, -9.81]
base: floating
base_body:
  mass: 3
  com: [0.05, -0.02, 0.03]
  inertia: {xx: 0.02, yy: 0.03, zz: 0.04, xy: 0.001}
links:
  - name: upper
    joint: revolute
    a: 0.3
    alpha: 1.5707963267948966
    d: 0.1
    mass: 1.5
    com: [-0.15, 0.01, 0]
    inertia: {xx: 0.002, yy: 0.012, zz: 0.012}
  - name: slider
    joint: prismatic
    d: 0.2
    theta: 0.4
    mass: 1
    com: [0, 0, -0.05]
    inertia: {xx: 0.01, yy: 0.01, zz: 0.005}
  - name: hand
    joint: revolute
    a: 0.2
    mass: 0.5
    com: [-0.1, 0, 0.02]
    inertia: {xx: 0.0005, yy: 0.002, zz: 0.002}
)";

// Random states of the floating YAML's robot (3 joints): base position, a unit quaternion (or
// the identity when `unturned`), joints, rates and accelerations; rows 0.01 s apart, each state
// appended to `states` as [q (10); v (9); a (9)].
std::string floating_trajectory(int rows, bool unturned, std::vector<denoc::VecX<double>>& states,
                                unsigned seed = 11) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::ostringstream csv;
  denoc::CsvWriter writer(csv);
  writer.header(trajectory_header(3));
  for (int r = 0; r < rows; ++r) {
    denoc::VecX<double> s(28);
    for (int i = 0; i < 28; ++i)
      s[i] = u(rng);
    if (unturned) {
      s.segment<4>(3) << 0, 0, 0, 1;
    } else {
      s.segment<4>(3).normalize();
    }
    writer.row(0.01 * r, s);
    states.push_back(s);
  }
  writer.flush();
  return csv.str();
}

// The joints' columns of those states: the trajectory of the same robot on a fixed base.
std::string joints_only(const std::vector<denoc::VecX<double>>& states) {
  constexpr int n = 3;
  std::ostringstream csv;
  denoc::CsvWriter writer(csv);
  writer.header(denoc::column_names({"q", "qd", "qdd"}, n));
  for (std::size_t k = 0; k < states.size(); ++k) {
    denoc::VecX<double> joints(3 * n);
    joints << states[k].segment(7, n), states[k].segment(16, n), states[k].segment(25, n);
    writer.row(0.01 * static_cast<double>(k), joints);
  }
  writer.flush();
  return csv.str();
}

class FloatingCli : public cli::CliTest {
 protected:
  Result ridim(const std::string& args) { return run(DENOC_RIDIM_EXE, args); }
  Result rfdsim(const std::string& args) { return run(DENOC_RFDSIM_EXE, args); }
  std::string solo() const { return "'" + kSolo + "' --floating-base "; }
};

// rfdsim's rows are exact evaluations: qdd = M^-1 (tau - h) at each output state. Fed back to
// ridim's inverse dynamics they must give the joint forces rfdsim applied and no force or moment
// on the free base, whatever the integrator's error.
TEST_F(FloatingCli, Solo12SimulationRoundTripsThroughRidim) {
  constexpr int n = 12;
  constexpr double amplitude = 0.05;  // N m
  // Joint torques sampled every 10 ms: amplitude sin(4 pi t + i).
  std::ostringstream table;
  table.precision(17);
  table << "t";
  for (int i = 1; i <= n; ++i)
    table << ",tau" << i;
  table << "\n";
  auto applied = [&](double t, int i) { return amplitude * std::sin(4 * M_PI * t + i); };
  for (int k = 0; k <= 50; ++k) {
    const double t = k / 100.0;
    table << t;
    for (int i = 1; i <= n; ++i)
      table << "," << applied(t, i);
    table << "\n";
  }
  write("tau.csv", table.str());
  // Raised 1 m, legs bent, the base spinning about all three axes and drifting.
  const Result sim =
      rfdsim(solo() +
             "--torques tau.csv --t-end 0.5 --dt 0.01 -o sim.csv "
             "--q0 0,0,1,0,0,0,1,0.1,0.8,-1.6,-0.1,0.8,-1.6,0.1,-0.8,1.6,-0.1,-0.8,1.6 "
             "--qd0 0.2,-0.1,0.5,1.5,-2,3,0,0,0,0,0,0,0,0,0,0,0,0");
  ASSERT_EQ(sim.status, 0) << sim.err;
  const std::vector<std::string> sim_lines = lines_of(read("sim.csv"));
  ASSERT_EQ(sim_lines.size(), 52u);  // header + t = 0, 0.01, ..., 0.5
  std::vector<std::string> expected = trajectory_header(n);
  for (int i = 1; i <= n; ++i)
    expected.push_back("tau" + std::to_string(i));
  for (const char* c : {"kinetic", "potential", "work", "dissipated"})
    expected.push_back(c);
  ASSERT_EQ(fields_of(sim_lines[0]), expected);

  // ridim's trajectory: rfdsim's t,q,qd,qdd columns, text copied as written.
  const std::size_t state_columns = 1 + (7 + n) + 2 * (6 + n);
  std::string trajectory;
  for (const std::string& line : sim_lines)
    trajectory += join(fields_of(line), state_columns) + "\n";
  write("traj.csv", trajectory);
  const Result id = ridim(solo() + "traj.csv --quantity torques -o id.csv");
  ASSERT_EQ(id.status, 0) << id.err;
  const std::vector<std::string> id_lines = lines_of(read("id.csv"));
  ASSERT_EQ(id_lines.size(), sim_lines.size());
  std::vector<std::string> id_header{"t",       "base_fx", "base_fy", "base_fz",
                                     "base_nx", "base_ny", "base_nz"};
  for (int i = 1; i <= n; ++i)
    id_header.push_back("tau" + std::to_string(i));
  EXPECT_EQ(fields_of(id_lines[0]), id_header);

  // The zero base forces are not zero by construction: at the same states the gravity forces on
  // the base are the weight, of magnitude (2.50000279 kg, the URDF's masses) g whichever way the
  // base is turned.
  const Result gravity = ridim(solo() + "traj.csv --quantity gravity -o g.csv");
  ASSERT_EQ(gravity.status, 0) << gravity.err;
  const auto gravity_rows = rows_of(read("g.csv"));
  ASSERT_EQ(gravity_rows.size(), sim_lines.size() - 1);
  constexpr double kSoloMass = 1.16115091 + 4 * (2 * 0.14853845 + 0.03070001 + 0.00693606);

  double worst_base = 0, worst_joint = 0, worst_weight = 0, worst_energy = 0;
  const auto sim_rows = rows_of(read("sim.csv"));
  const auto id_rows = rows_of(read("id.csv"));
  const std::size_t tau_at = state_columns, energy_at = tau_at + n;
  const double energy0 = sim_rows[0][energy_at] + sim_rows[0][energy_at + 1];
  for (std::size_t k = 0; k < sim_rows.size(); ++k) {
    const auto& s = sim_rows[k];
    const auto& r = id_rows[k];
    ASSERT_EQ(r.size(), 7u + n);
    ASSERT_EQ(r[0], s[0]);
    for (std::size_t i = 1; i <= 6; ++i)
      worst_base = std::max(worst_base, std::abs(r[i]));
    for (int i = 0; i < n; ++i) {
      const double tau = s[tau_at + static_cast<std::size_t>(i)];
      // The tau columns are the table's samples (the rows fall on its times).
      EXPECT_NEAR(tau, applied(s[0], i + 1), 1e-15) << "t = " << s[0];
      worst_joint = std::max(worst_joint, std::abs(r[7 + static_cast<std::size_t>(i)] - tau));
    }
    const auto& g = gravity_rows[k];
    worst_weight =
        std::max(worst_weight, std::abs(std::hypot(g[1], g[2], g[3]) - kSoloMass * kGravity));
    // Energy balance: T + V - work stays what it was (no friction here).
    worst_energy = std::max(worst_energy,
                            std::abs(s[energy_at] + s[energy_at + 1] - s[energy_at + 2] - energy0));
    EXPECT_EQ(s[energy_at + 3], 0.0);
  }
  RecordProperty("worst_base_force", as_text(worst_base));
  RecordProperty("worst_joint_torque_difference", as_text(worst_joint));
  RecordProperty("worst_weight_difference", as_text(worst_weight));
  RecordProperty("worst_energy_drift", as_text(worst_energy));
  // Measured 1.0e-14 N (or N m) and 2.5e-16 N m, against a weight of 24.5 N and joint torques of
  // 0.05 N m; the weight to 7e-15 N.
  EXPECT_LT(worst_base, 1e-11);
  EXPECT_LT(worst_joint, 1e-13);
  EXPECT_LT(worst_weight, 1e-12);
  // Measured 1.4e-10 J (the integrator's default tolerances) while some 30 J of potential energy
  // turn into kinetic.
  EXPECT_LT(worst_energy, 1e-6);
  // The motion was not trivial: the base fell and turned.
  const auto& last = sim_rows.back();
  EXPECT_LT(last[3], 1 - 0.5 * kGravity * 0.25 * 0.8);  // about 1.2 m below, less the drift
  EXPECT_LT(std::abs(last[7]), 0.9);                    // qw: turned by more than 50 degrees
}

// The inertia matrix of a floating robot YAML: (6 + n)^2 columns, symmetric, its translational
// block the total mass times the identity, its joints' block the fixed-base matrix of the same
// links; and the gravity forces: the base's the weight, in the base frame.
TEST_F(FloatingCli, FloatingYamlMassMatrixAndGravity) {
  constexpr int n = 3, nv = n + 6;
  write("floating.yaml", kFloatingYaml);
  std::string fixed = kFloatingYaml;
  fixed.replace(fixed.find("base: floating"), 14, "base: fixed");
  write("fixed.yaml", fixed);
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", floating_trajectory(8, false, states));
  write("joints.csv", joints_only(states));

  const Result r = ridim("floating.yaml traj.csv --quantity mass-matrix -o M.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(read("M.csv"));
  ASSERT_EQ(lines.size(), states.size() + 1);
  const auto header = fields_of(lines[0]);
  ASSERT_EQ(header.size(), 1u + nv * nv);
  EXPECT_EQ(header[1], "M_1_1");
  EXPECT_EQ(header.back(), "M_9_9");
  const Result f = ridim("fixed.yaml joints.csv --quantity mass-matrix -o Mfixed.csv");
  ASSERT_EQ(f.status, 0) << f.err;
  const auto fixed_rows = rows_of(read("Mfixed.csv"));
  const Result inv = ridim("floating.yaml traj.csv --quantity inverse-mass-matrix -o Minv.csv");
  ASSERT_EQ(inv.status, 0) << inv.err;
  const auto inverse_rows = rows_of(read("Minv.csv"));
  const auto rows = rows_of(read("M.csv"));
  using Square = Eigen::Matrix<double, nv, nv, Eigen::RowMajor>;
  using Joints = Eigen::Matrix<double, n, n, Eigen::RowMajor>;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    ASSERT_EQ(rows[k].size(), 1u + nv * nv);
    const Square M(rows[k].data() + 1), Minv(inverse_rows[k].data() + 1);
    EXPECT_LT((M - M.transpose()).cwiseAbs().maxCoeff(), 1e-14) << "row " << k;
    EXPECT_LT(
        (M.topLeftCorner<3, 3>() - kTotalMass * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(),
        1e-13)
        << "row " << k;
    const Joints fixed_block(fixed_rows[k].data() + 1);
    EXPECT_LT((M.bottomRightCorner<n, n>() - fixed_block).cwiseAbs().maxCoeff(), 1e-14)
        << "row " << k;
    EXPECT_LT((M * Minv - Square::Identity()).cwiseAbs().maxCoeff(), 1e-12) << "row " << k;
  }

  // Gravity with the base unturned. g(q) = tau(q, 0, 0) is the generalized force that holds the
  // robot still against gravity (as for a fixed base), so the base's is the whole weight upwards,
  // +m g along z (gravity is -9.81 along z); nothing along x or y; the moment about the base
  // origin is m c x (g e_z), m c the first moment, read from the matrix's coupling block [m c x]
  // (rows 4-6, columns 1-3).
  std::vector<denoc::VecX<double>> unturned;
  write("unturned.csv", floating_trajectory(5, true, unturned, 5));
  const Result g = ridim("floating.yaml unturned.csv --quantity gravity -o g.csv");
  ASSERT_EQ(g.status, 0) << g.err;
  const auto g_lines = lines_of(read("g.csv"));
  EXPECT_EQ(g_lines[0], "t,g_base_fx,g_base_fy,g_base_fz,g_base_nx,g_base_ny,g_base_nz,g1,g2,g3");
  const Result m = ridim("floating.yaml unturned.csv --quantity mass-matrix -o Mu.csv");
  ASSERT_EQ(m.status, 0) << m.err;
  const auto g_rows = rows_of(read("g.csv")), m_rows = rows_of(read("Mu.csv"));
  ASSERT_EQ(g_rows.size(), unturned.size());
  for (std::size_t k = 0; k < g_rows.size(); ++k) {
    const auto& gk = g_rows[k];
    const Square M(m_rows[k].data() + 1);
    const double hx = M(5, 1), hy = M(3, 2);
    EXPECT_NEAR(gk[1], 0, 1e-12);
    EXPECT_NEAR(gk[2], 0, 1e-12);
    EXPECT_NEAR(gk[3], kTotalMass * kGravity, 1e-12);
    EXPECT_NEAR(gk[4], kGravity * hy, 1e-12);
    EXPECT_NEAR(gk[5], -kGravity * hx, 1e-12);
    EXPECT_NEAR(gk[6], 0, 1e-12);
  }
  // Turned a quarter turn about x, the world's z is the base's y: the holding force is along +y
  // of the base frame, which the base's forces are written in.
  std::vector<denoc::VecX<double>> turned_states;
  std::string turned = floating_trajectory(1, true, turned_states, 9);
  const auto turned_lines = lines_of(turned);
  auto fields = fields_of(turned_lines[1]);
  fields[4] = fields[7] = "0.70710678118654752";
  write("turned.csv", turned_lines[0] + "\n" + join(fields, fields.size()) + "\n");
  const Result gt = ridim("floating.yaml turned.csv --quantity gravity");
  ASSERT_EQ(gt.status, 0) << gt.err;
  const auto turned_row = numbers_of(lines_of(gt.out)[1]);
  EXPECT_NEAR(turned_row[1], 0, 1e-12);
  EXPECT_NEAR(turned_row[2], kTotalMass * kGravity, 1e-12);
  EXPECT_NEAR(turned_row[3], 0, 1e-12);
}

// Pose and Jacobian of the tool frame with a floating base are in the world frame: the fixed-base
// ones (in the base frame, at the same joints) carried by the base's pose (p, R), and the base's
// rates [v; w] (base frame) move the tool origin r (base frame) by R v - R [r x] w and turn it by
// R w.
// URDF cannot say that a base floats: the export says so, naming the option that reads the file
// back with one (the library marks it; ridim words it).
TEST_F(FloatingCli, ExportToUrdfNamesTheOptionThatReadsTheBaseBack) {
  write("floating.yaml", kFloatingYaml);
  const Result r = ridim("floating.yaml --export floating.urdf");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ridim: warning: floating.urdf: URDF cannot say that the base floats: read "
                       "the file with --floating-base"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\x1c'), std::string::npos) << "an unworded mark";
}

TEST_F(FloatingCli, PoseAndJacobianInTheWorldFrame) {
  constexpr int n = 3;
  write("floating.yaml", kFloatingYaml);
  std::string fixed = kFloatingYaml;
  fixed.replace(fixed.find("base: floating"), 14, "base: fixed");
  write("fixed.yaml", fixed);
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", floating_trajectory(6, false, states, 3));
  write("joints.csv", joints_only(states));
  auto rows = [&](const std::string& args) {
    const Result r = ridim(args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    return rows_of(r.out);
  };
  const auto pose = rows("floating.yaml traj.csv --quantity pose"),
             fixed_pose = rows("fixed.yaml joints.csv --quantity pose"),
             jacobian = rows("floating.yaml traj.csv --quantity jacobian"),
             fixed_jacobian = rows("fixed.yaml joints.csv --quantity jacobian");
  ASSERT_EQ(pose.size(), states.size());
  ASSERT_EQ(fixed_jacobian.size(), states.size());
  using Rows3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const denoc::VecX<double>& s = states[k];
    const Eigen::Vector3d p = s.head<3>();
    const Eigen::Matrix3d R = Eigen::Quaterniond(s[6], s[3], s[4], s[5]).toRotationMatrix();
    ASSERT_EQ(pose[k].size(), 13u);
    const Eigen::Vector3d r(fixed_pose[k][1], fixed_pose[k][2], fixed_pose[k][3]);
    const Eigen::Vector3d x(pose[k][1], pose[k][2], pose[k][3]);
    EXPECT_LT((x - (p + R * r)).norm(), 1e-13) << "row " << k;
    EXPECT_LT((Rows3(pose[k].data() + 4) - R * Rows3(fixed_pose[k].data() + 4)).norm(), 1e-13)
        << "row " << k;

    ASSERT_EQ(jacobian[k].size(), 1u + 6 * (6 + n));
    using Floating = Eigen::Matrix<double, 6, 6 + n, Eigen::RowMajor>;
    using Fixed = Eigen::Matrix<double, 6, n, Eigen::RowMajor>;
    const Floating J(jacobian[k].data() + 1);
    const Fixed J_fixed(fixed_jacobian[k].data() + 1);
    Eigen::Matrix3d r_cross;
    r_cross << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    Floating expected = Floating::Zero();
    expected.block<3, 3>(0, 0) = R;
    expected.block<3, 3>(0, 3) = -R * r_cross;
    expected.block<3, 3>(3, 3) = R;
    expected.block<3, n>(0, 6) = R * J_fixed.topRows<3>();
    expected.block<3, n>(3, 6) = R * J_fixed.bottomRows<3>();
    EXPECT_LT((J - expected).cwiseAbs().maxCoeff(), 1e-13) << "row " << k << "\n" << J;
  }
}

// The trajectory's quaternion: norm 1.1 is exit 2 naming file, line and base_qw; within 1e-6 of
// 1 it is accepted and normalised; a header short of one base column names the base's block.
TEST_F(FloatingCli, TrajectoryQuaternionAndHeaderChecks) {
  write("floating.yaml", kFloatingYaml);
  std::vector<denoc::VecX<double>> states;
  const auto lines = lines_of(floating_trajectory(2, true, states));
  const std::string header = lines[0] + "\n";
  auto with_qw = [&](const std::string& qw, std::size_t row = 1) {
    auto fields = fields_of(lines[row]);
    fields[7] = qw;
    return join(fields, fields.size()) + "\n";
  };
  write("long.csv", header + lines[1] + "\n" + with_qw("1.1", 2));
  Result r = ridim("floating.yaml long.csv --quantity torques");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("ridim: long.csv:3: column 8 (base_qw): the base quaternion "
                       "base_qx..base_qw has norm 1.1, which differs from 1 by more than 1e-6"),
            std::string::npos)
      << r.err;

  // 1 + 5e-7 is taken, normalised: the same forces as the unit quaternion's.
  write("unit.csv", header + with_qw("1"));
  write("near.csv", header + with_qw("1.0000005"));
  const Result unit = ridim("floating.yaml unit.csv --quantity torques");
  const Result near = ridim("floating.yaml near.csv --quantity torques");
  ASSERT_EQ(unit.status, 0) << unit.err;
  ASSERT_EQ(near.status, 0) << near.err;
  EXPECT_EQ(near.err, "");
  const auto a = numbers_of(lines_of(unit.out)[1]), b = numbers_of(lines_of(near.out)[1]);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], b[i], 1e-13 * (1 + std::abs(a[i]))) << "column " << i + 1;
  // 1 + 2e-6 is not.
  write("far.csv", header + with_qw("1.000002"));
  r = ridim("floating.yaml far.csv --quantity torques");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("far.csv:2: column 8 (base_qw)"), std::string::npos) << r.err;

  // base_qw missing from the header: the base's coordinates block is short.
  auto names = fields_of(lines[0]);
  names.erase(names.begin() + 7);
  write("short.csv", join(names, names.size()) + "\n" + lines[1] + "\n");
  write("out.csv", "precious\n");
  r = ridim("floating.yaml short.csv -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("short.csv:1: header column 8 is 'q1', expected 'base_qw': the block of "
                       "the base's coordinates (7 columns, base_x..base_qw) is short or misnamed"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read("out.csv"), "precious\n");
  // A joints-only (fixed-base) header: the base's block is named, not a column count.
  write("fixed.csv", join(trajectory_header(3), 1) + ",q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n");
  r = ridim("floating.yaml fixed.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("fixed.csv:1: header column 2 is 'q1', expected 'base_x': the block of the "
                       "base's coordinates"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; the header is a fixed base's (docs/floating-base.md), and the robot's "
                       "base is floating"),
            std::string::npos)
      << r.err;
  // The rates' block short of base_wz.
  names = fields_of(lines[0]);
  names.erase(names.begin() + 16);
  write("rates.csv", join(names, names.size()) + "\n");
  r = ridim("floating.yaml rates.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the block of the base's rates (6 columns, base_vx..base_wz)"),
            std::string::npos)
      << r.err;
}

// A floating base's trajectory given to a URDF read without --floating-base: the message says
// that the columns are a floating base's and names the option.
TEST_F(FloatingCli, FloatingColumnsWithoutTheOptionNameIt) {
  const std::vector<std::string> names = denoc::state_columns({"q", "qd", "qdd"}, 12, true).names;
  std::string row = "0";
  for (std::size_t k = 1; k < names.size(); ++k)
    row += names[k] == "base_qw" ? ",1" : ",0";
  write("solo.csv", join(names, names.size()) + "\n" + row + "\n");
  Result r = ridim("'" + kSolo + "' solo.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "ridim: solo.csv:1: header has 56 columns, expected 37; the header is a floating "
            "base's (docs/floating-base.md): a URDF's base floats with --floating-base\n");
  r = ridim(solo() + "solo.csv");
  EXPECT_EQ(r.status, 0) << r.err;
}

// --q0 and --qd0 with a floating base: 7 + n and 6 + n values, the quaternion checked like the
// trajectory's (exit 2 beyond 1e-6, normalised within), no unit suffix on the base's values.
TEST_F(FloatingCli, InitialStateChecks) {
  const std::string args = solo() + "--free-fall --t-end 0.02 ";
  const std::string joints = "0,0,0,0,0,0,0,0,0,0,0,0";
  Result r = rfdsim(args + "--q0 " + joints + " -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--q0: expected 19 values (7 for the floating base, then 12 for the "
                       "joints), found 12"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv"));
  r = rfdsim(args + "--qd0 " + joints);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(
      r.err.find("--qd0: expected 18 values (6 for the floating base, then 12 for the joints)"),
      std::string::npos)
      << r.err;

  r = rfdsim(args + "--q0 0,0,0,0,0,0,1.1," + joints + " -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--q0: values 4-7: the base quaternion base_qx..base_qw has norm 1.1, "
                       "which differs from 1 by more than 1e-6"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv"));
  r = rfdsim(args + "--q0 0,0,0,0,0,0,0," + joints);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--q0: values 4-7: the base quaternion base_qx..base_qw has norm 0,"),
            std::string::npos)
      << r.err;

  // Within 1e-6: normalised, the first row's quaternion of unit norm.
  r = rfdsim(args + "--q0 0,0,0,0.6,0,0,0.8000004," + joints);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto first = numbers_of(lines_of(r.out)[1]);
  EXPECT_NEAR(std::hypot(first[4], first[7]), 1.0, 1e-15);
  EXPECT_NEAR(first[7], 0.8000004 / std::hypot(0.6, 0.8000004), 1e-15);

  r = rfdsim(args + "--q0 0,0,0,0,0,0,1deg," + joints);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--q0: value 7 is the floating base's, in SI units: write it without deg "
                       "or rad"),
            std::string::npos)
      << r.err;
}

// The other matrices with a floating base are (6 + n) x (6 + n): C with C v = h - g, and U and D
// with U D U^T = M. --wrench is in the world frame: ridim takes J^T w off the forces (J the
// tool's world Jacobian), and rfdsim counts its power in the work column, so that kinetic +
// potential - work stays constant in a free fall with the wrench on.
TEST_F(FloatingCli, ConvectiveInertiaUduFactorsAndWrench) {
  constexpr int n = 3, nv = n + 6;
  write("floating.yaml", kFloatingYaml);
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", floating_trajectory(6, false, states));
  for (const std::string q :
       {"coriolis", "udu", "bias", "gravity", "mass-matrix", "jacobian", "torques"}) {
    const Result r = ridim("floating.yaml traj.csv -o " + q + ".csv --quantity " + q);
    ASSERT_EQ(r.status, 0) << q << "\n" << r.err;
  }
  write("wrench.csv", "t,fx,fy,fz,nx,ny,nz\n0,3,-2,5,0.4,0.1,-0.3\n1,3,-2,5,0.4,0.1,-0.3\n");
  const Result wrenched = ridim("floating.yaml traj.csv -o wrenched.csv --wrench wrench.csv");
  ASSERT_EQ(wrenched.status, 0) << wrenched.err;
  const auto c_header = fields_of(lines_of(read("coriolis.csv"))[0]);
  ASSERT_EQ(c_header.size(), 1u + nv * nv);
  EXPECT_EQ(c_header.back(), "C_9_9");
  const auto u_header = fields_of(lines_of(read("udu.csv"))[0]);
  ASSERT_EQ(u_header.size(), 1u + nv * nv + nv);
  EXPECT_EQ(u_header[nv * nv], "U_9_9");
  EXPECT_EQ(u_header.back(), "D_9");

  const auto C_rows = rows_of(read("coriolis.csv")), udu_rows = rows_of(read("udu.csv"));
  const auto h_rows = rows_of(read("bias.csv")), g_rows = rows_of(read("gravity.csv"));
  const auto M_rows = rows_of(read("mass-matrix.csv")), J_rows = rows_of(read("jacobian.csv"));
  const auto tau_rows = rows_of(read("torques.csv")), wrenched_rows = rows_of(read("wrenched.csv"));
  ASSERT_EQ(C_rows.size(), states.size());
  using Square = Eigen::Matrix<double, nv, nv, Eigen::RowMajor>;
  using Vector = Eigen::Matrix<double, nv, 1>;
  Eigen::Matrix<double, 6, 1> w;
  w << 3, -2, 5, 0.4, 0.1, -0.3;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const Vector v = states[k].segment<nv>(n + 7);
    const Square C(C_rows[k].data() + 1), U(udu_rows[k].data() + 1), M(M_rows[k].data() + 1);
    const Vector D(udu_rows[k].data() + 1 + nv * nv);
    const Vector h(h_rows[k].data() + 1), g(g_rows[k].data() + 1);
    EXPECT_LT((C * v - (h - g)).cwiseAbs().maxCoeff(), 1e-13 * (h - g).norm()) << "row " << k;
    EXPECT_LT((U * D.asDiagonal() * U.transpose() - M).cwiseAbs().maxCoeff(), 1e-14 * M.norm())
        << "row " << k;
    const Eigen::Matrix<double, 6, nv, Eigen::RowMajor> J(J_rows[k].data() + 1);
    const Vector tau(tau_rows[k].data() + 1), with_wrench(wrenched_rows[k].data() + 1);
    EXPECT_LT((with_wrench - (tau - J.transpose() * w)).cwiseAbs().maxCoeff(), 1e-13 * tau.norm())
        << "row " << k;
  }

  const Result sim = rfdsim("floating.yaml --free-fall --t-end 0.5 --wrench wrench.csv -o sim.csv");
  ASSERT_EQ(sim.status, 0) << sim.err;
  const auto sim_rows = rows_of(read("sim.csv"));
  ASSERT_GT(sim_rows.size(), 2u);
  // t, q (10), v (9), a (9), tau (3), kinetic, potential, work, dissipated
  const auto balance = [](const std::vector<double>& row) { return row[32] + row[33] - row[34]; };
  const double work = sim_rows.back()[34];
  EXPECT_GT(std::abs(work), 0.1);  // the wrench does work
  EXPECT_LT(std::abs(balance(sim_rows.back()) - balance(sim_rows.front())), 1e-6 * std::abs(work));
}

// A floating YAML robot of n identical revolute links on a 3 kg base, and a trajectory of one
// sample at rest with the base unturned.
std::string identical_links_yaml(int n) {
  std::string yaml =
      "name: identical links\ndh: standard\nangle_unit: rad\nbase: floating\n"
      "base_body: {mass: 3, com: [0, 0, 0.1], inertia: {xx: 0.02, yy: 0.03, zz: 0.04}}\n"
      "links:\n";
  for (int i = 0; i < n; ++i) {
    yaml +=
        "  - {joint: revolute, a: 0.3, alpha: 0.5, d: 0.1, mass: 1, com: [-0.1, 0, 0], "
        "inertia: {xx: 0.002, yy: 0.01, zz: 0.01}}\n";
  }
  return yaml;
}
std::string resting_sample(int n) {
  std::vector<std::string> row(trajectory_header(n).size(), "0");
  row[7] = "1";  // base_qw
  return join(trajectory_header(n), trajectory_header(n).size()) + "\n" + join(row, row.size()) +
         "\n";
}

// --count-operations with a floating base counts the floating routes: the inverse dynamics and
// the O(n) forward dynamics cost the same for every joint added (equal differences at n = 2, 4,
// 6, 8), the inertia matrix is quadratic (equal second differences), and every quantity counts.
TEST_F(FloatingCli, OperationCountsOfTheFloatingRoutes) {
  auto count = [&](bool ridim_app, int n, const std::string& args) {
    write("robot.yaml", identical_links_yaml(n));
    write("sample.csv", resting_sample(n));
    const Result r = ridim_app ? ridim("robot.yaml sample.csv --count-operations " + args)
                               : rfdsim("robot.yaml --count-operations " + args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    const auto lines = lines_of(r.out);
    EXPECT_EQ(lines.size(), 2u) << r.out;
    const auto fields = fields_of(lines.back());
    EXPECT_EQ(fields.size(), 8u) << r.out;
    return fields.size() == 8u ? std::stol(fields[3]) + std::stol(fields[4]) : -1L;
  };
  for (const char* quantity : {"torques", "bias", "gravity", "mass-matrix", "inverse-mass-matrix",
                               "coriolis", "udu", "pose", "jacobian", "reactions"})
    EXPECT_GT(count(true, 3, std::string("--quantity ") + quantity), 0) << quantity;
  for (const char* route : {"udu", "cholesky"})
    EXPECT_GT(count(false, 3, std::string("--algorithm ") + route), 0) << route;
  std::vector<long> torques, forward, inertia;
  for (int n : {2, 4, 6, 8}) {
    torques.push_back(count(true, n, "--quantity torques"));
    forward.push_back(count(false, n, "--algorithm udu"));
    inertia.push_back(count(true, n, "--quantity mass-matrix"));
  }
  for (std::size_t k = 2; k < 4; ++k) {
    EXPECT_EQ(torques[k] - torques[k - 1], torques[1] - torques[0]);
    EXPECT_EQ(forward[k] - forward[k - 1], forward[1] - forward[0]);
  }
  EXPECT_EQ(inertia[3] - 2 * inertia[2] + inertia[1], inertia[2] - 2 * inertia[1] + inertia[0]);
  EXPECT_GT(inertia[2] - 2 * inertia[1] + inertia[0], 0);
}

// Stick-slip friction in the joints of a free-floating robot spun about its base, without
// gravity: with a static friction far above the inertial loads every joint stays locked (rates
// and accelerations exactly 0) and the robot turns as one rigid body, its kinetic energy
// constant; with a small one the joints break away and slip, and the energy the friction takes
// is in the dissipated column (kinetic - work + dissipated constant).
TEST_F(FloatingCli, StickSlipJointsOnAFreeBase) {
  constexpr int n = 3, nq = n + 7, nv = n + 6;
  auto with_friction = [](const std::string& Tc) {
    std::string yaml = kFloatingYaml;
    yaml.replace(yaml.find("gravity: [0, 0, -9.81]"), 22, "gravity: [0, 0, 0]");
    for (std::size_t at = yaml.find("    mass: "); at != std::string::npos;
         at = yaml.find("    mass: ", at + 40))
      yaml.insert(at, "    drive: {Tc: " + Tc + "}\n");
    return yaml;
  };
  const std::string spin =
      " --free-fall --t-end 1 --rtol 1e-11 --atol 1e-11 --coulomb stick-slip --qd0 "
      "0.1,0,0,1,2,-1,0,0,0";
  write("held.yaml", with_friction("1000"));
  const Result held = rfdsim("held.yaml -o held.csv" + spin);
  ASSERT_EQ(held.status, 0) << held.err;
  const auto held_rows = rows_of(read("held.csv"));
  ASSERT_GT(held_rows.size(), 10u);
  const std::size_t kinetic = 1 + nq + 2 * nv + n, work = kinetic + 2, dissipated = kinetic + 3;
  for (const auto& row : held_rows) {
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(row[1 + nq + 6 + i], 0) << "qd" << i + 1 << " at t = " << row[0];
      EXPECT_EQ(row[1 + nq + nv + 6 + i], 0) << "qdd" << i + 1 << " at t = " << row[0];
    }
    EXPECT_NEAR(row[kinetic], held_rows.front()[kinetic], 1e-9 * held_rows.front()[kinetic]);
  }
  write("slipping.yaml", with_friction("0.001"));
  const Result slipping = rfdsim("slipping.yaml -o slipping.csv" + spin);
  ASSERT_EQ(slipping.status, 0) << slipping.err;
  const auto rows = rows_of(read("slipping.csv"));
  const auto& last = rows.back();
  EXPECT_GT(std::abs(last[1 + nq + 6]) + std::abs(last[1 + nq + 7]) + std::abs(last[1 + nq + 8]),
            0.01);
  EXPECT_GT(last[dissipated], 1e-4);
  const auto balance = [&](const std::vector<double>& row) {
    return row[kinetic] - row[work] + row[dissipated];
  };
  EXPECT_LT(std::abs(balance(last) - balance(rows.front())), 1e-7 * rows.front()[kinetic]);
}

// What a floating base refuses: exit 2 before any output, the message naming the option and the
// floating base.
TEST_F(FloatingCli, RefusedOptions) {
  write("floating.yaml", kFloatingYaml);
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", floating_trajectory(2, false, states));
  const std::string floating = "the robot's base is floating (docs/floating-base.md)";
  struct Case {
    bool ridim;
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {true, "--algorithm gibbs-appell", "--algorithm gibbs-appell: the route carries no floating"},
      {true, "--quantity inverse-mass-matrix --algorithm fixman",
       "--algorithm fixman: the route carries no floating base"},
      {false, "--free-fall --algorithm gibbs-appell",
       "--algorithm gibbs-appell: the route carries no floating base"},
      {false, "--free-fall --algorithm fixman",
       "--algorithm fixman: the route carries no floating"},
  };
  for (const Case& c : cases) {
    const Result r = c.ridim ? ridim("floating.yaml traj.csv -o out.csv " + c.args)
                             : rfdsim("floating.yaml -o out.csv " + c.args);
    const std::string what = (c.ridim ? "ridim " : "rfdsim ") + c.args;
    EXPECT_EQ(r.status, 2) << what << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << what << "\n" << r.err;
    EXPECT_NE(r.err.find(floating), std::string::npos) << what << "\n" << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv")) << what;
  }
  // The same on the URDF read floating.
  Result r = ridim(solo() + "--algorithm gibbs-appell");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(floating), std::string::npos) << r.err;
  r = rfdsim(solo() + "--free-fall --algorithm fixman");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(floating), std::string::npos) << r.err;
  // With the base fixed, the same robot takes them.
  std::string fixed = kFloatingYaml;
  fixed.replace(fixed.find("base: floating"), 14, "base: fixed");
  write("fixed.yaml", fixed);
  r = rfdsim("fixed.yaml --free-fall --t-end 0.01 --algorithm gibbs-appell");
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<denoc::VecX<double>> joint_states;
  write("joints.csv", cli::random_trajectory(3, 2, joint_states));
  r = ridim("fixed.yaml joints.csv --quantity coriolis");
  EXPECT_EQ(r.status, 0) << r.err;
}

// A bad quaternion found while streaming (row 3) stops ridim with exit 2, and the rows before it
// stay in the -o output, whole, as they were computed.
TEST_F(FloatingCli, BadQuaternionKeepsTheRowsBefore) {
  write("floating.yaml", kFloatingYaml);
  std::vector<denoc::VecX<double>> states;
  const auto lines = lines_of(floating_trajectory(4, false, states));
  auto bad = fields_of(lines[3]);
  bad[4] = bad[5] = bad[6] = bad[7] = "0.6";  // the quaternion's norm 1.2
  write("good.csv", lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n");
  write("bad.csv", lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + join(bad, bad.size()) +
                       "\n" + lines[4] + "\n");
  const Result good = ridim("floating.yaml good.csv --quantity torques -o good_out.csv");
  ASSERT_EQ(good.status, 0) << good.err;
  const Result r = ridim("floating.yaml bad.csv --quantity torques -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.csv:4: column 8 (base_qw)"), std::string::npos) << r.err;
  const std::string out = read("out.csv");
  EXPECT_EQ(lines_of(out).size(), 3u);  // the header and the two rows before
  EXPECT_EQ(out, read("good_out.csv"));
}

// The world-frame quantities of docs/legged.md from ridim: their columns, the mass of every body
// (the base's too), and com-jacobian times the rates against the velocity in com's columns.
TEST_F(FloatingCli, CentreOfMassColumnsAndItsJacobian) {
  constexpr int nv = 9;
  write("floating.yaml", kFloatingYaml);
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", floating_trajectory(6, false, states));
  const Result com = ridim("floating.yaml traj.csv --quantity com -o com.csv");
  ASSERT_EQ(com.status, 0) << com.err;
  const Result jacobian = ridim("floating.yaml traj.csv --quantity com-jacobian -o Jc.csv");
  ASSERT_EQ(jacobian.status, 0) << jacobian.err;
  EXPECT_EQ(fields_of(lines_of(read("com.csv"))[0]),
            (std::vector<std::string>{"t", "mass", "com_x", "com_y", "com_z", "com_vx", "com_vy",
                                      "com_vz"}));
  const auto header = fields_of(lines_of(read("Jc.csv"))[0]);
  ASSERT_EQ(header.size(), 1u + 3 * nv);
  EXPECT_EQ(header[1], "Jc_1_1");
  EXPECT_EQ(header.back(), "Jc_3_9");
  const auto com_rows = rows_of(read("com.csv")), jacobian_rows = rows_of(read("Jc.csv"));
  ASSERT_EQ(com_rows.size(), states.size());
  for (std::size_t k = 0; k < states.size(); ++k) {
    EXPECT_NEAR(com_rows[k][1], kTotalMass, 1e-13);
    const Eigen::Matrix<double, 3, nv, Eigen::RowMajor> Jc(jacobian_rows[k].data() + 1);
    const Eigen::Vector3d velocity = Jc * states[k].segment<nv>(10);
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(velocity[i], com_rows[k][5 + static_cast<std::size_t>(i)], 1e-13) << k;
  }
}

// rfdsim --contact: a box on its four corners (frames on fixed joints) settles at the static
// deflection m g / (4 k), with the contact column and the events; a frame it does not have and a
// malformed --ground are exit 2 before anything is written.
TEST_F(FloatingCli, GroundContactHoldsABox) {
  const std::string box = "'" + std::string(DENOC_TEST_FIXTURES) + "/box_corners.urdf' " +
                          "--floating-base --free-fall --contact corner_1 --contact corner_2 " +
                          "--contact corner_3 --contact corner_4 ";
  const Result r = rfdsim(box + "--ground 2e4,300,0.8 --q0 0,0,0.12,0,0,0,1 --t-end 3 --dt 0.5 " +
                          "--stats -o box.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(", events "), std::string::npos) << r.err;
  const auto lines = lines_of(read("box.csv"));
  const auto header = fields_of(lines[0]);
  const std::vector<std::string> energies(header.end() - 5, header.end());
  EXPECT_EQ(energies,
            (std::vector<std::string>{"kinetic", "potential", "contact", "work", "dissipated"}));
  const auto rows = rows_of(read("box.csv"));
  const double deflection = 4 * 9.81 / (4 * 2e4);
  EXPECT_NEAR(0.1 - rows.back()[3], deflection, 1e-6 * deflection);  // base_z, corners 0.1 below
  EXPECT_NEAR(rows.back()[header.size() - 3], 2 * 2e4 * deflection * deflection, 1e-9);

  Result bad = rfdsim(box + "--contact corner_9 -o bad.csv");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("corner_9"), std::string::npos) << bad.err;
  bad = rfdsim(box + "--ground 1e4,300 -o bad.csv");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--ground 1e4,300: expected three or four numbers"), std::string::npos)
      << bad.err;
  bad = rfdsim(box + "--ground 1e4,-3,0.5 -o bad.csv");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("value 2 (-3)"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "bad.csv"));
}

}  // namespace
