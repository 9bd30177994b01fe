// Drives, tool and payload (docs/robot-file.md): the payload against folding it into the last link
// by hand, the rotor inertia in every route to the inertia matrix and the accelerations, and the
// friction terms against their definition; the robot-file keys and their errors.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "denoc/denoc.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/random_chains.hpp"

namespace drives_test {

using namespace denoc;

// About 30 % prismatic joints (the shared generator's rows).
std::vector<DhLink<double>> random_rows(int n, std::mt19937& rng) {
  return denoc_test::random_dh_rows(n, rng, 0.3);
}

Drive<double> random_drive(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  Drive<double> d;
  d.Jm = 1e-5 * (0.5 + u(rng));
  d.G = (u(rng) < 0.5 ? -1 : 1) * (20 + 100 * u(rng));
  d.B = 1e-4 * u(rng);
  d.Tc_pos = 0.01 * u(rng);
  d.Tc_neg = -0.01 * u(rng);
  return d;
}

// A random chain with a drive on every joint, a turned tool and a payload with a full inertia.
struct DrivenChain {
  std::vector<DhLink<double>> rows;
  std::vector<Drive<double>> drives;
  Transform<double> tool;  // relative to J_n
  Payload<double> payload;
  DhConvention convention;
  Vec3<double> gravity = Vec3<double>(1.3, -4.2, -8.1);

  std::vector<LinkSpec<double>> specs(bool with_drives) const {
    std::vector<LinkSpec<double>> s = links_from_dh(convention, rows);
    if (with_drives) {
      for (std::size_t i = 0; i < s.size(); ++i)
        s[i].drive = drives[i];
    }
    return s;
  }
  Model<double> model(bool with_drives = true) const {
    return Model<double>(specs(with_drives), gravity, tool, payload);
  }
};

DrivenChain random_driven_chain(int n, DhConvention convention, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  DrivenChain c;
  c.rows = random_rows(n, rng);
  for (int i = 0; i < n; ++i)
    c.drives.push_back(random_drive(rng));
  c.convention = convention;
  c.tool.R = Eigen::Quaterniond(u(rng), u(rng), u(rng), 1.0).normalized().toRotationMatrix();
  c.tool.p = Vec3<double>(0.1 * u(rng), 0.1 * u(rng), 0.2);
  c.payload.mass = 1.5;
  c.payload.com = Vec3<double>(0.03, -0.02, 0.05);
  const Mat3<double> R =
      Eigen::Quaterniond(u(rng), u(rng), u(rng), 1.0).normalized().toRotationMatrix();
  c.payload.inertia = R * Vec3<double>(0.01, 0.02, 0.025).asDiagonal() * R.transpose();
  return c;
}

VecX<double> random_vector(int n, std::mt19937& rng, double scale = 1) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = u(rng);
  return v;
}

