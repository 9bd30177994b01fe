#include "denoc/io/robot_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "denoc/io/base_quaternion.hpp"
#include "denoc/io/drive_check.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/inertia_check.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/urdf.hpp"
#include "denoc/io/yaml_document.hpp"
#include "denoc/loops/assembly.hpp"
#include "denoc/model/rotation.hpp"

namespace denoc {

namespace {

// Reads typed values out of the YAML tree; every failure names the file, the key and the line.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const YamlNode& node,
                         const std::string& what) const {
    fail_at(key, node.line(), what);
  }

  // `line` 0: a node not from the file (--set), whose message names no line.
  [[noreturn]] void fail_at(const std::string& key, long line, const std::string& what) const {
    std::string message = path_ + ": " + key + ": " + what;
    if (line > 0) message += " (line " + std::to_string(line) + ")";
    throw InputError(message);
  }

  [[noreturn]] void fail_missing(const std::string& key, const YamlNode& parent,
                                 const std::string& what) const {
    std::string message = path_ + ": " + key + ": missing, " + what;
    if (parent.line() > 0) {
      message += " (in the block at line " + std::to_string(parent.line()) + ")";
    }
    throw InputError(message);
  }

  double number(const YamlNode& node, const std::string& key) const {
    if (!node.is_scalar()) fail(key, node, "expected a number");
    double value = 0;
    if (!yaml_double(node.scalar(), value)) {
      fail(key, node, "expected a number, found '" + node.scalar() + "'");
    }
    if (!std::isfinite(value)) fail(key, node, "must be finite, found '" + node.scalar() + "'");
    return value;
  }

  std::string text(const YamlNode& node, const std::string& key) const {
    if (!node.is_scalar()) fail(key, node, "expected text");
    return node.scalar();
  }

  std::string choice(const YamlNode& node, const std::string& key,
                     const std::set<std::string>& allowed) const {
    const std::string value = text(node, key);
    if (allowed.count(value)) return value;
    std::string list;
    for (const std::string& a : allowed)
      list += (list.empty() ? "" : " or ") + a;
    fail(key, node, "expected " + list + ", found '" + value + "'");
  }

  VecX<double> vector(const YamlNode& node, const std::string& key, std::size_t size) const {
    if (!node.is_sequence())
      fail(key, node, "expected a list of " + std::to_string(size) + " numbers");
    if (node.size() != size) {
      fail(key, node,
           "expected " + std::to_string(size) + " numbers, found " + std::to_string(node.size()));
    }
    VecX<double> v(static_cast<Eigen::Index>(size));
    for (std::size_t i = 0; i < size; ++i) {
      v[static_cast<Eigen::Index>(i)] = number(node[i], key + "[" + std::to_string(i) + "]");
    }
    return v;
  }

