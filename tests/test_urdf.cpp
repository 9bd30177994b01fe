// URDF input (spec §8): a URDF with fixed joints (on and off the chain), tilted and unnormalised
// axes, rpy joint origins and rpy inertial frames gives the same dynamics as a model built by
// hand from the same data along another route; and every error names the joint or link.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/urdf.hpp"
#include "dynamics_compare.hpp"

namespace {

using denoc::Mat3;
using denoc::Transform;
using denoc::Vec3;

// base_link -[fixed]- pedestal -[j1 revolute z]- l1 (+ cover by a fixed joint off the path)
// -[j2 prismatic, tilted axis]- l2 -[j3 continuous, -y]- l3 (no inertial) -[fixed]- l3b
// -[j4 revolute, axis (1 1 0) unnormalised]- l4 -[fixed]- tool0 (a mass)
const char* const kUrdf = R"(<?xml version="1.0"?>
<robot name="tilted">
  <link name="base_link"/>
  <joint name="mount" type="fixed">
    <parent link="base_link"/><child link="pedestal"/>
    <origin xyz="0.1 -0.2 0.3" rpy="0.1 0.2 0.3"/>
  </joint>
  <link name="pedestal">
    <inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j1" type="revolute">
    <parent link="pedestal"/><child link="l1"/>
    <origin xyz="0 0 0.4" rpy="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <link name="l1">
    <inertial>
      <origin xyz="0.02 0.03 0.1" rpy="0.3 -0.2 0.1"/><mass value="3"/>
      <inertia ixx="0.05" iyy="0.06" izz="0.04" ixy="0.005" ixz="-0.003" iyz="0.002"/>
    </inertial>
  </link>
  <joint name="cover_mount" type="fixed">
    <parent link="l1"/><child link="cover"/><origin xyz="0.05 0 0.2" rpy="0.5 0.1 -0.3"/>
  </joint>
  <link name="cover">
    <inertial>
      <origin xyz="0.01 -0.02 0.03" rpy="-0.7 0.4 1.1"/><mass value="0.7"/>
      <inertia ixx="0.003" iyy="0.002" izz="0.004" ixy="0.0001" ixz="0" iyz="-0.0002"/>
    </inertial>
  </link>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0.05 0.3" rpy="-0.4 0.3 0.2"/><axis xyz="0.3 -0.5 0.8"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
  <link name="l2">
    <inertial>
      <origin xyz="-0.03 0.01 0.15" rpy="1.2 0.3 -0.6"/><mass value="2"/>
      <inertia ixx="0.02" iyy="0.025" izz="0.01" ixy="-0.001" ixz="0.002" iyz="0.0005"/>
    </inertial>
  </link>
  <joint name="j3" type="continuous">
    <parent link="l2"/><child link="l3"/>
    <origin xyz="0 0.2 0.1" rpy="0.9 0 -0.2"/><axis xyz="0 -1 0"/>
    <dynamics damping="0.5" friction="0.25"/>
  </joint>
  <link name="l3"/>
  <joint name="l3_fixed" type="fixed">
    <parent link="l3"/><child link="l3b"/><origin xyz="0.3 0 0" rpy="0 1.5707963267948966 0"/>
  </joint>
  <link name="l3b">
    <inertial>
      <origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="1.5"/>
      <inertia ixx="0.01" iyy="0.012" izz="0.005" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <joint name="j4" type="revolute">
    <parent link="l3b"/><child link="l4"/>
    <origin xyz="0.05 0.05 0.2" rpy="0.2 -0.1 0.4"/><axis xyz="1 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <link name="l4">
    <inertial>
      <origin xyz="0.1 0 0" rpy="0.5 0.5 0.5"/><mass value="0.8"/>
      <inertia ixx="0.002" iyy="0.003" izz="0.0025" ixy="0.0002" ixz="0.0001" iyz="0"/>
    </inertial>
  </link>
  <joint name="flange" type="fixed">
    <parent link="l4"/><child link="tool0"/><origin xyz="0.2 0 0" rpy="0 0.3 0"/>
  </joint>
  <link name="tool0">
    <inertial>
      <origin xyz="0 0 0.05" rpy="0.1 0.2 0.3"/><mass value="0.4"/>
      <inertia ixx="0.0004" iyy="0.0004" izz="0.0002" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
</robot>
)";

