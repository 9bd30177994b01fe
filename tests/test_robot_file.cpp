// Robot files (docs/robot-file.md): what is accepted, how it is converted, and that every bad entry
// is rejected with a message naming the file, the key and the line.
#include <gtest/gtest.h>

#include <cmath>

#include "denoc/denoc.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/io/yaml_document.hpp"

namespace robot_file_test {

const char* const kTwoLinks = R"(name: test arm
dh: standard
angle_unit: deg
gravity: [0, -9.81, 0]
links:
  - joint: revolute
    a: 0.5
    alpha: 90
    theta: 30
    mass: 2
    com: [-0.25, 0, 0]
    inertia: {xx: 0.01, yy: 0.04, zz: 0.04, xy: 0.001}
  - joint: prismatic
    d: 0.2
    theta: 45
    mass: 1
initial:
  q: [90, 0.3]
  qd: [180, -0.1]
trajectory:
  type: cycloidal
  duration: 2
  samples: 21
  from: [0, 0]
  to: [90, 0.5]
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

// The message of the InputError that parsing `text` raises, or "" if none.
std::string error_of(const std::string& text) {
  try {
    denoc::parse_robot_file(text, "arm.yaml");
  } catch (const denoc::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RobotFile, ReadsValuesAndConvertsToSI) {
  const denoc::RobotFile robot = denoc::parse_robot_file(kTwoLinks, "arm.yaml");
  ASSERT_EQ(robot.dof(), 2);
  EXPECT_EQ(robot.name, "test arm");
  EXPECT_DOUBLE_EQ(robot.dh[0].alpha, M_PI / 2);
  EXPECT_DOUBLE_EQ(robot.dh[0].theta, M_PI / 6);
  EXPECT_DOUBLE_EQ(robot.dh[1].b, 0.2);  // through the alias d
  EXPECT_EQ(robot.dh[1].type, denoc::JointType::prismatic);
  EXPECT_DOUBLE_EQ(robot.dh[0].inertia(0, 1), 0.001);
  EXPECT_DOUBLE_EQ(robot.dh[0].inertia(1, 0), 0.001);
  EXPECT_DOUBLE_EQ(robot.dh[1].inertia.norm(), 0.0);  // omitted entries are zero
  EXPECT_EQ(robot.model.gravity(), denoc::Vec3<double>(0, -9.81, 0));
  // Revolute entries of initial and trajectory are in angle_unit, prismatic ones in m.
  EXPECT_DOUBLE_EQ((*robot.initial_q)[0], M_PI / 2);
  EXPECT_DOUBLE_EQ((*robot.initial_q)[1], 0.3);
  EXPECT_DOUBLE_EQ((*robot.initial_qd)[0], M_PI);
  EXPECT_DOUBLE_EQ((*robot.initial_qd)[1], -0.1);
  EXPECT_DOUBLE_EQ(robot.trajectory->to[0], M_PI / 2);
  EXPECT_DOUBLE_EQ(robot.trajectory->to[1], 0.5);
  EXPECT_EQ(robot.trajectory->samples, 21);
}

TEST(RobotFile, RadiansNeedNoConversion) {
  const denoc::RobotFile robot =
      denoc::parse_robot_file(replaced(replaced(kTwoLinks, "angle_unit: deg", "angle_unit: rad"),
                                       "alpha: 90", "alpha: 1.5"),
                              "arm.yaml");
  EXPECT_DOUBLE_EQ(robot.dh[0].alpha, 1.5);
  EXPECT_DOUBLE_EQ((*robot.initial_q)[0], 90.0);
}

TEST(RobotFile, ShippedRobotsLoad) {
  const denoc::RobotFile stanford = denoc::load_robot_file(DENOC_ROBOTS_DIR "/stanford.yaml");
  EXPECT_EQ(stanford.dof(), 6);
  EXPECT_EQ(stanford.dh[2].type, denoc::JointType::prismatic);
  EXPECT_EQ(stanford.trajectory->samples, 1001);
  const denoc::RobotFile planar = denoc::load_robot_file(DENOC_ROBOTS_DIR "/planar3.yaml");
  EXPECT_EQ(planar.dof(), 3);
}

TEST(RobotFile, StanfordArmHoldsItsBoomAgainstGravity) {
  // At the start of the Section 6.2 trajectory the boom is horizontal (theta_2 = 90 deg): joint
  // 2 carries the moment of links 4-6 about its axis, joint 3 and joint 1 carry nothing.
  const denoc::RobotFile robot = denoc::load_robot_file(DENOC_ROBOTS_DIR "/stanford.yaml");
  denoc::Workspace<double> ws(robot.model);
  const denoc::VecX<double> g = denoc::gravity_forces(robot.model, ws, *robot.initial_q);
  EXPECT_NEAR(g[1], -9.81 * (1.0 * 0.5 + 0.6 * 0.6 + 0.5 * 0.6), 1e-12);
  EXPECT_NEAR(g[0], 0.0, 1e-12);
  EXPECT_NEAR(g[2], 0.0, 1e-12);
}

TEST(RobotFile, ErrorsNameTheKeyAndLine) {
  const std::pair<std::string, std::string> cases[] = {
      {replaced(kTwoLinks, "mass: 1", "mass: -1"),
       "arm.yaml: links[1].mass: must be positive (line 16)"},
      {replaced(kTwoLinks, "    mass: 2\n", ""), "arm.yaml: links[0].mass: missing"},
      {replaced(kTwoLinks, "joint: prismatic", "joint: helical"),
       "arm.yaml: links[1].joint: expected prismatic or revolute, found 'helical' (line 13)"},
      {replaced(kTwoLinks, "a: 0.5", "a: half"),
       "arm.yaml: links[0].a: expected a number, found 'half' (line 7)"},
      {replaced(kTwoLinks, "com: [-0.25, 0, 0]", "com: [-0.25, 0]"),
       "arm.yaml: links[0].com: expected 3 numbers, found 2 (line 11)"},
      {replaced(kTwoLinks, "q: [90, 0.3]", "q: [90]"), "arm.yaml: initial.q: expected 2 numbers"},
      {replaced(kTwoLinks, "gravity:", "gravty:"), "arm.yaml: gravty: unknown key"},
      {replaced(kTwoLinks, "    d: 0.2", "    d: 0.2\n    b: 0.1"),
       "arm.yaml: links[1].d: give b or its alias d, not both"},
      {replaced(kTwoLinks, "dh: standard", "dh: craig"),
       "arm.yaml: dh: expected modified or standard, found 'craig'"},
      {replaced(kTwoLinks, "xx: 0.01", "xx: 0.1"), "arm.yaml: links[0].inertia: principal moments"},
      {replaced(kTwoLinks, "samples: 21", "samples: 2.5"),
       "arm.yaml: trajectory.samples: must be a whole number of at least 2"},
      {replaced(kTwoLinks, "duration: 2", "duration: 0"),
       "arm.yaml: trajectory.duration: must be positive"},
      {replaced(kTwoLinks, "mass: 2", "mass: .nan"), "arm.yaml: links[0].mass: must be finite"},
      {replaced(kTwoLinks, "links:", "links: [\n"), "arm.yaml:"},
      {"name: nothing\n", "arm.yaml: links: missing"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(expected), std::string::npos)
        << "expected: " << expected << "\n     got: " << message;
  }
}

// `frames` (docs/robot-file.md): a frame on the last link placed as `tool` would place the tool
// frame is the tool frame, at every q; a frame on the base and one on a link named by its number
// are found too; bad entries name their key and line.
TEST(RobotFile, FramesAreFixedToLinksAsTheToolIs) {
  const std::string placement = "xyz: [0.1, -0.05, 0.2], rpy: [10, -20, 30]";
  // The last link offset and twisted, so that its DH frame is not its joint frame.
  const std::string arm =
      replaced(kTwoLinks, "    d: 0.2\n", "    d: 0.2\n    a: 0.1\n    alpha: 30\n");
  const std::string with_frames = arm + "frames:\n  - {name: probe, link: 2, " + placement +
                                  "}\n  - {name: stand, link: base, xyz: [0, 0, -0.3]}\n";
  const std::string with_tool = arm + "tool: {" + placement + "}\n";
  const denoc::RobotFile framed = denoc::parse_robot_file(with_frames, "arm.yaml");
  const denoc::RobotFile tooled = denoc::parse_robot_file(with_tool, "arm.yaml");
  ASSERT_EQ(framed.fixed_link_frames.size(), 2u);
  const auto& probe = framed.fixed_link_frames[0];
  EXPECT_EQ(probe.name, "probe");
  EXPECT_EQ(probe.body, 1);
  EXPECT_EQ(framed.fixed_link_frames[1].body, -1);
  EXPECT_LT((framed.fixed_link_frames[1].placement.p - denoc::Vec3<double>(0, 0, -0.3)).norm(),
            1e-15);
  denoc::KinematicsWorkspace<double> ws(2);
  for (const Eigen::Vector2d& q :
       {Eigen::Vector2d(0, 0), Eigen::Vector2d(0.7, 0.3), Eigen::Vector2d(-2, -0.1)}) {
    const denoc::VecX<double> joints = q;
    const denoc::Transform<double> expected = denoc::tool_pose(tooled.model, ws, joints);
    const denoc::Transform<double> got = denoc::frame_pose(
        framed.model, ws, denoc::BodyFrame<double>{probe.body, probe.placement}, joints);
    EXPECT_LT((got.p - expected.p).norm(), 1e-15);
    EXPECT_LT((got.R - expected.R).cwiseAbs().maxCoeff(), 1e-15);
  }
  const std::string frames = "frames:\n  - {name: probe, link: 2}\n";
  const std::pair<std::string, std::string> cases[] = {
      {std::string(kTwoLinks) + replaced(frames, "link: 2", "link: 3"),
       "arm.yaml: frames[0].link: no link is named '3' (base, a link's name or its number 1..2)"},
      {std::string(kTwoLinks) + replaced(frames, "name: probe", "name: base"),
       "arm.yaml: frames[0].name: 'base' is empty or taken"},
      {std::string(kTwoLinks) + frames + "  - {name: probe, link: 1}\n",
       "arm.yaml: frames[1].name: 'probe' is empty or taken (by base, a link or another frame) "
       "(line 28)"},
      {std::string(kTwoLinks) + replaced(frames, "link: 2", "link: 2, xzy: [0, 0, 1]"),
       "arm.yaml: frames[0].xzy: unknown key"},
      {std::string(kTwoLinks) + replaced(frames, ", link: 2", ""),
       "arm.yaml: frames[0].link: missing"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(expected), std::string::npos)
        << "expected: " << expected << "\n     got: " << message;
  }
}

TEST(RobotFile, MissingFileIsInputError) {
  EXPECT_THROW(denoc::load_robot_file("/nonexistent/robot.yaml"), denoc::InputError);
}

// inertia_checks: warn (docs/robot-file.md): a link of mass 0 and one whose principal moments break
// the triangle inequality are accepted, with one warning line per link naming the file and keys;
// negative values stay errors, and the default stays strict.
TEST(RobotFile, InertiaChecksWarnAcceptsPublishedSets) {
  std::string text = replaced(kTwoLinks, "    mass: 2\n", "    mass: 0\n");
  text = replaced(text, "inertia: {xx: 0.01, yy: 0.04, zz: 0.04, xy: 0.001}",
                  "inertia: {xx: 0.01, yy: 0.04, zz: 0.1}");
  EXPECT_NE(error_of(text).find("arm.yaml: links[0].mass: must be positive"), std::string::npos);
  const std::string warn = replaced(text, "dh: standard\n", "dh: standard\ninertia_checks: warn\n");
  const denoc::RobotFile robot = denoc::parse_robot_file(warn, "arm.yaml");
  ASSERT_EQ(robot.warnings.size(), 1u);
  const std::string& w = robot.warnings[0];
  EXPECT_NE(w.find("arm.yaml: accepted by inertia_checks: warn"), std::string::npos) << w;
  EXPECT_NE(w.find("links[0].mass: 0 (line 11)"), std::string::npos) << w;
  EXPECT_NE(w.find("links[0].inertia: principal moments 0.01, 0.04, 0.1 violate the triangle"),
            std::string::npos)
      << w;
  EXPECT_TRUE(robot.check_positive_definite);
  EXPECT_EQ(robot.model.links()[0].mass, 0.0);
  // A sound file with the key set has no warnings and no run-time check.
  const denoc::RobotFile sound = denoc::parse_robot_file(
      replaced(kTwoLinks, "dh: standard\n", "dh: standard\ninertia_checks: warn\n"), "arm.yaml");
  EXPECT_TRUE(sound.warnings.empty());
  EXPECT_FALSE(sound.check_positive_definite);
  // Still errors: a negative mass, a tensor that is not positive semi-definite, a bad value.
  EXPECT_NE(error_of(replaced(warn, "    mass: 0\n", "    mass: -1\n"))
                .find("links[0].mass: must not be negative"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(warn, "zz: 0.1}", "zz: 0.1, xy: 0.5}"))
                .find("links[0].inertia: not positive semi-definite"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(warn, "inertia_checks: warn", "inertia_checks: loose"))
                .find("inertia_checks: expected strict or warn"),
            std::string::npos);
}

// The document tree the readers walk: what each event of the text becomes, with its line.
TEST(YamlDocument, KeepsKindsOrderAndLines) {
  const std::string text =
      "b: 1.5\n"
      "a: [x, '', 2]\n"
      "empty:\n"
      "tilde: ~\n"
      "quoted: 'null'\n"
      "inner:\n"
      "  z: 3\n"
      "  y: {k: v}\n";
  const denoc::YamlDocument doc = denoc::load_yaml_document(text, "doc.yaml");
  const denoc::YamlNode root = doc.root();
  ASSERT_TRUE(root.is_map());
  ASSERT_EQ(root.size(), 6u);
  const char* const keys[] = {"b", "a", "empty", "tilde", "quoted", "inner"};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(root.key_at(k), keys[k]);  // the file's order, not a sorted one
    EXPECT_EQ(root.key_line(k), static_cast<long>(k) + 1);
  }
  EXPECT_EQ(root["b"].scalar(), "1.5");
  EXPECT_EQ(root["b"].line(), 1);
  EXPECT_TRUE(root["a"].is_sequence());
  EXPECT_EQ(root["a"].size(), 3u);
  EXPECT_EQ(root["a"][0].scalar(), "x");
  EXPECT_TRUE(root["a"][1].is_scalar());  // quoted empty text is text, not null
  EXPECT_EQ(root["a"][2].scalar(), "2");
  EXPECT_FALSE(root["a"][3]);  // past the end: no node
  EXPECT_TRUE(root["empty"].is_null());
  EXPECT_TRUE(root["tilde"].is_null());
  EXPECT_TRUE(root["quoted"].is_scalar());
  EXPECT_EQ(root["inner"]["z"].line(), 7);
  EXPECT_EQ(root["inner"]["y"]["k"].scalar(), "v");
  EXPECT_EQ(root["inner"]["y"].line(), 8);
  EXPECT_FALSE(root["missing"]);
  EXPECT_FALSE(root["b"]["not a map"]);
  EXPECT_FALSE(root["inner"][0]);  // a map has no index
}

// An alias is the node its anchor names, not a copy: the same lines, and a --set change to the
// shared block shows through every alias of it.
TEST(YamlDocument, AliasesShareTheirNode) {
  const std::string text =
      "shared: &I {xx: 1, yy: 2}\n"
      "links:\n"
      "  - inertia: *I\n"
      "  - inertia: *I\n";
  denoc::YamlDocument doc = denoc::load_yaml_document(text, "doc.yaml");
  const denoc::YamlNode links = doc.root()["links"];
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(links[i]["inertia"]["yy"].scalar(), "2");
    EXPECT_EQ(links[i]["inertia"].line(), 1);  // the anchored block's own line
  }
  doc.set(links[1]["inertia"], "xx", "5");
  doc.set(links[1]["inertia"], "zz", "7");  // a new key, after the others
  const denoc::YamlNode shared = doc.root()["shared"];
  EXPECT_EQ(shared["xx"].scalar(), "5");
  EXPECT_EQ(shared["xx"].line(), 0);  // not from the text
  ASSERT_EQ(shared.size(), 3u);
  EXPECT_EQ(shared.key_at(2), "zz");
  EXPECT_EQ(links[0]["inertia"]["zz"].scalar(), "7");
}

// Numbers are read as yaml-cpp's as<double> read them.
TEST(YamlDocument, NumbersReadAsYamlCppReadThem) {
  double x = 0;
  EXPECT_TRUE(denoc::yaml_double("1e-3", x));
  EXPECT_EQ(x, 1e-3);
  EXPECT_TRUE(denoc::yaml_double("-.inf", x));
  EXPECT_EQ(x, -HUGE_VAL);
  EXPECT_TRUE(denoc::yaml_double(".NaN", x));
  EXPECT_TRUE(std::isnan(x));
  EXPECT_TRUE(denoc::yaml_double("2 ", x));  // trailing spaces are allowed
  EXPECT_EQ(x, 2.0);
  for (const char* bad : {"", " 2", "2x", "inf", "1,5", "0x", ".5.5"})
    EXPECT_FALSE(denoc::yaml_double(bad, x)) << bad;
}

}  // namespace robot_file_test
