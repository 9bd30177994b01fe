#include "denoc/io/urdf.hpp"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <variant>

#include <Eigen/Geometry>

#include "denoc/io/csv.hpp"
#include "denoc/io/drive_check.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/inertia_check.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/yaml_document.hpp"

namespace denoc {

Mat3<double> frame_with_z_axis(const Vec3<double>& axis) {
  const Vec3<double> z = axis.normalized();
  // The coordinate axis least aligned with z, made orthogonal to it, is the x axis; for an
  // axis along a coordinate axis every entry is then 0 or +-1, so nothing is rounded.
  Eigen::Index least = 0;
  z.cwiseAbs().minCoeff(&least);
  Vec3<double> x = Vec3<double>::Unit(least);
  x = (x - x.dot(z) * z).normalized();
  Mat3<double> R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

namespace {

using Pose = Transform<double>;

Pose to_pose(const urdf::Pose& p) {
  Pose t;
  t.R = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z)
            .normalized()
            .toRotationMatrix();
  t.p = Vec3<double>(p.position.x, p.position.y, p.position.z);
  return t;
}

// A body's mass, mass centre and inertia about the mass centre, in one frame: what a payload
// holds, so the same struct.
using MassProperties = Payload<double>;

// urdfdom reports through console_bridge; its messages are gathered into ours.
class CapturedLog : public console_bridge::OutputHandler {
 public:
  CapturedLog() { console_bridge::useOutputHandler(this); }
  ~CapturedLog() override { console_bridge::restorePreviousOutputHandler(); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors += (errors.empty() ? "" : "; ") + text;
  }
  std::string errors;
};

// A moving joint of a branch carried by a chain body, and the value it is locked at.
struct LockedBranchJoint {
  std::string name;
  double q = 0;
};

// A link of a body's rigid group, and its frame in the group's root link frame.
struct GroupLink {
  std::string name;
  Pose pose;
};

class UrdfReader {
 public:
  UrdfReader(const urdf::ModelInterface& urdf, std::string path, bool inertia_checks_warn = false)
      : urdf_(urdf), path_(std::move(path)), warn_(inertia_checks_warn) {}

  // --inertia-checks warn (docs/robot-file.md): the inertias no rigid body has that were let in.
  const std::vector<std::string>& accepted() const { return accepted_; }

  [[noreturn]] void fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

  const urdf::Link& link(const std::string& name, const std::string& what) const {
    const urdf::LinkConstSharedPtr l = urdf_.getLink(name);
    if (!l) fail(what + " " + name + ": no link of that name");
    return *l;
  }
  // The link the user chose as `parameter` (base or tip).
  const urdf::Link& chosen_link(Parameter parameter, const std::string& name) const {
    const urdf::LinkConstSharedPtr l = urdf_.getLink(name);
    if (!l) fail(mention(parameter, name) + ": no link of that name");
    return *l;
  }

  // The link's own mass properties, in its frame; checked as in a robot YAML (strict, or
  // recorded in accepted() under --inertia-checks warn).
  MassProperties inertial(const urdf::Link& l) {
    MassProperties body;
    if (!l.inertial) return body;  // docs/urdf.md: a link without <inertial> is massless
    const urdf::Inertial& in = *l.inertial;
    const std::string key = "link '" + l.name + "': inertial";
    if (!std::isfinite(in.mass) || in.mass < 0) {
      fail(key + "/mass: must be finite and not negative, found " + std::to_string(in.mass));
    }
    Mat3<double> I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    if (!I.allFinite()) fail(key + "/inertia: every entry must be finite");
    const InertiaProblem problem = inertia_problem(I);
    if (problem.kind == InertiaProblem::triangle && warn_) {
      accepted_.push_back(key + "/inertia: " + problem.what);
    } else if (problem.kind != InertiaProblem::none) {
      fail(key + "/inertia: " + problem.what);
    }
    const Pose origin = to_pose(in.origin);
    body.mass = in.mass;
    body.com = origin.p;
    body.inertia = origin.R * I * origin.R.transpose();
    return body;
  }

  // Everything rigidly joined to `root`, in root's frame: what fixed joints hang from it, and
  // branches that leave it through a moving joint other than `next` (the chain's next joint),
  // each such joint locked (docs/urdf.md; Pinocchio's buildReducedModel does the same) and recorded
  // in `locked`. Below a locked joint every joint is locked. The links below the root, with their
  // frames in root's, go to `links`.
  MassProperties rigid_group(const urdf::Link& root, const urdf::Joint* next,
                             std::vector<LockedBranchJoint>& locked,
                             std::vector<GroupLink>& links) {
    MassProperties total;
    std::vector<std::pair<const urdf::Link*, Pose>> stack{{&root, Pose()}};
    while (!stack.empty()) {
      const auto [l, pose] = stack.back();
      stack.pop_back();
      if (l != &root) links.push_back({l->name, pose});
      total = combined(total, transformed(inertial(*l), pose));
      for (const urdf::JointSharedPtr& j : l->child_joints) {
        if (j.get() == next) continue;
        Pose child_pose = pose * to_pose(j->parent_to_joint_origin_transform);
        if (j->type != urdf::Joint::FIXED) {
          const double q = locked_value(*j);
          child_pose = child_pose * motion(*j, q);
          locked.push_back({j->name, q});
        }
        stack.emplace_back(&link(j->child_link_name, "joint '" + j->name + "' child"), child_pose);
      }
    }
    return total;
  }

  // Where a carried branch's moving joint is locked: at 0, or at the nearest limit when 0 is
  // outside the joint's limits.
  double locked_value(const urdf::Joint& j) const {
    if (j.type == urdf::Joint::FLOATING || j.type == urdf::Joint::PLANAR) {
      fail("joint '" + j.name + "': " + (j.type == urdf::Joint::FLOATING ? "floating" : "planar") +
           " joints cannot be carried locked in a branch off the chain (only revolute, "
           "continuous, prismatic and fixed)");
    }
    if (j.type == urdf::Joint::CONTINUOUS || !j.limits || !(j.limits->lower <= j.limits->upper))
      return 0;
    return std::clamp(0.0, j.limits->lower, j.limits->upper);
  }

  // The motion of a moving joint at q: a turn about its axis or a shift along it.
  Pose motion(const urdf::Joint& j, double q) const {
    const Vec3<double> axis = unit_axis(j);
    Pose m;
    if (j.type == urdf::Joint::PRISMATIC) {
      m.p = q * axis;
    } else {
      m.R = Eigen::AngleAxisd(q, axis).toRotationMatrix();
    }
    return m;
  }

  Vec3<double> unit_axis(const urdf::Joint& j) const {
    const Vec3<double> axis(j.axis.x, j.axis.y, j.axis.z);
    if (!axis.allFinite() || !(axis.norm() > 1e-12))
      fail("joint '" + j.name + "': axis must be a non-zero vector");
    return axis.normalized();
  }

 private:
  const urdf::ModelInterface& urdf_;
  std::string path_;
  bool warn_ = false;
  std::vector<std::string> accepted_;
};

// The moving joints from `base` down to `l`.
std::vector<const urdf::Joint*> moving_joints_above(const urdf::ModelInterface& urdf,
                                                    const urdf::Link& base, const urdf::Link* l) {
  std::vector<const urdf::Joint*> joints;
  for (; l != &base && l->parent_joint; l = urdf.getLink(l->parent_joint->parent_link_name).get()) {
    if (l->parent_joint->type != urdf::Joint::FIXED)
      joints.insert(joints.begin(), l->parent_joint.get());
  }
  return joints;
}

// The leaves below `base` that end a chain (docs/urdf.md), by their URDF link names, in depth-first
// order. A leaf whose path from the base crosses no moving joint (the UR5's `base`) is carried
// by the base, and one whose moving joints all lie on the way to another leaf (a sensor frame
// fixed to a link half-way) is carried by that link: neither ends a chain. Two leaves behind
// the same last moving joint (a `flange` and a `tool0` on separate fixed joints) both remain:
// the tip's frame is the tool frame, so the choice matters.
std::vector<std::string> chain_ends(const urdf::ModelInterface& urdf, const urdf::Link& base) {
  std::vector<std::pair<std::string, std::vector<const urdf::Joint*>>> leaves;
  std::vector<const urdf::Link*> stack{&base};
  while (!stack.empty()) {
    const urdf::Link* l = stack.back();
    stack.pop_back();
    if (l->child_links.empty()) {
      std::vector<const urdf::Joint*> joints = moving_joints_above(urdf, base, l);
      if (!joints.empty()) leaves.emplace_back(l->name, std::move(joints));
    }
    for (auto it = l->child_links.rbegin(); it != l->child_links.rend(); ++it)
      stack.push_back(it->get());
  }
  std::vector<std::string> ends;
  for (const auto& leaf : leaves) {
    // Not a structured binding: clang 14 refuses to capture one in a lambda (C++17).
    const std::vector<const urdf::Joint*>& joints = leaf.second;
    const bool carried = std::any_of(leaves.begin(), leaves.end(), [&](const auto& other) {
      const auto& longer = other.second;
      return joints.size() < longer.size() &&
             std::equal(joints.begin(), joints.end(), longer.begin());
    });
    if (!carried) ends.push_back(leaf.first);
  }
  return ends;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The attributes of a URDF that hold numbers the reader takes (docs/urdf.md), by element: one
// number each, or three (a vector). urdfdom drops an <inertial> whose numbers it cannot read
// and keeps the link, massless, without a word; these are checked first, each with its line.
struct NumberAttribute {
  const char* element;  // a path below <link> or <joint>
  const char* attribute;
  int count;
};

constexpr NumberAttribute kLinkNumbers[] = {
    {"inertial/origin", "xyz", 3},  {"inertial/origin", "rpy", 3},  {"inertial/mass", "value", 1},
    {"inertial/inertia", "ixx", 1}, {"inertial/inertia", "ixy", 1}, {"inertial/inertia", "ixz", 1},
    {"inertial/inertia", "iyy", 1}, {"inertial/inertia", "iyz", 1}, {"inertial/inertia", "izz", 1},
};
constexpr NumberAttribute kJointNumbers[] = {
    {"origin", "xyz", 3},       {"origin", "rpy", 3},       {"axis", "xyz", 3},
    {"limit", "lower", 1},      {"limit", "upper", 1},      {"limit", "effort", 1},
    {"limit", "velocity", 1},   {"dynamics", "damping", 1}, {"dynamics", "friction", 1},
    {"mimic", "multiplier", 1}, {"mimic", "offset", 1},
};

// Whether `text` is `count` finite decimal numbers separated by white space (the form of
// docs/errors.md: no hex, nan or inf).
bool holds_numbers(const std::string& text, int count) {
  std::istringstream words(text);
  std::string word;
  int found = 0;
  double value = 0;
  while (words >> word) {
    if (++found > count || !parse_double(word, value)) return false;
  }
  return found == count;
}

// The first element at `path` ("inertial/mass") below `parent`, or null.
const TiXmlElement* element_at(const TiXmlElement& parent, const std::string& path) {
  const TiXmlElement* e = &parent;
  std::size_t from = 0;
  while (e && from <= path.size()) {
    const std::size_t slash = std::min(path.find('/', from), path.size());
    e = e->FirstChildElement(path.substr(from, slash - from).c_str());
    from = slash + 1;
  }
  return e;
}

// InputError "PATH:LINE: link 'NAME': inertial/mass value 'abc' is not a number" for the first
// attribute of `kind` elements (link or joint) that the reader takes and cannot read.
template <std::size_t N>
void check_numbers_of(const TiXmlElement& robot, const char* kind,
                      const NumberAttribute (&attributes)[N], const std::string& path) {
  for (const TiXmlElement* e = robot.FirstChildElement(kind); e; e = e->NextSiblingElement(kind)) {
    const char* name = e->Attribute("name");
    for (const NumberAttribute& a : attributes) {
      const TiXmlElement* holder = element_at(*e, a.element);
      const char* text = holder ? holder->Attribute(a.attribute) : nullptr;
      if (!text || holds_numbers(text, a.count)) continue;
      throw InputError(
          path + ":" + std::to_string(holder->Row()) + ": " + kind + " '" + (name ? name : "") +
          "': " + a.element + " " + a.attribute + " '" + text + "' is not " +
          (a.count == 1 ? std::string("a number") : std::to_string(a.count) + " numbers") +
          " (decimal, finite, separated by spaces)");
    }
  }
}

void check_numbers(const TiXmlDocument& doc, const std::string& path) {
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) return;  // urdfdom says what is missing
  check_numbers_of(*robot, "link", kLinkNumbers, path);
  check_numbers_of(*robot, "joint", kJointNumbers, path);
}

// urdfdom reports malformed XML without a line ("Error reading end tag."): the text is parsed
// with TinyXML, urdfdom's own parser, first, whose error has its row; then the numbers the
// reader takes are checked, each with its line.
void check_xml(const std::string& text, const std::string& path) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n');
    throw InputError(path + ":" + std::to_string(line) + ": a NUL byte (a URDF is text)");
  }
  TiXmlDocument doc;
  doc.Parse(text.c_str());
  if (!doc.Error()) {
    check_numbers(doc, path);
    return;
  }
  // TinyXML gives no row when the text ends inside an element: that is the last line.
  long row = doc.ErrorRow();
  std::string where;
  if (row <= 0) {
    const std::size_t end = text.find_last_not_of("\r\n");
    row = end == std::string::npos
              ? 1
              : 1 + std::count(text.begin(), text.begin() + static_cast<long>(end), '\n');
    where = " (at the end of the file)";
  }
  throw InputError(path + ":" + std::to_string(row) + ": not valid XML: " + doc.ErrorDesc() +
                   where);
}

