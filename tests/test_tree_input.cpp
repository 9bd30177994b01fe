// Trees as input (docs/robot-file.md "Trees", docs/urdf.md): a robot YAML with `parent:` and
// Khalil-Kleinfinger's gamma and epsilon, a URDF read whole, --describe, --set and --export on
// trees. The references are independent of the tree code: chains read by the chain readers
// (an arm of a two-arm tree alone; a URDF chain cut by --tip with its branches locked) and
// TreeReference (tests/support/random_trees.hpp) for the joint forces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/io/describe.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/io/urdf.hpp"
#include "support/cli_support.hpp"
#include "support/fixtures.hpp"
#include "support/random_trees.hpp"

namespace tree_input_test {

using denoc::InputError;
using denoc::Model;
using denoc::RobotFile;
using denoc::Transform;
using denoc::Vec3;
using denoc::VecX;

const std::string kTwoArms = denoc_test::fixture_text("two_arms.yaml");
const std::string kTorsoUrdf = denoc_test::fixture_text("torso_two_arms.urdf");

VecX<double> torques(const Model<double>& model, const VecX<double>& q, const VecX<double>& qd,
                     const VecX<double>& qdd) {
  denoc::Workspace<double> ws(model);
  return denoc::inverse_dynamics(model, ws, q, qd, qdd);
}

double relative(const VecX<double>& a, const VecX<double>& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

// The text with its first `find` replaced (a fixture edited for one case).
std::string edited(std::string text, const std::string& find, const std::string& replace) {
  const std::size_t at = text.find(find);
  if (at == std::string::npos) throw std::runtime_error("fixture has no '" + find + "'");
  return text.replace(at, find.size(), replace);
}

// The YAML of links[from..to) of the two-arm file as a chain of its own: the header, those links
// (the first one's `parent: base` dropped), no tool, payload or trajectory.
std::string arm_alone(std::size_t from, std::size_t to, bool with_payload) {
  const std::size_t links = kTwoArms.find("links:\n");
  std::vector<std::size_t> starts;
  for (std::size_t at = kTwoArms.find("  - name:", links); at != std::string::npos;
       at = kTwoArms.find("  - name:", at + 1))
    starts.push_back(at);
  const std::size_t end = kTwoArms.find("\ntool:");
  starts.push_back(end + 1);
  std::string text =
      kTwoArms.substr(0, links + 7) + kTwoArms.substr(starts[from], starts[to] - starts[from]);
  const std::size_t parent = text.find("    parent: base\n");
  if (parent != std::string::npos) text.erase(parent, 17);
  if (with_payload) text += kTwoArms.substr(end + 1, kTwoArms.find("\ninitial:") - end);
  return text;
}

// Each arm of the two-arm tree has the joint forces of that arm alone, read as a chain file: the
// arms share no moving body (the base is fixed), and the right arm's shoulder, placed from the
// base by gamma and epsilon, is the same row in both files.
TEST(TreeInput, YamlTwoArmsEqualEachArmAlone) {
  const RobotFile tree = denoc::parse_robot_file(kTwoArms, "two_arms.yaml");
  ASSERT_EQ(tree.dof(), 5);
  EXPECT_FALSE(tree.model.is_chain());
  EXPECT_EQ(tree.model.parents(), (std::vector<int>{-1, 0, 1, -1, 3}));
  const RobotFile left = denoc::parse_robot_file(arm_alone(0, 3, false), "left.yaml");
  const RobotFile right = denoc::parse_robot_file(arm_alone(3, 5, true), "right.yaml");
  ASSERT_EQ(left.dof(), 3);
  ASSERT_EQ(right.dof(), 2);
  std::mt19937 rng(25);
  std::uniform_real_distribution<double> u(-2, 2);
  double worst = 0;
  for (int s = 0; s < 20; ++s) {
    VecX<double> q(5), qd(5), qdd(5);
    for (int i = 0; i < 5; ++i) {
      q[i] = u(rng);
      qd[i] = u(rng);
      qdd[i] = u(rng);
    }
    const VecX<double> tau = torques(tree.model, q, qd, qdd);
    worst = std::max(
        worst, relative(tau.head(3), torques(left.model, q.head(3), qd.head(3), qdd.head(3))));
    worst = std::max(
        worst, relative(tau.tail(2), torques(right.model, q.tail(2), qd.tail(2), qdd.tail(2))));
  }
  EXPECT_LT(worst, 1e-12);
  std::cout << "two-arm YAML tree against each arm alone: worst relative difference " << worst
            << '\n';
}

// gamma and epsilon place a row from its parent's frame by Rz(gamma) Tz(epsilon) first: the
// same row without them, with that turn and shift put before it, is the same placement; and a
// child of the base is placed from the base frame, not from the link listed before it.
TEST(TreeInput, GammaEpsilonTurnAndShiftAlongTheParentZ) {
  const RobotFile tree = denoc::parse_robot_file(kTwoArms, "two_arms.yaml");
  const RobotFile plain = denoc::parse_robot_file(
      edited(edited(kTwoArms, "    gamma: 180\n", ""), "    epsilon: 0.2\n", ""), "plain.yaml");
  const Transform<double> kk = Transform<double>::rot_z(M_PI) * Transform<double>::trans_z(0.2);
  const Transform<double> expected = kk * plain.model.links()[3].placement;
  const Transform<double>& placed = tree.model.links()[3].placement;
  EXPECT_LT((placed.R - expected.R).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((placed.p - expected.p).cwiseAbs().maxCoeff(), 1e-15);
  // alpha 30, a 0.4, theta -20, b 0.1 (revolute: b goes into Post): J_4's origin is at
  // Rz(180) (Tz(0.2) Tx(0.4)) = (-0.4, 0, 0.2) in the base frame.
  EXPECT_LT((placed.p - Vec3<double>(-0.4, 0, 0.2)).cwiseAbs().maxCoeff(), 1e-15);
  // The other rows do not move.
  for (std::size_t i : {0, 1, 2, 4}) {
    EXPECT_EQ(tree.model.links()[i].placement.p, plain.model.links()[i].placement.p) << i;
  }
}

// The errors name the key and the line.
TEST(TreeInput, BadParentsAreRefusedNamingTheKey) {
  auto message = [](const std::string& text) {
    try {
      denoc::parse_robot_file(text, "t.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message(edited(kTwoArms, "    parent: base\n", "    parent: nobody\n")),
            "t.yaml: links[3].parent: no link is named 'nobody' (a parent is base or a link's "
            "name) (line 35)");
  // A cycle: left shoulder's parent is left slide, below it.
  EXPECT_NE(message(edited(kTwoArms, "  - name: left shoulder\n",
                           "  - name: left shoulder\n    parent: left slide\n"))
                .find("t.yaml: links[0].parent: a cycle: 'left slide' is this link or below it "
                      "(line 12)"),
            std::string::npos);
  EXPECT_NE(message(edited(kTwoArms, "  - name: left shoulder\n",
                           "  - name: left shoulder\n    parent: left shoulder\n"))
                .find("links[0].parent: a cycle"),
            std::string::npos);
  // A parent listed later that does not lead back: not depth-first.
  EXPECT_NE(message(edited(kTwoArms, "  - name: left elbow\n",
                           "  - name: left elbow\n    parent: right elbow\n"))
                .find("links[1].parent: 'right elbow' is listed after this link"),
            std::string::npos);
  // An earlier link that is not on the path to the link before: a subtree split.
  EXPECT_NE(message(edited(kTwoArms, "    alpha: 90\n    a: 0.25\n",
                           "    parent: left elbow\n    alpha: 90\n    a: 0.25\n"))
                .find("links[4].parent: 'left elbow' is neither the link before nor one of its "
                      "parents"),
            std::string::npos);
  // A tree in standard DH, and gamma or epsilon in standard DH.
  EXPECT_NE(message(edited(edited(edited(kTwoArms, "dh: modified", "dh: standard"),
                                  "    gamma: 180\n", ""),
                           "    epsilon: 0.2\n", ""))
                .find("links[3].parent: a parent other than the link before needs dh: modified"),
            std::string::npos);
  EXPECT_NE(message(edited(kTwoArms, "dh: modified", "dh: standard"))
                .find("links[3].gamma: the Khalil-Kleinfinger gamma and epsilon need dh: modified "
                      "(line 37)"),
            std::string::npos);
  EXPECT_NE(message(edited(kTwoArms, "  - name: left shoulder\n",
                           "  - name: left shoulder\n    parent: right elbow\n    epsilon: x\n"))
                .find("links[0].epsilon: expected a number"),
            std::string::npos);
  // Two links of the same name: a parent cannot name them.
  EXPECT_NE(message(edited(edited(kTwoArms, "name: left elbow", "name: left slide"),
                           "    parent: base\n", "    parent: left slide\n"))
                .find("'left slide' names 2 links"),
            std::string::npos);
}

// --set reaches the tree's keys: parent (a name), gamma and epsilon (added to a link).
TEST(TreeInput, OverridesReachParentGammaEpsilon) {
  const std::vector<denoc::Override> set{denoc::parse_override("links[3].parent=left slide"),
                                         denoc::parse_override("links[3].gamma=90"),
                                         denoc::parse_override("links[1].epsilon=0.05")};
  const RobotFile robot = denoc::parse_robot_file(kTwoArms, "t.yaml", set);
  EXPECT_EQ(robot.model.parents(), (std::vector<int>{-1, 0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(robot.dh[3].gamma, M_PI / 2);
  EXPECT_DOUBLE_EQ(robot.dh[1].epsilon, 0.05);
  try {
    denoc::parse_robot_file(kTwoArms, "t.yaml", {denoc::parse_override("links[3].parent=x")});
    ADD_FAILURE() << "accepted an unknown parent";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.yaml: links[3].parent: no link is named 'x' (a parent is base or a link's name)");
  }
}

// The URDF tree read whole: the joints numbered depth-first, a link's children in the byte order
// of their joints' names (not the file's order), the head's subtree placed by its fixed joint's
// name m_mount; the mimic joint free with one warning line; the tool frame the last joint's link.
TEST(TreeInput, UrdfTreeIsReadWholeInJointNameOrder) {
  const RobotFile robot = denoc::parse_urdf(kTorsoUrdf, "torso.urdf");
  ASSERT_EQ(robot.dof(), 6);
  EXPECT_EQ(robot.joint_names, (std::vector<std::string>{"torso", "a_left_shoulder", "l_slide",
                                                         "m_neck", "z_right_shoulder", "r_elbow"}));
  EXPECT_EQ(robot.link_names, (std::vector<std::string>{"torso_link", "l_upper", "l_fore", "head",
                                                        "r_upper", "r_fore"}));
  EXPECT_EQ(robot.model.parents(), (std::vector<int>{-1, 0, 1, 0, 0, 4}));
  EXPECT_EQ(robot.model.links()[2].type, denoc::JointType::prismatic);
  EXPECT_EQ(robot.tip_link, "r_fore");
  ASSERT_EQ(robot.warnings.size(), 1u);
  EXPECT_NE(robot.warnings[0].find("mimic joint(s) read as independent joints"), std::string::npos);
  EXPECT_NE(robot.warnings[0].find("m_neck (mimics torso)"), std::string::npos);
  // Bodies merged through fixed joints: l_fore + l_tip, torso_link + head_mount; the base plate
  // is carried by the base.
  EXPECT_DOUBLE_EQ(robot.model.links()[2].mass, 1.0);
  EXPECT_DOUBLE_EQ(robot.model.links()[0].mass, 8.5);
  // r_elbow's <dynamics> are its drive.
  EXPECT_DOUBLE_EQ(robot.model.links()[5].drive.B, 0.3);
  // With --tip, the chain as before.
  const RobotFile chain = denoc::parse_urdf(kTorsoUrdf, "torso.urdf", {"", "r_fore"});
  EXPECT_TRUE(chain.model.is_chain());
  EXPECT_EQ(chain.joint_names, (std::vector<std::string>{"torso", "z_right_shoulder", "r_elbow"}));
}

// Each branch of the URDF tree, with the other branches' joints at rest at 0, has the joint
// forces of the chain cut by --tip (which carries those branches locked at 0 as rigid parts):
// placements, axes and merged bodies read by the tree code against the chain code.
TEST(TreeInput, UrdfTreeBranchesEqualTheChainsCutByTip) {
  const RobotFile tree = denoc::parse_urdf(kTorsoUrdf, "torso.urdf");
  const std::vector<std::pair<std::string, std::vector<int>>> tips{
      {"l_tip", {0, 1, 2}}, {"head", {0, 3}}, {"r_fore", {0, 4, 5}}};
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  double worst = 0;
  for (const auto& [tip, joints] : tips) {
    const RobotFile chain = denoc::parse_urdf(kTorsoUrdf, "torso.urdf", {"", tip});
    const int m = static_cast<int>(joints.size());
    ASSERT_EQ(chain.dof(), m) << tip;
    for (int s = 0; s < 10; ++s) {
      VecX<double> q = VecX<double>::Zero(6), qd = q, qdd = q, cq(m), cqd(m), cqdd(m);
      for (int k = 0; k < m; ++k) {
        cq[k] = q[joints[k]] = u(rng);
        cqd[k] = qd[joints[k]] = u(rng);
        cqdd[k] = qdd[joints[k]] = u(rng);
      }
      const VecX<double> tau = torques(tree.model, q, qd, qdd);
      VecX<double> branch(m);
      for (int k = 0; k < m; ++k)
        branch[k] = tau[joints[k]];
      worst = std::max(worst, relative(branch, torques(chain.model, cq, cqd, cqdd)));
    }
  }
  EXPECT_LT(worst, 1e-12);
  std::cout << "URDF tree branches against the --tip chains: worst relative difference " << worst
            << '\n';
}

// The tree's joint forces against TreeReference's Newton-Euler through J^T, on the URDF tree.
TEST(TreeInput, UrdfTreeTorquesAgainstTheReference) {
  const RobotFile tree = denoc::parse_urdf(kTorsoUrdf, "torso.urdf");
  denoc_test::TreeGenerator gen(3);
  double worst = 0;
  for (int s = 0; s < 10; ++s) {
    const VecX<double> q = gen.vector(6, 2), qd = gen.vector(6, 2), qdd = gen.vector(6, 2);
    const denoc_test::TreeReference reference(tree.model, q, qd);
    const VecX<double> tau = torques(tree.model, q, qd, qdd);  // friction is added apart
    worst = std::max(worst, relative(tau, reference.torques(qd, qdd)));
  }
  EXPECT_LT(worst, 1e-12);
}

// --set on a URDF tree reaches its bodies as on a chain, and keeps the tree.
TEST(TreeInput, UrdfOverridesKeepTheTree) {
  RobotFile robot = denoc::parse_urdf(kTorsoUrdf, "torso.urdf");
  denoc::apply_overrides(robot, {denoc::parse_override("links[3].mass=4")});
  EXPECT_EQ(robot.model.parents(), (std::vector<int>{-1, 0, 1, 0, 0, 4}));
  EXPECT_EQ(robot.model.links()[3].mass, 4);
}

// --describe lists each joint's number, name and parent for a tree (and no parent column for a
// chain); the DH table has the parents, gamma and epsilon.
TEST(TreeInput, DescribeShowsParents) {
  std::ostringstream out;
  denoc::describe_robot(out, denoc::parse_urdf(kTorsoUrdf, "torso.urdf"));
  const std::string text = out.str();
  EXPECT_NE(text.find("tree, joints numbered depth-first from the base"), std::string::npos);
  for (const char* row : {"  1   torso -> torso_link", "  4   m_neck -> head", "1 torso",
                          "5 z_right_shoulder", "0 base"}) {
    EXPECT_NE(text.find(row), std::string::npos) << row << "\n" << text;
  }
  // The head, placed from the torso through the fixed m_mount (turned 0.2 rad about z): its axis
  // x turned by 0.2 rad, through (0, 0, 0.1 + 0.5 + 0.1), mass centre 0.08 above.
  EXPECT_NE(text.find("revolute   [0.980067, 0.198669, 0]        [0, 0, 0.7]                    2 "
                      "         [0, 0, 0.78]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Khalil-Kleinfinger"), std::string::npos) << text;
  std::ostringstream yaml_out;
  denoc::describe_robot(yaml_out, denoc::parse_robot_file(kTwoArms, "two_arms.yaml"));
  EXPECT_NE(yaml_out.str().find("0 base"), std::string::npos) << yaml_out.str();
  EXPECT_NE(yaml_out.str().find("gamma"), std::string::npos) << yaml_out.str();
  std::ostringstream chain_out;
  denoc::describe_robot(chain_out,
                        denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml"));
  EXPECT_EQ(chain_out.str().find("parent"), std::string::npos);
  EXPECT_NE(chain_out.str().find("chain, base to tip"), std::string::npos);
}

// Largest relative difference of the joint forces of two models at random states.
double torque_difference(const Model<double>& a, const Model<double>& b) {
  if (a.dof() != b.dof() || a.parents() != b.parents()) return 1e300;
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-2, 2);
  double worst = 0;
  const int n = a.dof();
  for (int s = 0; s < 20; ++s) {
    VecX<double> q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      q[i] = u(rng);
      qd[i] = u(rng);
      qdd[i] = u(rng);
    }
    worst = std::max(worst, relative(torques(b, q, qd, qdd), torques(a, q, qd, qdd)));
  }
  return worst;
}

// --export of a tree: YAML in modified DH with parent, gamma, epsilon, and URDF with each joint's
// parent link; both read back to the same tree and joint forces (random trees too).
TEST(TreeInput, ExportRoundTrips) {
  std::vector<RobotFile> robots{
      denoc::parse_robot_file(kTwoArms, "two_arms.yaml"),
      denoc::parse_urdf(kTorsoUrdf, "torso.urdf"),
      denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/solo12.urdf"),
      denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/baxter.urdf")};
  denoc_test::TreeGenerator gen(11);
  for (int k = 0; k < 6; ++k) {
    RobotFile r;
    r.path = "random.yaml";
    r.model = Model<double>(gen.tree({1 + k % 4, 1 + k, 30}));  // URDF has no other gravity
    robots.push_back(r);
  }
  double worst = 0;
  for (const RobotFile& robot : robots) {
    SCOPED_TRACE(robot.path + " n=" + std::to_string(robot.dof()));
    std::ostringstream yaml;
    denoc::write_robot_yaml(yaml, robot, denoc::DhConvention::modified);
    const RobotFile back = denoc::parse_robot_file(yaml.str(), "exported.yaml");
    EXPECT_EQ(back.model.parents(), robot.model.parents());
    const double dy = torque_difference(robot.model, back.model);
    EXPECT_LT(dy, 1e-12) << yaml.str();
    worst = std::max(worst, dy);
    if (robot.model.has_rotors())
      continue;  // URDF holds no rotor inertia (docs/robot-file.md, "Export")
    std::ostringstream urdf;
    std::vector<std::string> notes;
    denoc::write_urdf(urdf, robot, notes);
    const RobotFile from_urdf = denoc::parse_urdf(urdf.str(), "exported.urdf");
    const double du = torque_difference(robot.model, from_urdf.model);
    EXPECT_LT(du, 1e-12) << urdf.str();
    worst = std::max(worst, du);
  }
  std::cout << "tree export and back: worst relative difference " << worst << '\n';
  std::ostringstream ignored;
  EXPECT_THROW(denoc::write_robot_yaml(ignored, robots[0], denoc::DhConvention::standard),
               InputError);
}

// The shipped trees (docs/robot-file.md): Solo 12, a quadruped of 12 joints, Baxter, a dual
// arm of 19, and the simple humanoid of 29, all from example-robot-data; each loads strict with
// its parents, and its joint forces agree with TreeReference's Newton-Euler through J^T.
TEST(TreeInput, ShippedTreesLoadWithTheirParents) {
  struct Shipped {
    const char* file;
    int joints;
    std::vector<int> roots;  // the joints whose parent is the base
    std::size_t warnings;
  };
  for (const Shipped& s :
       {Shipped{"solo12.urdf", 12, {0, 3, 6, 9}, 0}, Shipped{"baxter.urdf", 19, {0, 1, 10}, 1},
        Shipped{"simple_humanoid.urdf", 29, {0, 6, 12}, 0}}) {
    SCOPED_TRACE(s.file);
    const RobotFile robot = denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/" + s.file);
    ASSERT_EQ(robot.dof(), s.joints);
    EXPECT_FALSE(robot.model.is_chain());
    std::vector<int> roots;
    for (int i = 0; i < robot.dof(); ++i) {
      if (robot.model.parent(i) < 0) roots.push_back(i);
    }
    EXPECT_EQ(roots, s.roots);
    EXPECT_EQ(robot.warnings.size(), s.warnings);
    EXPECT_FALSE(robot.check_positive_definite);
    denoc_test::TreeGenerator gen(21);
    double worst = 0;
    for (int k = 0; k < 5; ++k) {
      const VecX<double> q = gen.positions(robot.model), qd = gen.vector(s.joints, 2),
                         qdd = gen.vector(s.joints, 2);
      const denoc_test::TreeReference reference(robot.model, q, qd);
      VecX<double> tau = torques(robot.model, q, qd, qdd);
      worst = std::max(worst, relative(tau, reference.torques(qd, qdd)));
    }
    EXPECT_LT(worst, 1e-12);
    std::cout << s.file << ": joint forces against the reference, worst relative " << worst << '\n';
    std::ostringstream out;
    denoc::describe_robot(out, robot);
    EXPECT_NE(out.str().find("tree, joints numbered depth-first"), std::string::npos);
  }
}

// ridim on the shipped trees and the two-arm file, end to end: torques along a trajectory, one
// column per joint, and --describe with each joint's parent; the tree errors are exit 2 naming
// the key (more in tests/bad_inputs/robot_file.tsv).
class TreeInputCli : public cli::CliTest {
 protected:
  cli::Result ridim(const std::string& args) { return run(DENOC_RIDIM_EXE, args); }
};

TEST_F(TreeInputCli, RidimRunsOnTheShippedTrees) {
  for (const auto& [file, n] : std::vector<std::pair<std::string, int>>{
           {"solo12.urdf", 12}, {"baxter.urdf", 19}, {"simple_humanoid.urdf", 29}}) {
    SCOPED_TRACE(file);
    const std::string robot = std::string("'") + DENOC_ROBOTS_DIR + "/" + file + "'";
    std::string csv = "t";
    for (const char* name : {"q", "qd", "qdd"}) {
      for (int i = 1; i <= n; ++i)
        csv += "," + std::string(name) + std::to_string(i);
    }
    csv += "\n";
    for (int row = 0; row < 3; ++row) {
      csv += std::to_string(0.1 * row);
      for (int k = 0; k < 3 * n; ++k)
        csv += "," + std::to_string(0.1 * ((k * 7 + row * 3) % 11) - 0.5);
      csv += "\n";
    }
    write("traj.csv", csv);
    const cli::Result r = ridim(robot + " traj.csv");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> lines = cli::lines_of(r.out);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(cli::fields_of(lines[0]).size(), static_cast<std::size_t>(n + 1)) << lines[0];
    const cli::Result d = ridim(robot + " --describe");
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_NE(d.out.find("tree, joints numbered depth-first"), std::string::npos);
    EXPECT_NE(d.out.find("0 base"), std::string::npos);
  }
  const cli::Result two =
      ridim(std::string("'") + DENOC_TEST_FIXTURES + "/two_arms.yaml' --describe");
  ASSERT_EQ(two.status, 0) << two.err;
  EXPECT_NE(two.out.find("4 right shoulder"), std::string::npos) << two.out;
  const cli::Result bad = ridim(std::string("'") + DENOC_TEST_FIXTURES +
                                "/two_arms.yaml' --describe --set links[3].parent=nobody");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("links[3].parent: no link is named 'nobody'"), std::string::npos)
      << bad.err;
}

}  // namespace tree_input_test
