// URDF input (docs/urdf.md): a URDF with fixed joints (on and off the chain), tilted and
// unnormalised axes, rpy joint origins and rpy inertial frames gives the same dynamics as a model
// built by hand from the same data along another route; and every error names the joint or link.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/wording.hpp"
#include "denoc/io/describe.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/urdf.hpp"
#include "denoc/model/kinematics.hpp"
#include "support/dynamics_compare.hpp"
#include "support/fixtures.hpp"

namespace urdf_test {

using denoc::Mat3;
using denoc::Transform;
using denoc::Vec3;

// base_link -[fixed]- pedestal -[j1 revolute z]- l1 (+ cover by a fixed joint off the path)
// -[j2 prismatic, tilted axis]- l2 -[j3 continuous, -y]- l3 (no inertial) -[fixed]- l3b
// -[j4 revolute, axis (1 1 0) unnormalised]- l4 -[fixed]- tool0 (a mass)
const std::string kUrdf = denoc_test::fixture_text("tilted.urdf");

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
    return e.worded(denoc::command_line_words);
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
  // <dynamics damping friction> kept per chain joint for the drive block (docs/urdf.md).
  ASSERT_EQ(robot.urdf_joint_dynamics.size(), 4u);
  EXPECT_EQ(robot.urdf_joint_dynamics[2].damping, 0.5);
  EXPECT_EQ(robot.urdf_joint_dynamics[2].friction, 0.25);
  EXPECT_EQ(robot.urdf_joint_dynamics[0].damping, 0.0);
  // ... as the drive's B and Tc with G = 1 (docs/urdf.md), in the model ...
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
  // From l1 to l3b: joints j2 and j3; j4 leaves the chain through a moving joint, so l4 and
  // tool0 are carried by l3b's body with j4 locked at 0 (docs/urdf.md).
  const denoc::RobotFile part = denoc::parse_urdf(kUrdf, "tilted.urdf", {"l1", "l3b"});
  ASSERT_EQ(part.dof(), 2);
  EXPECT_EQ(part.joint_names, (std::vector<std::string>{"j2", "j3"}));
  ASSERT_EQ(part.warnings.size(), 1u);
  EXPECT_NE(part.warnings[0].find(": j4 at 0"), std::string::npos) << part.warnings[0];
  // The hand-built chain's middle joints with a base at l1 (gravity along l1's -z, where the
  // base frame now is), the third body holding l3b, l4 and tool0 as at q4 = 0.
  const denoc::Model<double> hand = hand_built();
  std::vector<denoc::LinkSpec<double>> links(hand.links().begin() + 1, hand.links().begin() + 3);
  for (denoc::LinkSpec<double>& link : links)  // the model's resolved parents, renumbered
    link.parent = denoc::LinkSpec<double>::kPrevious;
  const Transform<double> l3b =
      inverse(z_to(Vec3<double>(0, -1, 0))) * pose(0.3, 0, 0, 0, M_PI / 2, 0);
  const Transform<double> l4 = l3b * pose(0.05, 0.05, 0.2, 0.2, -0.1, 0.4);
  Accumulator b3;
  b3.add(l3b, 1.5, pose(0, 0, 0.1, 0, 0, 0), inertia(0.01, 0.012, 0.005, 0, 0, 0));
  b3.add(l4, 0.8, pose(0.1, 0, 0, 0.5, 0.5, 0.5), inertia(0.002, 0.003, 0.0025, 0.0002, 0.0001, 0));
  b3.add(l4 * pose(0.2, 0, 0, 0, 0.3, 0), 0.4, pose(0, 0, 0.05, 0.1, 0.2, 0.3),
         inertia(0.0004, 0.0004, 0.0002, 0, 0, 0));
  links[1] = b3.spec(denoc::JointType::revolute, links[1].placement);
  const denoc_test::DynamicsDifference d =
      denoc_test::compare_dynamics(part.model, denoc::Model<double>(links));
  EXPECT_LT(d.torques, 1e-12);
  EXPECT_LT(d.mass_matrix, 1e-12);
  // The tip's frame is the tool frame: l3b's frame in J3.
  EXPECT_LT((part.model.tool().p - l3b.p).norm(), 1e-15);
  EXPECT_LT((part.model.tool().R - l3b.R).cwiseAbs().maxCoeff(), 1e-15);
}

// The body of `link` with one more rigid body on it, at `frame` in its joint frame.
denoc::LinkSpec<double> carrying(const denoc::LinkSpec<double>& link,
                                 const Transform<double>& frame, double mass,
                                 const Transform<double>& inertial, const Mat3<double>& I) {
  Accumulator sum;
  sum.add(Transform<double>(), link.mass, {Mat3<double>::Identity(), link.com}, link.inertia);
  sum.add(frame, mass, inertial, I);
  return sum.spec(link.type, link.placement);
}