// The URDF's text as urdfdom's model, its errors gathered into one InputError.
urdf::ModelInterfaceSharedPtr parsed_urdf(const std::string& text, const std::string& path) {
  check_xml(text, path);
  CapturedLog log;
  urdf::ModelInterfaceSharedPtr parsed = urdf::parseURDF(text);
  if (!parsed) {
    throw InputError(path + ": not a valid URDF" + (log.errors.empty() ? "" : ": " + log.errors));
  }
  return parsed;
}

// Whether the moving joints below `base` branch: some body (a link with all that fixed joints
// join to it) is the parent of two or more moving joints.
bool moving_joints_branch(const UrdfReader& reader, const urdf::Link& base) {
  std::map<const urdf::Joint*, int> children;  // per body, by the joint that moves it (base: null)
  std::vector<std::pair<const urdf::Link*, const urdf::Joint*>> stack{{&base, nullptr}};
  while (!stack.empty()) {
    const auto [l, body] = stack.back();
    stack.pop_back();
    for (const urdf::JointSharedPtr& j : l->child_joints) {
      const bool moving = j->type != urdf::Joint::FIXED;
      if (moving && ++children[body] > 1) return true;
      stack.emplace_back(&reader.link(j->child_link_name, "joint '" + j->name + "' child"),
                         moving ? j.get() : body);
    }
  }
  return false;
}