double rel(const Eigen::Ref<const MatX<double>>& a, const Eigen::Ref<const MatX<double>>& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

// The payload folded into the last link by hand, with the parallel-axis theorem written out:
//   m = m1 + m2, c = (m1 c1 + m2 c2) / m,
//   I = sum_k I_k + m_k (|d_k|^2 1 - d_k d_k^T), d_k = c_k - c,
// with the payload's c2 and I2 carried into the last DH link frame F_n by the tool transform
// (given there, relative to F_n).
DhLink<double> folded_by_hand(DhLink<double> last, const Eigen::Matrix3d& tool_R,
                              const Eigen::Vector3d& tool_p, const Payload<double>& payload) {
  const double m1 = last.mass, m2 = payload.mass, m = m1 + m2;
  const Eigen::Vector3d c1 = last.com, c2 = tool_R * payload.com + tool_p;
  const Eigen::Vector3d c = (m1 * c1 + m2 * c2) / m;
  auto steiner = [](double mass, const Eigen::Vector3d& d) {
    return Eigen::Matrix3d(mass *
                           (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  last.inertia = last.inertia + steiner(m1, c1 - c) +
                 tool_R * payload.inertia * tool_R.transpose() + steiner(m2, c2 - c);
  last.mass = m;
  last.com = c;
  return last;
}

TEST(Payload, SameTorquesAsFoldingItIntoTheLastLinkByHand) {
  std::mt19937 rng(1301);
  double worst = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 2, 6}) {
      const DrivenChain chain = random_driven_chain(n, convention, rng);
      // The model takes the tool relative to J_n; the hand-folded link gives com and inertia in
      // F_n = J_n Post_n, so carry the tool into F_n: Post_n^-1 tool.
      const Transform<double> post = split_dh(convention, chain.rows.back()).post;
      const Eigen::Matrix3d R = post.R.transpose() * chain.tool.R;
      const Eigen::Vector3d p = post.R.transpose() * (chain.tool.p - post.p);
      std::vector<DhLink<double>> rows = chain.rows;
      rows.back() = folded_by_hand(rows.back(), R, p, chain.payload);
      const Model<double> with_payload = chain.model(false);
      const Model<double> by_hand(links_from_dh(convention, rows), chain.gravity);
      Workspace<double> ws1(with_payload), ws2(by_hand);
      for (int k = 0; k < 5; ++k) {
        const VecX<double> q = random_vector(n, rng, 2), qd = random_vector(n, rng, 2),
                           qdd = random_vector(n, rng, 2);
        const VecX<double> tau1 = inverse_dynamics(with_payload, ws1, q, qd, qdd);
        const VecX<double> tau2 = inverse_dynamics(by_hand, ws2, q, qd, qdd);
        worst = std::max(worst, rel(tau1, tau2));
        worst = std::max(worst, rel(generalized_inertia(with_payload, ws1, q),
                                    generalized_inertia(by_hand, ws2, q)));
        worst = std::max(worst, std::abs(potential_energy(with_payload, ws1, q) -
                                         potential_energy(by_hand, ws2, q)) /
                                    10);
      }
    }
  }
  std::cout << "[payload] torques, GIM, potential vs folded by hand: max rel residual " << worst
            << "\n";
  EXPECT_LT(worst, 1e-12);
}

TEST(Payload, FromTheRobotFileOnTheLastLinkFrame) {
  // planar3_drives.yaml: a 1 kg payload at 0.05 + 0.02 m beyond the hand's tip, along x of F_3,
  // with 4e-4 kg m^2 about its centre; the hand is 2 kg at -0.1 m, I_zz = 2 * 0.2^2 / 12.
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/planar3_drives.yaml");
  std::vector<DhLink<double>> rows = robot.dh;
  DhLink<double>& hand = rows.back();
  const double m = 3, c = (2 * -0.1 + 1 * 0.07) / m;
  const double izz =
      2 * 0.2 * 0.2 / 12 + 2 * (-0.1 - c) * (-0.1 - c) + 4e-4 + 1 * (0.07 - c) * (0.07 - c);
  hand.mass = m;
  hand.com = Vec3<double>(c, 0, 0);
  hand.inertia(2, 2) = izz;
  hand.inertia(1, 1) = hand.inertia(2, 2);  // the rod's and the point masses' yy as their zz
  hand.inertia(0, 0) = 4e-4;
  const Model<double> by_hand(links_from_dh(robot.convention, rows), robot.model.gravity());
  Workspace<double> ws1(robot.model), ws2(by_hand);
  std::mt19937 rng(7);
  for (int k = 0; k < 5; ++k) {
    const VecX<double> q = random_vector(3, rng, 2), qd = random_vector(3, rng, 2),
                       qdd = random_vector(3, rng, 2);
    // The file's model has rotors as well: take them out of the comparison.
    VecX<double> tau1 = inverse_dynamics(robot.model, ws1, q, qd, qdd);
    tau1.array() -= robot.model.rotor_inertia().array() * qdd.array();
    const VecX<double> tau2 = inverse_dynamics(by_hand, ws2, q, qd, qdd);
    EXPECT_LT(rel(tau1, tau2), 1e-13) << tau1.transpose() << " | " << tau2.transpose();
  }
}

TEST(Drives, RotorInertiaOnTheDiagonalAndInEveryRoute) {
  std::mt19937 rng(1302);
  double worst_identity = 0, worst_diag = 0, worst_routes = 0, worst_udu = 0, worst_inverse = 0;
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 3, 7, 35}) {  // 35 joints: the base-frame GIM route
      const DrivenChain chain = random_driven_chain(n, convention, rng);
      const Model<double> driven = chain.model(true), bare = chain.model(false);
      Workspace<double> ws(driven), wb(bare);
      VecX<double> rotor(n);
      for (int i = 0; i < n; ++i)
        rotor[i] = chain.drives[i].G * chain.drives[i].G * chain.drives[i].Jm;
      for (int k = 0; k < 3; ++k) {
        const VecX<double> q = random_vector(n, rng, 2), qd = random_vector(n, rng, 2),
                           qdd = random_vector(n, rng, 2);
        // tau = M qdd + h with the rotor term in M and tau.
        const VecX<double> tau = inverse_dynamics(driven, ws, q, qd, qdd);
        const VecX<double> h = bias_forces(driven, ws, q, qd);
        const MatX<double> M = generalized_inertia(driven, ws, q);
        worst_identity = std::max(worst_identity, rel(M * qdd + h, tau));
        // M = M_bare + diag(G^2 Jm), the rotor inertias computed here from the drives.
        const MatX<double> Mb = generalized_inertia(bare, wb, q);
        worst_diag =
            std::max(worst_diag, rel(M, MatX<double>(Mb + MatX<double>(rotor.asDiagonal()))));
        // O(n) U D U^T and Cholesky routes agree and invert the inverse dynamics.
        const VecX<double> tau_in = random_vector(n, rng, 5);
        const VecX<double> a1 = forward_dynamics(driven, ws, q, qd, tau_in);
        const VecX<double> a2 = forward_dynamics_cholesky(driven, ws, q, qd, tau_in);
        worst_routes = std::max(worst_routes, rel(a1, a2));
        const VecX<double> back = inverse_dynamics(driven, ws, q, qd, a1);
        worst_routes = std::max(worst_routes, rel(back, tau_in));
        // U D U^T = M with D = diag(m^).
        udu_factors(driven, ws, q);
        const MatX<double> UDUt =
            ws.articulated.U * ws.articulated.m_hat.asDiagonal() * ws.articulated.U.transpose();
        worst_udu = std::max(worst_udu, rel(UDUt, M));
        const MatX<double> Minv = inverse_generalized_inertia(driven, ws, q);
        worst_inverse = std::max(worst_inverse, rel(Minv * M, MatX<double>::Identity(n, n)));
      }
    }
  }
  std::cout << "[drives] tau = M qdd + h " << worst_identity << "; M = M_bare + diag(G^2 Jm) "
            << worst_diag << "; UDU^T vs Cholesky vs ID " << worst_routes << "; UDU^T = M "
            << worst_udu << "; Minv M = 1 " << worst_inverse << "\n";
  EXPECT_LT(worst_identity, 1e-12);
  EXPECT_LT(worst_diag, 1e-13);
  EXPECT_LT(worst_routes, 1e-9);
  EXPECT_LT(worst_udu, 1e-12);
  EXPECT_LT(worst_inverse, 1e-9);
}