// docs/urdf.md: a branch that leaves the chain through a moving joint is carried as a rigid part of
// the body it hangs from, its joints locked at 0 (or at the nearest limit when 0 is outside
// them), with one warning line naming the joints; its mass is not dropped.
TEST(Urdf, BranchesOffTheChainAreCarriedLockedWithOneWarning) {
  const std::string branched =
      replaced(kUrdf, "</robot>", R"(<joint name="side_arm" type="revolute">
    <parent link="l1"/><child link="side"/><axis xyz="1 0 0"/>
    <limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
  <link name="side"><inertial><origin xyz="0 0.2 0.1"/><mass value="9"/>
    <inertia ixx="1" iyy="2" izz="2.5" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="gripper" type="prismatic">
    <parent link="tool0"/><child link="finger"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="finger"/>
</robot>)");
  // Without --tip the tree is read whole (docs/urdf.md): j1, then l1's children by their joints'
  // names (j2 before side_arm), the gripper after j4.
  const denoc::RobotFile whole = denoc::parse_urdf(branched, "b.urdf");
  EXPECT_EQ(whole.joint_names,
            (std::vector<std::string>{"j1", "j2", "j3", "j4", "gripper", "side_arm"}));
  EXPECT_EQ(whole.model.parents(), (std::vector<int>{-1, 0, 1, 2, 3, 0}));
  const Mat3<double> side_inertia = inertia(1, 2, 2.5, 0, 0, 0);
  for (const auto& [limits, q] : std::vector<std::pair<std::string, double>>{
           {R"(lower="-1.5" upper="1.5")", 0.0}, {R"(lower="0.5" upper="1.5")", 0.5}}) {
    const std::string text = replaced(branched, R"(lower="-1.5" upper="1.5")", limits);
    const denoc::RobotFile robot = denoc::parse_urdf(text, "b.urdf", {"", "tool0"});
    ASSERT_EQ(robot.warnings.size(), 1u);
    const std::string side = "side_arm at " + std::string(q == 0 ? "0" : "0.5");
    EXPECT_NE(robot.warnings[0].find(": " + side + ", gripper at 0"), std::string::npos)
        << robot.warnings[0];
    // The side arm's 9 kg on body 1 (its frame is l1's turned by q about x), the massless
    // finger on body 4.
    std::vector<denoc::LinkSpec<double>> links = hand_built().links();
    links[0] =
        carrying(links[0], pose(0, 0, 0, q, 0, 0), 9, pose(0, 0.2, 0.1, 0, 0, 0), side_inertia);
    const denoc_test::DynamicsDifference d =
        denoc_test::compare_dynamics(robot.model, denoc::Model<double>(links));
    EXPECT_LT(d.torques, 1e-12) << q;
    EXPECT_LT(d.mass_matrix, 1e-12) << q;
  }
}

TEST(Urdf, ErrorsNameTheJointOrLink) {
  auto expect = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << "message: '" << message << "'";
  };
  expect(error_of(replaced(kUrdf, R"(name="j2" type="prismatic")", R"(name="j2" type="floating")")),
         "joint 'j2': floating");
  expect(error_of(replaced(kUrdf, R"(name="j1" type="revolute")", R"(name="j1" type="planar")")),
         "joint 'j1': planar");
  expect(error_of(replaced(kUrdf, R"(<mass value="2"/>)", R"(<mass value="-2"/>)")),
         "link 'l2': inertial/mass");
  expect(error_of(replaced(kUrdf, R"(ixx="0.01" iyy="0.012" izz="0.005")",
                           R"(ixx="0.01" iyy="0.012" izz="0.05")")),
         "link 'l3b': inertial/inertia: principal moments");
  // <dynamics> are the drive's B and Tc, checked as a robot YAML's drive is.
  expect(error_of(replaced(kUrdf, R"(damping="0.5")", R"(damping="-0.5")")),
         "arm.urdf: joint 'j3': dynamics/damping: must be >= 0 (N m s/rad), found -0.5");
  expect(error_of(replaced(kUrdf, R"(friction="0.25")", R"(friction="-0.25")")),
         "joint 'j3': dynamics/friction: must be >= 0 (N m), found -0.25");
  expect(error_of(kUrdf, {"", "nowhere"}), "--tip nowhere: no link");
  expect(error_of(kUrdf, {"l2", "l1"}), "--tip l1 is not below --base l2");
  expect(error_of(kUrdf, {"l3", "l3b"}), "no revolute, continuous or prismatic joint");
  expect(error_of("<robot name='x'><link name='a'/><joint name='j' type='revolute'>"),
         "arm.urdf:1: not valid XML");
  expect(
      error_of("<robot name='x'>\n<link name='a'/>\n<joint name='j' type='revolute'/>\n</robot>"),
      "arm.urdf: not a valid URDF");
}