// Where the chain ends (docs/urdf.md): at `link`, whose frame is the tool frame unless `ends`
// lists the several leaves that hang from it through fixed joints side by side.
struct ChainEnd {
  const urdf::Link* link = nullptr;  // none: the moving joints branch, the tree is read whole
  std::vector<std::string> ends;
};

// --tip, or else the one leaf below the base that ends a chain; none when no --tip is given and
// the moving joints branch: the tree is then read whole. Moving joints in one chain with several
// leaves at its end (a flange and a camera side by side) end at the last moving joint's link,
// with no tool frame: a URDF whose moving joints form one chain is never refused for want of one.
// With no moving joint at all, a floating base is one free body (a box, a satellite), read as a
// tree of no joints.
ChainEnd chain_end(const UrdfReader& reader, const urdf::ModelInterface& urdf,
                   const urdf::Link& base, const ChainSelection& selection) {
  if (!selection.tip_link.empty())
    return {&reader.chosen_link(Parameter::tip, selection.tip_link), {}};
  const std::vector<std::string> leaves = chain_ends(urdf, base);
  if (leaves.empty() && selection.floating_base) return {};
  if (leaves.empty()) reader.fail("no moving joint below link '" + base.name + "'");
  if (leaves.size() == 1) return {&reader.link(leaves.front(), "the leaf"), {}};
  if (moving_joints_branch(reader, base)) return {};
  // Every leaf left is behind all the moving joints (their joints do not branch).
  const std::vector<const urdf::Joint*> joints =
      moving_joints_above(urdf, base, &reader.link(leaves.front(), "the leaf"));
  return {&reader.link(joints.back()->child_link_name, "joint '" + joints.back()->name + "' child"),
          leaves};
}

