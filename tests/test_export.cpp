// Export (docs/robot-file.md, "Export"): a model written in the other DH convention, or as a URDF,
// and read back gives the same joint forces and inertia matrix within 1e-12 relative; chains that
// no DH table starts from the base frame get a `base` placement.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/urdf.hpp"
#include "denoc/model/kinematics.hpp"
#include "support/dynamics_compare.hpp"

namespace export_test {

using denoc::DhConvention;
using denoc::Mat3;
using denoc::Vec3;

// A physically valid inertia: R diag(a, b, c) R^T with a, b, c obeying the triangle inequality.
Mat3<double> random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.01, 0.1), angle(-3, 3);
  const double a = u(rng), b = u(rng),
               c = std::uniform_real_distribution<double>(std::abs(a - b) + 1e-3, a + b)(rng);
  const Mat3<double> R = denoc::rotation_from_rpy(Vec3<double>(angle(rng), angle(rng), angle(rng)));
  return R * Vec3<double>(a, b, c).asDiagonal() * R.transpose();
}

std::vector<denoc::DhLink<double>> random_table(std::mt19937& rng, int n, bool with_special) {
  std::uniform_real_distribution<double> len(-0.5, 0.5), angle(-3, 3), mass(0.5, 5);
  std::vector<denoc::DhLink<double>> rows;
  for (int i = 0; i < n; ++i) {
    denoc::DhLink<double> r;
    r.type = i % 3 == 2 ? denoc::JointType::prismatic : denoc::JointType::revolute;
    r.a = len(rng);
    r.b = len(rng);
    // Nearly parallel axes put the common normal's feet far out along them, and every digit
    // lost there is lost twice in a round trip; real arms have axes parallel or well apart.
    do {
      r.alpha = angle(rng);
    } while (std::abs(std::sin(r.alpha)) < 0.2);
    r.theta = angle(rng);
    if (with_special) {  // parallel, meeting and coincident axes, as real arms have them
      if (i == 1) r.alpha = 0;
      if (i == 2) r.a = 0;
      if (i == 3) r.alpha = 0, r.a = 0;
      if (i == 4) r.alpha = M_PI / 2;
    }
    r.mass = mass(rng);
    r.com = Vec3<double>(len(rng), len(rng), len(rng));
    r.inertia = random_inertia(rng);
    rows.push_back(r);
  }
  return rows;
}

denoc::Model<double> model_of(const denoc::DhFit& fit, const Vec3<double>& gravity) {
  return denoc::Model<double>(
      denoc::links_from_dh(fit.convention, fit.rows, fit.base.value_or(denoc::Transform<double>())),
      gravity);
}

denoc::RobotFile robot_of(const denoc::Model<double>& model) {
  denoc::RobotFile robot;
  robot.path = "random";
  robot.name = "random chain";
  robot.model = model;
  return robot;
}

struct Worst {
  double torques = 0, mass_matrix = 0;
  void add(const denoc_test::DynamicsDifference& d) {
    torques = std::max(torques, d.torques);
    mass_matrix = std::max(mass_matrix, d.mass_matrix);
  }
};

const Vec3<double> kGravity(0.5, -2, -9.81);

TEST(Export, OtherConventionAndBackGiveTheSameDynamics) {
  std::mt19937 rng(2024);
  Worst there, back, text;
  for (int trial = 0; trial < 40; ++trial) {
    const DhConvention from = trial % 2 ? DhConvention::modified : DhConvention::standard;
    const DhConvention to = trial % 2 ? DhConvention::standard : DhConvention::modified;
    const denoc::Model<double> original(
        denoc::links_from_dh(from, random_table(rng, 2 + trial % 7, trial % 4 < 2)), kGravity);
    const denoc::DhFit other = denoc::fit_dh(original, to);
    const denoc::Model<double> converted = model_of(other, kGravity);
    there.add(denoc_test::compare_dynamics(original, converted));
    const denoc::Model<double> returned = model_of(denoc::fit_dh(converted, from), kGravity);
    back.add(denoc_test::compare_dynamics(original, returned));
    // Through the robot YAML text (degrees, shortest round-trip numbers).
    std::ostringstream yaml;
    denoc::write_robot_yaml(yaml, robot_of(original), to);
    const denoc::RobotFile read = denoc::parse_robot_file(yaml.str(), "exported.yaml");
    EXPECT_EQ(read.convention, to);
    text.add(denoc_test::compare_dynamics(original, read.model));
  }
  EXPECT_LT(there.torques, 1e-12);
  EXPECT_LT(there.mass_matrix, 1e-12);
  EXPECT_LT(back.torques, 1e-12);
  EXPECT_LT(back.mass_matrix, 1e-12);
  EXPECT_LT(text.torques, 1e-12);
  EXPECT_LT(text.mass_matrix, 1e-12);
  std::cout << "DH -> other DH: torques " << there.torques << ", M " << there.mass_matrix
            << "; and back: " << back.torques << ", " << back.mass_matrix
            << "; through YAML text: " << text.torques << ", " << text.mass_matrix << '\n';
}