// --inertia-checks warn (docs/robot-file.md; a URDF has no inertia_checks key): an inertia that
// breaks the triangle inequality is refused by default and let in with one warning naming the link
// when asked, and the apps are told to check M at every state; the rest of the chain is unchanged.
// Negative masses stay errors.
TEST(Urdf, InertiaChecksWarnLetsInPublishedSets) {
  const std::string bad = replaced(kUrdf, R"(ixx="0.01" iyy="0.012" izz="0.005")",
                                   R"(ixx="0.01" iyy="0.012" izz="0.05")");
  EXPECT_NE(error_of(bad).find("violate the triangle inequality"), std::string::npos);
  denoc::ChainSelection warn;
  warn.inertia_checks_warn = true;
  const denoc::RobotFile robot = denoc::parse_urdf(bad, "bad.urdf", warn);
  ASSERT_EQ(robot.warnings.size(), 1u);
  const std::string warning = denoc::worded(robot.warnings[0], denoc::command_line_words);
  EXPECT_NE(warning.find("bad.urdf: accepted by --inertia-checks warn, no rigid body "
                         "has link 'l3b': inertial/inertia: principal moments"),
            std::string::npos)
      << warning;
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

// --set on a URDF (docs/urdf.md): the chain's numbers changed as the paths of a robot file name
// them, giving the same model as the same change made to the loaded chain by hand; bad keys and
// values are InputError naming the key.
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
           {"links[1].mass", "-1", "links[1].mass: must be positive"},
           {"links[1].inertia.xx", "-5", "links[1].inertia: not positive semi-definite"},
           {"links[1].drive.G", "0", "links[1].drive.G: must not be 0"},
           {"links[1].mass", "heavy", "expected a number"}}) {
    denoc::RobotFile bad = robot;
    try {
      denoc::apply_overrides(bad, {{key, value}});
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const denoc::InputError& e) {
      const std::string message = e.worded(denoc::command_line_words);
      EXPECT_NE(message.find(expected), std::string::npos) << message;
      EXPECT_NE(std::string(e.what()).find("tilted.urdf"), std::string::npos) << e.what();
    }
  }
}

std::string fixture(const std::string& name) {
  return std::string(DENOC_URDF_FIXTURES) + "/" + name;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One joint of a URDF as written: its origin, its axis (unit), prismatic or not.
struct UrdfJoint {
  Transform<double> origin;
  Vec3<double> axis;
  bool prismatic = false;
};

// Forward kinematics straight from the URDF's numbers: the tip link's frame in the base frame
// (the moving joints, then the fixed transforms after them), and the geometric Jacobian of its
// origin from the joint axes in the base frame (rows [v; omega]).
struct Kinematics {
  Transform<double> tip;
  Eigen::Matrix<double, 6, Eigen::Dynamic> J;
};

Kinematics urdf_kinematics(const std::vector<UrdfJoint>& joints,
                           const std::vector<Transform<double>>& fixed_after,
                           const denoc::VecX<double>& q) {
  Transform<double> at;
  std::vector<Vec3<double>> axes, points;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    at = at * joints[i].origin;
    axes.push_back(at.R * joints[i].axis);
    points.push_back(at.p);
    const double qi = q[static_cast<Eigen::Index>(i)];
    Transform<double> motion;
    if (joints[i].prismatic) {
      motion.p = qi * joints[i].axis;
    } else {
      motion.R = Eigen::AngleAxisd(qi, joints[i].axis).toRotationMatrix();
    }
    at = at * motion;
  }
  for (const Transform<double>& f : fixed_after)
    at = at * f;
  Kinematics k{at, Eigen::Matrix<double, 6, Eigen::Dynamic>(6, joints.size())};
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const auto c = static_cast<Eigen::Index>(i);
    if (joints[i].prismatic) {
      k.J.col(c) << axes[i], Vec3<double>::Zero();
    } else {
      k.J.col(c) << axes[i].cross(at.p - points[i]), axes[i];
    }
  }
  return k;
}

// The largest difference of the model's tool pose and Jacobian from the URDF's tip frame and
// its Jacobian, over random states.
double tool_frame_error(const denoc::Model<double>& model, const std::vector<UrdfJoint>& joints,
                        const std::vector<Transform<double>>& fixed_after) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  denoc::Workspace<double> ws(model);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    denoc::VecX<double> q(model.dof());
    for (Eigen::Index i = 0; i < q.size(); ++i)
      q[i] = u(rng);
    const Kinematics expected = urdf_kinematics(joints, fixed_after, q);
    const Transform<double> got = denoc::tool_pose(model, ws, q);
    worst = std::max({worst, (got.p - expected.tip.p).cwiseAbs().maxCoeff(),
                      (got.R - expected.tip.R).cwiseAbs().maxCoeff()});
    worst =
        std::max(worst, (denoc::tool_jacobian(model, ws, q) - expected.J).cwiseAbs().maxCoeff());
  }
  return worst;
}