// The joints from the base down to the tip, fixed ones included: the path tip -> base through
// the parent joints, reversed.
std::vector<const urdf::Joint*> chain_joints(const UrdfReader& reader,
                                             const urdf::ModelInterface& urdf,
                                             const urdf::Link& base, const urdf::Link& tip) {
  std::vector<const urdf::Joint*> joints;
  for (const urdf::Link* l = &tip; l != &base;) {
    if (!l->parent_joint) {
      reader.fail(mention(Parameter::tip, tip.name) + " is not below " +
                  mention(Parameter::base, base.name) +
                  " in the URDF tree (root: " + urdf.getRoot()->name + ")");
    }
    joints.insert(joints.begin(), l->parent_joint.get());
    l = &reader.link(l->parent_joint->parent_link_name,
                     "joint '" + l->parent_joint->name + "' parent");
  }
  return joints;
}

// The first moving joint among joints[from..], or none.
const urdf::Joint* next_moving(const std::vector<const urdf::Joint*>& joints, std::size_t from) {
  for (std::size_t m = from; m < joints.size(); ++m) {
    if (joints[m]->type != urdf::Joint::FIXED) return joints[m];
  }
  return nullptr;
}

void check_chain_joint(const UrdfReader& reader, const urdf::Joint& j,
                       const char* where = "the chain") {
  const std::string key = "joint '" + j.name + "'";
  if (j.type == urdf::Joint::FLOATING || j.type == urdf::Joint::PLANAR) {
    reader.fail(key + ": " + (j.type == urdf::Joint::FLOATING ? "floating" : "planar") +
                " joints cannot be part of " + where +
                " (only revolute, continuous, prismatic and fixed)");
  }
  if (j.type != urdf::Joint::REVOLUTE && j.type != urdf::Joint::CONTINUOUS &&
      j.type != urdf::Joint::PRISMATIC) {
    reader.fail(key + ": joint type not supported on " + where);
  }
}