Mat3<double> rpy(double r, double p, double y) {  // URDF: Rz(y) Ry(p) Rx(r)
  return (Eigen::AngleAxisd(y, Vec3<double>::UnitZ()) *
          Eigen::AngleAxisd(p, Vec3<double>::UnitY()) * Eigen::AngleAxisd(r, Vec3<double>::UnitX()))
      .toRotationMatrix();
}

Transform<double> pose(double x, double y, double z, double r, double p, double yaw) {
  return {rpy(r, p, yaw), Vec3<double>(x, y, z)};
}

Transform<double> inverse(const Transform<double>& t) {
  return {t.R.transpose(), -(t.R.transpose() * t.p)};
}

// A frame whose z axis is `axis`: the shortest rotation from e_z (another choice of x than the
// loader's, which the dynamics must not see).
Transform<double> z_to(const Vec3<double>& axis) {
  return {Eigen::Quaterniond::FromTwoVectors(Vec3<double>::UnitZ(), axis.normalized())
              .toRotationMatrix(),
          Vec3<double>::Zero()};
}

// Bodies summed through their mass, first moment and inertia about the frame origin, then
// moved to the common mass centre (the loader pairs bodies about their common centre instead).
struct Accumulator {
  double m = 0;
  Vec3<double> h = Vec3<double>::Zero();
  Mat3<double> I_origin = Mat3<double>::Zero();
  void add(const Transform<double>& frame, double mass, const Transform<double>& inertial,
           const Mat3<double>& I) {
    const Transform<double> at = frame * inertial;
    const Vec3<double> c = at.p;
    m += mass;
    h += mass * c;
    I_origin += at.R * I * at.R.transpose() +
                mass * (c.squaredNorm() * Mat3<double>::Identity() - c * c.transpose());
  }
  denoc::LinkSpec<double> spec(denoc::JointType type, const Transform<double>& placement) const {
    denoc::LinkSpec<double> s;
    s.type = type;
    s.placement = placement;
    s.mass = m;
    s.com = h / m;
    s.inertia =
        I_origin - m * (s.com.squaredNorm() * Mat3<double>::Identity() - s.com * s.com.transpose());
    return s;
  }
};

Mat3<double> inertia(double xx, double yy, double zz, double xy, double xz, double yz) {
  Mat3<double> I;
  I << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return I;
}