TEST(Export, UrdfAndBackGivesTheSameDynamics) {
  std::mt19937 rng(99);
  Worst worst;
  for (int trial = 0; trial < 20; ++trial) {
    const DhConvention from = trial % 2 ? DhConvention::modified : DhConvention::standard;
    const denoc::Model<double> original(
        denoc::links_from_dh(from, random_table(rng, 1 + trial % 8, trial % 3 == 0)));
    std::ostringstream urdf;
    std::vector<std::string> notes;
    denoc::write_urdf(urdf, robot_of(original), notes);
    EXPECT_TRUE(notes.empty());
    const denoc::RobotFile read = denoc::parse_urdf(urdf.str(), "exported.urdf");
    worst.add(denoc_test::compare_dynamics(original, read.model));
  }
  EXPECT_LT(worst.torques, 1e-12);
  EXPECT_LT(worst.mass_matrix, 1e-12);
  std::cout << "DH -> URDF -> robot: torques " << worst.torques << ", M " << worst.mass_matrix
            << '\n';
}

TEST(Export, StanfordInModifiedDhNeedsNoBase) {
  const denoc::RobotFile stanford =
      denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml");
  const denoc::DhFit modified = denoc::fit_dh(stanford.model, DhConvention::modified);
  EXPECT_FALSE(modified.base);
  // Craig's table of the same arm: alpha_{i-1} shifts down one row (up to sign: where two axes
  // meet, the fit takes x = z_i x z_{i+1}, which may be the standard table's -x), and b stays
  // with its joint.
  const std::vector<double> alpha{0, M_PI / 2, M_PI / 2, 0, M_PI / 2, M_PI / 2};
  const std::vector<double> b{0.2, 0.1, 0, 0.6, 0, 0};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(std::abs(modified.rows[i].alpha), alpha[i], 1e-15) << i;
    EXPECT_NEAR(modified.rows[i].b, b[i], 1e-15) << i;
    EXPECT_NEAR(modified.rows[i].a, 0, 1e-15) << i;
  }
  const denoc_test::DynamicsDifference d =
      denoc_test::compare_dynamics(stanford.model, model_of(modified, stanford.model.gravity()));
  EXPECT_LT(d.torques, 1e-12);
  EXPECT_LT(d.mass_matrix, 1e-12);
}

TEST(Export, ChainsThatNeedABasePlacement) {
  // A first axis along base x, away from the origin: neither convention starts there.
  std::vector<denoc::LinkSpec<double>> links(3);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < links.size(); ++i) {
    links[i].placement.R = denoc::rotation_from_rpy(Vec3<double>(u(rng), u(rng), u(rng)));
    links[i].placement.p = Vec3<double>(u(rng), u(rng), u(rng));
    links[i].mass = 1 + i;
    links[i].com = Vec3<double>(u(rng), u(rng), u(rng));
    links[i].inertia = random_inertia(rng);
  }
  links[1].type = denoc::JointType::prismatic;
  const denoc::Model<double> original(links, kGravity);
  for (DhConvention c : {DhConvention::standard, DhConvention::modified}) {
    const denoc::DhFit fit = denoc::fit_dh(original, c);
    EXPECT_TRUE(fit.base);
    std::ostringstream yaml;
    denoc::write_robot_yaml(yaml, robot_of(original), c);
    EXPECT_NE(yaml.str().find("\nbase: {xyz: ["), std::string::npos) << yaml.str();
    const denoc::RobotFile read = denoc::parse_robot_file(yaml.str(), "based.yaml");
    ASSERT_TRUE(read.base);
    const denoc_test::DynamicsDifference d = denoc_test::compare_dynamics(original, read.model);
    EXPECT_LT(d.torques, 1e-12);
    EXPECT_LT(d.mass_matrix, 1e-12);
  }
}

