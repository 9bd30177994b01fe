#include "denoc/io/describe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/inertia_check.hpp"
#include "denoc/model/rotation.hpp"

namespace denoc {

namespace {

std::string g(double x) {
  if (std::abs(x) < 1e-12) x = 0;  // rounding noise of cos(90 deg), and no -0
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

std::string v3(const Vec3<double>& v) {
  return "[" + g(v[0]) + ", " + g(v[1]) + ", " + g(v[2]) + "]";
}

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s + " ";
}

void dh_table(std::ostream& out, const DhFit& fit, const char* how) {
  const double deg = 180 / M_PI;
  out << "DH table, " << (fit.convention == DhConvention::standard ? "standard" : "modified")
      << " (" << how << "; a, b in m, alpha, theta in deg; theta or b is the joint variable's zero)"
      << ":\n";
  if (fit.base) {
    out << "  needs a base placement: DH frame 0 at " << v3(fit.base->p) << ", rpy "
        << v3(deg * rpy_of(fit.base->R)) << " deg in the base frame\n";
  }
  // A tree's rows start from their parent's frame, by Khalil and Kleinfinger's gamma (deg) and
  // epsilon (m): those three columns come first.
  const bool tree = std::any_of(fit.rows.begin(), fit.rows.end(), [&](const DhLink<double>& r) {
    const auto i = static_cast<int>(&r - fit.rows.data());
    return r.parent != LinkSpec<double>::kPrevious && r.parent != i - 1;
  });
  out << "  " << padded("i", 3) << (tree ? padded("parent", 7) : "") << padded("joint", 10)
      << (tree ? padded("gamma", 12) + padded("epsilon", 12) : "") << padded("a", 12)
      << padded("b", 12) << padded("alpha", 12) << "theta\n";
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const DhLink<double>& r = fit.rows[i];
    const int parent = r.parent == LinkSpec<double>::kPrevious ? static_cast<int>(i) - 1 : r.parent;
    out << "  " << padded(std::to_string(i + 1), 3)
        << (tree ? padded(std::to_string(parent + 1), 7) : "")
        << padded(r.type == JointType::revolute ? "revolute" : "prismatic", 10)
        << (tree ? padded(g(r.gamma * deg), 12) + padded(g(r.epsilon), 12) : "")
        << padded(g(r.a), 12) << padded(g(r.b), 12) << padded(g(r.alpha * deg), 12)
        << g(r.theta * deg) << '\n';
  }
}

// "1, 2, 4-6": joint numbers, runs of three or more shortened.
std::string joint_list(const std::vector<int>& joints) {
  std::string text;
  for (std::size_t k = 0; k < joints.size();) {
    std::size_t end = k;
    while (end + 1 < joints.size() && joints[end + 1] == joints[end] + 1)
      ++end;
    text += (text.empty() ? "" : ", ") + std::to_string(joints[k]);
    if (end >= k + 2) {
      text += "-" + std::to_string(joints[end]);
    } else if (end == k + 1) {
      text += ", " + std::to_string(joints[end]);
    }
    k = end + 1;
  }
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ",") + name;
  return text;
}

// The header lines of the CSV files that take this robot's joints, made by the functions the
// readers check them with, and the units of their columns: so that a first file is right.
void csv_headers(std::ostream& out, const RobotFile& robot) {
  std::vector<int> revolute, prismatic;
  for (int i = 0; i < robot.dof(); ++i) {
    (robot.model.links()[static_cast<std::size_t>(i)].type == JointType::revolute ? revolute
                                                                                  : prismatic)
        .push_back(i + 1);
  }
  out << "\nCSV headers for this robot, SI units (";
  if (!revolute.empty()) {
    out << "joint" << (revolute.size() > 1 ? "s " : " ") << joint_list(revolute)
        << ": rad, rad/s, rad/s^2, N m";
  }
  if (!prismatic.empty()) {
    out << (revolute.empty() ? "" : "; ") << "joint" << (prismatic.size() > 1 ? "s " : " ")
        << joint_list(prismatic) << ": m, m/s, m/s^2, N";
  }
  out << "):\n";
  if (robot.has_loops()) {  // docs/loops.md: the actuated joints' columns
    const std::vector<std::string> motion = actuated_columns(robot.loops, {"q", "qd", "qdd"});
    out << "  ridim's trajectory (the actuated joints): t," << joined(motion) << '\n'
        << "  joint forces (tau, the actuated joints): "
        << joined(actuated_columns(robot.loops, {"tau"})) << '\n';
    return;
  }
  out << "  ridim's trajectory: "
      << joined(state_columns({"q", "qd", "qdd"}, robot.dof(), robot.model.floating()).names)
      << '\n'
      << "  joint forces (tau): " << joined(column_names({"tau"}, robot.dof())) << '\n';
}

