// The robot library (robots/): numbers checked against what their sources print, the same arm as
// YAML and as URDF agreeing, and every shipped arm carried to the other DH convention and to
// URDF and back with the same dynamics.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "denoc/io/export.hpp"
#include "denoc/io/urdf.hpp"
#include "support/dynamics_compare.hpp"

namespace {

const std::string kRobots = DENOC_ROBOTS_DIR;

// Corke's toolbox prints p560.gravload(qn) = [0 31.6399 6.0351 0 0.0283 0] for
// qn = [0 pi/4 pi 0 pi/4 0]: an independent check of the typed-in Puma 560 (4 decimals).
TEST(Robots, Puma560GravityMatchesTheToolbox) {
  const denoc::RobotFile puma = denoc::load_robot_file(kRobots + "/puma560.yaml");
  denoc::Workspace<double> ws(puma.model);
  denoc::VecX<double> qn(6);
  qn << 0, M_PI / 4, M_PI, 0, M_PI / 4, 0;
  const denoc::VecX<double> g = denoc::gravity_forces(puma.model, ws, qn);
  const double expected[6] = {0, 31.6399, 6.0351, 0, 0.0283, 0};
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(g[i], expected[i], 5e-5) << i;
  // Two links accepted by inertia_checks: warn (links[0] and links[2]), one line each.
  ASSERT_EQ(puma.warnings.size(), 2u);
  EXPECT_NE(puma.warnings[0].find("links[0].mass: 0"), std::string::npos);
  EXPECT_NE(puma.warnings[1].find("links[2].inertia"), std::string::npos);
  const denoc::RobotFile akb = denoc::load_robot_file(kRobots + "/puma560_akb.yaml");
  EXPECT_EQ(akb.warnings.size(), 1u);
}

TEST(Robots, PandaYamlAndUrdfGiveTheSameDynamics) {
  const denoc::RobotFile yaml = denoc::load_robot_file(kRobots + "/panda.yaml");
  const denoc::RobotFile urdf = denoc::load_robot_file(kRobots + "/panda.urdf");
  EXPECT_EQ(urdf.joint_names.back(), "panda_joint7");
  const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(yaml.model, urdf.model);
  EXPECT_LT(d.torques, 1e-12);
  EXPECT_LT(d.mass_matrix, 1e-12);
  std::cout << "panda.yaml vs panda.urdf: torques " << d.torques << ", M " << d.mass_matrix << '\n';
}

// Every shipped arm, as loaded, written in both DH conventions and as URDF and read back.
TEST(Robots, EveryArmConvertsWithTheSameDynamics) {
  double worst_dh = 0, worst_urdf = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRobots)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    const denoc::RobotFile robot = denoc::load_robot_file(path);
    if (!robot.model.is_chain())
      continue;  // the trees: tests/test_tree_input.cpp (ExportRoundTrips)
    for (denoc::DhConvention c : {denoc::DhConvention::standard, denoc::DhConvention::modified}) {
      std::ostringstream yaml;
      denoc::write_robot_yaml(yaml, robot, c);
      const denoc::RobotFile back = denoc::parse_robot_file(yaml.str(), "exported.yaml");
      const denoc_test::DynamicsDifference d =
          denoc_test::compare_dynamics(robot.model, back.model);
      EXPECT_LT(d.torques, 1e-12);
      EXPECT_LT(d.mass_matrix, 1e-12);
      worst_dh = std::max({worst_dh, d.torques, d.mass_matrix});
    }
    if (robot.check_positive_definite) continue;  // the URDF reader checks inertias strictly
    // URDF holds no rotor inertia, and a payload comes back merged into the last body.
    if (robot.model.has_rotors() || robot.model.payload().mass > 0) continue;
    std::ostringstream urdf;
    std::vector<std::string> notes;
    denoc::write_urdf(urdf, robot, notes);
    const denoc::RobotFile back = denoc::parse_urdf(urdf.str(), "exported.urdf");
    // URDF has no gravity (planar3's is along -y; the export says so): compare under the
    // URDF's [0, 0, -9.81].
    const denoc_test::DynamicsDifference d =
        denoc_test::compare_dynamics(denoc::Model<double>(robot.model.links()), back.model);
    EXPECT_LT(d.torques, 1e-12);
    EXPECT_LT(d.mass_matrix, 1e-12);
    worst_urdf = std::max({worst_urdf, d.torques, d.mass_matrix});
  }
  std::cout << "shipped arms -> DH (both) -> back: " << worst_dh
            << "; -> URDF -> back: " << worst_urdf << " (largest relative differences)\n";
}

}  // namespace