TEST(Export, RpyRoundTripsIncludingGimbalLock) {
  for (const Vec3<double>& rpy : {Vec3<double>(0.3, -0.2, 1.1), Vec3<double>(0.3, M_PI / 2, 0),
                                  Vec3<double>(-2, -M_PI / 2, 0), Vec3<double>(3, 0.1, -3)}) {
    const Mat3<double> R = denoc::rotation_from_rpy(rpy);
    EXPECT_LT((denoc::rotation_from_rpy(denoc::rpy_of(R)) - R).cwiseAbs().maxCoeff(), 1e-15);
  }
}

// The coordinates of `model` with the joints at `joints` and a floating base, if it has one, at
// the world's origin: the pose functions then give the pose relative to the base, whether or not
// the exported file kept the base floating.
denoc::VecX<double> at_the_origin(const denoc::Model<double>& model,
                                  const denoc::VecX<double>& joints) {
  denoc::VecX<double> q = denoc::VecX<double>::Zero(model.nq());
  q.tail(model.dof()) = joints;
  if (model.floating()) q[6] = 1;
  return q;
}

// The largest difference of the tool frame's pose between two models of one arm over random
// states, relative to the arm's reach (1 m at least), and of the joints' columns of its Jacobian.
double tool_frame_difference(const denoc::Model<double>& a, const denoc::Model<double>& b) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2, 2);
  denoc::Workspace<double> wa(a), wb(b);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    denoc::VecX<double> joints(a.dof());
    for (Eigen::Index i = 0; i < joints.size(); ++i)
      joints[i] = u(rng);
    const denoc::VecX<double> qa = at_the_origin(a, joints), qb = at_the_origin(b, joints);
    const denoc::Transform<double> pa = denoc::tool_pose(a, wa, qa),
                                   pb = denoc::tool_pose(b, wb, qb);
    const double reach = std::max(1.0, pa.p.norm());
    worst = std::max(
        {worst, (pa.p - pb.p).cwiseAbs().maxCoeff() / reach, (pa.R - pb.R).cwiseAbs().maxCoeff()});
    const denoc::MatX<double> Ja = denoc::tool_jacobian(a, wa, qa).rightCols(a.dof()),
                              Jb = denoc::tool_jacobian(b, wb, qb).rightCols(b.dof());
    worst = std::max(worst, (Ja - Jb).cwiseAbs().maxCoeff() / reach);
  }
  return worst;
}

// Export keeps the tool frame (a URDF's is its tip link's frame): URDF -> robot YAML in both
// conventions, and -> URDF, read back, give the same pose and Jacobian (and dynamics) within
// 1e-12; so do the shipped robot YAMLs (the Stanford arm's tool frame is its last DH frame).
TEST(Export, KeepsTheToolFrame) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(DENOC_URDF_FIXTURES))
    files.push_back(entry.path().string());
  for (const auto& entry : std::filesystem::directory_iterator(DENOC_ROBOTS_DIR))
    files.push_back(entry.path().string());
  double worst = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const denoc::ChainSelection chain{
        "", path.find("panda_hand") != std::string::npos ? "panda_hand" : ""};
    const denoc::RobotFile robot = denoc::load_robot_file(path, {}, chain);
    if (!robot.model.is_chain()) continue;  // trees (no tool frame of their own): test_tree_input
    for (DhConvention c : {DhConvention::standard, DhConvention::modified}) {
      std::ostringstream yaml;
      denoc::write_robot_yaml(yaml, robot, c);
      const denoc::RobotFile back = denoc::parse_robot_file(yaml.str(), "exported.yaml");
      const double d = tool_frame_difference(robot.model, back.model);
      EXPECT_LT(d, 1e-12) << yaml.str();
      EXPECT_LT(denoc_test::compare_dynamics(robot.model, back.model).torques, 1e-12);
      worst = std::max(worst, d);
    }
    if (robot.check_positive_definite || robot.model.has_rotors()) continue;  // not URDF-able
    std::ostringstream urdf;
    std::vector<std::string> notes;
    denoc::write_urdf(urdf, robot, notes);
    const denoc::RobotFile back = denoc::parse_urdf(urdf.str(), "exported.urdf");
    const double d = tool_frame_difference(robot.model, back.model);
    EXPECT_LT(d, 1e-12) << urdf.str();
    worst = std::max(worst, d);
    if (robot.format == "urdf" && robot.tip_link != robot.link_names.back()) {
      EXPECT_EQ(back.tip_link, robot.tip_link);  // a tip beyond the last body keeps its name
    }
  }
  std::cout << "tool frame through export and back: largest difference " << worst << '\n';
}