// Name, file, joints, gravity, and the base placement (robot YAML) or tool frame (URDF).
void summary(std::ostream& out, const RobotFile& robot) {
  const std::vector<LinkSpec<double>>& links = robot.model.links();
  const bool urdf = robot.format == "urdf";
  out << "robot: " << (robot.name.empty() ? "(no name)" : robot.name) << '\n'
      << "file: " << robot.path << " ("
      << (urdf ? std::string("URDF")
               : std::string("robot YAML, ") +
                     (robot.convention == DhConvention::standard ? "standard" : "modified") + " DH")
      << ")\n";
  if (!robot.source.empty() && robot.source != robot.path)
    out << "source: " << robot.source << '\n';
  int revolute = 0;
  for (const LinkSpec<double>& l : links)
    revolute += l.type == JointType::revolute;
  out << "joints: " << links.size() << " (" << revolute << " revolute, "
      << links.size() - static_cast<std::size_t>(revolute) << " prismatic)\n"
      << "gravity: " << v3(robot.model.gravity()) << " m/s^2 in the "
      << (robot.model.floating() ? "world" : "base") << " frame\n";
  if (robot.model.floating()) {  // docs/floating-base.md
    const RigidBody<double>& body = robot.model.base_body();
    out << "base: floating, 7 + " << links.size() << " coordinates and 6 + " << links.size()
        << " rates; its body " << body.mass << " kg, mass centre " << v3(body.com)
        << " m in the base frame\n";
  }
  if (robot.base) {
    out << "base placement of the DH frame 0: " << v3(robot.base->p) << ", rpy "
        << v3(180 / M_PI * rpy_of(robot.base->R)) << " deg\n";
  }
  if (urdf && !robot.chain_ends.empty()) {  // docs/urdf.md: one chain, several ends
    std::string ends;
    for (const std::string& end : robot.chain_ends)
      ends += (ends.empty() ? "" : ", ") + end;
    out << "tool frame: none; the chain ends in links side by side (" << ends
        << "), so pose, jacobian and " << mention(Parameter::wrench) << " take "
        << mention(Parameter::frame) << " or " << mention(Parameter::tip) << '\n';
  } else if (urdf && robot.model.dof() == 0) {
    out << "tool frame: the base frame (one free body, no joint)\n";
  } else if (urdf) {  // the tip link's frame is the tool frame
    const Transform<double>& tool = robot.model.tool();
    out << "tool frame: link '" << robot.tip_link << "', "
        << (robot.model.is_chain() ? "the chain's tip" : "moved by the last joint") << ", at "
        << v3(tool.p) << " m, rpy " << v3(180 / M_PI * rpy_of(tool.R))
        << " deg in the last joint frame J_n\n";
  }
}

// "joint -> link" for row i, or "-" when the file names neither.
std::string chain_name(const RobotFile& robot, std::size_t i) {
  std::string name = i < robot.link_names.size() ? robot.link_names[i] : "";
  if (i < robot.joint_names.size()) name = robot.joint_names[i] + " -> " + name;
  return name.empty() ? "-" : name;
}

// The links merged into a body through fixed joints (URDF) or the `frames` (YAML), each a frame
// of that body (io/frames.hpp), by the body's link.
void fixed_frames(std::ostream& out, const RobotFile& robot) {
  if (robot.fixed_link_frames.empty()) return;
  out << "\nframes " << (robot.format == "urdf" ? "on fixed joints" : "fixed to links") << " ("
      << mention(Parameter::frame) << " takes them too), on the body of:\n";
  std::vector<std::string> by_body(robot.model.links().size() + 1);
  for (const RobotFile::LinkFrame& f : robot.fixed_link_frames) {
    std::string& list = by_body[static_cast<std::size_t>(f.body + 1)];
    list += (list.empty() ? "" : ", ") + f.name;
  }
  for (std::size_t b = 0; b < by_body.size(); ++b) {
    if (by_body[b].empty()) continue;
    const std::string body = b == 0 ? "the base" : chain_name(robot, b - 1);
    out << "  " << body << ": " << by_body[b] << '\n';
  }
}