const double kHalfPi = M_PI / 2;

// The UR5-like fixture: a `base` leaf on a fixed joint off the base link, and `flange` and
// `tool0` on fixed joints after the last moving joint.
const std::vector<UrdfJoint> kUr5Joints{{pose(0, 0, 0.089159, 0, 0, 0), Vec3<double>::UnitZ()},
                                        {pose(0, 0.13585, 0, 0, kHalfPi, 0), Vec3<double>::UnitY()},
                                        {pose(0, -0.1197, 0.425, 0, 0, 0), Vec3<double>::UnitY()},
                                        {pose(0, 0, 0.39225, 0, kHalfPi, 0), Vec3<double>::UnitY()},
                                        {pose(0, 0.093, 0, 0, 0, 0), Vec3<double>::UnitZ()},
                                        {pose(0, 0, 0.09465, 0, 0, 0), Vec3<double>::UnitY()}};
const Transform<double> kUr5Flange = pose(0, 0.0823, 0, 0, 0, kHalfPi);
const Transform<double> kUr5Tool0 = pose(0.02, 0, 0, kHalfPi, 0, kHalfPi);

// docs/urdf.md, the tip: leaves reached through no moving joint (the UR5's `base`) are carried by
// the base; the one leaf left is the default tip even behind fixed joints, and its frame is the
// tool frame of pose and jacobian.
TEST(UrdfTip, DefaultTipIsTheOnlyLeafBeyondTheLastMovingJoint) {
  const denoc::RobotFile robot = denoc::load_robot_file(fixture("ur5_like.urdf"));
  ASSERT_EQ(robot.dof(), 6);
  EXPECT_EQ(robot.tip_link, "tool0");
  EXPECT_TRUE(robot.warnings.empty());
  const denoc::RobotFile tool0 =
      denoc::load_robot_file(fixture("ur5_like.urdf"), {}, {"", "tool0"});
  const denoc_test::DynamicsDifference same =
      denoc_test::compare_dynamics(robot.model, tool0.model);
  EXPECT_EQ(same.torques, 0.0);
  EXPECT_EQ(same.mass_matrix, 0.0);
  const double error = tool_frame_error(robot.model, kUr5Joints, {kUr5Flange, kUr5Tool0});
  EXPECT_LT(error, 1e-12);
  // With --tip flange, the flange's frame; with --tip wrist_3_link, the last link's own frame.
  const denoc::RobotFile flange =
      denoc::load_robot_file(fixture("ur5_like.urdf"), {}, {"", "flange"});
  EXPECT_LT(tool_frame_error(flange.model, kUr5Joints, {kUr5Flange}), 1e-12);
  const denoc::RobotFile wrist =
      denoc::load_robot_file(fixture("ur5_like.urdf"), {}, {"", "wrist_3_link"});
  EXPECT_LT(tool_frame_error(wrist.model, kUr5Joints, {}), 1e-12);
  std::cout << "UR5-like: default tip vs the URDF's fixed transforms: " << error << '\n';
}

TEST(UrdfTip, ChainEndingInAFixedFlangeHasTheFlangeAsToolFrame) {
  const denoc::RobotFile robot = denoc::load_robot_file(fixture("flange_chain.urdf"));
  ASSERT_EQ(robot.dof(), 2);
  EXPECT_EQ(robot.tip_link, "flange");
  const std::vector<UrdfJoint> joints{{pose(0, 0, 0.5, 0, 0, 0), Vec3<double>::UnitZ()},
                                      {pose(0.6, 0, 0, kHalfPi, 0, 0), Vec3<double>::UnitZ()}};
  EXPECT_LT(tool_frame_error(robot.model, joints, {pose(1.8, 0, 0.1, 0, kHalfPi, 0.3)}), 1e-12);
}