TEST(Drives, RotorKineticEnergyAndFloat) {
  std::mt19937 rng(1303);
  const DrivenChain chain = random_driven_chain(6, DhConvention::standard, rng);
  const Model<double> driven = chain.model(true);
  const Model<float> driven_f = driven.cast<float>();
  Workspace<double> ws(driven);
  Workspace<float> wf(driven_f);
  const VecX<double> q = random_vector(6, rng, 2), qd = random_vector(6, rng, 2),
                     tau = random_vector(6, rng, 5);
  // T = 1/2 qd^T M qd with the rotors in M.
  const MatX<double> M = generalized_inertia(driven, ws, q);
  EXPECT_NEAR(kinetic_energy(driven, ws, q, qd), qd.dot(M * qd) / 2, 1e-12);
  // Float follows double with drives and payload (the cast keeps them).
  const VecX<double> a = forward_dynamics(driven, ws, q, qd, tau);
  const VecX<float> af = forward_dynamics(driven_f, wf, q.cast<float>(), qd.cast<float>(),
                                          VecX<float>(tau.cast<float>()));
  EXPECT_LT(rel(af.cast<double>(), a), 2e-3);
  EXPECT_FLOAT_EQ(driven_f.joint(5).rotor_inertia,
                  static_cast<float>(driven.joint(5).rotor_inertia));
  EXPECT_FLOAT_EQ(driven_f.joint(5).M.mass, static_cast<float>(driven.joint(5).M.mass));
}

TEST(Drives, FrictionFollowsItsDefinition) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/planar3_drives.yaml");
  VecX<double> qd(3), f(3);
  qd << 0.5, -0.25, 0;
  friction_forces(robot.model, qd, f);
  // G^2 B qd + |G| Tc(qd), the drive values of the file: G = 100, -80, 50.
  EXPECT_NEAR(f[0], 1e4 * 5e-6 * 0.5 + 100 * 5e-3, 1e-15);
  EXPECT_NEAR(f[1], 6400 * 4e-6 * -0.25 + 80 * -4e-3, 1e-15);
  EXPECT_NEAR(f[2], 0, 1e-15);  // at rest: no Coulomb term
  qd[2] = -1e-9;
  friction_forces(robot.model, qd, f);
  EXPECT_NEAR(f[2], 2500 * 2e-6 * -1e-9 + 50 * -3e-3, 1e-15);
  EXPECT_DOUBLE_EQ(robot.model.joint(0).rotor_inertia, 1e4 * 2e-6);
}

// ---------------------------------------------------------------------------------------------
// Robot-file keys.

