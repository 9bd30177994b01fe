// --set KEY=VALUE (docs/robot-file.md): an override equals the edited file, bit for bit in the
// output of both apps; an unknown path or a value that is not a number is exit 2 and names it; the
// overridden file is checked as the file is. Library and end to end.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cli/wording.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/overrides.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/cli_support.hpp"

namespace overrides_test {

using cli::Result;

// A three-link robot with placeholders: {name} is replaced by the value in the map, so the test
// can write the file with one number edited, as a user would, and compare with --set.
const std::string kTemplate = R"(name: override test arm
angle_unit: deg
gravity: [0, {g1}, -9.81]
links:
  - joint: revolute
    a: 0.4
    alpha: {alpha0}
    mass: 4
    com: [-0.2, 0, 0]
    inertia: {yy: 0.05, zz: 0.05}
  - joint: prismatic
    a: 0.1
    alpha: -90
    mass: {m1}
    com: [0, 0.01, -0.1]
    inertia: {xx: {xx1}, yy: 0.03, zz: 0.01{extra}}
  - joint: revolute
    a: 0.2
    mass: 2
    com: [-0.1, 0, 0]
    inertia: {yy: 0.0067, zz: 0.0067}
initial:
  q: [10, {q1}, -20]
  qd: [0, 0, 0]
trajectory:
  type: cycloidal
  duration: 2
  samples: 201
  from: [0, 0, 0]
  to: [90, 0.25, {to2}]
)";

const std::map<std::string, std::string> kDefaults = {
    {"g1", "0"},   {"alpha0", "0"}, {"m1", "3"},   {"xx1", "0.03"},
    {"extra", ""}, {"q1", "0.1"},   {"to2", "-45"}};