  void check_keys(const YamlNode& map, const std::string& where,
                  const std::set<std::string>& allowed) const {
    for (std::size_t k = 0; k < map.size(); ++k) {
      const std::string& key = map.key_at(k);
      if (allowed.count(key)) continue;
      std::string list;
      for (const std::string& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
      fail_at(where.empty() ? key : where + "." + key, map.key_line(k),
              "unknown key (expected one of " + list + ")");
    }
  }

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// With inertia_checks: warn (docs/robot-file.md), what no rigid body can be but a published set has
// is collected in `accepted` instead of failing; negative and non-finite values still fail.
struct InertiaChecks {
  bool warn = false;
  std::vector<std::string> accepted;  // this link's problems, joined into one warning line
};

Mat3<double> read_inertia(const Reader& reader, const YamlNode& node, const std::string& key,
                          InertiaChecks& checks) {
  if (!node.is_map()) reader.fail(key, node, "expected a map {xx, yy, zz, xy, xz, yz}");
  reader.check_keys(node, key, {"xx", "yy", "zz", "xy", "xz", "yz"});
  auto entry = [&](const char* name) {
    return node[name] ? reader.number(node[name], key + "." + name) : 0.0;
  };
  // Every entry read before the matrix is filled: a refusal thrown inside Eigen's comma
  // initializer would leave it unfinished, which its destructor asserts against.
  const double xx = entry("xx"), yy = entry("yy"), zz = entry("zz"), xy = entry("xy"),
               xz = entry("xz"), yz = entry("yz");
  Mat3<double> I;
  I << xx, xy, xz,  //
      xy, yy, yz,   //
      xz, yz, zz;
  const InertiaProblem problem = inertia_problem(I);
  if (problem.kind == InertiaProblem::triangle && checks.warn) {
    checks.accepted.push_back(key + ": " + problem.what + " (line " + std::to_string(node.line()) +
                              ")");
  } else if (problem.kind != InertiaProblem::none) {
    reader.fail(key, node, problem.what);
  }
  return I;
}

// gamma and epsilon (Khalil and Kleinfinger 1986), the turn and shift along the parent's z axis
// that a modified-DH row starts with (model/dh.hpp); a standard-DH row has neither.
void read_kk(const Reader& reader, const YamlNode& node, const std::string& key,
             const RobotFile& robot, DhLink<double>& link) {
  for (const char* field : {"gamma", "epsilon"}) {
    if (node[field] && robot.convention != DhConvention::modified) {
      reader.fail(key + "." + field, node[field],
                  "the Khalil-Kleinfinger gamma and epsilon need dh: modified");
    }
  }
  if (node["gamma"]) link.gamma = robot.angle_scale * reader.number(node["gamma"], key + ".gamma");
  if (node["epsilon"]) link.epsilon = reader.number(node["epsilon"], key + ".epsilon");
}

DhLink<double> read_link(const Reader& reader, const YamlNode& node, const std::string& key,
                         double angle_scale, std::string& name, InertiaChecks& checks) {
  if (!node.is_map()) reader.fail(key, node, "expected a map with joint, a, b, alpha, theta, ...");
  reader.check_keys(node, key,
                    {"name", "parent", "joint", "a", "b", "d", "alpha", "theta", "gamma", "epsilon",
                     "mass", "com", "inertia", "drive"});
  DhLink<double> link;
  name = node["name"] ? reader.text(node["name"], key + ".name") : "";
  if (!node["joint"]) reader.fail_missing(key + ".joint", node, "expected revolute or prismatic");
  link.type = reader.choice(node["joint"], key + ".joint", {"revolute", "prismatic"}) == "revolute"
                  ? JointType::revolute
                  : JointType::prismatic;
  auto optional = [&](const char* field, double scale) {
    return node[field] ? scale * reader.number(node[field], key + "." + field) : 0.0;
  };
  if (node["b"] && node["d"]) reader.fail(key + ".d", node["d"], "give b or its alias d, not both");
  link.a = optional("a", 1);
  link.b = node["d"] ? optional("d", 1) : optional("b", 1);
  link.alpha = optional("alpha", angle_scale);
  link.theta = optional("theta", angle_scale);
  if (!node["mass"]) reader.fail_missing(key + ".mass", node, "expected the link's mass in kg");
  link.mass = reader.number(node["mass"], key + ".mass");
  if (checks.warn && link.mass == 0) {
    checks.accepted.push_back(key + ".mass: 0 (line " + std::to_string(node["mass"].line()) + ")");
  } else if (!(link.mass > 0)) {
    reader.fail(key + ".mass", node["mass"],
                checks.warn ? "must not be negative" : "must be positive");
  }
  if (node["com"]) link.com = reader.vector(node["com"], key + ".com", 3);
  link.inertia = node["inertia"] ? read_inertia(reader, node["inertia"], key + ".inertia", checks)
                                 : Mat3<double>::Zero();
  return link;
}

// The `drive` block of a link (docs/robot-file.md): Jm >= 0, G != 0, B >= 0, Tc one number T >= 0
// (meaning [T, -T]) or [Tc+ >= 0, Tc- <= 0].
Drive<double> read_drive(const Reader& reader, const YamlNode& node, const std::string& key) {
  if (!node.is_map()) reader.fail(key, node, "expected a map with Jm, G, B, Tc");
  reader.check_keys(node, key, {"Jm", "G", "B", "Tc"});
  Drive<double> drive;
  if (node["Jm"]) drive.Jm = reader.number(node["Jm"], key + ".Jm");
  if (node["G"]) drive.G = reader.number(node["G"], key + ".G");
  if (node["B"]) drive.B = reader.number(node["B"], key + ".B");
  const YamlNode tc = node["Tc"];
  if (tc && tc.is_scalar()) {
    drive.Tc_pos = reader.number(tc, key + ".Tc");
    drive.Tc_neg = -drive.Tc_pos;
  } else if (tc) {
    const VecX<double> v = reader.vector(tc, key + ".Tc", 2);
    drive.Tc_pos = v[0];
    drive.Tc_neg = v[1];
  }
  const std::optional<DriveProblem> problem = drive_problem(drive);
  if (!problem) return drive;
  switch (problem->field) {
    case DriveProblem::Jm:
      reader.fail(key + ".Jm", node["Jm"], problem->what);
    case DriveProblem::G:
      reader.fail(key + ".G", node["G"], problem->what);
    case DriveProblem::B:
      reader.fail(key + ".B", node["B"], problem->what);
    case DriveProblem::Tc_pos:
      if (tc.is_scalar()) reader.fail(key + ".Tc", tc, "must be >= 0 (N m)");
      reader.fail(key + ".Tc[0]", tc[0], problem->what);
    case DriveProblem::Tc_neg:
      reader.fail(key + ".Tc[1]", tc[1], problem->what);
  }
  return drive;
}

// The `tool` block (docs/robot-file.md): xyz in m, rpy in angle_unit about fixed X, Y, Z (as URDF).
Transform<double> read_tool(const Reader& reader, const YamlNode& node, double angle_scale) {
  if (!node.is_map()) reader.fail("tool", node, "expected a map with xyz and rpy");
  reader.check_keys(node, "tool", {"xyz", "rpy"});
  Transform<double> tool;
  if (node["xyz"]) tool.p = reader.vector(node["xyz"], "tool.xyz", 3);
  if (node["rpy"]) {
    tool.R = rotation_from_rpy<double>(angle_scale * reader.vector(node["rpy"], "tool.rpy", 3));
  }
  return tool;
}

// A rigid body's block (docs/robot-file.md): mass > 0, com and inertia in its frame. The
// `payload` on the tool frame, and the floating base's `base_body` in the base frame.
RigidBody<double> read_rigid_body(const Reader& reader, const YamlNode& node,
                                  const std::string& key) {
  if (!node.is_map()) reader.fail(key, node, "expected a map with mass, com, inertia");
  reader.check_keys(node, key, {"mass", "com", "inertia"});
  RigidBody<double> body;
  if (!node["mass"])
    reader.fail_missing(key + ".mass", node, "expected the " + key + "'s mass in kg");
  body.mass = reader.number(node["mass"], key + ".mass");
  if (!(body.mass > 0)) reader.fail(key + ".mass", node["mass"], "must be positive");
  if (node["com"]) body.com = reader.vector(node["com"], key + ".com", 3);
  InertiaChecks strict;  // one rigid body: inertia_checks: warn is for links only
  if (node["inertia"])
    body.inertia = read_inertia(reader, node["inertia"], key + ".inertia", strict);
  return body;
}

// Joint values in a robot file are in angle_unit for revolute joints and in m for prismatic.
VecX<double> to_si(const VecX<double>& v, const std::vector<DhLink<double>>& dh, double scale) {
  VecX<double> si = v;
  for (std::size_t i = 0; i < dh.size(); ++i) {
    if (dh[i].type == JointType::revolute) si[static_cast<Eigen::Index>(i)] *= scale;
  }
  return si;
}

void read_initial(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  if (!node.is_map()) reader.fail("initial", node, "expected a map with q and qd");
  reader.check_keys(node, "initial", {"q", "qd"});
  const std::size_t n = robot.dh.size();
  // With a floating base the base's 7 coordinates and 6 rates come first, in SI units
  // (docs/floating-base.md), the quaternion of unit norm to 1e-6.
  const std::size_t nq = robot.floating_base ? n + 7 : n, nv = robot.floating_base ? n + 6 : n;
  const auto joints = [&](VecX<double> v) {
    v.tail(static_cast<Eigen::Index>(n)) =
        to_si(v.tail(static_cast<Eigen::Index>(n)), robot.dh, robot.angle_scale);
    return v;
  };
  // With a floating base, a count that is off says how the values split.
  const auto check_count = [&](const char* key, std::size_t size, int base) {
    const YamlNode values = node[key];
    if (!robot.floating_base || !values.is_sequence() || values.size() == size) return;
    reader.fail(std::string("initial.") + key, values,
                "expected " + std::to_string(size) + " numbers (" + std::to_string(base) +
                    " for the floating base, then " + std::to_string(n) +
                    " for the joints), found " + std::to_string(values.size()));
  };
  check_count("q", nq, 7);
  check_count("qd", nv, 6);
  if (node["q"]) {
    robot.initial_q = joints(reader.vector(node["q"], "initial.q", nq));
    if (robot.floating_base) {
      if (const auto fact = normalise_base_quaternion(robot.initial_q->segment<4>(3)))
        reader.fail("initial.q", node["q"], "values 4-7: " + *fact);
    }
  }
  if (node["qd"]) robot.initial_qd = joints(reader.vector(node["qd"], "initial.qd", nv));
}

void read_trajectory(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  if (!node.is_map()) reader.fail("trajectory", node, "expected a map");
  reader.check_keys(node, "trajectory", {"type", "duration", "samples", "from", "to"});
  if (node["type"]) reader.choice(node["type"], "trajectory.type", {"cycloidal"});
  for (const char* key : {"duration", "samples", "from", "to"}) {
    if (!node[key]) reader.fail_missing(std::string("trajectory.") + key, node, "required");
  }
  CycloidalTrajectory<double> traj;
  traj.duration = reader.number(node["duration"], "trajectory.duration");
  if (!(traj.duration > 0))
    reader.fail("trajectory.duration", node["duration"], "must be positive");
  const double samples = reader.number(node["samples"], "trajectory.samples");
  if (samples != std::floor(samples) || samples < 2 || samples > 1e15) {
    reader.fail("trajectory.samples", node["samples"], "must be a whole number of at least 2");
  }
  traj.samples = static_cast<long>(samples);
  const std::size_t n = robot.dh.size();
  traj.from = to_si(reader.vector(node["from"], "trajectory.from", n), robot.dh, robot.angle_scale);
  traj.to = to_si(reader.vector(node["to"], "trajectory.to", n), robot.dh, robot.angle_scale);
  robot.trajectory = traj;
}

// `base: {xyz: [x, y, z], rpy: [roll, pitch, yaw]}`: the DH frame 0 in the base frame, rotated
// by Rz(yaw) Ry(pitch) Rx(roll) as in URDF, the angles in angle_unit (docs/robot-file.md,
// "Export"); the map may say `type: floating`, and `base: floating` (or `fixed`) says only that
// (docs/floating-base.md).
void read_base(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  if (node.is_scalar()) {
    robot.floating_base = reader.choice(node, "base", {"fixed", "floating"}) == "floating";
    return;
  }
  if (!node.is_map()) {
    reader.fail("base", node, "expected fixed, floating or a map {xyz: [x, y, z], rpy: [r, p, y]}");
  }
  reader.check_keys(node, "base", {"xyz", "rpy", "type"});
  if (node["type"])
    robot.floating_base =
        reader.choice(node["type"], "base.type", {"fixed", "floating"}) == "floating";
  if (!node["xyz"] && !node["rpy"]) return;
  Transform<double> base;
  if (node["xyz"]) base.p = reader.vector(node["xyz"], "base.xyz", 3);
  if (node["rpy"]) {
    base.R =
        rotation_from_rpy<double>(robot.angle_scale * reader.vector(node["rpy"], "base.rpy", 3));
  }
  robot.base = base;
}

}  // namespace

namespace {

// name, source, dh and angle_unit into `robot`; the gravity vector returned.
Vec3<double> read_header(const Reader& reader, const YamlNode& root, RobotFile& robot) {
  if (root["name"]) robot.name = reader.text(root["name"], "name");
  if (root["source"]) robot.source = reader.text(root["source"], "source");
  if (root["dh"] && reader.choice(root["dh"], "dh", {"standard", "modified"}) == "modified") {
    robot.convention = DhConvention::modified;
  }
  if (!root["angle_unit"] ||
      reader.choice(root["angle_unit"], "angle_unit", {"deg", "rad"}) == "deg") {
    robot.angle_scale = M_PI / 180;
  }
  Vec3<double> gravity(0, 0, -9.81);
  if (root["gravity"]) gravity = reader.vector(root["gravity"], "gravity", 3);
  return gravity;
}

// The `links` list into robot.dh and robot.link_names, under inertia_checks: strict (default)
// or warn (published parameter sets: one warning line per link that no rigid body has).
void read_links(const Reader& reader, const YamlNode& root, RobotFile& robot) {
  const YamlNode links = root["links"];
  if (!links) reader.fail_missing("links", root, "expected a list of links, base to tip");
  if (!links.is_sequence() || links.size() == 0) {
    reader.fail("links", links, "expected a non-empty list of links, base to tip");
  }
  InertiaChecks checks;
  if (root["inertia_checks"]) {
    checks.warn =
        reader.choice(root["inertia_checks"], "inertia_checks", {"strict", "warn"}) == "warn";
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    std::string name;
    checks.accepted.clear();
    const std::string key = "links[" + std::to_string(i) + "]";
    robot.dh.push_back(read_link(reader, links[i], key, robot.angle_scale, name, checks));
    read_kk(reader, links[i], key, robot, robot.dh.back());
    robot.link_names.push_back(name);
    if (!checks.accepted.empty()) {
      std::string line = reader.path() + ": accepted by inertia_checks: warn, no rigid body has ";
      for (std::size_t k = 0; k < checks.accepted.size(); ++k)
        line += (k ? "; " : "") + checks.accepted[k];
      robot.warnings.push_back(line);
      robot.check_positive_definite = true;
    }
  }
}

// The link that links[i].parent names (docs/robot-file.md): LinkSpec::kBase for `base`, else
// the index of the one link of that name, wherever it is listed (read_parents checks the order).
int named_parent(const Reader& reader, const YamlNode& node, const std::string& key,
                 const std::vector<std::string>& names) {
  const std::string name = reader.text(node, key);
  if (name == "base") return LinkSpec<double>::kBase;
  const auto count = std::count(names.begin(), names.end(), name);
  if (count == 0) {
    reader.fail(key, node, "no link is named '" + name + "' (a parent is base or a link's name)");
  }
  if (count > 1) {
    reader.fail(key, node,
                "'" + name + "' names " + std::to_string(count) +
                    " links; a parent's name must be one link's");
  }
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

// Whether following the parents up from link `from` comes back to link `i`: a cycle.
bool leads_back(const std::vector<int>& parents, int from, int i) {
  for (std::size_t steps = 0; from >= 0 && steps <= parents.size(); ++steps) {
    if (from == i) return true;
    from = parents[static_cast<std::size_t>(from)];
  }
  return false;
}

// The `parent:` keys into robot.dh (default: the link before). The links must be listed
// depth-first, as the model numbers joints (docs/trees.md): a parent is the link before or one of
// its ancestors, so that each subtree is listed whole; a file in another order is refused, not
// reordered (docs/robot-file.md). A tree needs the modified DH of Khalil and Kleinfinger.
void read_parents(const Reader& reader, const YamlNode& links, RobotFile& robot) {
  std::vector<int> parents(links.size());
  for (std::size_t k = 0; k < links.size(); ++k) {
    const YamlNode node = links[k]["parent"];
    const std::string key = "links[" + std::to_string(k) + "].parent";
    parents[k] = node ? named_parent(reader, node, key, robot.link_names) : static_cast<int>(k) - 1;
  }
  std::vector<int> path;  // the link before and its ancestors
  for (std::size_t k = 0; k < links.size(); ++k) {
    const int i = static_cast<int>(k), parent = parents[k];
    const YamlNode node = links[k]["parent"];
    const std::string key = "links[" + std::to_string(k) + "].parent";
    if (parent >= i) {
      reader.fail(key, node,
                  leads_back(parents, parent, i)
                      ? "a cycle: '" + robot.link_names[static_cast<std::size_t>(parent)] +
                            "' is this link or below it"
                      : "'" + robot.link_names[static_cast<std::size_t>(parent)] +
                            "' is listed after this link: list a parent before its children");
    }
    while (!path.empty() && path.back() != parent)
      path.pop_back();
    if (parent >= 0 && path.empty()) {
      reader.fail(key, node,
                  "'" + robot.link_names[static_cast<std::size_t>(parent)] +
                      "' is neither the link before nor one of its parents: list the "
                      "links depth-first, each subtree whole");
    }
    path.push_back(i);
    if (parent != i - 1 && robot.convention != DhConvention::modified) {
      reader.fail(key, node,
                  "a parent other than the link before needs dh: modified (a tree is written in "
                  "Khalil and Kleinfinger's modified DH, with gamma and epsilon)");
    }
    robot.dh[k].parent = parent;
  }
}

// The links' drives into robot.drives and into `specs`.
void read_drives(const Reader& reader, const YamlNode& links, RobotFile& robot,
                 std::vector<LinkSpec<double>>& specs) {
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string key = "links[" + std::to_string(i) + "].drive";
    robot.drives.push_back(links[i]["drive"] ? read_drive(reader, links[i]["drive"], key)
                                             : Drive<double>());
    specs[i].drive = robot.drives.back();
  }
}

}  // namespace

namespace {

// The link a frame is fixed to: `base`, a link's name, or its number from 1 (links need no name).
int frame_link(const Reader& reader, const YamlNode& node, const std::string& key,
               const std::vector<std::string>& names) {
  const std::string text = reader.text(node, key);
  if (text == "base") return -1;
  const auto count = std::count(names.begin(), names.end(), text);
  if (count == 1)
    return static_cast<int>(std::find(names.begin(), names.end(), text) - names.begin());
  if (count > 1)
    reader.fail(
        key, node,
        "'" + text + "' names " + std::to_string(count) + " links; give the link's number from 1");
  double number = 0;
  if (yaml_double(text, number) && number == std::floor(number) && number >= 1 &&
      number <= static_cast<double>(names.size()))
    return static_cast<int>(number) - 1;
  reader.fail(key, node,
              "no link is named '" + text + "' (base, a link's name or its number 1.." +
                  std::to_string(names.size()) + ")");
}

// `frames` (docs/robot-file.md): named frames fixed to a link or to the base (a foot, a sensor),
// xyz (m) and rpy (angle_unit) relative to that link's DH frame, as `tool` is to the last link's;
// each a frame of that link's body for --frame (io/frames.hpp), as a URDF's fixed links are.
void read_frames(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  if (!node.is_sequence()) reader.fail("frames", node, "expected a list of {name, link, xyz, rpy}");
  for (std::size_t k = 0; k < node.size(); ++k) {
    const YamlNode f = node[k];
    const std::string key = "frames[" + std::to_string(k) + "]";
    if (!f.is_map()) reader.fail(key, f, "expected a map with name, link, xyz and rpy");
    reader.check_keys(f, key, {"name", "link", "xyz", "rpy"});
    if (!f["name"]) reader.fail_missing(key + ".name", f, "the frame's name");
    if (!f["link"])
      reader.fail_missing(key + ".link", f, "the link it is fixed to (base, a name or a number)");
    const std::string name = reader.text(f["name"], key + ".name");
    const auto& frames = robot.fixed_link_frames;
    const bool taken =
        name.empty() || name == "base" ||
        std::count(robot.link_names.begin(), robot.link_names.end(), name) > 0 ||
        std::any_of(frames.begin(), frames.end(), [&](const auto& g) { return g.name == name; });
    if (taken) {
      reader.fail(key + ".name", f["name"],
                  "'" + name + "' is empty or taken (by base, a link or another frame)");
    }
    const int link = frame_link(reader, f["link"], key + ".link", robot.link_names);
    Transform<double> placement;
    if (f["xyz"]) placement.p = reader.vector(f["xyz"], key + ".xyz", 3);
    if (f["rpy"]) {
      placement.R =
          rotation_from_rpy<double>(robot.angle_scale * reader.vector(f["rpy"], key + ".rpy", 3));
    }
    const Transform<double> link_frame =
        link < 0 ? Transform<double>()
                 : split_dh(robot.convention, robot.dh[static_cast<std::size_t>(link)]).post;
    robot.fixed_link_frames.push_back({name, link, link_frame * placement});
  }
}

// A cut joint's frame on its body: xyz (m) and rpy (angle_unit) relative to the link's DH frame,
// as `frames` are; the identity when absent.
BodyFrame<double> read_cut_frame(const Reader& reader, const YamlNode& node, const std::string& key,
                                 int link, const RobotFile& robot) {
  Transform<double> placement;
  if (node) {
    if (!node.is_map()) reader.fail(key, node, "expected a map with xyz and rpy");
    reader.check_keys(node, key, {"xyz", "rpy"});
    if (node["xyz"]) placement.p = reader.vector(node["xyz"], key + ".xyz", 3);
    if (node["rpy"]) {
      placement.R = rotation_from_rpy<double>(robot.angle_scale *
                                              reader.vector(node["rpy"], key + ".rpy", 3));
    }
  }
  const Transform<double> link_frame =
      link < 0 ? Transform<double>()
               : split_dh(robot.convention, robot.dh[static_cast<std::size_t>(link)]).post;
  return {link, link_frame * placement};
}

// `loops` (docs/loops.md): the cut joints that close loops on the spanning tree.
void read_loops(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  if (!node.is_sequence() || node.size() == 0)
    reader.fail("loops", node, "expected a list of {name, joint, between, frame_a, frame_b}");
  if (robot.floating_base)
    reader.fail("loops", node, "loops are closed on a fixed base only; this robot's base floats");
  for (std::size_t k = 0; k < node.size(); ++k) {
    const YamlNode l = node[k];
    const std::string key = "loops[" + std::to_string(k) + "]";
    if (!l.is_map())
      reader.fail(key, l, "expected a map with name, joint, between, frame_a, frame_b");
    reader.check_keys(l, key, {"name", "joint", "between", "frame_a", "frame_b"});
    if (!l["name"]) reader.fail_missing(key + ".name", l, "the cut joint's name");
    if (!l["between"]) reader.fail_missing(key + ".between", l, "the two bodies it joins");
    CutJoint<double> cut;
    cut.name = reader.text(l["name"], key + ".name");
    const bool taken = std::any_of(robot.loops.cuts.begin(), robot.loops.cuts.end(),
                                   [&](const auto& c) { return c.name == cut.name; });
    const bool plain =
        !cut.name.empty() && std::all_of(cut.name.begin(), cut.name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
    if (taken || !plain)
      reader.fail(key + ".name", l["name"],
                  "'" + cut.name +
                      "' is empty, taken by another loop, or not letters, digits "
                      "and _ (it names CSV columns)");
    const std::string type = l["joint"] ? reader.choice(l["joint"], key + ".joint",
                                                        {"revolute", "prismatic", "spherical"})
                                        : "revolute";
    cut.type = type == "prismatic"   ? CutJointType::prismatic
               : type == "spherical" ? CutJointType::spherical
                                     : CutJointType::revolute;
    const YamlNode between = l["between"];
    if (!between.is_sequence() || between.size() != 2)
      reader.fail(key + ".between", between, "expected two bodies: [link, link or base]");
    const int a = frame_link(reader, between[0], key + ".between[0]", robot.link_names);
    const int b = frame_link(reader, between[1], key + ".between[1]", robot.link_names);
    if (a == b) reader.fail(key + ".between", between, "a cut joint joins two different bodies");
    cut.a = read_cut_frame(reader, l["frame_a"], key + ".frame_a", a, robot);
    cut.b = read_cut_frame(reader, l["frame_b"], key + ".frame_b", b, robot);
    robot.loops.cuts.push_back(cut);
  }
}

// `actuated` (docs/loops.md): the joints that carry actuators, by their link's name or number,
// kept in joint order; every joint when absent.
void read_actuated(const Reader& reader, const YamlNode& node, RobotFile& robot) {
  std::vector<int>& actuated = robot.loops.actuated;
  if (!node) {
    for (int i = 0; i < robot.dof(); ++i)
      actuated.push_back(i);
    return;
  }
  if (!node.is_sequence()) reader.fail("actuated", node, "expected a list of joints (link names)");
  for (std::size_t k = 0; k < node.size(); ++k) {
    const std::string key = "actuated[" + std::to_string(k) + "]";
    const int i = frame_link(reader, node[k], key, robot.link_names);
    if (i < 0) reader.fail(key, node[k], "the base is not a joint");
    if (std::count(actuated.begin(), actuated.end(), i) > 0)
      reader.fail(key, node[k], "this joint is already listed");
    actuated.push_back(i);
  }
  std::sort(actuated.begin(), actuated.end());
}

// The name of joint i for loop messages: its link's name, or its number.
std::string joint_word(const RobotFile& robot, int i) {
  const auto& names = robot.link_names;
  const auto k = static_cast<std::size_t>(i);
  return k < names.size() && !names[k].empty() ? "'" + names[k] + "'"
                                               : "joint " + std::to_string(i + 1);
}

// The loops closed at the initial state (docs/loops.md): `initial.q` (zero when absent) assembled
// with the actuated joints held, the mobility found, the actuated joints checked against it, and
// `initial.qd` made to obey the loops with the actuated rates held.
void close_initial_state(const Reader& reader, const YamlNode& root, RobotFile& robot) {
  const Model<double>& model = robot.model;
  // The mobility first, where the loops close with every joint free to move (nearest the guess),
  // so that too many actuated joints are named as such rather than as a loop that cannot close.
  Loops<double> free_loops = robot.loops;
  free_loops.actuated.clear();
  ClosedLoopWorkspace<double> free_ws(model, free_loops);
  VecX<double> q = robot.initial_state(false);
  if (assemble(model, free_loops, free_ws, q).error <= kClosureTolerance)
    robot.mobility = mobility(model, robot.loops, free_ws.equations, q);
  ClosedLoopWorkspace<double> ws(model, robot.loops);
  q = robot.initial_state(false);
  const ClosureError closure = assemble(model, robot.loops, ws, q);
  const std::vector<int>& actuated = robot.loops.actuated;
  const YamlNode where = root["actuated"] ? root["actuated"] : root["loops"];
  std::string names;
  for (int i : actuated)
    names += (names.empty() ? "" : ", ") + joint_word(robot, i);
  const auto require_mobility = [&] {
    if (static_cast<int>(actuated.size()) == robot.mobility) return;
    reader.fail("actuated", where,
                "names " + std::to_string(actuated.size()) + " joints (" + names +
                    "), but the loops leave " + std::to_string(robot.mobility) +
                    (robot.mobility == 1 ? " degree" : " degrees") + " of freedom (" +
                    std::to_string(model.dof()) + " joints less the rank " +
                    std::to_string(model.dof() - robot.mobility) +
                    " of the loop equations): name as many as that");
  };
  if (robot.mobility >= 0) require_mobility();
  if (!(closure.error <= kClosureTolerance)) {
    const std::string key = "loops[" + std::to_string(closure.cut) + "]";
    reader.fail(key, root["loops"][static_cast<std::size_t>(closure.cut)],
                closure_failure(robot.loops, closure) +
                    " from initial.q (a guess, the actuated joints held); check the loop's "
                    "frames, the links' lengths and initial.q");
  }
  robot.mobility = mobility(model, robot.loops, ws.equations, q);  // where the file's loops close
  require_mobility();
  if (!closed_configuration(model, robot.loops, ws, q)) {
    reader.fail("actuated", where,
                names +
                    " are not independent coordinates at the initial configuration: held, "
                    "they leave the passive joints free to move; actuate others");
  }
  VecX<double> qd = robot.initial_state(true);
  closed_rates(robot.loops, ws, qd);
  robot.initial_q = q;
  robot.initial_qd = qd;
}

}  // namespace

RobotFile parse_robot_tree(YamlDocument document, const std::string& path,
                           const std::vector<Override>& overrides) {
  const Reader reader(path);
  if (!document.root().is_map()) {
    throw InputError(path + ":1: expected a YAML map with a `links` list");
  }
  apply_overrides(document, overrides, path);  // --set: checked below exactly as the file is
  const YamlNode root = document.root();
  reader.check_keys(
      root, "",
      {"name", "source", "dh", "angle_unit", "gravity", "links", "initial", "trajectory", "tool",
       "payload", "base", "base_body", "inertia_checks", "frames", "loops", "actuated"});
  RobotFile robot;
  robot.path = path;
  const Vec3<double> gravity = read_header(reader, root, robot);
  read_links(reader, root, robot);
  read_parents(reader, root["links"], robot);
  // Drives, tool and payload, built into the model once.
  if (root["base"]) read_base(reader, root["base"], robot);
  if (robot.floating_base && !root["base_body"])
    reader.fail_missing("base_body", root, "a floating base needs its body's mass, com, inertia");
  // A fixed base's body is read and checked, and moves nothing: base: floating makes it count.
  if (root["base_body"] && !robot.floating_base)
    read_rigid_body(reader, root["base_body"], "base_body");
  std::vector<LinkSpec<double>> specs =
      links_from_dh(robot.convention, robot.dh, robot.base.value_or(Transform<double>()));
  read_drives(reader, root["links"], robot, specs);
  if (root["tool"]) robot.tool = read_tool(reader, root["tool"], robot.angle_scale);
  if (root["payload"]) robot.payload = read_rigid_body(reader, root["payload"], "payload");
  const Transform<double> last_link_frame = split_dh(robot.convention, robot.dh.back()).post;
  if (robot.floating_base) {
    robot.model = Model<double>(specs, gravity, last_link_frame * robot.tool, robot.payload,
                                read_rigid_body(reader, root["base_body"], "base_body"));
  } else {
    robot.model = Model<double>(specs, gravity, last_link_frame * robot.tool, robot.payload);
  }
  if (root["frames"]) read_frames(reader, root["frames"], robot);
  if (root["initial"]) read_initial(reader, root["initial"], robot);
  if (root["trajectory"] && robot.floating_base)
    reader.fail("trajectory", root["trajectory"],
                "a cycloidal trajectory moves the joints only, and this robot's base floats: its "
                "trajectory needs the base's columns, which only a trajectory CSV holds");
  if (root["trajectory"]) read_trajectory(reader, root["trajectory"], robot);
  if (root["actuated"] && !root["loops"])
    reader.fail("actuated", root["actuated"], "applies to a robot with loops; this one has none");
  if (root["loops"]) {
    read_loops(reader, root["loops"], robot);
    read_actuated(reader, root["actuated"], robot);
    close_initial_state(reader, root, robot);
  }
  return robot;
}

namespace {

bool ends_with_ignoring_case(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         std::equal(suffix.rbegin(), suffix.rend(), text.rbegin(), [](char lower, char c) {
           return std::tolower(static_cast<unsigned char>(c)) == lower;
         });
}

// The name of the first element of an XML text (after a byte-order mark, white space, the XML
// declaration, comments and a DOCTYPE), or "" when the text does not open as XML.
std::string first_xml_element(const std::string& text) {
  std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (true) {
    i = text.find_first_not_of(" \t\r\n", i);
    if (i == std::string::npos || text[i] != '<') return "";
    std::string close;
    if (text.compare(i, 2, "<?") == 0) {
      close = "?>";
    } else if (text.compare(i, 4, "<!--") == 0) {
      close = "-->";
    } else if (text.compare(i, 2, "<!") == 0) {
      close = ">";
    } else {
      const std::size_t end = text.find_first_of(" \t\r\n/>", i + 1);
      return text.substr(i + 1, (end == std::string::npos ? text.size() : end) - i - 1);
    }
    const std::size_t end = text.find(close, i + 2);
    if (end == std::string::npos) return "";
    i = end + close.size();
  }
}

}  // namespace

std::string closure_failure(const Loops<double>& loops, const ClosureError& closure) {
  const std::size_t cut = static_cast<std::size_t>(std::max(closure.cut, 0));
  return "the loop '" + loops.cuts[cut].name + "' does not close: closure error " +
         shortest(closure.error) + " (m or rad) after assembly, above " +
         shortest(kClosureTolerance);
}

VecX<double> RobotFile::initial_state(bool rates) const {
  if (rates ? initial_qd : initial_q) return *(rates ? initial_qd : initial_q);
  VecX<double> x = VecX<double>::Zero(rates ? model.nv() : model.nq());
  if (model.floating() && !rates) x[6] = 1;  // the identity quaternion
  return x;
}

std::string read_robot_text(const std::string& path) {
  if (ends_with_ignoring_case(path, ".xacro")) {
    throw InputError(path + ": xacro: expand it first with xacro (xacro " + path +
                     " > robot.urdf), then give the .urdf");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open robot file: " + std::strerror(errno));
  std::ostringstream read;
  read << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read robot file");
  return read.str();
}

RobotFile load_robot_file(const std::string& path, const std::vector<Override>& overrides,
                          const ChainSelection& chain) {
  return parse_robot_file(read_robot_text(path), path, overrides, chain);
}

RobotFile parse_robot_file(const std::string& text, const std::string& path,
                           const std::vector<Override>& overrides, const ChainSelection& chain) {
  // URDF by its content (docs/urdf.md: first element <robot>), whatever the file is called.
  const std::string element = first_xml_element(text);
  if (element == "robot" || ends_with_ignoring_case(path, ".urdf")) {
    RobotFile robot = parse_urdf(text, path, chain);
    apply_overrides(robot, overrides, chain.inertia_checks_warn);
    return robot;
  }
  if (!element.empty()) {
    throw InputError(path + ": an XML file whose first element is <" + element +
                     ">: a URDF's is <robot>, and a robot YAML is not XML");
  }
  if (!chain.base_link.empty() || !chain.tip_link.empty()) {
    throw InputError(path + ": " + mention(Parameter::base) + " and " + mention(Parameter::tip) +
                     " choose the chain of a URDF only");
  }
  if (chain.floating_base) {
    throw InputError(path + ": " + mention(Parameter::floating_base) +
                     " is for a URDF; a robot YAML says base: floating and gives its base_body");
  }
  if (chain.inertia_checks_warn) {
    throw InputError(path + ": " + mention(Parameter::inertia_checks) +
                     " is for URDF files; a robot YAML says inertia_checks: warn itself");
  }
  return parse_robot_tree(load_yaml_document(text, path), path, overrides);
}

}  // namespace denoc