const char* const kArm = R"(dh: standard
angle_unit: deg
links:
  - joint: revolute
    a: 0.5
    mass: 2
    drive: {Jm: 1.0e-4, G: -50, B: 1.0e-3, Tc: [0.1, -0.2]}
  - joint: prismatic
    mass: 1
    drive: {Tc: 0.3}
tool: {xyz: [0.1, 0, 0.2], rpy: [90, 0, 0]}
payload: {mass: 2.5, com: [0, 0, 0.05], inertia: {xx: 0.01, yy: 0.01, zz: 0.01}}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    parse_robot_file(text, "arm.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DriveKeys, AreRead) {
  const RobotFile robot = parse_robot_file(kArm, "arm.yaml");
  ASSERT_EQ(robot.drives.size(), 2u);
  EXPECT_DOUBLE_EQ(robot.drives[0].G, -50);
  EXPECT_DOUBLE_EQ(robot.drives[0].Tc_neg, -0.2);
  EXPECT_DOUBLE_EQ(robot.drives[1].Tc_pos, 0.3);
  EXPECT_DOUBLE_EQ(robot.drives[1].Tc_neg, -0.3);
  EXPECT_DOUBLE_EQ(robot.drives[1].G, 1);
  EXPECT_DOUBLE_EQ(robot.model.joint(0).rotor_inertia, 2500 * 1e-4);
  EXPECT_DOUBLE_EQ(robot.model.joint(0).coulomb_neg, -50 * 0.2);
  EXPECT_DOUBLE_EQ(robot.payload.mass, 2.5);
  EXPECT_DOUBLE_EQ(robot.model.joint(1).M.mass, 3.5);
  // rpy [90, 0, 0]: a quarter turn about x; y of the tool frame is z of the link frame.
  EXPECT_NEAR(robot.tool.R(2, 1), 1, 1e-15);
  EXPECT_NEAR(robot.tool.p.z(), 0.2, 1e-15);
}

TEST(DriveKeys, BadValuesNameFileKeyAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replaced(kArm, "Jm: 1.0e-4", "Jm: -1"), "arm.yaml: links[0].drive.Jm: must be >= 0"},
      {replaced(kArm, "G: -50", "G: 0"), "arm.yaml: links[0].drive.G: must not be 0"},
      {replaced(kArm, "B: 1.0e-3", "B: -1"), "arm.yaml: links[0].drive.B: must be >= 0"},
      {replaced(kArm, "Tc: [0.1, -0.2]", "Tc: [-0.1, -0.2]"), "links[0].drive.Tc[0]: must be >= 0"},
      {replaced(kArm, "Tc: [0.1, -0.2]", "Tc: [0.1, 0.2]"), "links[0].drive.Tc[1]: must be <= 0"},
      {replaced(kArm, "Tc: [0.1, -0.2]", "Tc: [0.1]"), "links[0].drive.Tc: expected 2 numbers"},
      {replaced(kArm, "Tc: 0.3", "Tc: -0.3"), "links[1].drive.Tc: must be >= 0"},
      {replaced(kArm, "Tc: 0.3", "Tc: x"), "links[1].drive.Tc: expected a number"},
      {replaced(kArm, "Tc: 0.3", "Tm: 0.3"), "links[1].drive.Tm: unknown key"},
      {replaced(kArm, "drive: {Tc: 0.3}", "drive: 3"), "links[1].drive: expected a map"},
      {replaced(kArm, "rpy: [90, 0, 0]", "rpy: [90, 0]"), "tool.rpy: expected 3 numbers"},
      {replaced(kArm, "xyz: [0.1", "xyz: [abc"), "tool.xyz[0]: expected a number"},
      {replaced(kArm, "{xyz", "{xzy: [0, 0, 0], xyz"), "tool.xzy: unknown key"},
      {replaced(kArm, "mass: 2.5", "mass: 0"), "payload.mass: must be positive"},
      {replaced(kArm, "mass: 2.5, ", ""), "payload.mass: missing"},
      {replaced(kArm, "com: [0, 0, 0.05]", "com: [0, 0]"), "payload.com: expected 3 numbers"},
      {replaced(kArm, "xx: 0.01, yy: 0.01, zz: 0.01", "xx: 0.01, yy: 0.01, zz: 0.05"),
       "payload.inertia: principal moments"},
      {replaced(kArm, "payload: {", "payload: {colour: red, "), "payload.colour: unknown key"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(expected), std::string::npos) << message << "\nexpected: " << expected;
    EXPECT_NE(message.find("line "), std::string::npos) << message;
  }
}

}  // namespace drives_test