// What reading the chain gives besides the names, drives and <dynamics> it puts in the
// RobotFile: the model's links, the joints locked and the mimic joints freed; at the end
// `link_in_joint_frame` is the tip link's frame in J_n, the tool frame.
struct ChainRead {
  std::vector<LinkSpec<double>> links;
  std::vector<LockedBranchJoint> locked;
  std::vector<std::string> mimics;
  Pose link_in_joint_frame;  // the current link's frame seen from J_{i-1} (J_0 = base)
  MassProperties base_body;  // the base's rigid group, in the base frame
  std::vector<RobotFile::LinkFrame> frames;  // the links merged into a body, and the base link
};

// The links of body `body`'s rigid group as frames in J_body, the root's frame there being
// `root_in_joint_frame`.
void add_group_frames(const std::vector<GroupLink>& group, int body,
                      const Pose& root_in_joint_frame, std::vector<RobotFile::LinkFrame>& frames) {
  for (const GroupLink& l : group)
    frames.push_back({l.name, body, root_in_joint_frame * l.pose});
}

// A joint's <dynamics>, as the drive they are read as, checked as a robot YAML's drive is.
void check_dynamics(const UrdfReader& reader, const urdf::Joint& j, const Drive<double>& drive) {
  const std::string key = "joint '" + j.name + "': dynamics/";
  if (!std::isfinite(drive.B) || !std::isfinite(drive.Tc_pos)) {
    reader.fail(key + "damping, friction: must be finite");
  }
  if (const std::optional<DriveProblem> problem = drive_problem(drive)) {
    const bool viscous = problem->field == DriveProblem::B;
    reader.fail(key + (viscous ? "damping: must be >= 0 (N m s/rad), found " + shortest(drive.B)
                               : "friction: must be >= 0 (N m), found " + shortest(drive.Tc_pos)));
  }
}

// A moving joint's names, <dynamics> and drive into `robot` and `spec`.
void record_joint(const UrdfReader& reader, const urdf::Joint& j, const urdf::Link& child,
                  const Pose& child_frame, LinkSpec<double>& spec, RobotFile& robot) {
  robot.joint_names.push_back(j.name);
  robot.link_names.push_back(child.name);
  robot.link_frames.push_back(child_frame);  // for --frame (io/frames.hpp)
  RobotFile::JointDamping damping;
  if (j.dynamics) damping = {j.dynamics->damping, j.dynamics->friction};
  robot.urdf_joint_dynamics.push_back(damping);
  // <dynamics damping friction> are the drive's B and Tc, with G = 1 and no rotor.
  spec.drive.B = damping.damping;
  spec.drive.Tc_pos = damping.friction;
  spec.drive.Tc_neg = -damping.friction;
  check_dynamics(reader, j, spec.drive);
  robot.drives.push_back(spec.drive);
}

// Moving joint k of the chain, and the rigid group of bodies it moves.
void read_moving_joint(UrdfReader& reader, const std::vector<const urdf::Joint*>& joints,
                       std::size_t k, ChainRead& chain, RobotFile& robot) {
  const urdf::Joint& j = *joints[k];
  check_chain_joint(reader, j);
  // A mimic joint is read as an independent joint, as Pinocchio's parser does.
  if (j.mimic) chain.mimics.push_back(j.name + " (mimics " + j.mimic->joint_name + ")");
  // J_i: the joint frame of the URDF turned so that its z axis is the joint axis.
  const Pose turn{frame_with_z_axis(reader.unit_axis(j)), Vec3<double>::Zero()};
  LinkSpec<double> spec;
  spec.type = j.type == urdf::Joint::PRISMATIC ? JointType::prismatic : JointType::revolute;
  spec.placement = chain.link_in_joint_frame * to_pose(j.parent_to_joint_origin_transform) * turn;
  chain.link_in_joint_frame = turn.inverse();  // the child link's frame seen from J_i
  const urdf::Link& child = reader.link(j.child_link_name, "joint '" + j.name + "' child");
  std::vector<GroupLink> group;
  const MassProperties body =
      reader.rigid_group(child, next_moving(joints, k + 1), chain.locked, group);
  add_group_frames(group, static_cast<int>(chain.links.size()), chain.link_in_joint_frame,
                   chain.frames);
  spec.mass = body.mass;
  spec.com = chain.link_in_joint_frame * body.com;
  spec.inertia =
      chain.link_in_joint_frame.R * body.inertia * chain.link_in_joint_frame.R.transpose();
  record_joint(reader, j, child, chain.link_in_joint_frame, spec, robot);
  chain.links.push_back(spec);
}

