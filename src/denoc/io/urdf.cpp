#include "denoc/io/urdf.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <variant>

#include <Eigen/Geometry>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/inertia_check.hpp"

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

Pose inverse(const Pose& t) {
  return {t.R.transpose(), -(t.R.transpose() * t.p)};
}

// A body's mass, mass centre and inertia about the mass centre, in one frame.
struct MassProperties {
  double mass = 0;
  Vec3<double> com = Vec3<double>::Zero();
  Mat3<double> inertia = Mat3<double>::Zero();
};

// Two rigidly joined bodies as one (parallel-axis theorem about the common mass centre).
MassProperties combine(const MassProperties& a, const MassProperties& b) {
  MassProperties c;
  c.mass = a.mass + b.mass;
  if (c.mass == 0) {  // massless bodies may still carry rotational inertia (Corke's Puma link 1)
    c.inertia = a.inertia + b.inertia;
    return c;
  }
  c.com = (a.mass * a.com + b.mass * b.com) / c.mass;
  auto shifted = [&](const MassProperties& body) {
    const Vec3<double> r = body.com - c.com;
    return Mat3<double>(body.inertia + body.mass * (r.squaredNorm() * Mat3<double>::Identity() -
                                                    r * r.transpose()));
  };
  c.inertia = shifted(a) + shifted(b);
  return c;
}

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

class UrdfReader {
 public:
  UrdfReader(const urdf::ModelInterface& urdf, std::string path, bool inertia_checks_warn = false)
      : urdf_(urdf), path_(std::move(path)), warn_(inertia_checks_warn) {}

  // --inertia-checks warn (spec §10): the inertias no rigid body has that were let in.
  const std::vector<std::string>& accepted() const { return accepted_; }

  [[noreturn]] void fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

  const urdf::Link& link(const std::string& name, const std::string& option) const {
    const urdf::LinkConstSharedPtr l = urdf_.getLink(name);
    if (!l) fail(option + " " + name + ": no link of that name");
    return *l;
  }