// The frames fixed to links (a URDF's fixed links, a YAML's `frames`) written to a robot YAML in
// either convention (a tree in modified DH) and read back are where they were at every q, within
// 1e-12: the UR5's ee_link and tool0, Solo 12's feet, and frames added to the Stanford arm's file.
// The UR5's turned link `base` cannot be written (a YAML's `base` is the base frame): a note says.
TEST(Export, YamlKeepsTheFramesFixedToLinks) {
  std::ifstream stanford_file(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml");
  std::stringstream stanford;
  stanford << stanford_file.rdbuf();
  stanford << "frames:\n  - {name: wrist_camera, link: 5, xyz: [0.03, 0, 0.05], rpy: [0, 90, 0]}\n"
              "  - {name: pedestal, link: base, xyz: [0, 0, -0.4]}\n";
  std::vector<denoc::RobotFile> robots;
  robots.push_back(denoc::load_robot_file(std::string(DENOC_TEST_FIXTURES) + "/ur5_robot.urdf"));
  robots.push_back(denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/solo12.urdf"));
  robots.push_back(denoc::parse_robot_file(stanford.str(), "stanford_frames.yaml"));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2, 2);
  double worst = 0;
  std::size_t compared = 0;
  for (const denoc::RobotFile& robot : robots) {
    SCOPED_TRACE(robot.path);
    const std::vector<DhConvention> conventions =
        robot.model.is_chain()
            ? std::vector<DhConvention>{DhConvention::standard, DhConvention::modified}
            : std::vector<DhConvention>{DhConvention::modified};
    for (DhConvention c : conventions) {
      std::ostringstream yaml;
      std::vector<std::string> notes;
      denoc::write_robot_yaml(yaml, robot, c, &notes);
      const denoc::RobotFile back = denoc::parse_robot_file(yaml.str(), "exported.yaml");
      denoc::Workspace<double> wa(robot.model), wb(back.model);
      for (const denoc::RobotFile::LinkFrame& f : robot.fixed_link_frames) {
        if (f.name == "base") {
          EXPECT_EQ(notes.size(), 1u);
          continue;
        }
        const denoc::BodyFrame<double> written = denoc::find_frame(back, f.name);
        for (int trial = 0; trial < 5; ++trial) {
          denoc::VecX<double> q(robot.model.dof());
          for (Eigen::Index i = 0; i < q.size(); ++i)
            q[i] = u(rng);
          const denoc::Transform<double> a =
              denoc::frame_pose(robot.model, wa, denoc::BodyFrame<double>{f.body, f.placement}, q);
          const denoc::Transform<double> b = denoc::frame_pose(back.model, wb, written, q);
          worst = std::max(
              {worst, (a.p - b.p).cwiseAbs().maxCoeff(), (a.R - b.R).cwiseAbs().maxCoeff()});
        }
        ++compared;
      }
    }
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_EQ(compared, 17u);  // UR5: 4 written x 2 conventions; Solo 12: 5; Stanford: 2 x 2
  std::cout << compared << " frames through export to YAML and back: largest difference " << worst
            << '\n';
}

// The same frames written to a URDF (each a link on a fixed joint from its body's link) and read
// back are where they were at every q, within 1e-12: the UR5's four (its ends side by side, no
// tool frame), Solo 12's feet, and the Stanford arm's frames on link 5 and on the base. A frame on
// the Stanford arm's last link is not written (it would take the tool frame's place): a note
// names it, and the tool frame reads back unchanged. The base link itself is the root written.
TEST(Export, UrdfKeepsTheFramesFixedToLinks) {
  std::ifstream stanford_file(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml");
  std::stringstream stanford;
  stanford << stanford_file.rdbuf();
  stanford << "frames:\n  - {name: wrist_camera, link: 5, xyz: [0.03, 0, 0.05], rpy: [0, 90, 0]}\n"
              "  - {name: pedestal, link: base, xyz: [0, 0, -0.4]}\n"
              "  - {name: fingertip, link: 6, xyz: [0, 0, 0.2]}\n";
  std::vector<denoc::RobotFile> robots;
  robots.push_back(denoc::load_robot_file(std::string(DENOC_TEST_FIXTURES) + "/ur5_robot.urdf"));
  robots.push_back(denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/solo12.urdf"));
  robots.push_back(denoc::parse_robot_file(stanford.str(), "stanford_frames.yaml"));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  auto random_q = [&](int n) {
    denoc::VecX<double> q(n);
    for (Eigen::Index i = 0; i < q.size(); ++i)
      q[i] = u(rng);
    return q;
  };
  auto difference = [](const denoc::Transform<double>& a, const denoc::Transform<double>& b) {
    return std::max((a.p - b.p).cwiseAbs().maxCoeff(), (a.R - b.R).cwiseAbs().maxCoeff());
  };
  double worst = 0;
  std::vector<std::string> compared;
  for (const denoc::RobotFile& robot : robots) {
    SCOPED_TRACE(robot.path);
    std::ostringstream urdf;
    std::vector<std::string> notes;
    denoc::write_urdf(urdf, robot, notes);
    const denoc::RobotFile back = denoc::parse_urdf(urdf.str(), "exported.urdf");
    denoc::Workspace<double> wa(robot.model), wb(back.model);
    for (const denoc::RobotFile::LinkFrame& f : robot.fixed_link_frames) {
      if (f.name == "base_link") continue;  // the root
      if (f.name == "fingertip") {
        EXPECT_THROW(denoc::find_frame(back, f.name), denoc::InputError);
        EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
          return note.find("last link") != std::string::npos &&
                 note.find("fingertip") != std::string::npos;
        }));
        continue;
      }
      const denoc::BodyFrame<double> written = denoc::find_frame(back, f.name);
      for (int trial = 0; trial < 5; ++trial) {
        const denoc::VecX<double> q = random_q(robot.model.dof());
        worst =
            std::max(worst, difference(denoc::frame_pose(robot.model, wa, {f.body, f.placement}, q),
                                       denoc::frame_pose(back.model, wb, written, q)));
      }
      compared.push_back(f.name);
    }
    ASSERT_EQ(back.has_tool_frame(), robot.has_tool_frame());
    if (robot.has_tool_frame()) {
      const denoc::VecX<double> q = random_q(robot.model.dof());
      worst = std::max(worst,
                       difference(denoc::frame_pose(robot.model, wa, robot.model.tool_frame(), q),
                                  denoc::frame_pose(back.model, wb, back.model.tool_frame(), q)));
    }
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_EQ(compared.size(), 10u);  // UR5: 4; Solo 12: 4 feet; Stanford: 2
  std::cout << compared.size() << " frames through export to URDF and back: largest difference "
            << worst << '\n';
}

// Text values go through yaml-cpp's emitter: any text, control bytes and line breaks included,
// reads back unchanged; bytes that are not UTF-8 (which a robot YAML may not hold) are refused.
TEST(Export, YamlTextRoundTrips) {
  denoc::RobotFile robot = denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml");
  robot.name = "Stanford\x01 arm\nline2 \"quoted\" \\ # not a comment: {x}";
  robot.source = "tab\there, bell \x07, DEL \x7f, é";
  robot.link_names[0] = "- item: [1]";
  std::ostringstream yaml;
  denoc::write_robot_yaml(yaml, robot, DhConvention::standard);
  const denoc::RobotFile back = denoc::parse_robot_file(yaml.str(), "exported.yaml");
  EXPECT_EQ(back.name, robot.name) << yaml.str();
  EXPECT_EQ(back.source, robot.source);
  EXPECT_EQ(back.link_names[0], robot.link_names[0]);
  robot.name = "latin-1 \xe9";
  std::ostringstream refused;
  try {
    denoc::write_robot_yaml(refused, robot, DhConvention::standard);
    ADD_FAILURE() << "written: " << refused.str();
  } catch (const denoc::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("name"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not UTF-8"), std::string::npos) << e.what();
  }
}

// XML 1.0 holds tab, line feed and carriage return (written as character references, which
// attribute values keep) but no other control character: such a name is refused, never changed.
TEST(Export, UrdfNamesRoundTripOrAreRefused) {
  denoc::RobotFile robot =
      denoc::load_robot_file(std::string(DENOC_URDF_FIXTURES) + "/flange_chain.urdf");
  robot.name = "arm\tone\nline two\r & <x> \"q\" --";
  robot.link_names[0] = "link\none";
  robot.joint_names[1] = "joint\ttwo";
  std::ostringstream urdf;
  std::vector<std::string> notes;
  denoc::write_urdf(urdf, robot, notes);
  // As character references: an XML parser turns raw ones in attribute values into spaces.
  EXPECT_NE(
      urdf.str().find("<robot name='arm&#x09;one&#x0A;line two&#x0D; &amp; &lt;x&gt; &quot;q"),
      std::string::npos)
      << urdf.str();
  const denoc::RobotFile back = denoc::parse_urdf(urdf.str(), "exported.urdf");
  EXPECT_EQ(back.name, robot.name) << urdf.str();
  EXPECT_EQ(back.link_names, robot.link_names);
  EXPECT_EQ(back.joint_names, robot.joint_names);
  EXPECT_EQ(back.tip_link, "flange");
  robot.name = "bell\x07";
  std::ostringstream refused;
  try {
    denoc::write_urdf(refused, robot, notes);
    ADD_FAILURE() << "written: " << refused.str();
  } catch (const denoc::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("name \"bell\\x07\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("control character"), std::string::npos) << e.what();
  }
}

// Names of any bytes, as robot, link and joint names: control characters, line breaks, quotes,
// XML's <>&, a character reference's text and UTF-8 beyond ASCII survive every export path
// (YAML -> YAML, YAML -> URDF -> the loader ridim uses, URDF -> YAML); XML 1.0 cannot hold
// other control characters than tab, line feed and carriage return, so a URDF export of such a
// name is refused naming it, and no file is written.
TEST(Export, NamesOfAnyBytesRoundTripThroughEveryPath) {
  const std::string xml_safe =
      "tab\there \"dq\" 'sq' <a>&b; &#x41; &amp; \xc3\xa9 \xe6\x97\xa5\n"
      "line\r# not: {a comment} - [x]";
  const std::string with_control = "bell\x07 " + xml_safe + " \x01\x1f";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("denoc_export_names_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto named = [&](const std::string& base) {
    denoc::RobotFile robot =
        denoc::load_robot_file(std::string(DENOC_URDF_FIXTURES) + "/flange_chain.urdf");
    robot.name = base + " robot";
    for (std::size_t i = 0; i < robot.link_names.size(); ++i) {
      robot.link_names[i] = base + " link " + std::to_string(i);
      robot.joint_names[i] = base + " joint " + std::to_string(i);
    }
    return robot;
  };
  auto through = [&](const denoc::RobotFile& robot, const std::string& file) {
    const std::string path = (dir / file).string();
    denoc::export_robot(robot, path, std::nullopt);
    return denoc::load_robot_file(path);
  };
  // YAML -> YAML and URDF -> YAML: robot and link names (a robot YAML has no joint names).
  const denoc::RobotFile from_urdf = named(with_control);
  const denoc::RobotFile yaml = through(from_urdf, "a.yaml");
  EXPECT_EQ(yaml.name, from_urdf.name);
  EXPECT_EQ(yaml.link_names, from_urdf.link_names);
  const denoc::RobotFile yaml_again = through(yaml, "b.yaml");
  EXPECT_EQ(yaml_again.name, from_urdf.name);
  EXPECT_EQ(yaml_again.link_names, from_urdf.link_names);
  // YAML -> URDF -> loader, and URDF -> URDF: robot, link and joint names.
  denoc::RobotFile safe = named(xml_safe);
  const denoc::RobotFile safe_yaml = through(safe, "safe.yaml");
  const denoc::RobotFile urdf = through(safe_yaml, "c.urdf");
  EXPECT_EQ(urdf.name, safe.name);
  EXPECT_EQ(urdf.link_names, safe.link_names);
  const denoc::RobotFile urdf_again = through(safe, "d.urdf");
  EXPECT_EQ(urdf_again.name, safe.name);
  EXPECT_EQ(urdf_again.link_names, safe.link_names);
  EXPECT_EQ(urdf_again.joint_names, safe.joint_names);
  // A control character XML cannot hold: refused, naming the name, nothing written.
  for (const std::string what : {"name", "link name", "joint name"}) {
    denoc::RobotFile refused = safe;
    (what == "name"        ? refused.name
     : what == "link name" ? refused.link_names[1]
                           : refused.joint_names[1]) = "bell\x07";
    const std::filesystem::path path = dir / "refused.urdf";
    try {
      denoc::export_robot(refused, path.string(), std::nullopt);
      ADD_FAILURE() << what << ": written";
    } catch (const denoc::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what + " \"bell\\x07\""), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("control character"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path)) << what;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace export_test