// The cut joints, the rank of their equations and the mobility (docs/loops.md).
void loops_summary(std::ostream& out, const RobotFile& robot) {
  if (!robot.has_loops()) return;
  const Loops<double>& loops = robot.loops;
  const int rank = robot.dof() - robot.mobility;
  out << "\nloops: " << loops.cuts.size() << " cut joint" << (loops.cuts.size() > 1 ? "s" : "")
      << ", " << loops.equations() << " equations of rank " << rank << " ("
      << (loops.equations() > rank ? std::to_string(loops.equations() - rank) + " redundant"
                                   : "none redundant")
      << "; relative tolerance " << kLoopRankTolerance << ")\n";
  for (const CutJoint<double>& cut : loops.cuts) {
    const char* type = cut.type == CutJointType::revolute    ? "revolute"
                       : cut.type == CutJointType::prismatic ? "prismatic"
                                                             : "spherical";
    const auto body = [&robot](int link) {
      return link < 0 ? std::string("base") : chain_name(robot, static_cast<std::size_t>(link));
    };
    out << "  " << cut.name << ": " << type << " between " << body(cut.a.link) << " and "
        << body(cut.b.link) << '\n';
  }
  std::vector<int> actuated;
  for (int i : loops.actuated)
    actuated.push_back(i + 1);
  out << "mobility: " << robot.mobility << " (" << robot.dof() << " joints less the rank " << rank
      << ")\nactuated: joint" << (actuated.size() > 1 ? "s " : " ") << joint_list(actuated) << '\n';
}

// "3 shoulder" (its number and name) for joint i's parent, "0 base" for the base: the column a
// tree's table adds (docs/trees.md numbers joints depth-first from 1).
std::string parent_name(const RobotFile& robot, std::size_t i) {
  const int parent = robot.model.parent(static_cast<int>(i));
  if (parent < 0) return "0 base";
  const auto p = static_cast<std::size_t>(parent);
  std::string name = p < robot.joint_names.size() ? robot.joint_names[p] : "";
  if (name.empty() && p < robot.link_names.size()) name = robot.link_names[p];
  return std::to_string(parent + 1) + (name.empty() ? "" : " " + name);
}

// The joints at q = 0 in the base frame: axes, points, masses and mass centres, and in total; for
// a tree each joint's parent too.
void chain_table(std::ostream& out, const RobotFile& robot) {
  const std::vector<LinkSpec<double>>& links = robot.model.links();
  const bool tree = !robot.model.is_chain();
  std::size_t width = 16, parent_width = 6;
  for (std::size_t i = 0; i < links.size(); ++i) {
    width = std::max(width, chain_name(robot, i).size());
    if (tree) parent_width = std::max(parent_width, parent_name(robot, i).size());
  }
  out << (tree ? "\ntree, joints numbered depth-first from the base" : "\nchain, base to tip")
      << ", at q = 0 (axes, points and mass centres in the base frame):\n  " << padded("i", 3)
      << padded("name", width) << (tree ? padded("parent", parent_width) : "") << padded("type", 10)
      << padded("axis", 30) << padded("through", 30) << padded("mass kg", 10) << "mass centre\n";
  std::vector<Transform<double>> at(links.size());  // J_i at q = 0 in the base frame
  double total = 0;
  Vec3<double> moment = Vec3<double>::Zero();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const LinkSpec<double>& l = links[i];
    const int parent = robot.model.parent(static_cast<int>(i));
    at[i] = parent < 0 ? l.placement : at[static_cast<std::size_t>(parent)] * l.placement;
    const Vec3<double> c = at[i] * l.com;
    total += l.mass;
    moment += l.mass * c;
    out << "  " << padded(std::to_string(i + 1), 3) << padded(chain_name(robot, i), width)
        << (tree ? padded(parent_name(robot, i), parent_width) : "")
        << padded(l.type == JointType::revolute ? "revolute" : "prismatic", 10)
        << padded(v3(at[i].R.col(2)), 30) << padded(v3(at[i].p), 30) << padded(g(l.mass), 10)
        << (l.mass > 0 ? v3(c) : std::string("-")) << '\n';
  }
  out << "total mass: " << g(total) << " kg (the moving links)";
  if (total > 0) out << ", mass centre at q = 0: " << v3(moment / total);
  out << '\n';
}