denoc::Model<double> hand_built() {
  using denoc::JointType;
  std::vector<denoc::LinkSpec<double>> links;
  // Joint 1: J1 = mount * j1 origin (axis z already).
  const Transform<double> J1 = pose(0.1, -0.2, 0.3, 0.1, 0.2, 0.3) * pose(0, 0, 0.4, 0, 0, 0.5);
  Accumulator b1;  // l1 and cover, in J1 = l1's frame
  b1.add(Transform<double>(), 3, pose(0.02, 0.03, 0.1, 0.3, -0.2, 0.1),
         inertia(0.05, 0.06, 0.04, 0.005, -0.003, 0.002));
  b1.add(pose(0.05, 0, 0.2, 0.5, 0.1, -0.3), 0.7, pose(0.01, -0.02, 0.03, -0.7, 0.4, 1.1),
         inertia(0.003, 0.002, 0.004, 0.0001, 0, -0.0002));
  links.push_back(b1.spec(JointType::revolute, J1));
  // Joint 2: J2 = j2 origin * z_to(axis), seen from l1's frame (= J1).
  const Transform<double> Z2 = z_to(Vec3<double>(0.3, -0.5, 0.8));
  Accumulator b2;  // l2, in J2: l2's frame is J2 * Z2^-1
  b2.add(inverse(Z2), 2, pose(-0.03, 0.01, 0.15, 1.2, 0.3, -0.6),
         inertia(0.02, 0.025, 0.01, -0.001, 0.002, 0.0005));
  links.push_back(b2.spec(JointType::prismatic, pose(0.1, 0.05, 0.3, -0.4, 0.3, 0.2) * Z2));
  // Joint 3: axis -y.
  const Transform<double> Z3 = z_to(Vec3<double>(0, -1, 0));
  Accumulator b3;  // l3 (massless) and l3b
  b3.add(inverse(Z3) * pose(0.3, 0, 0, 0, M_PI / 2, 0), 1.5, pose(0, 0, 0.1, 0, 0, 0),
         inertia(0.01, 0.012, 0.005, 0, 0, 0));
  links.push_back(b3.spec(JointType::revolute, inverse(Z2) * pose(0, 0.2, 0.1, 0.9, 0, -0.2) * Z3));
  // Joint 4: from l3b, which sits at Z3^-1 * l3_fixed in J3.
  const Transform<double> Z4 = z_to(Vec3<double>(1, 1, 0));
  Accumulator b4;  // l4 and tool0
  b4.add(inverse(Z4), 0.8, pose(0.1, 0, 0, 0.5, 0.5, 0.5),
         inertia(0.002, 0.003, 0.0025, 0.0002, 0.0001, 0));
  b4.add(inverse(Z4) * pose(0.2, 0, 0, 0, 0.3, 0), 0.4, pose(0, 0, 0.05, 0.1, 0.2, 0.3),
         inertia(0.0004, 0.0004, 0.0002, 0, 0, 0));
  links.push_back(b4.spec(JointType::revolute, inverse(Z3) * pose(0.3, 0, 0, 0, M_PI / 2, 0) *
                                                   pose(0.05, 0.05, 0.2, 0.2, -0.1, 0.4) * Z4));
  return denoc::Model<double>(links);
}