TEST(UrdfTip, MessagesNameTheUrdfLeaves) {
  auto message = [](const std::string& text) {
    try {
      denoc::parse_urdf(text, "arm.urdf");
    } catch (const denoc::InputError& e) {
      return e.worded(denoc::command_line_words);
    }
    return std::string();
  };
  // A leaf on a moving joint off l1 (leaf_two), and the arm's end: a tree that branches, read
  // whole without --tip (docs/urdf.md), its tool frame the last joint's link.
  const std::string two = replaced(kUrdf, "</robot>", R"(<joint name="side_arm" type="revolute">
    <parent link="l1"/><child link="side"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="side"/>
  <joint name="to_leaf" type="fixed"><parent link="side"/><child link="leaf_two"/></joint>
  <link name="leaf_two"/>
</robot>)");
  EXPECT_EQ(message(two), "");
  EXPECT_EQ(denoc::parse_urdf(two, "arm.urdf").tip_link, "side");
  // Two leaves behind the last moving joint (a flange and a tool0 side by side): either could
  // be the tool frame, so neither is taken, but the moving joints form one chain, read as such.
  const std::string siblings = replaced(kUrdf, "</robot>", R"(<joint name="l4_camera" type="fixed">
    <parent link="l4"/><child link="camera"/><origin xyz="0 0.1 0"/></joint>
  <link name="camera"/>
</robot>)");
  EXPECT_EQ(message(siblings), "");
  const denoc::RobotFile ends = denoc::parse_urdf(siblings, "arm.urdf");
  EXPECT_TRUE(ends.model.is_chain());
  EXPECT_EQ(ends.chain_ends, (std::vector<std::string>{"tool0", "camera"}));
  EXPECT_EQ(ends.tip_link, "");
  EXPECT_FALSE(ends.has_tool_frame());
  // A sensor fixed half-way along the chain ends no chain: tool0 stays the tip.
  const std::string sensor = replaced(kUrdf, "</robot>", R"(<joint name="l2_camera" type="fixed">
    <parent link="l2"/><child link="camera"/><origin xyz="0 0.1 0"/></joint>
  <link name="camera"/>
</robot>)");
  EXPECT_EQ(denoc::parse_urdf(sensor, "arm.urdf").tip_link, "tool0");
}

// The Panda with its hand (docs/urdf.md): with --tip panda_hand the two fingers are carried, locked
// at 0, as a rigid payload would be; computed here from the fixture's numbers and put on
// robots/panda.urdf (which ends at panda_link8) as a payload at the flange.
TEST(UrdfBranches, PandaFingersAreCarriedAsARigidPayload) {
  const denoc::RobotFile arm =
      denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/panda.urdf");
  ASSERT_EQ(arm.tip_link, "panda_link8");
  auto payload_of = [](double left_q, bool fingers) {
    const Transform<double> hand = pose(0, 0, 0, 0, 0, -M_PI / 4);
    const Transform<double> finger_root = hand * pose(0, 0, 0.0584, 0, 0, 0);
    Accumulator sum;
    sum.add(hand, 0.73, pose(-0.01, 0, 0.03, 0, 0, 0), inertia(0.001, 0.0025, 0.0017, 0, 0, 0));
    if (fingers) {
      const Mat3<double> I = inertia(2.375e-6, 2.375e-6, 7.5e-7, 0, 0, 0);
      sum.add(finger_root * pose(0, left_q, 0, 0, 0, 0), 0.015, pose(0, 0.01, 0.02, 0, 0, 0), I);
      sum.add(finger_root, 0.015, pose(0, -0.01, 0.02, 0, 0, 0), I);
    }
    const denoc::LinkSpec<double> body = sum.spec(denoc::JointType::revolute, Transform<double>());
    return denoc::Payload<double>{body.mass, body.com, body.inertia};
  };
  const std::string text = text_of(fixture("panda_hand.urdf"));
  for (const auto& [lower, q] :
       std::vector<std::pair<std::string, double>>{{"0.0", 0.0}, {"0.01", 0.01}}) {
    const std::string limited = replaced(text, R"(<limit lower="0.0" upper="0.04")",
                                         "<limit lower=\"" + lower + "\" upper=\"0.04\"");
    const denoc::RobotFile robot =
        denoc::parse_urdf(limited, "panda_hand.urdf", {"", "panda_hand"});
    ASSERT_EQ(robot.dof(), 7);
    ASSERT_EQ(robot.warnings.size(), 1u);
    EXPECT_NE(robot.warnings[0].find(": panda_finger_joint1 at " + std::string(q ? "0.01" : "0") +
                                     ", panda_finger_joint2 at 0"),
              std::string::npos)
        << robot.warnings[0];
    const denoc::Model<double> expected(arm.model.links(), arm.model.gravity(), arm.model.tool(),
                                        payload_of(q, true));
    const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(robot.model, expected);
    EXPECT_LT(d.torques, 1e-12) << lower;
    EXPECT_LT(d.mass_matrix, 1e-12) << lower;
    if (q == 0) {  // what dropping the fingers would have cost
      const denoc::Model<double> without(arm.model.links(), arm.model.gravity(), arm.model.tool(),
                                         payload_of(0, false));
      const denoc_test::DynamicsDifference dropped =
          denoc_test::compare_dynamics(robot.model, without);
      EXPECT_GT(dropped.torques, 1e-4);
      std::cout << "Panda with hand: torques without the fingers differ by " << dropped.torques
                << " relative\n";
    }
  }
}