// Each link's mass centre and principal moments in its own frame, and what no rigid body has.
void link_table(std::ostream& out, const RobotFile& robot) {
  const std::vector<LinkSpec<double>>& links = robot.model.links();
  const bool urdf = robot.format == "urdf";
  out << "\nper link, in its own frame ("
      << (urdf ? "the joint frame J_i, z on the joint axis" : "the DH link frame, as in the file")
      << "):\n  " << padded("i", 3) << padded("com", 30) << "principal moments about the centre\n";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const LinkSpec<double>& l = links[i];
    const Vec3<double> com = urdf || robot.dh.empty() ? l.com : robot.dh[i].com;
    const Mat3<double>& I = urdf || robot.dh.empty() ? l.inertia : robot.dh[i].inertia;
    const Vec3<double> moments = Eigen::SelfAdjointEigenSolver<Mat3<double>>(I).eigenvalues();
    const InertiaProblem problem = inertia_problem(I);
    out << "  " << padded(std::to_string(i + 1), 3) << padded(v3(com), 30) << v3(moments)
        << (problem.kind == InertiaProblem::triangle ? "  (breaks the triangle inequality)" : "")
        << (l.mass == 0 ? "  (no mass)" : "") << '\n';
  }
  out << '\n';
}

// A URDF's <dynamics>, when any joint has them.
void urdf_dynamics(std::ostream& out, const RobotFile& robot) {
  bool any = false;
  for (const RobotFile::JointDamping& d : robot.urdf_joint_dynamics)
    any = any || d.damping != 0 || d.friction != 0;
  if (!any) return;
  out << "URDF <dynamics> per joint (damping, friction; in the dynamics as the drive's B and "
         "Tc, G = 1):";
  for (std::size_t i = 0; i < robot.urdf_joint_dynamics.size(); ++i) {
    out << (i ? "," : "") << " " << i + 1 << ": " << g(robot.urdf_joint_dynamics[i].damping) << " "
        << g(robot.urdf_joint_dynamics[i].friction);
  }
  out << '\n';
}

// The DH tables: a URDF's fitted in both conventions, a robot YAML's as given.
void dh_tables(std::ostream& out, const RobotFile& robot) {
  if (robot.format == "urdf" && !robot.model.is_chain()) {
    dh_table(out, fit_dh(robot.model, DhConvention::modified),
             "Khalil-Kleinfinger, fitted to the joint frames");
    urdf_dynamics(out, robot);
    return;
  }
  if (robot.format == "urdf") {
    dh_table(out, fit_dh(robot.model, DhConvention::standard), "fitted to the joint axes");
    dh_table(out, fit_dh(robot.model, DhConvention::modified), "fitted to the joint axes");
    urdf_dynamics(out, robot);
    return;
  }
  DhFit given;
  given.convention = robot.convention;
  given.rows = robot.dh;
  given.base = robot.base;
  dh_table(out, given, "as given");
}

}  // namespace

void describe_robot(std::ostream& out, const RobotFile& robot) {
  summary(out, robot);
  if (robot.model.dof() > 0) {  // one free body has no joint to list
    chain_table(out, robot);
    link_table(out, robot);
    dh_tables(out, robot);
  }
  fixed_frames(out, robot);
  loops_summary(out, robot);
  out << "\nwarnings:" << (robot.warnings.empty() ? " none" : "") << '\n';
  for (const std::string& w : robot.warnings)
    out << "  " << w << '\n';
  if (robot.check_positive_definite) {
    out << "  (the inertia matrix is checked to be positive definite where it is factorised: "
           "forward dynamics, its inverse, U D U^T)\n";
  }
  csv_headers(out, robot);
}

}  // namespace denoc