ChainRead read_chain(UrdfReader& reader, const urdf::Link& base,
                     const std::vector<const urdf::Joint*>& joints, RobotFile& robot) {
  ChainRead chain;
  std::vector<GroupLink> group{{base.name, Pose()}};
  chain.base_body = reader.rigid_group(base, next_moving(joints, 0), chain.locked, group);
  add_group_frames(group, -1, Pose(), chain.frames);
  for (std::size_t k = 0; k < joints.size(); ++k) {
    if (joints[k]->type == urdf::Joint::FIXED) {
      chain.link_in_joint_frame =
          chain.link_in_joint_frame * to_pose(joints[k]->parent_to_joint_origin_transform);
    } else {
      read_moving_joint(reader, joints, k, chain, robot);
    }
  }
  return chain;
}

// Reading a whole tree (docs/urdf.md): every moving joint below the base is a joint of the
// model, numbered depth-first, the children of a link in the byte order of their joints' names
// (urdfdom's order, and Pinocchio's numbering), a fixed joint's subtree placed by the fixed
// joint's name; each body is the rigid union of the links that fixed joints join.
class TreeRead {
 public:
  TreeRead(UrdfReader& reader, RobotFile& robot) : reader_(reader), robot_(robot) {}

  // The subtree below `l`, a link of body `body` (-1: the base) whose frame is `pose` in that
  // body's joint frame (the base frame for the base).
  void visit(const urdf::Link& l, int body, const Pose& pose) {
    const bool moved = body >= 0 && l.parent_joint && l.parent_joint->type != urdf::Joint::FIXED;
    if (!moved) robot_.fixed_link_frames.push_back({l.name, body, pose});  // else a link name
    add_mass(l, body, pose);
    std::vector<const urdf::Joint*> children;
    for (const urdf::JointSharedPtr& j : l.child_joints)
      children.push_back(j.get());
    std::sort(children.begin(), children.end(),
              [](const urdf::Joint* a, const urdf::Joint* b) { return a->name < b->name; });
    for (const urdf::Joint* j : children) {
      const urdf::Link& child = reader_.link(j->child_link_name, "joint '" + j->name + "' child");
      const Pose origin = pose * to_pose(j->parent_to_joint_origin_transform);
      if (j->type == urdf::Joint::FIXED) {
        visit(child, body, origin);
      } else {
        const Pose turn{frame_with_z_axis(reader_.unit_axis(*j)), Vec3<double>::Zero()};
        const int joint = add_joint(*j, child, body, origin * turn, turn.inverse());
        tool = turn.inverse();  // kept for the last joint: the tool frame of a tree
        tip = child.name;
        visit(child, joint, turn.inverse());
      }
    }
  }

  std::vector<LinkSpec<double>> links;
  std::vector<std::string> mimics;
  Pose tool;                 // the last joint's child link frame in its joint frame J_n
  std::string tip;           // that link's name
  MassProperties base_body;  // the base link and the links fixed to it, in the base frame

 private:
  // Joint i: placed in its parent body's joint frame, its body's mass properties summed later.
  int add_joint(const urdf::Joint& j, const urdf::Link& child, int parent, const Pose& placement,
                const Pose& child_frame) {
    check_chain_joint(reader_, j, "the tree");
    if (j.mimic) mimics.push_back(j.name + " (mimics " + j.mimic->joint_name + ")");
    LinkSpec<double> spec;
    spec.type = j.type == urdf::Joint::PRISMATIC ? JointType::prismatic : JointType::revolute;
    spec.parent = parent;
    spec.placement = placement;
    spec.mass = 0;
    record_joint(reader_, j, child, child_frame, spec, robot_);
    links.push_back(spec);
    return static_cast<int>(links.size()) - 1;
  }

  // The link's inertial joined to its body's (the base's kept for a floating base).
  void add_mass(const urdf::Link& l, int body, const Pose& pose) {
    const MassProperties m = transformed(reader_.inertial(l), pose);
    if (body < 0) {
      base_body = combined(base_body, m);
    } else {
      join_body(links[static_cast<std::size_t>(body)], m);
    }
  }

  UrdfReader& reader_;
  RobotFile& robot_;
};

// One warning line each for joints locked, mimic joints freed and inertias let in.
void chain_warnings(const ChainRead& chain, const UrdfReader& reader, const std::string& route,
                    RobotFile& robot) {
  const std::string& path = robot.path;
  if (!chain.locked.empty()) {
    std::vector<std::string> names;
    for (const LockedBranchJoint& l : chain.locked)
      names.push_back(l.name + " at " + shortest(l.q));
    robot.warnings.push_back(
        path + ": carried " + std::to_string(chain.locked.size()) +
        " moving joint(s) of branches off the chain " + route +
        " locked, as rigid parts of the body they hang from: " + joined(names));
  }
  if (!chain.mimics.empty()) {
    robot.warnings.push_back(path + ": mimic joint(s) read as independent joints, each with its " +
                             "own variable (the coupling is not applied): " + joined(chain.mimics));
  }
  if (!reader.accepted().empty()) {
    robot.warnings.push_back(path + ": accepted by " + mention(Parameter::inertia_checks, "warn") +
                             ", no rigid body has " + joined(reader.accepted()));
    robot.check_positive_definite = true;  // the apps check M at every state
  }
}

}  // namespace