std::string error_of(const std::string& text, const denoc::ChainSelection& chain = {}) {
  try {
    denoc::parse_urdf(text, "arm.urdf", chain);
  } catch (const denoc::InputError& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Urdf, SameDynamicsAsTheHandBuiltChain) {
  const denoc::RobotFile robot = denoc::parse_urdf(kUrdf, "tilted.urdf");
  ASSERT_EQ(robot.dof(), 4);
  EXPECT_EQ(robot.format, "urdf");
  EXPECT_EQ(robot.joint_names, (std::vector<std::string>{"j1", "j2", "j3", "j4"}));
  EXPECT_EQ(robot.link_names, (std::vector<std::string>{"l1", "l2", "l3", "l4"}));
  EXPECT_EQ(robot.model.joint(1).type, denoc::JointType::prismatic);
  EXPECT_TRUE(robot.warnings.empty());
  const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(robot.model, hand_built());
  EXPECT_LT(d.torques, 1e-12);
  EXPECT_LT(d.mass_matrix, 1e-12);
  std::cout << "URDF vs hand-built: torques " << d.torques << ", mass matrix " << d.mass_matrix
            << " (largest relative differences)\n";
  // <dynamics damping friction> kept per chain joint for the drive block (spec §8).
  ASSERT_EQ(robot.urdf_joint_dynamics.size(), 4u);
  EXPECT_EQ(robot.urdf_joint_dynamics[2].damping, 0.5);
  EXPECT_EQ(robot.urdf_joint_dynamics[2].friction, 0.25);
  EXPECT_EQ(robot.urdf_joint_dynamics[0].damping, 0.0);
  // ... as the drive's B and Tc with G = 1 (spec §8), in the model ...
  EXPECT_EQ(robot.model.joint(2).viscous, 0.5);
  EXPECT_EQ(robot.model.joint(2).coulomb_pos, 0.25);
  EXPECT_EQ(robot.model.joint(2).coulomb_neg, -0.25);
  EXPECT_EQ(robot.model.joint(0).viscous, 0.0);
  EXPECT_FALSE(robot.model.has_rotors());
  // ... and written as a drive block when the chain is exported to a robot YAML.
  std::ostringstream yaml;
  denoc::write_robot_yaml(yaml, robot, denoc::DhConvention::modified);
  EXPECT_NE(yaml.str().find("    drive: {Jm: 0, G: 1, B: 0.5, Tc: [0.25, -0.25]}"),
            std::string::npos)
      << yaml.str();
}

TEST(Urdf, BaseAndTipChooseTheChain) {
  // From l1 to l3b: joints j2 and j3; j4 leaves the chain through a moving joint.
  const denoc::RobotFile part = denoc::parse_urdf(kUrdf, "tilted.urdf", {"l1", "l3b"});
  ASSERT_EQ(part.dof(), 2);
  EXPECT_EQ(part.joint_names, (std::vector<std::string>{"j2", "j3"}));
  ASSERT_EQ(part.warnings.size(), 1u);
  EXPECT_NE(part.warnings[0].find("j4"), std::string::npos) << part.warnings[0];
  // Same as the hand-built chain's middle joints with a base at l1.
  const denoc::Model<double> hand = hand_built();
  std::vector<denoc::LinkSpec<double>> links(hand.links().begin() + 1, hand.links().begin() + 3);
  const denoc::RobotFile whole = denoc::parse_urdf(kUrdf, "tilted.urdf");
  const denoc_test::DynamicsDifference d =
      denoc_test::compare_dynamics(part.model, denoc::Model<double>(links));
  EXPECT_LT(d.torques, 1e-12);
  EXPECT_LT(d.mass_matrix, 1e-12);
  // But gravity now acts along l1's -z, which is where the base frame is: compare with the
  // gravity-free dynamics only if the two bases differ. Here both are l1's frame.
  (void)whole;
}

TEST(Urdf, BranchesOffTheChainAreLeftOutWithOneWarning) {
  const std::string branched =
      replaced(kUrdf, "</robot>", R"(<joint name="side_arm" type="revolute">
    <parent link="l1"/><child link="side"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="side"><inertial><mass value="9"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="gripper" type="prismatic">
    <parent link="tool0"/><child link="finger"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="finger"/>
</robot>)");
  EXPECT_NE(error_of(branched).find("leaves that end chains (finger, side)"), std::string::npos)
      << error_of(branched);
  const denoc::RobotFile robot = denoc::parse_urdf(branched, "b.urdf", {"", "tool0"});
  ASSERT_EQ(robot.warnings.size(), 1u);
  EXPECT_NE(robot.warnings[0].find("side_arm, gripper"), std::string::npos) << robot.warnings[0];
  const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(robot.model, hand_built());
  EXPECT_LT(d.torques, 1e-12);
}

TEST(Urdf, ErrorsNameTheJointOrLink) {
  auto expect = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << "message: '" << message << "'";
  };
  expect(error_of(replaced(kUrdf, R"(name="j2" type="prismatic")", R"(name="j2" type="floating")")),
         "joint 'j2': floating");
  expect(error_of(replaced(kUrdf, R"(name="j1" type="revolute")", R"(name="j1" type="planar")")),
         "joint 'j1': planar");
  expect(error_of(replaced(kUrdf, R"(<axis xyz="0 -1 0"/>)",
                           R"(<axis xyz="0 -1 0"/><mimic joint="j1" multiplier="2"/>)")),
         "joint 'j3': mimic");
  expect(error_of(replaced(kUrdf, R"(<mass value="2"/>)", R"(<mass value="-2"/>)")),
         "link 'l2': inertial/mass");
  expect(error_of(replaced(kUrdf, R"(ixx="0.01" iyy="0.012" izz="0.005")",
                           R"(ixx="0.01" iyy="0.012" izz="0.05")")),
         "link 'l3b': inertial/inertia: principal moments");
  expect(error_of(kUrdf, {"", "nowhere"}), "--tip nowhere: no link");
  expect(error_of(kUrdf, {"l2", "l1"}), "--tip l1 is not below --base l2");
  expect(error_of(kUrdf, {"l3", "l3b"}), "no revolute, continuous or prismatic joint");
  expect(error_of("<robot name='x'><link name='a'/><joint name='j' type='revolute'>"),
         "arm.urdf: not a valid URDF");
}