  // The link's own mass properties, in its frame; checked as in a robot YAML (strict, or
  // recorded in accepted() under --inertia-checks warn).
  MassProperties inertial(const urdf::Link& l) {
    MassProperties body;
    if (!l.inertial) return body;  // spec §8: a link without <inertial> is massless
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

  // Everything joined to `root` by fixed joints only, in root's frame; moving joints met on
  // the way, other than `next` (the chain's next joint), are branches left out.
  MassProperties rigid_group(const urdf::Link& root, const urdf::Joint* next,
                             std::vector<std::string>& branches) {
    MassProperties total;
    std::vector<std::pair<const urdf::Link*, Pose>> stack{{&root, Pose()}};
    while (!stack.empty()) {
      const auto [l, pose] = stack.back();
      stack.pop_back();
      MassProperties body = inertial(*l);
      body.com = pose * body.com;
      body.inertia = pose.R * body.inertia * pose.R.transpose();
      total = combine(total, body);
      for (const urdf::JointSharedPtr& j : l->child_joints) {
        if (j->type == urdf::Joint::FIXED) {
          const urdf::Link& child = link(j->child_link_name, "joint '" + j->name + "' child");
          stack.emplace_back(&child, pose * to_pose(j->parent_to_joint_origin_transform));
        } else if (j.get() != next) {
          branches.push_back(j->name);
        }
      }
    }
    return total;
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

// The ends of the chains below `base`: the leaves, except those whose moving joints all lie on
// the way to another leaf (a sensor frame fixed to a link is carried by that link, it does not
// end a chain of its own). Leaves at the same end keep the first in depth-first order.
std::vector<std::string> chain_ends(const urdf::ModelInterface& urdf, const urdf::Link& base) {
  std::vector<std::pair<std::string, std::vector<const urdf::Joint*>>> leaves;
  std::vector<const urdf::Link*> stack{&base};
  while (!stack.empty()) {
    const urdf::Link* l = stack.back();
    stack.pop_back();
    if (l->child_links.empty()) leaves.emplace_back(l->name, moving_joints_above(urdf, base, l));
    for (auto it = l->child_links.rbegin(); it != l->child_links.rend(); ++it)
      stack.push_back(it->get());
  }
  std::vector<std::string> ends;
  for (std::size_t a = 0; a < leaves.size(); ++a) {
    bool covered = false;
    for (std::size_t b = 0; b < leaves.size() && !covered; ++b) {
      const auto& pa = leaves[a].second;
      const auto& pb = leaves[b].second;
      const bool prefix = pa.size() <= pb.size() && std::equal(pa.begin(), pa.end(), pb.begin());
      // b covers a when a's joints are a prefix of b's: strictly shorter, or equal and b first.
      covered = b != a && prefix && (pa.size() < pb.size() || b < a);
    }
    if (!covered) ends.push_back(leaves[a].first);
  }
  return ends;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

RobotFile parse_urdf(const std::string& text, const std::string& path,
                     const ChainSelection& chain) {
  urdf::ModelInterfaceSharedPtr parsed;
  {
    CapturedLog log;
    parsed = urdf::parseURDF(text);
    if (!parsed) {
      throw InputError(path + ": not a valid URDF" + (log.errors.empty() ? "" : ": " + log.errors));
    }
  }
  const urdf::ModelInterface& urdf = *parsed;
  UrdfReader reader(urdf, path, chain.inertia_checks_warn);
  if (!urdf.getRoot()) reader.fail("URDF without a root link");
  const urdf::Link& base =
      chain.base_link.empty() ? *urdf.getRoot() : reader.link(chain.base_link, "--base");
  std::string tip_name = chain.tip_link;
  if (tip_name.empty()) {
    const std::vector<std::string> leaves = chain_ends(urdf, base);
    if (leaves.size() != 1) {
      reader.fail("the tree below link '" + base.name + "' has " + std::to_string(leaves.size()) +
                  " leaves that end chains (" + joined(leaves) +
                  "); choose the chain's end with --tip LINK");
    }
    tip_name = leaves.front();
  }
  const urdf::Link& tip = reader.link(tip_name, "--tip");

  // The path tip -> base through the parent joints, then reversed.
  std::vector<const urdf::Joint*> path_joints;
  for (const urdf::Link* l = &tip; l != &base;) {
    if (!l->parent_joint) {
      reader.fail("--tip " + tip.name + " is not below --base " + base.name +
                  " in the URDF tree (root: " + urdf.getRoot()->name + ")");
    }
    path_joints.insert(path_joints.begin(), l->parent_joint.get());
    l = &reader.link(l->parent_joint->parent_link_name,
                     "joint '" + l->parent_joint->name + "' parent");
  }

  RobotFile robot;
  robot.path = path;
  robot.format = "urdf";
  robot.name = urdf.getName();
  robot.source = path;
  robot.angle_scale = 1;
  std::vector<std::string> branches;
  std::vector<LinkSpec<double>> links;
  // Where the current link's frame is, seen from the last joint frame J_{i-1} (J_0 = base).
  Pose link_in_joint_frame;
  const urdf::Joint* first_moving = nullptr;
  for (const urdf::Joint* j : path_joints) {
    if (j->type != urdf::Joint::FIXED) {
      first_moving = j;
      break;
    }
  }
  {
    std::vector<std::string> base_branches;
    reader.rigid_group(base, first_moving, base_branches);  // checks the base's inertials
    branches.insert(branches.end(), base_branches.begin(), base_branches.end());
  }
  for (std::size_t k = 0; k < path_joints.size(); ++k) {
    const urdf::Joint& j = *path_joints[k];
    const std::string key = "joint '" + j.name + "'";
    const Pose origin = to_pose(j.parent_to_joint_origin_transform);
    if (j.type == urdf::Joint::FIXED) {
      link_in_joint_frame = link_in_joint_frame * origin;
      continue;
    }
    if (j.type == urdf::Joint::FLOATING || j.type == urdf::Joint::PLANAR) {
      reader.fail(key + ": " + (j.type == urdf::Joint::FLOATING ? "floating" : "planar") +
                  " joints cannot be part of the chain (only revolute, continuous, prismatic "
                  "and fixed)");
    }
    if (j.type != urdf::Joint::REVOLUTE && j.type != urdf::Joint::CONTINUOUS &&
        j.type != urdf::Joint::PRISMATIC) {
      reader.fail(key + ": joint type not supported on the chain");
    }
    if (j.mimic) {
      reader.fail(key + ": mimic joints (coupled to joint '" + j.mimic->joint_name +
                  "') cannot be part of the chain: each chain joint needs its own variable");
    }
    const Vec3<double> axis(j.axis.x, j.axis.y, j.axis.z);
    if (!axis.allFinite() || !(axis.norm() > 1e-12))
      reader.fail(key + ": axis must be a non-zero vector");
    // J_i: the joint frame of the URDF turned so that its z axis is the joint axis.
    const Pose turn{frame_with_z_axis(axis), Vec3<double>::Zero()};
    LinkSpec<double> spec;
    spec.type = j.type == urdf::Joint::PRISMATIC ? JointType::prismatic : JointType::revolute;
    spec.placement = link_in_joint_frame * origin * turn;
    link_in_joint_frame = inverse(turn);  // the child link's frame seen from J_i
    const urdf::Link& child = reader.link(j.child_link_name, key + " child");
    const urdf::Joint* next = nullptr;
    for (std::size_t m = k + 1; m < path_joints.size() && !next; ++m) {
      if (path_joints[m]->type != urdf::Joint::FIXED) next = path_joints[m];
    }
    MassProperties body = reader.rigid_group(child, next, branches);
    spec.mass = body.mass;
    spec.com = link_in_joint_frame * body.com;
    spec.inertia = link_in_joint_frame.R * body.inertia * link_in_joint_frame.R.transpose();
    robot.joint_names.push_back(j.name);
    robot.link_names.push_back(child.name);
    RobotFile::JointDamping damping;
    if (j.dynamics) damping = {j.dynamics->damping, j.dynamics->friction};
    robot.urdf_joint_dynamics.push_back(damping);
    // Spec §8: <dynamics damping friction> are the drive's B and Tc, with G = 1 and no rotor.
    spec.drive.B = damping.damping;
    spec.drive.Tc_pos = damping.friction;
    spec.drive.Tc_neg = -damping.friction;
    robot.drives.push_back(spec.drive);
    links.push_back(spec);
  }
  if (links.empty()) {
    reader.fail("no revolute, continuous or prismatic joint between --base " + base.name +
                " and --tip " + tip.name);
  }
  if (!branches.empty()) {
    robot.warnings.push_back(path + ": left out " + std::to_string(branches.size()) +
                             " branch(es) that leave the chain " + base.name + " -> " + tip.name +
                             " through a moving joint: " + joined(branches));
  }
  if (!reader.accepted().empty()) {
    robot.warnings.push_back(path + ": accepted by --inertia-checks warn, no rigid body has " +
                             joined(reader.accepted()));
    robot.check_positive_definite = true;  // spec §10: the apps check M at every state
  }
  robot.model = Model<double>(links);
  return robot;
}

void apply_overrides(RobotFile& robot, const std::vector<Override>& overrides) {
  if (overrides.empty()) return;
  std::vector<LinkSpec<double>> links = robot.model.links();
  Vec3<double> gravity = robot.model.gravity();
  for (const Override& o : overrides) {
    const std::vector<KeyStep> steps = parse_key(o.key);
    const std::string where = robot.path + ": --set " + o.key;
    double value = 0;
    if (!parse_double(o.value, value)) throw InputError(where + ": not a number: " + o.value);
    auto name = [&](std::size_t k) -> std::string {
      return k < steps.size() && std::holds_alternative<std::string>(steps[k])
                 ? std::get<std::string>(steps[k])
                 : std::string();
    };
    auto index = [&](std::size_t k, std::size_t size) -> std::size_t {
      if (k >= steps.size() || !std::holds_alternative<std::size_t>(steps[k]) ||
          std::get<std::size_t>(steps[k]) >= size) {
        throw InputError(where + ": no such key in a URDF chain of " +
                         std::to_string(links.size()) + " links");
      }
      return std::get<std::size_t>(steps[k]);
    };
    const auto unknown = [&] {
      return InputError(where +
                        ": no such number in a URDF chain; --set reaches gravity[k] and "
                        "links[i].mass, .com[k], .inertia.xx (xy, ...), .drive.Jm, .G, .B, .Tc");
    };
    if (name(0) == "gravity" && steps.size() == 2) {
      gravity[static_cast<Eigen::Index>(index(1, 3))] = value;
      continue;
    }
    if (name(0) != "links") throw unknown();
    LinkSpec<double>& link = links[index(1, links.size())];
    const std::string field = name(2);
    if (field == "mass" && steps.size() == 3) {
      if (!(value >= 0)) throw InputError(where + ": a mass must not be negative");
      link.mass = value;
    } else if (field == "com" && steps.size() == 4) {
      link.com[static_cast<Eigen::Index>(index(3, 3))] = value;
    } else if (field == "inertia" && steps.size() == 4) {
      static const std::pair<const char*, std::pair<int, int>> entries[] = {
          {"xx", {0, 0}}, {"yy", {1, 1}}, {"zz", {2, 2}},
          {"xy", {0, 1}}, {"xz", {0, 2}}, {"yz", {1, 2}}};
      bool found = false;
      for (const auto& [entry, rc] : entries) {
        if (name(3) != entry) continue;
        link.inertia(rc.first, rc.second) = link.inertia(rc.second, rc.first) = value;
        found = true;
      }
      if (!found) throw unknown();
      const InertiaProblem problem = inertia_problem(link.inertia);
      if (problem.kind != InertiaProblem::none) throw InputError(where + ": " + problem.what);
    } else if (field == "drive" && steps.size() == 4) {
      Drive<double>& drive = link.drive;
      if (name(3) == "Jm" && value >= 0) {
        drive.Jm = value;
      } else if (name(3) == "G" && value != 0) {
        drive.G = value;
      } else if (name(3) == "B" && value >= 0) {
        drive.B = value;
      } else if (name(3) == "Tc" && value >= 0) {
        drive.Tc_pos = value;
        drive.Tc_neg = -value;
      } else {
        throw InputError(where +
                         ": not a drive key, or a value it cannot take (Jm, B, Tc >= 0, "
                         "G != 0)");
      }
    } else {
      throw unknown();
    }
  }
  robot.model = Model<double>(links, gravity, robot.model.tool(), robot.model.payload());
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