namespace {

// The model of the links read, with gravity along the world's -z; with --floating-base its base
// moves freely carrying `base_body` (docs/floating-base.md), which must then have a mass.
Model<double> urdf_model(const std::vector<LinkSpec<double>>& links, const RobotFile& robot,
                         const MassProperties& base_body) {
  const Vec3<double> gravity(0, 0, -9.81);
  if (!robot.floating_base) return Model<double>(links, gravity, robot.tool, Payload<double>());
  if (!(base_body.mass > 0))
    throw InputError(robot.path + ": " + mention(Parameter::floating_base) +
                     ": the base link and the links fixed to it have no mass (a free base needs "
                     "one)");
  return Model<double>(links, gravity, robot.tool, Payload<double>(), base_body);
}

// The whole tree below `base` (no --tip, several leaves end chains): its tool frame is the frame
// of the link that the last joint (depth-first) moves.
void read_whole_tree(UrdfReader& reader, const urdf::Link& base, RobotFile& robot) {
  TreeRead tree(reader, robot);
  tree.visit(base, -1, Pose());
  ChainRead warnings;
  warnings.mimics = tree.mimics;
  chain_warnings(warnings, reader, "", robot);
  robot.tool = tree.tool;
  robot.tip_link = tree.tip;
  robot.model = urdf_model(tree.links, robot, tree.base_body);
}

}  // namespace

RobotFile parse_urdf(const std::string& text, const std::string& path,
                     const ChainSelection& selection) {
  const urdf::ModelInterfaceSharedPtr parsed = parsed_urdf(text, path);
  const urdf::ModelInterface& urdf = *parsed;
  UrdfReader reader(urdf, path, selection.inertia_checks_warn);
  if (!urdf.getRoot()) reader.fail("URDF without a root link");
  const urdf::Link& base = selection.base_link.empty()
                               ? *urdf.getRoot()
                               : reader.chosen_link(Parameter::base, selection.base_link);
  const ChainEnd end = chain_end(reader, urdf, base, selection);
  const urdf::Link* tip = end.link;
  RobotFile robot;
  robot.path = path;
  robot.format = "urdf";
  robot.name = urdf.getName();
  robot.source = path;
  robot.angle_scale = 1;
  robot.floating_base = selection.floating_base;
  if (!tip) {
    read_whole_tree(reader, base, robot);
    return robot;
  }
  const ChainRead chain = read_chain(reader, base, chain_joints(reader, urdf, base, *tip), robot);
  if (chain.links.empty()) {
    reader.fail("no revolute, continuous or prismatic joint between " +
                mention(Parameter::base, base.name) + " and " + mention(Parameter::tip, tip->name));
  }
  chain_warnings(chain, reader, base.name + " -> " + tip->name, robot);
  robot.fixed_link_frames = chain.frames;
  // The tip's frame, after the fixed joints beyond the last moving one (a flange, a tool0), is
  // the tool frame of pose, jacobian and a wrench; what hangs there is in the last body already.
  // A chain with several ends has none (the model keeps the last link's frame as its tool).
  robot.tool = chain.link_in_joint_frame;
  robot.chain_ends = end.ends;
  if (end.ends.empty()) robot.tip_link = tip->name;
  robot.model = urdf_model(chain.links, robot, chain.base_body);
  return robot;
}

namespace {

YAML::Node yaml_list(std::initializer_list<double> values) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (double v : values)
    list.push_back(shortest(v));
  return list;
}

// The numbers of chain link i that --set may change, as a robot YAML's link holds them (in J_i,
// SI units). `with_mass` false: a stand-in mass of 1, for a massless URDF body whose mass is not
// being set (a URDF may have one; a robot YAML may not).
YAML::Node yaml_link(const LinkSpec<double>& l, bool with_mass) {
  YAML::Node node(YAML::NodeType::Map);
  node["joint"] = l.type == JointType::revolute ? "revolute" : "prismatic";
  node["mass"] = with_mass ? shortest(l.mass) : std::string("1");
  node["com"] = yaml_list({l.com[0], l.com[1], l.com[2]});
  const Mat3<double>& I = l.inertia;
  YAML::Node inertia(YAML::NodeType::Map);
  inertia["xx"] = shortest(I(0, 0));
  inertia["yy"] = shortest(I(1, 1));
  inertia["zz"] = shortest(I(2, 2));
  inertia["xy"] = shortest(I(0, 1));
  inertia["xz"] = shortest(I(0, 2));
  inertia["yz"] = shortest(I(1, 2));
  node["inertia"] = inertia;
  const Drive<double>& d = l.drive;
  YAML::Node drive(YAML::NodeType::Map);
  drive["Jm"] = shortest(d.Jm);
  drive["G"] = shortest(d.G);
  drive["B"] = shortest(d.B);
  drive["Tc"] =
      d.Tc_neg == -d.Tc_pos ? YAML::Node(shortest(d.Tc_pos)) : yaml_list({d.Tc_pos, d.Tc_neg});
  node["drive"] = drive;
  return node;
}