// --inertia-checks warn (spec §10; a URDF has no inertia_checks key): an inertia that breaks the
// triangle inequality is refused by default and let in with one warning naming the link when
// asked, and the apps are told to check M at every state; the rest of the chain is unchanged.
// Negative masses stay errors.
TEST(Urdf, InertiaChecksWarnLetsInPublishedSets) {
  const std::string bad = replaced(kUrdf, R"(ixx="0.01" iyy="0.012" izz="0.005")",
                                   R"(ixx="0.01" iyy="0.012" izz="0.05")");
  EXPECT_NE(error_of(bad).find("violate the triangle inequality"), std::string::npos);
  denoc::ChainSelection warn;
  warn.inertia_checks_warn = true;
  const denoc::RobotFile robot = denoc::parse_urdf(bad, "bad.urdf", warn);
  ASSERT_EQ(robot.warnings.size(), 1u);
  EXPECT_NE(robot.warnings[0].find("bad.urdf: accepted by --inertia-checks warn, no rigid body "
                                   "has link 'l3b': inertial/inertia: principal moments"),
            std::string::npos)
      << robot.warnings[0];
  EXPECT_TRUE(robot.check_positive_definite);
  const denoc::RobotFile good = denoc::parse_urdf(kUrdf, "good.urdf", warn);
  EXPECT_TRUE(good.warnings.empty());
  EXPECT_FALSE(good.check_positive_definite);
  // Only link l3b's body differs: the joints before it carry the same inertia.
  EXPECT_EQ(robot.model.dof(), good.model.dof());
  EXPECT_NE(error_of(replaced(kUrdf, R"(<mass value="2"/>)", R"(<mass value="-2"/>)"), warn)
                .find("link 'l2': inertial/mass"),
            std::string::npos);
}

}  // namespace

namespace {

// --set on a URDF (spec §9): the chain's numbers changed as the paths of a robot file name them,
// giving the same model as the same change made to the loaded chain by hand; bad keys and values
// are InputError naming the key.
TEST(Urdf, OverridesReachTheChain) {
  const denoc::RobotFile robot = denoc::parse_urdf(kUrdf, "tilted.urdf");
  denoc::RobotFile changed = robot;
  denoc::apply_overrides(changed, {{"links[1].mass", "3.25"},
                                   {"links[2].com[0]", "0.125"},
                                   {"links[3].inertia.xy", "0.001"},
                                   {"links[0].drive.Jm", "2e-4"},
                                   {"links[0].drive.G", "50"},
                                   {"gravity[1]", "-1.5"}});
  std::vector<denoc::LinkSpec<double>> links = robot.model.links();
  links[1].mass = 3.25;
  links[2].com[0] = 0.125;
  links[3].inertia(0, 1) = links[3].inertia(1, 0) = 0.001;
  links[0].drive.Jm = 2e-4;
  links[0].drive.G = 50;
  denoc::Vec3<double> gravity = robot.model.gravity();
  gravity[1] = -1.5;
  const denoc::Model<double> by_hand(links, gravity);
  const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(changed.model, by_hand);
  EXPECT_EQ(d.torques, 0.0);
  EXPECT_EQ(d.mass_matrix, 0.0);
  EXPECT_EQ(changed.model.rotor_inertia()[0], 50 * 50 * 2e-4);
  const denoc_test::DynamicsDifference unchanged =
      denoc_test::compare_dynamics(changed.model, robot.model);
  EXPECT_GT(unchanged.mass_matrix, 1e-3);

  for (const auto& [key, value, expected] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"links[9].mass", "1", "--set links[9].mass"},
           {"links[1].colour", "1", "--set links[1].colour"},
           {"links[1].mass", "-1", "must not be negative"},
           {"links[1].inertia.xx", "-5", "--set links[1].inertia.xx"},
           {"links[1].drive.G", "0", "--set links[1].drive.G"},
           {"links[1].mass", "heavy", "not a number"}}) {
    denoc::RobotFile bad = robot;
    try {
      denoc::apply_overrides(bad, {{key, value}});
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const denoc::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("tilted.urdf"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