// docs/urdf.md: a mimic joint on the chain is an independent joint, named in one warning line.
TEST(UrdfMimic, MimicJointsAreIndependentJointsWithOneWarning) {
  const std::string text = text_of(fixture("mimic_chain.urdf"));
  const denoc::RobotFile robot = denoc::parse_urdf(text, "mimic_chain.urdf");
  ASSERT_EQ(robot.dof(), 3);
  ASSERT_EQ(robot.warnings.size(), 1u);
  EXPECT_NE(robot.warnings[0].find("mimic joint(s) read as independent joints"), std::string::npos)
      << robot.warnings[0];
  EXPECT_NE(robot.warnings[0].find(": j3 (mimics j2)"), std::string::npos) << robot.warnings[0];
  const denoc::RobotFile plain = denoc::parse_urdf(
      replaced(text, R"(<mimic joint="j2" multiplier="-1" offset="0"/>)", ""), "plain.urdf");
  EXPECT_TRUE(plain.warnings.empty());
  const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(robot.model, plain.model);
  EXPECT_EQ(d.torques, 0.0);
  EXPECT_EQ(d.mass_matrix, 0.0);
}

std::string load_error(const std::string& path, const std::vector<denoc::Override>& overrides = {},
                       const denoc::ChainSelection& chain = {}) {
  try {
    denoc::load_robot_file(path, overrides, chain);
  } catch (const denoc::InputError& e) {
    return e.worded(denoc::command_line_words);
  }
  return "";
}

// A URDF is recognised by its content (first element <robot>), whatever its name; a .xacro is
// refused with what to do; malformed XML is reported at its line.
TEST(UrdfFiles, RecognisedByContentWithLinesForXmlErrors) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("denoc_urdf_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string text = text_of(fixture("ur5_like.urdf"));
  const denoc::RobotFile reference = denoc::load_robot_file(fixture("ur5_like.urdf"));
  for (const std::string name : {"arm.xml", "ARM.URDF", "arm"}) {
    std::ofstream(dir / name, std::ios::binary) << text;
    const denoc::RobotFile robot = denoc::load_robot_file((dir / name).string());
    EXPECT_EQ(robot.format, "urdf") << name;
    EXPECT_EQ(denoc_test::compare_dynamics(robot.model, reference.model).torques, 0.0) << name;
  }
  for (const std::string name : {"arm.urdf.xacro", "ARM.XACRO"}) {
    std::ofstream(dir / name, std::ios::binary) << text;
    const std::string xacro = load_error((dir / name).string());
    EXPECT_NE(xacro.find(name + ": xacro: expand it first with xacro"), std::string::npos) << xacro;
  }
  std::ofstream(dir / "world.xml", std::ios::binary)
      << "<?xml version=\"1.0\"?>\n<!-- a world -->\n<sdf version=\"1.6\"/>\n";
  const std::string sdf = load_error((dir / "world.xml").string());
  EXPECT_NE(sdf.find("world.xml: an XML file whose first element is <sdf>"), std::string::npos)
      << sdf;
  // An end tag that does not match, on line 34.
  const std::string bad = replaced(text, R"(<mass value="8.393"/>)", R"(<mass value="8.393">)");
  std::ofstream(dir / "bad.urdf", std::ios::binary) << bad;
  const std::string malformed = load_error((dir / "bad.urdf").string());
  EXPECT_NE(malformed.find("bad.urdf:34: not valid XML: Error reading end tag."), std::string::npos)
      << malformed;
  std::filesystem::remove_all(dir);
}