// What the overrides reach: the chain's gravity, and per link the fields (mass, com, inertia,
// drive) that some override names; any other key is refused, naming it.
struct OverrideReach {
  bool gravity = false;
  std::vector<std::set<std::string>> fields;
};

OverrideReach override_reach(const RobotFile& robot, const std::vector<Override>& overrides) {
  OverrideReach reach;
  reach.fields.resize(robot.model.links().size());
  for (const Override& o : overrides) {
    const std::vector<KeyStep> steps = parse_key(o.key);
    auto name = [&](std::size_t k) {
      return k < steps.size() && std::holds_alternative<std::string>(steps[k])
                 ? std::get<std::string>(steps[k])
                 : std::string();
    };
    if (name(0) == "gravity") {
      reach.gravity = true;
      continue;
    }
    const std::set<std::string> reachable{"mass", "com", "inertia", "drive"};
    if (name(0) != "links" || steps.size() < 3 || !std::holds_alternative<std::size_t>(steps[1]) ||
        !reachable.count(name(2))) {
      throw InputError(robot.path + ": " + mention(Parameter::set, o.key) +
                       ": no such number in a URDF chain; the numbers it has are gravity[k] and "
                       "links[i].mass, .com[k], .inertia.xx (xy, ...), .drive.Jm, .G, .B, .Tc");
    }
    const std::size_t i = std::get<std::size_t>(steps[1]);
    if (i < reach.fields.size()) reach.fields[i].insert(name(2));
  }
  return reach;
}

}  // namespace

void apply_overrides(RobotFile& robot, const std::vector<Override>& overrides,
                     bool inertia_checks_warn) {
  if (overrides.empty()) return;
  std::vector<LinkSpec<double>> links = robot.model.links();
  // Which numbers the overridden fields may be is the robot YAML loader's to say: the chain's
  // are written as a YAML tree (no file, so no lines in its messages), the overrides applied to
  // it and the tree read by parse_robot_tree, with the checks of a robot file; the checked
  // values come back.
  const OverrideReach reach = override_reach(robot, overrides);
  const std::vector<std::set<std::string>>& fields = reach.fields;
  YAML::Node root(YAML::NodeType::Map);
  root["angle_unit"] = "rad";
  if (inertia_checks_warn) root["inertia_checks"] = "warn";
  const Vec3<double>& g = robot.model.gravity();
  root["gravity"] = yaml_list({g[0], g[1], g[2]});
  YAML::Node list(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < links.size(); ++i) {
    // A link no override names was checked when the URDF was read: a stand-in takes its place.
    const LinkSpec<double> stand_in;
    const bool named = !fields[i].empty();
    list.push_back(yaml_link(named ? links[i] : stand_in,
                             named && (links[i].mass > 0 || fields[i].count("mass"))));
  }
  root["links"] = list;
  const RobotFile checked = parse_robot_tree(yaml_document_from_tree(root), robot.path, overrides);
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DhLink<double>& row = checked.dh[i];
    if (fields[i].count("mass")) links[i].mass = row.mass;
    if (fields[i].count("com")) links[i].com = row.com;
    if (fields[i].count("inertia")) links[i].inertia = row.inertia;
    if (fields[i].count("drive")) links[i].drive = checked.drives[i];
  }
  robot.warnings.insert(robot.warnings.end(), checked.warnings.begin(), checked.warnings.end());
  robot.check_positive_definite = robot.check_positive_definite || checked.check_positive_definite;
  const Vec3<double> gravity = reach.gravity ? checked.model.gravity() : g;
  robot.model = robot.model.floating()
                    ? Model<double>(links, gravity, robot.model.tool(), robot.model.payload(),
                                    robot.model.base_body())
                    : Model<double>(links, gravity, robot.model.tool(), robot.model.payload());
  robot.drives.clear();
  for (const LinkSpec<double>& link : links)
    robot.drives.push_back(link.drive);
}

RobotFile load_urdf(const std::string& path, const ChainSelection& chain) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open robot file: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read robot file");
  return parse_urdf(text.str(), path, chain);
}

}  // namespace denoc