std::string robot_text(const std::map<std::string, std::string>& changes = {}) {
  std::string text = kTemplate;
  std::map<std::string, std::string> values = kDefaults;
  for (const auto& [name, value] : changes)
    values[name] = value;
  for (const auto& [name, value] : values) {
    const std::string placeholder = "{" + name + "}";
    for (std::size_t at; (at = text.find(placeholder)) != std::string::npos;)
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

std::string message_of(const std::string& text, const std::vector<denoc::Override>& overrides) {
  try {
    denoc::parse_robot_file(text, "arm.yaml", overrides);
  } catch (const denoc::InputError& e) {
    return e.worded(denoc::command_line_words);
  }
  return "(accepted)";
}

TEST(Overrides, KeysSplitIntoSteps) {
  using Steps = std::vector<denoc::KeyStep>;
  EXPECT_EQ(
      denoc::parse_key("links[2].inertia.xx"),
      (Steps{std::string("links"), std::size_t{2}, std::string("inertia"), std::string("xx")}));
  EXPECT_EQ(denoc::parse_key("gravity[0]"), (Steps{std::string("gravity"), std::size_t{0}}));
  EXPECT_EQ(denoc::parse_key("links[1].drive.G"),
            (Steps{std::string("links"), std::size_t{1}, std::string("drive"), std::string("G")}));
  for (const char* bad :
       {"", "links[", "links[x]", "links[-1]", "a..b", ".a", "a.", "a b", "a[1]b"})
    EXPECT_THROW(denoc::parse_key(bad), denoc::InputError) << bad;
}

TEST(Overrides, ValuesMustBeFiniteNumbers) {
  const denoc::Override o = denoc::parse_override("links[1].mass= 2.5e-1 ");
  EXPECT_EQ(o.key, "links[1].mass");
  EXPECT_EQ(o.value, "2.5e-1");
  for (const char* bad :
       {"links[1].mass", "links[1].mass=", "links[1].mass=abc", "links[1].mass=nan",
        "links[1].mass=inf", "links[1].mass=1e999", "links[1].mass=[1]", "links[1].mass=1,2"}) {
    try {
      denoc::parse_override(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const denoc::InputError& e) {
      EXPECT_NE(e.worded(denoc::command_line_words).find("--set links[1].mass"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Overrides, EqualTheEditedFile) {
  struct Case {
    std::string key, value, placeholder, edited;
  };
  const std::vector<Case> cases = {
      {"links[1].mass", "3.7", "m1", "3.7"},
      {"links[1].inertia.xx", "0.035", "xx1", "0.035"},
      {"links[0].alpha", "12.5", "alpha0", "12.5"},  // in the file's angle_unit (deg)
      {"gravity[1]", "-1e-1", "g1", "-1e-1"},
      {"initial.q[1]", "0.3", "q1", "0.3"},  // prismatic: m
      {"trajectory.to[2]", "60", "to2", "60"},
      // A key absent from a map that is in the file is added, as the user would add it.
      {"links[1].inertia.xy", "0.001", "extra", ", xy: 0.001"},
  };
  const denoc::RobotFile plain = denoc::parse_robot_file(robot_text(), "arm.yaml");
  for (const Case& c : cases) {
    const denoc::RobotFile edited =
        denoc::parse_robot_file(robot_text({{c.placeholder, c.edited}}), "arm.yaml");
    const denoc::RobotFile set =
        denoc::parse_robot_file(robot_text(), "arm.yaml", {{c.key, c.value}});
    bool differs_from_plain = plain.model.gravity() != set.model.gravity() ||
                              *plain.initial_q != *set.initial_q ||
                              plain.trajectory->to != set.trajectory->to;
    ASSERT_EQ(set.dh.size(), edited.dh.size());
    for (std::size_t i = 0; i < set.dh.size(); ++i) {
      EXPECT_EQ(set.dh[i].mass, edited.dh[i].mass) << c.key;
      EXPECT_EQ(set.dh[i].alpha, edited.dh[i].alpha) << c.key;
      EXPECT_EQ(set.dh[i].inertia, edited.dh[i].inertia) << c.key;
      differs_from_plain = differs_from_plain || set.dh[i].mass != plain.dh[i].mass ||
                           set.dh[i].alpha != plain.dh[i].alpha ||
                           set.dh[i].inertia != plain.dh[i].inertia;
    }
    EXPECT_EQ(set.model.gravity(), edited.model.gravity()) << c.key;
    EXPECT_EQ(*set.initial_q, *edited.initial_q) << c.key;
    EXPECT_EQ(set.trajectory->to, edited.trajectory->to) << c.key;
    EXPECT_TRUE(differs_from_plain) << c.key << " changed nothing";
  }
}

TEST(Overrides, LaterOverridesWin) {
  const denoc::RobotFile set = denoc::parse_robot_file(
      robot_text(), "arm.yaml", {{"links[1].mass", "5"}, {"links[1].mass", "6"}});
  EXPECT_EQ(set.dh[1].mass, 6.0);
}

TEST(Overrides, BadPathsNameTheFileAndTheKey) {
  const std::string text = robot_text();
  const std::map<std::string, std::string> expected = {
      {"links[3].mass", "arm.yaml: --set links[3].mass: links[3]: no such entry: links has 3"},
      {"gravity[3]", "arm.yaml: --set gravity[3]: no such entry: gravity has 3"},
      {"links[0].joint", "arm.yaml: --set links[0].joint: is 'revolute' in the file, not a number"},
      {"links[0].inertia", "arm.yaml: --set links[0].inertia: is a map in the file, not a number"},
      {"gravity", "arm.yaml: --set gravity: is a list of 3 in the file, not a number"},
      {"payload.mass", "arm.yaml: --set payload.mass: payload: not in the file"},
      {"links[0].drive.G", "arm.yaml: --set links[0].drive.G: links[0].drive: not in the file"},
      {"links.mass", "arm.yaml: --set links.mass: not a key here: links is a list of 3"},
      {"gravity[0].x", "arm.yaml: --set gravity[0].x: not a key here: gravity[0] is '0'"},
      {"name[0]", "arm.yaml: --set name[0]: name is 'override test arm', not a list"},
      // Added where absent, then rejected by the loader as in the file: the message names it.
      {"links[1].mas", "arm.yaml: links[1].mas: unknown key"},
      {"paylod", "arm.yaml: paylod: unknown key"},
  };
  for (const auto& [key, start] : expected) {
    const std::string message = message_of(text, {{key, "1"}});
    EXPECT_EQ(message.substr(0, start.size()), start) << message;
  }
}

TEST(Overrides, TheResultIsCheckedAsTheFileIs) {
  const std::string text = robot_text();
  EXPECT_EQ(message_of(text, {{"links[1].mass", "-2"}}),
            "arm.yaml: links[1].mass: must be positive");
  EXPECT_EQ(message_of(text, {{"links[1].mass", "-2"}}),
            message_of(robot_text({{"m1", "-2"}}), {}).substr(0, 41));
  EXPECT_NE(message_of(text, {{"links[1].inertia.xx", "5"}}).find("triangle inequality"),
            std::string::npos);
  EXPECT_NE(message_of(text, {{"trajectory.samples", "2.5"}}).find("trajectory.samples"),
            std::string::npos);
}

// End to end: the apps' output with --set equals their output on the edited file, byte for byte.
class OverridesCli : public cli::CliTest {};

TEST_F(OverridesCli, RidimAndRfdsimOutputsEqualTheEditedFile) {
  write("arm.yaml", robot_text());
  write("edited.yaml", robot_text({{"m1", "3.7"},
                                   {"xx1", "0.035"},
                                   {"alpha0", "12.5"},
                                   {"g1", "-1e-1"},
                                   {"q1", "0.3"},
                                   {"to2", "60"}}));
  const std::string sets =
      " --set 'links[1].mass=3.7' --set links[1].inertia.xx=0.035 --set 'links[0].alpha=12.5'"
      " --set 'gravity[1]=-1e-1' --set 'initial.q[1]=0.3' --set 'trajectory.to[2]=60'";
  const Result plain = run(DENOC_RIDIM_EXE, "arm.yaml");
  const Result edited = run(DENOC_RIDIM_EXE, "edited.yaml");
  const Result set = run(DENOC_RIDIM_EXE, "arm.yaml" + sets);
  ASSERT_EQ(set.status, 0) << set.err;
  ASSERT_EQ(edited.status, 0) << edited.err;
  EXPECT_EQ(set.out, edited.out);
  EXPECT_NE(set.out, plain.out);
  EXPECT_EQ(set.err, "");

  const std::string sim = " --free-fall --t-end 0.5 --dt 0.05";
  const Result sim_edited = run(DENOC_RFDSIM_EXE, "edited.yaml" + sim + " -o edited.csv");
  const Result sim_set = run(DENOC_RFDSIM_EXE, "arm.yaml" + sim + sets + " -o set.csv");
  ASSERT_EQ(sim_set.status, 0) << sim_set.err;
  ASSERT_EQ(sim_edited.status, 0) << sim_edited.err;
  EXPECT_EQ(read("set.csv"), read("edited.csv"));
  EXPECT_NE(read("set.csv"), run(DENOC_RFDSIM_EXE, "arm.yaml" + sim).out);
}

TEST_F(OverridesCli, BadOverridesExitWithTwoAndNameTheKey) {
  write("arm.yaml", robot_text());
  write("out.csv", "earlier output\n");
  const std::map<std::string, std::string> expected = {
      {"'links[7].mass=2'", "arm.yaml: --set links[7].mass: links[7]: no such entry"},
      {"'links[1].mass=heavy'", "--set links[1].mass: 'heavy' is not a finite number"},
      {"'links[1].mass=-1'", "arm.yaml: links[1].mass: must be positive"},
      {"links.1.mass=2", "arm.yaml: --set links.1.mass: links.1: not a key here"},
      {"mass", "--set mass: expected KEY=VALUE"},
  };
  for (const char* exe : {DENOC_RIDIM_EXE, DENOC_RFDSIM_EXE}) {
    const std::string app =
        std::string(exe).find("rfdsim") != std::string::npos ? "rfdsim" : "ridim";
    for (const auto& [set, message] : expected) {
      const Result r = run(
          exe, "arm.yaml --set " + set + (app == "rfdsim" ? " --free-fall" : "") + " -o out.csv");
      EXPECT_EQ(r.status, 2) << set;
      EXPECT_EQ(r.err.rfind(app + ": " + message, 0), 0u) << r.err;
      EXPECT_EQ(read("out.csv"), "earlier output\n") << set;  // nothing written
    }
  }
}

}  // namespace overrides_test