// --set on a URDF gives the verdicts a robot YAML gives for the same override (docs/robot-file.md:
// "the result is checked as the file is"): the same chain as a YAML (exported, with the same drive
// block on link 2) and as the URDF, strict and with inertia checks warn.
TEST(UrdfOverrides, SameVerdictsAsTheRobotYaml) {
  const denoc::RobotFile urdf = denoc::parse_urdf(kUrdf, "tilted.urdf");
  std::ostringstream exported;
  denoc::write_robot_yaml(exported, urdf, denoc::DhConvention::modified);
  const std::vector<std::pair<std::string, std::string>> cases{
      {"links[0].mass", "0"},         {"links[0].mass", "-1"},      {"links[0].mass", "2.5"},
      {"links[1].inertia.xx", "-5"},  {"links[1].inertia.zz", "1"}, {"links[1].inertia.xy", "0"},
      {"links[1].com[2]", "0.3"},     {"links[2].drive.G", "0"},    {"links[2].drive.G", "-40"},
      {"links[2].drive.Jm", "-1e-4"}, {"links[2].drive.B", "-1"},   {"links[2].drive.B", "2"},
      {"gravity[2]", "-1.6"},         {"links[9].mass", "1"},       {"links[1].inertia.ab", "1"}};
  for (const bool warn : {false, true}) {
    const std::string yaml = (warn ? "inertia_checks: warn\n" : "") + exported.str();
    for (const auto& [key, value] : cases) {
      SCOPED_TRACE(key + "=" + value + (warn ? " (warn)" : ""));
      bool yaml_accepts = true, urdf_accepts = true;
      std::string yaml_message, urdf_message;
      try {
        denoc::parse_robot_file(yaml, "tilted.yaml", {{key, value}});
      } catch (const denoc::InputError& e) {
        yaml_accepts = false;
        yaml_message = e.worded(denoc::command_line_words);
      }
      denoc::RobotFile changed = urdf;
      try {
        denoc::apply_overrides(changed, {{key, value}}, warn);
      } catch (const denoc::InputError& e) {
        urdf_accepts = false;
        urdf_message = e.worded(denoc::command_line_words);
      }
      EXPECT_EQ(urdf_accepts, yaml_accepts)
          << "YAML: " << yaml_message << "\nURDF: " << urdf_message;
      // The URDF's message names its file, and no line of a YAML file that does not exist.
      if (!urdf_accepts) {
        EXPECT_EQ(urdf_message.rfind("tilted.urdf: ", 0), 0u) << urdf_message;
        EXPECT_EQ(urdf_message.find("line"), std::string::npos) << urdf_message;
      }
    }
  }
}

// --describe shows a URDF's <dynamics> as what they are, the drive's B and Tc in the dynamics
// (docs/urdf.md), and the tool frame: the tip link's frame.
TEST(UrdfDescribe, SaysTheDynamicsAreUsedAndNamesTheToolFrame) {
  const denoc::RobotFile robot = denoc::load_robot_file(fixture("ur5_like.urdf"));
  std::ostringstream out;
  denoc::describe_robot(out, robot);
  EXPECT_EQ(out.str().find("not used"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("URDF <dynamics> per joint (damping, friction; in the dynamics as the "
                           "drive's B and Tc, G = 1): 1: 0.2 0.1,"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("tool frame: link 'tool0', the chain's tip, at [0, 0, 0.1023] m"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(robot.model.joint(0).viscous, 0.2);  // and so it is
}

std::string robots_text(const std::string& name) {
  std::ifstream in(std::string(DENOC_ROBOTS_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The pose of `frame` at q.
Transform<double> pose_at(const denoc::Model<double>& model, const denoc::BodyFrame<double>& frame,
                          const denoc::VecX<double>& q) {
  denoc::KinematicsWorkspace<double> ws(model.dof());
  return denoc::frame_pose(model, ws, frame, q);
}

// The UR5 of example-robot-data (tests/fixtures/ur5_robot.urdf): its moving joints form one chain
// whose last link carries ee_link and tool0 side by side on fixed joints. It is read as that chain
// without --tip (docs/urdf.md), with no tool frame; the dynamics are those of the chain to either
// end, and the frames of both ends, named with --frame, are those --tip makes the tool frame.
TEST(UrdfTip, OneChainWithSeveralEndsIsReadAsThatChain) {
  const std::string text = denoc_test::fixture_text("ur5_robot.urdf");
  const denoc::RobotFile robot = denoc::parse_urdf(text, "ur5_robot.urdf");
  ASSERT_TRUE(robot.model.is_chain());
  ASSERT_EQ(robot.dof(), 6);
  EXPECT_EQ(robot.chain_ends, (std::vector<std::string>{"ee_link", "tool0"}));
  EXPECT_FALSE(robot.has_tool_frame());
  EXPECT_TRUE(robot.warnings.empty());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> angle(-3, 3);
  for (const std::string end : {"ee_link", "tool0"}) {
    const denoc::RobotFile tipped = denoc::parse_urdf(text, "ur5_robot.urdf", {"", end});
    ASSERT_TRUE(tipped.has_tool_frame());
    const denoc_test::DynamicsDifference d =
        denoc_test::compare_dynamics(robot.model, tipped.model);
    EXPECT_EQ(d.torques, 0.0) << end;
    EXPECT_EQ(d.mass_matrix, 0.0) << end;
    const denoc::BodyFrame<double> frame = denoc::find_frame(robot, end);
    for (int k = 0; k < 5; ++k) {
      denoc::VecX<double> q(6);
      for (double& x : q)
        x = angle(rng);
      const Transform<double> named = pose_at(robot.model, frame, q),
                              tool = pose_at(tipped.model, tipped.model.tool_frame(), q);
      EXPECT_LT((named.p - tool.p).norm(), 1e-14) << end;
      EXPECT_LT((named.R - tool.R).norm(), 1e-14) << end;
    }
  }
  // pose, jacobian and a wrench ask for a frame, naming both ends; the rest needs none.
  try {
    denoc::frame_or_tool(robot, "", true, "the pose");
    ADD_FAILURE() << "a pose without a frame";
  } catch (const denoc::InputError& e) {
    EXPECT_EQ(e.worded(denoc::command_line_words),
              "ur5_robot.urdf: the chain ends in 2 links side by side (ee_link, tool0) and none of "
              "them is the tool frame, so the pose needs --frame (a link whose frame it refers "
              "to) or --tip");
    EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(denoc::frame_or_tool(robot, "", false, "the pose"));
  // On a floating base too.
  denoc::ChainSelection floating;
  floating.floating_base = true;
  const denoc::RobotFile free = denoc::parse_urdf(text, "ur5_robot.urdf", floating);
  EXPECT_TRUE(free.model.floating());
  EXPECT_EQ(free.chain_ends, robot.chain_ends);
}

// Every link merged into a body through fixed joints is a frame of that body: Solo 12's feet.
TEST(UrdfFrames, LinksOnFixedJointsAreFramesOfTheirBody) {
  const denoc::RobotFile solo = denoc::parse_urdf(robots_text("solo12.urdf"), "solo12.urdf");
  const denoc::BodyFrame<double> foot = denoc::find_frame(solo, "FL_FOOT"),
                                 knee = denoc::find_frame(solo, "FL_LOWER_LEG");
  EXPECT_EQ(foot.link, knee.link);
  // FL_ANKLE places the foot 0.16 m below the lower leg's frame.
  const Transform<double> between = knee.placement.inverse() * foot.placement;
  EXPECT_LT((between.p - Vec3<double>(0, 0.008, -0.16)).norm(), 1e-15) << between.p.transpose();
  EXPECT_EQ(denoc::find_frame(solo, "base_link").link, -1);
}

// A number the URDF reader takes that is not one is exit 2 naming the file, the line, the link or
// joint and the element, as urdfdom would otherwise drop the whole <inertial> without a word
// (the link then massless) or refuse the file without a line.
TEST(Urdf, MalformedNumbersNameTheFileTheLineTheLinkAndTheElement) {
  const std::string solo = robots_text("solo12.urdf");
  const denoc::RobotFile sound = denoc::parse_urdf(solo, "solo12.urdf");
  EXPECT_GT(sound.model.links()[0].mass, 0.1);
  const std::string dynamics = R"(<dynamics damping="0.0" friction="0.0" />)";
  for (const auto& [from, to, expected] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {R"(<mass value="0.14853845" />)", R"(<mass value="abc" />)",
            "solo12.urdf:65: link 'FL_SHOULDER': inertial/mass value 'abc' is not a number"},
           {R"(<mass value="0.14853845" />)", R"(<mass value="0.1485x845" />)",
            "solo12.urdf:65: link 'FL_SHOULDER': inertial/mass value '0.1485x845' is not a number"},
           {R"(xyz="-0.07870700 0.01 0.")", R"(xyz="-0.07870700 0.01 O.")",
            "solo12.urdf:64: link 'FL_SHOULDER': inertial/origin xyz '-0.07870700 0.01 O.' is not "
            "3 numbers"},
           {R"(xyz="-0.07870700 0.01 0.")", R"(xyz="-0.07870700 0.01")",
            "solo12.urdf:64: link 'FL_SHOULDER': inertial/origin xyz '-0.07870700 0.01' is not 3"},
           {R"(ixx="0.00578574")", R"(ixx="0.0057857e")",
            "solo12.urdf:51: link 'base_link': inertial/inertia ixx '0.0057857e' is not a number"},
           {R"(ixx="0.00578574")", R"(ixx="nan")",
            "solo12.urdf:51: link 'base_link': inertial/inertia ixx 'nan' is not a number"},
           {R"(xyz="0.1946 0.0875 0")", R"(xyz="0.1946 0,0875 0")",
            "solo12.urdf:57: joint 'FL_HAA': origin xyz '0.1946 0,0875 0' is not 3 numbers"},
           {R"(<axis xyz="1 0 0" />)", R"(<axis xyz="1 0 O" />)",
            "solo12.urdf:58: joint 'FL_HAA': axis xyz '1 0 O' is not 3 numbers"},
           {R"(lower="-10")", R"(lower="-1O")",
            "solo12.urdf:59: joint 'FL_HAA': limit lower '-1O' is not a number"},
           {dynamics, R"(<dynamics damping="0.0" friction="0x1" />)",
            "solo12.urdf:60: joint 'FL_HAA': dynamics friction '0x1' is not a number"}}) {
    try {
      denoc::parse_urdf(replaced(solo, from, to), "solo12.urdf");
      ADD_FAILURE() << to << " was accepted";
    } catch (const denoc::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(expected, 0), 0u) << e.what();
    }
  }
}

}  // namespace urdf_test
