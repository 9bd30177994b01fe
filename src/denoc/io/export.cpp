#include "denoc/io/export.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <tinyxml.h>
#include <yaml-cpp/yaml.h>
#include <Eigen/Geometry>

#include "denoc/io/errors.hpp"
#include "denoc/io/number.hpp"

namespace denoc {

namespace {

using Pose = Transform<double>;

Pose frame(const Vec3<double>& x, const Vec3<double>& z, const Vec3<double>& origin) {
  Pose f;
  f.R.col(0) = x;
  f.R.col(1) = z.cross(x);
  f.R.col(2) = z;
  f.p = origin;
  return f;
}

// A unit vector perpendicular to z, as close to `hint` as possible.
Vec3<double> perpendicular(const Vec3<double>& z, const Vec3<double>& hint) {
  Vec3<double> x = hint - hint.dot(z) * z;
  if (x.norm() < 1e-9) {  // hint along z: any perpendicular will do
    Eigen::Index least = 0;
    z.cwiseAbs().minCoeff(&least);
    x = Vec3<double>::Unit(least) - z[least] * z;
  }
  return x.normalized();
}

// The common normal of the lines (pa, za) and (pb, zb): its feet on each and its direction
// from the first to the second. For parallel lines the normal through the foot of `anchor` on
// the first line is taken (so that the DH offset along that axis is 0); for lines that meet,
// x = za x zb; for coincident lines, x is `hint` made perpendicular.
struct CommonNormal {
  Vec3<double> foot_a, foot_b, x;
};

CommonNormal common_normal(const Vec3<double>& pa, const Vec3<double>& za, const Vec3<double>& pb,
                           const Vec3<double>& zb, const Vec3<double>& anchor,
                           const Vec3<double>& hint, double length_tolerance) {
  CommonNormal n;
  const Vec3<double> c = za.cross(zb);
  if (c.norm() > 1e-12) {
    const Vec3<double> w = pb - pa;
    const double b = za.dot(zb), d = za.dot(w), e = zb.dot(w), den = 1 - b * b;
    n.foot_a = pa + ((d - b * e) / den) * za;
    n.foot_b = pb + ((b * d - e) / den) * zb;
    const Vec3<double> v = n.foot_b - n.foot_a;
    n.x = v.norm() > length_tolerance ? Vec3<double>(v.normalized()) : Vec3<double>(c.normalized());
    if (v.norm() <= length_tolerance) n.foot_b = n.foot_a;
    return n;
  }
  n.foot_a = pa + za.dot(anchor - pa) * za;
  n.foot_b = pb + zb.dot(n.foot_a - pb) * zb;
  const Vec3<double> v = n.foot_b - n.foot_a;
  if (v.norm() > length_tolerance) {
    n.x = v.normalized();
  } else {
    n.foot_b = n.foot_a;
    n.x = perpendicular(za, hint);
  }
  return n;
}

// The DH parameters of a transform of DH form (standard: Rz(theta) Tz(d) Tx(a) Rx(alpha);
// modified: Rx(alpha) Tx(a) Rz(theta) Tz(d)), and how far the transform is from that form.
double dh_parameters(DhConvention convention, const Pose& T, DhLink<double>& row) {
  const Mat3<double>& R = T.R;
  const Vec3<double>& p = T.p;
  if (convention == DhConvention::standard) {
    row.theta = std::atan2(R(1, 0), R(0, 0));
    row.alpha = std::atan2(R(2, 1), R(2, 2));
    row.a = std::cos(row.theta) * p.x() + std::sin(row.theta) * p.y();
    row.b = p.z();
  } else {
    row.theta = std::atan2(-R(0, 1), R(0, 0));
    row.alpha = std::atan2(-R(1, 2), R(2, 2));
    row.a = p.x();
    row.b = -std::sin(row.alpha) * p.y() + std::cos(row.alpha) * p.z();
  }
  const DhSplit<double> split = split_dh(convention, [&] {
    DhLink<double> revolute = row;
    revolute.type = JointType::revolute;
    return revolute;
  }());
  const Pose rebuilt = split.pre * split.post;
  return std::max((rebuilt.R - R).cwiseAbs().maxCoeff(), (rebuilt.p - p).cwiseAbs().maxCoeff());
}

double snapped(double x, double tolerance) {
  return std::abs(x) < tolerance ? 0.0 : x;
}

// The joint frames J_i at q = 0 in the base frame, whose z axes and origins are the joint axes
// the DH table must give back, and the tolerance on lengths at the chain's size.
struct ChainAxes {
  std::vector<Pose> W;
  double scale = 1, tol = 1e-12;
  Vec3<double> z(std::size_t i) const { return W[i].R.col(2); }
  const Vec3<double>& o(std::size_t i) const { return W[i].p; }
};

ChainAxes chain_axes(const std::vector<LinkSpec<double>>& links) {
  ChainAxes axes;
  Pose at;
  for (const LinkSpec<double>& link : links) {
    at = at * link.placement;
    axes.W.push_back(at);
    axes.scale = std::max(axes.scale, at.p.norm());
  }
  axes.tol = 1e-12 * axes.scale;
  return axes;
}

// Standard DH frames F_0..F_n at q = 0 (link i's frame is F[i + 1]); sets fit.base when F_0
// cannot be the base frame.
std::vector<Pose> standard_frames(const ChainAxes& c, DhFit& fit) {
  const std::size_t n = c.W.size();
  std::vector<Pose> F(n + 1);
  // F_0's z axis must be the first joint axis (the joint turns about the frame before it).
  const Vec3<double> off_axis = c.o(0) - c.o(0).dot(c.z(0)) * c.z(0);
  if ((c.z(0) - Vec3<double>::UnitZ()).cwiseAbs().maxCoeff() > 1e-12 ||
      off_axis.cwiseAbs().maxCoeff() > c.tol) {
    fit.base = c.W[0];
    F[0] = c.W[0];
  }
  // F_k (k = 1..n-1) sits on axis k+1, x along the common normal from axis k to axis k+1.
  for (std::size_t k = 1; k < n; ++k) {
    const CommonNormal cn =
        common_normal(F[k - 1].p, c.z(k - 1), c.o(k), c.z(k), F[k - 1].p, F[k - 1].R.col(0), c.tol);
    F[k] = frame(cn.x, c.z(k), cn.foot_b);
  }
  F[n] = F[n - 1];  // a_n = alpha_n = d_n = theta_n = 0: F_n is F_{n-1} turned by q_n
  if (n == 1) F[1] = F[0];
  return F;
}

// Modified DH frames F_0..F_n at q = 0, as standard_frames.
std::vector<Pose> modified_frames(const ChainAxes& c, DhFit& fit) {
  const std::size_t n = c.W.size();
  std::vector<Pose> F(n + 1);
  // F_k (k = 1..n-1) sits on axis k, x along the common normal from axis k to axis k+1.
  for (std::size_t k = 1; k < n; ++k) {
    const CommonNormal cn =
        common_normal(c.o(k - 1), c.z(k - 1), c.o(k), c.z(k), F[k - 1].p, F[k - 1].R.col(0), c.tol);
    F[k] = frame(cn.x, c.z(k - 1), cn.foot_a);
  }
  // F_n: on the last axis where F_{n-1}'s x axis meets it, x along F_{n-1}'s x.
  const Vec3<double> foot = c.o(n - 1) + c.z(n - 1).dot(F[n - 1].p - c.o(n - 1)) * c.z(n - 1);
  F[n] = frame(perpendicular(c.z(n - 1), F[n - 1].R.col(0)), c.z(n - 1), foot);
  // F_0 -> F_1 must be Rx Tx Rz Tz: base x perpendicular to the first axis and meeting it.
  DhLink<double> first;
  if (dh_parameters(DhConvention::modified, F[1], first) > 1e-9) {
    fit.base = F[1];
    F[0] = F[1];
  }
  return F;
}

// Row i of the table: the DH parameters of F_i -> F_{i+1}, and the body re-expressed in F_{i+1}.
DhLink<double> dh_row(DhConvention convention, const LinkSpec<double>& link, const Pose& W,
                      const Pose& F, const Pose& F_next, double tol, std::size_t i) {
  DhLink<double> row;
  row.type = link.type;
  const double residual = dh_parameters(convention, F.inverse() * F_next, row);
  if (residual > 1e-9) {
    throw RunError("fit_dh: joint " + std::to_string(i + 1) + ": not of DH form (" +
                   std::to_string(residual) + "); please report this chain");
  }
  row.a = snapped(row.a, tol);
  row.b = snapped(row.b, tol);
  row.alpha = snapped(row.alpha, 1e-14);
  row.theta = snapped(row.theta, 1e-14);
  // Link i moves with J_i; its DH frame is F_{i+1} = J_i Post with Post constant.
  const Pose post = W.inverse() * F_next;
  row.mass = link.mass;
  row.com = post.inverse() * link.com;
  row.inertia = post.R.transpose() * link.inertia * post.R;
  row.inertia = (row.inertia + row.inertia.transpose()) / 2;
  return row;
}

// The table must give back the same axes (a check on the fit, cheap beside a file write).
void check_gives_back_axes(const DhFit& fit, const ChainAxes& c) {
  const std::vector<LinkSpec<double>> rebuilt =
      links_from_dh(fit.convention, fit.rows, fit.base ? *fit.base : Pose());
  Pose at;
  for (std::size_t i = 0; i < rebuilt.size(); ++i) {
    at = at * rebuilt[i].placement;
    const Vec3<double> dz = at.R.col(2) - c.z(i);
    const Vec3<double> dp = (at.p - c.o(i)).cross(c.z(i));
    if (dz.cwiseAbs().maxCoeff() > 1e-9 || dp.cwiseAbs().maxCoeff() > 1e-9 * c.scale) {
      throw RunError("fit_dh: joint " + std::to_string(i + 1) +
                     ": the DH table does not give back its axis; please report this chain");
    }
  }
}

}  // namespace

namespace {

// The Khalil-Kleinfinger parameters (model/dh.hpp) of a transform T = Rz(gamma) Tz(epsilon)
// Rx(alpha) Tx(a) Rz(theta) Tz(b): R = Rz(gamma) Rx(alpha) Rz(theta) (z-x-z angles) and
// Rz(-gamma) p = (a, -b sin(alpha), epsilon + b cos(alpha)). When the two z axes are parallel
// gamma turns x towards the origin (so a >= 0) and b = 0. Axes within 1e-9 rad of parallel (a
// URDF's rpy="3.141592654 0 0") are taken as parallel: exactly, b = -(Rz(-gamma) p)_y /
// sin(alpha) would be of order 1e9 m and epsilon would cancel it, losing more than the
// 1e-9 rad given up. Returns how far the rebuilt transform is from T.
double kk_parameters(const Pose& T, double length_tolerance, DhLink<double>& row) {
  const Mat3<double>& R = T.R;
  const double sin_alpha = std::hypot(R(0, 2), R(1, 2));
  const bool parallel = sin_alpha < 1e-9;
  row.alpha = parallel ? (R(2, 2) > 0 ? 0.0 : M_PI) : std::atan2(sin_alpha, R(2, 2));
  const bool on_axis = std::hypot(T.p.x(), T.p.y()) <= length_tolerance;
  row.gamma =
      !parallel ? std::atan2(R(0, 2), -R(1, 2)) : (on_axis ? 0.0 : std::atan2(T.p.y(), T.p.x()));
  const Mat3<double> rest = (Pose::rot_z(row.gamma) * Pose::rot_x(row.alpha)).R.transpose() * R;
  row.theta = std::atan2(rest(1, 0), rest(0, 0));
  const Vec3<double> q = Pose::rot_z(row.gamma).R.transpose() * T.p;
  row.a = q.x();
  row.b = parallel ? 0.0 : -q.y() / std::sin(row.alpha);
  row.epsilon = q.z() - row.b * std::cos(row.alpha);
  DhLink<double> revolute = row;
  revolute.type = JointType::revolute;
  const DhSplit<double> split = split_dh(DhConvention::modified, revolute);
  const Pose rebuilt = split.pre * split.post;
  return std::max((rebuilt.R - R).cwiseAbs().maxCoeff(), (rebuilt.p - T.p).cwiseAbs().maxCoeff());
}

// A tree's table, in modified DH with gamma and epsilon: each link frame is the model's joint
// frame J_i, so row i is the Khalil-Kleinfinger form of J_i's placement in J_lambda(i) (any
// rigid transform has one) and every body keeps its com and inertia; no `base:` is needed.
DhFit fit_tree(const Model<double>& model) {
  DhFit fit;
  fit.convention = DhConvention::modified;
  double scale = 1;
  for (const LinkSpec<double>& link : model.links())
    scale = std::max(scale, link.placement.p.norm());
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    const LinkSpec<double>& link = model.links()[i];
    DhLink<double> row;
    row.type = link.type;
    row.parent = model.parent(static_cast<int>(i));
    const double residual = kk_parameters(link.placement, 1e-12 * scale, row);
    if (residual > 2e-9 * scale) {  // axes within 1e-9 rad of parallel are made parallel
      throw RunError("fit_dh: joint " + std::to_string(i + 1) +
                     ": not of Khalil-Kleinfinger form; please report this tree");
    }
    row.mass = link.mass;
    row.com = link.com;
    row.inertia = link.inertia;
    fit.rows.push_back(row);
    fit.link_frames.emplace_back();  // each link frame is J_i
  }
  return fit;  // last_frame: F_n is J_n
}

}  // namespace

DhFit fit_dh(const Model<double>& model, DhConvention convention) {
  if (!model.is_chain()) {
    if (convention != DhConvention::modified) {
      throw InputError(mention(Parameter::dh, "standard") +
                       ": a tree is written in modified DH, with Khalil and "
                       "Kleinfinger's gamma and epsilon placing each link from its parent");
    }
    return fit_tree(model);
  }
  const std::vector<LinkSpec<double>>& links = model.links();
  const ChainAxes axes = chain_axes(links);
  DhFit fit;
  fit.convention = convention;
  const std::vector<Pose> F = convention == DhConvention::standard ? standard_frames(axes, fit)
                                                                   : modified_frames(axes, fit);
  for (std::size_t i = 0; i < links.size(); ++i) {
    fit.rows.push_back(dh_row(convention, links[i], axes.W[i], F[i], F[i + 1], axes.tol, i));
    fit.link_frames.push_back(axes.W[i].inverse() * F[i + 1]);  // Post of dh_row
  }
  fit.last_frame = fit.link_frames.back();
  check_gives_back_axes(fit, axes);
  return fit;
}

namespace {

const double kDegrees = 180 / M_PI;

// -0 written as 0: the same dynamics, and a file people read.
std::string num(double x) {
  return shortest(x == 0 ? 0.0 : x);
}

std::string vec(const Vec3<double>& v) {
  return "[" + num(v[0]) + ", " + num(v[1]) + ", " + num(v[2]) + "]";
}

// Text as a YAML double-quoted scalar, escapes (\n, \x01, ...) written by yaml-cpp's emitter.
std::string emitted(const std::string& s) {
  YAML::Emitter out;
  out << YAML::DoubleQuoted << s;
  return out.c_str();
}

// The same for a value that must read back unchanged: the emitter replaces bytes that are not
// UTF-8, so the scalar is read back and compared, and a difference refused, never written.
std::string yaml_text(const std::string& s, const std::string& key) {
  const std::string text = emitted(s);
  if (YAML::Load(text).as<std::string>() != s) {
    throw InputError(mention(Parameter::export_file) + ": " + key + " " + text +
                     " cannot be written to a robot YAML unchanged (it is not UTF-8 text)");
  }
  return text;
}

// XML 1.0 holds no control character but tab, line feed and carriage return (TinyXML writes
// those three as character references, which attribute values keep): a text with any other
// is refused, never dropped.
void check_xml_text(const std::string& s, const std::string& what) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      throw InputError(mention(Parameter::export_file) + ": " + what + " " + emitted(s) +
                       " has a control character that XML cannot hold; a URDF cannot carry "
                       "it (a robot YAML can)");
    }
  }
}

// Text inside an XML comment, which may hold neither "--" nor control characters: they are
// shown escaped (a comment is read by people only).
std::string xml_comment(const std::string& s) {
  std::string out;
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || (c == '-' && !out.empty() && out.back() == '-')) {
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02x", byte);
      out += code;
    } else {
      out += c;
    }
  }
  return out;
}

// The fitted table carries the rounding noise of its products (89.99999999999999 deg, 1e-18
// products of inertia); for a file people read, a value is replaced by the one with 12
// significant digits when they differ by at most 1e-15 relative,
// and entries below 1e-15 of their vector's or tensor's size by 0. The dynamics move by less
// than the 1e-12 that the round-trip tests allow.
double tidy(double x, double scale, double relative = 1e-15) {
  if (std::abs(x) <= relative * scale) return 0;
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", x);
  const double shorter = std::strtod(text, nullptr);
  return std::abs(shorter - x) <= relative * std::max(1.0, std::abs(x)) ? shorter : x;
}

DhLink<double> tidied(DhLink<double> r) {
  const double length = std::max({1.0, std::abs(r.a), std::abs(r.b)});
  r.a = tidy(r.a, length);
  r.b = tidy(r.b, length);
  r.alpha = tidy(r.alpha * kDegrees, 1) / kDegrees;
  r.theta = tidy(r.theta * kDegrees, 1) / kDegrees;
  r.gamma = tidy(r.gamma * kDegrees, 1) / kDegrees;
  r.epsilon = tidy(r.epsilon, std::max(1.0, std::abs(r.epsilon)));
  const double com_scale = std::max(1.0, r.com.cwiseAbs().maxCoeff());
  for (int k = 0; k < 3; ++k)
    r.com[k] = tidy(r.com[k], com_scale);
  const double inertia_scale = r.inertia.cwiseAbs().maxCoeff();
  for (int a = 0; a < 3; ++a) {
    for (int b = a; b < 3; ++b)
      r.inertia(a, b) = r.inertia(b, a) = tidy(r.inertia(a, b), inertia_scale);
  }
  return r;
}

bool needs_warn_checks(const RobotFile& robot) {
  if (robot.check_positive_definite) return true;
  for (const LinkSpec<double>& l : robot.model.links()) {
    if (!(l.mass > 0)) return true;
  }
  return false;
}

// The robot YAML is written by yaml-cpp's emitter: keys, flow lists and maps, comments and
// quoting are its; numbers are the shortest round-trip text (num), emitted as plain scalars.
YAML::Emitter& operator<<(YAML::Emitter& out, const Vec3<double>& v) {
  return out << YAML::Flow << YAML::BeginSeq << num(v[0]) << num(v[1]) << num(v[2]) << YAML::EndSeq;
}

void emit_inertia(YAML::Emitter& out, const Mat3<double>& I) {
  out << YAML::Key << "inertia" << YAML::Value << YAML::Flow << YAML::BeginMap;
  const std::pair<const char*, double> entries[] = {{"xx", I(0, 0)}, {"yy", I(1, 1)},
                                                    {"zz", I(2, 2)}, {"xy", I(0, 1)},
                                                    {"xz", I(0, 2)}, {"yz", I(1, 2)}};
  for (const auto& entry : entries)
    out << YAML::Key << entry.first << YAML::Value << num(entry.second);
  out << YAML::EndMap;
}

// Text that must read back unchanged: checked (yaml_text), then double-quoted by the emitter.
void emit_text(YAML::Emitter& out, const std::string& key, const std::string& text,
               const std::string& what) {
  yaml_text(text, what);
  out << YAML::Key << key << YAML::Value << YAML::DoubleQuoted << text;
}

// The drive (from a URDF, its <dynamics damping friction> as B and Tc with G = 1).
void emit_drive(YAML::Emitter& out, const Drive<double>& d) {
  if (d.Jm == 0 && d.G == 1 && d.B == 0 && d.Tc_pos == 0 && d.Tc_neg == 0) return;
  out << YAML::Key << "drive" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "Jm"
      << YAML::Value << num(d.Jm) << YAML::Key << "G" << YAML::Value << num(d.G) << YAML::Key << "B"
      << YAML::Value << num(d.B) << YAML::Key << "Tc" << YAML::Value << YAML::Flow << YAML::BeginSeq
      << num(d.Tc_pos) << num(d.Tc_neg) << YAML::EndSeq << YAML::EndMap;
}

// The names a tree's links are written with, so that `parent:` can name them: the robot file's
// where each is there, unique and not `base`, else link1, link2, ...; a chain keeps its own.
std::vector<std::string> yaml_link_names(const RobotFile& robot) {
  std::vector<std::string> names = robot.link_names;
  names.resize(robot.model.links().size());
  if (robot.model.is_chain()) return names;
  std::vector<std::string> written;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const bool usable = !names[i].empty() && names[i] != "base" &&
                        std::count(names.begin(), names.end(), names[i]) == 1;
    written.push_back(usable ? names[i] : "link" + std::to_string(i + 1));
  }
  for (std::size_t i = 0; i < written.size(); ++i) {  // a generated name a file name took
    while (std::count(written.begin(), written.end(), written[i]) > 1)
      written[i] += "_0";
  }
  return written;
}

void emit_link(YAML::Emitter& out, const RobotFile& robot, const DhLink<double>& row, std::size_t i,
               const std::vector<std::string>& names) {
  const DhLink<double> r = tidied(row);
  out << YAML::BeginMap;
  const std::string& link_name = names[i];
  if (!link_name.empty())
    emit_text(out, "name", link_name, "links[" + std::to_string(i) + "].name");
  const int parent = robot.model.parent(static_cast<int>(i));
  if (parent != static_cast<int>(i) - 1) {
    emit_text(out, "parent", parent < 0 ? std::string("base") : names[std::size_t(parent)],
              "links[" + std::to_string(i) + "].parent");
  }
  out << YAML::Key << "joint" << YAML::Value
      << (r.type == JointType::revolute ? "revolute" : "prismatic");
  if (r.gamma != 0) out << YAML::Key << "gamma" << YAML::Value << num(r.gamma * kDegrees);
  if (r.epsilon != 0) out << YAML::Key << "epsilon" << YAML::Value << num(r.epsilon);
  const std::pair<const char*, double> numbers[] = {{"a", r.a},
                                                    {"b", r.b},
                                                    {"alpha", r.alpha * kDegrees},
                                                    {"theta", r.theta * kDegrees},
                                                    {"mass", r.mass}};
  for (const auto& entry : numbers)
    out << YAML::Key << entry.first << YAML::Value << num(entry.second);
  out << YAML::Key << "com" << YAML::Value << r.com;
  emit_inertia(out, r.inertia);
  emit_drive(out, robot.model.links()[i].drive);
  out << YAML::EndMap;
}

// A rigid body's block: mass, com, inertia (the payload, the floating base's body).
void emit_rigid_body(YAML::Emitter& out, const char* key, const RigidBody<double>& body) {
  out << YAML::Key << key << YAML::Value << YAML::BeginMap << YAML::Key << "mass" << YAML::Value
      << num(body.mass) << YAML::Key << "com" << YAML::Value << body.com;
  emit_inertia(out, body.inertia);
  out << YAML::EndMap;
}

// xyz and rpy (deg) of a placement, tidied as the tool's.
std::pair<Vec3<double>, Vec3<double>> tidy_placement(const Transform<double>& T) {
  Vec3<double> xyz = T.p, rpy = kDegrees * rpy_of(T.R);
  const double length = std::max(1.0, xyz.cwiseAbs().maxCoeff());
  for (int k = 0; k < 3; ++k) {
    xyz[k] = tidy(xyz[k], length);
    rpy[k] = tidy(rpy[k], 1);
  }
  return {xyz, rpy};
}

// The tool frame, relative to the fitted table's last link frame (the model keeps it relative
// to J_n, whose x axis the table need not keep), and the payload on it. A URDF's tool frame is
// its tip link's frame; without this block the last link frame would take its place.
void emit_tool_and_payload(YAML::Emitter& out, const RobotFile& robot, const DhFit& fit) {
  const bool has_payload = robot.model.payload().mass > 0;
  const auto [xyz, rpy] = tidy_placement(fit.last_frame.inverse() * robot.model.tool());
  if (has_payload || !xyz.isZero(0) || !rpy.isZero(0)) {
    out << YAML::Key << "tool" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "xyz"
        << YAML::Value << xyz << YAML::Key << "rpy" << YAML::Value << rpy << YAML::EndMap;
  }
  if (has_payload) emit_rigid_body(out, "payload", robot.model.payload());
}

// The frames fixed to links (a URDF's fixed links, a YAML's `frames`), each from its link's frame
// in the table written (fit.link_frames), its link by name, else by number from 1. A frame named
// `base`, which a robot YAML keeps for the base frame, cannot be written (the UR arms' turned
// base link): left out, and `notes` says so.
void emit_frames(YAML::Emitter& out, const RobotFile& robot, const DhFit& fit,
                 const std::vector<std::string>& names, std::vector<std::string>& notes) {
  bool any = false;
  for (const RobotFile::LinkFrame& f : robot.fixed_link_frames) {
    if (f.name == "base") {
      notes.push_back(
          "a robot YAML names its base frame `base`: the frame `base` fixed to a link "
          "is not written");
      continue;
    }
    if (!any) out << YAML::Key << "frames" << YAML::Value << YAML::BeginSeq;
    any = true;
    const auto body = static_cast<std::size_t>(f.body);
    const Transform<double> in_link =
        f.body < 0 ? f.placement : fit.link_frames[body].inverse() * f.placement;
    const auto [xyz, rpy] = tidy_placement(in_link);
    out << YAML::Flow << YAML::BeginMap;
    emit_text(out, "name", f.name, "frames.name");
    if (f.body < 0) {
      out << YAML::Key << "link" << YAML::Value << "base";
    } else if (!names[body].empty()) {
      emit_text(out, "link", names[body], "frames.link");
    } else {
      out << YAML::Key << "link" << YAML::Value << f.body + 1;
    }
    out << YAML::Key << "xyz" << YAML::Value << xyz << YAML::Key << "rpy" << YAML::Value << rpy
        << YAML::EndMap;
  }
  if (any) out << YAML::EndSeq;
}

// Joint values in angle_unit deg; a floating base's, before them, in SI units.
void emit_joint_values(YAML::Emitter& out, const char* key, const VecX<double>& v,
                       const RobotFile& robot) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
  const Eigen::Index base = v.size() - robot.model.dof();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const bool revolute =
        i >= base &&
        robot.model.links()[static_cast<std::size_t>(i - base)].type == JointType::revolute;
    out << num(revolute ? v[i] * kDegrees : v[i]);
  }
  out << YAML::EndSeq;
}

void emit_initial_and_trajectory(YAML::Emitter& out, const RobotFile& robot) {
  if (robot.initial_q || robot.initial_qd) {
    out << YAML::Key << "initial" << YAML::Value << YAML::BeginMap;
    if (robot.initial_q) emit_joint_values(out, "q", *robot.initial_q, robot);
    if (robot.initial_qd) emit_joint_values(out, "qd", *robot.initial_qd, robot);
    out << YAML::EndMap;
  }
  if (!robot.trajectory) return;
  const CycloidalTrajectory<double>& t = *robot.trajectory;
  out << YAML::Key << "trajectory" << YAML::Value << YAML::BeginMap << YAML::Key << "type"
      << YAML::Value << "cycloidal" << YAML::Key << "duration" << YAML::Value << num(t.duration)
      << YAML::Key << "samples" << YAML::Value << t.samples;
  emit_joint_values(out, "from", t.from, robot);
  emit_joint_values(out, "to", t.to, robot);
  out << YAML::EndMap;
}

void emit_header(YAML::Emitter& out, const RobotFile& robot, const DhFit& fit,
                 const char* convention) {
  out << YAML::Comment("Exported by denoc from " + emitted(robot.path) +
                       ": the model as loaded, in " + convention +
                       " DH.\ncom and inertia are re-expressed in this convention's link "
                       "frames; lengths in m, angles in deg.")
      << YAML::BeginMap;
  if (!robot.name.empty()) emit_text(out, "name", robot.name, "name");
  if (!robot.source.empty()) emit_text(out, "source", robot.source, "source");
  out << YAML::Key << "dh" << YAML::Value << convention << YAML::Key << "angle_unit" << YAML::Value
      << "deg" << YAML::Key << "gravity" << YAML::Value << robot.model.gravity();
  if (needs_warn_checks(robot)) {
    out << YAML::Key << "inertia_checks" << YAML::Value << "warn"
        << YAML::Comment("some link has no mass or breaks the triangle inequality");
  }
  if (!fit.base) {
    if (robot.model.floating()) out << YAML::Key << "base" << YAML::Value << "floating";
    return;
  }
  out << YAML::Newline
      << YAML::Comment(std::string("The first joint axis is not where a ") + convention +
                       " DH table starts from, so the DH frame 0 is placed in the\nbase frame "
                       "by `base` (URDF-style: R = Rz(yaw) Ry(pitch) Rx(roll), in angle_unit).")
      << YAML::Key << "base" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "xyz"
      << YAML::Value << fit.base->p << YAML::Key << "rpy" << YAML::Value
      << Vec3<double>(kDegrees * rpy_of(fit.base->R));
  if (robot.model.floating()) out << YAML::Key << "type" << YAML::Value << "floating";
  out << YAML::EndMap;
}

}  // namespace

void write_robot_yaml(std::ostream& out, const RobotFile& robot, DhConvention convention,
                      std::vector<std::string>* notes) {
  if (robot.model.dof() == 0)
    throw InputError(mention(Parameter::export_file) + ": a robot YAML needs a link, and " +
                     robot.path + " has no joint (one free body): export it as URDF");
  const DhFit fit = fit_dh(robot.model, convention);
  YAML::Emitter yaml;
  emit_header(yaml, robot, fit, convention == DhConvention::standard ? "standard" : "modified");
  yaml << YAML::Key << "links" << YAML::Value << YAML::BeginSeq;
  const std::vector<std::string> names = yaml_link_names(robot);
  for (std::size_t i = 0; i < fit.rows.size(); ++i)
    emit_link(yaml, robot, fit.rows[i], i, names);
  yaml << YAML::EndSeq;
  emit_tool_and_payload(yaml, robot, fit);
  std::vector<std::string> frame_notes;
  emit_frames(yaml, robot, fit, names, frame_notes);
  if (notes) notes->insert(notes->end(), frame_notes.begin(), frame_notes.end());
  if (robot.model.floating()) emit_rigid_body(yaml, "base_body", robot.model.base_body());
  emit_initial_and_trajectory(yaml, robot);
  yaml << YAML::EndMap;
  if (!yaml.good())
    throw RunError(mention(Parameter::export_file) + ": YAML emitter: " + yaml.GetLastError());
  out << yaml.c_str() << '\n';
}

namespace {

// The URDF document is built with TinyXML, which urdfdom reads with and which escapes attribute
// values; urdf::exportURDF is not used because it writes numbers with 6 significant digits,
// and an exported chain must read back as the same dynamics.
TiXmlElement* add(TiXmlNode& parent, const char* tag) {
  return parent.LinkEndChild(new TiXmlElement(tag))->ToElement();
}

void set(TiXmlElement& element, const char* attribute, const std::string& value) {
  element.SetAttribute(attribute, value.c_str());
}

std::string triple(const Vec3<double>& v) {
  return num(v[0]) + ' ' + num(v[1]) + ' ' + num(v[2]);
}

void add_origin(TiXmlElement& parent, const Vec3<double>& xyz, const Vec3<double>& rpy) {
  TiXmlElement& origin = *add(parent, "origin");
  set(origin, "xyz", triple(xyz));
  set(origin, "rpy", triple(rpy));
}

void add_inertial(TiXmlElement& link, double mass, const Vec3<double>& com, const Mat3<double>& I) {
  TiXmlElement& inertial = *add(link, "inertial");
  add_origin(inertial, com, Vec3<double>::Zero());
  set(*add(inertial, "mass"), "value", num(mass));
  TiXmlElement& inertia = *add(inertial, "inertia");
  const std::pair<const char*, double> entries[] = {{"ixx", I(0, 0)}, {"ixy", I(0, 1)},
                                                    {"ixz", I(0, 2)}, {"iyy", I(1, 1)},
                                                    {"iyz", I(1, 2)}, {"izz", I(2, 2)}};
  for (const auto& entry : entries)
    set(inertia, entry.first, num(entry.second));
}

TiXmlElement& add_link(TiXmlElement& robot, const std::string& name) {
  TiXmlElement& link = *add(robot, "link");
  set(link, "name", name);
  return link;
}

// rpy of R for a joint origin. Near pitch = +-90 deg (Baxter's arm joints) rpy_of reads roll and
// yaw from entries of the size of cos(pitch), which leaves their difference, what the rotation
// depends on, off by 1e-16 / cos(pitch); there roll is taken from Ry(pitch)^T Rz(yaw)^T R
// instead, so that the three angles rebuild R to its rounding.
Vec3<double> urdf_rpy(const Mat3<double>& R) {
  Vec3<double> rpy = rpy_of(R);
  if (std::hypot(R(0, 0), R(1, 0)) > 1e-6) return rpy;
  const Mat3<double> rest = (Eigen::AngleAxisd(rpy[2], Vec3<double>::UnitZ()) *
                             Eigen::AngleAxisd(rpy[1], Vec3<double>::UnitY()))
                                .toRotationMatrix()
                                .transpose() *
                            R;
  rpy[0] = std::atan2(rest(2, 1), rest(1, 1));
  return rpy;
}

TiXmlElement& add_joint(TiXmlElement& robot, const std::string& name, const char* type,
                        const std::string& parent, const std::string& child, const Pose& origin) {
  TiXmlElement& joint = *add(robot, "joint");
  set(joint, "name", name);
  set(joint, "type", type);
  set(*add(joint, "parent"), "link", parent);
  set(*add(joint, "child"), "link", child);
  add_origin(joint, origin.p, urdf_rpy(origin.R));
  return joint;
}

// The names a URDF export gives: the robot file's link and joint names where each is there and
// unique, else link1.., joint1..; and names of its own (base_link, tool, tool_joint) that none
// of those takes.
struct UrdfNames {
  std::vector<std::string> links, joints;
  std::string base, tool, tool_joint;
};

std::string unused(std::string name, const std::vector<std::string>& taken) {
  while (std::count(taken.begin(), taken.end(), name))
    name += "_0";
  return name;
}

UrdfNames urdf_names(const RobotFile& robot) {
  // A tree's joints are numbered in the byte order of their names among siblings (docs/urdf.md):
  // made-up numbers are padded (joint01 .. joint12) so that they sort as the joints are numbered.
  const std::size_t n = robot.model.links().size();
  const std::size_t digits = robot.model.is_chain() ? 1 : std::to_string(n).size();
  auto name_of = [&](const std::vector<std::string>& names, std::size_t i, const char* prefix) {
    const bool usable = i < names.size() && !names[i].empty() &&
                        std::count(names.begin(), names.end(), names[i]) == 1;
    std::string number = std::to_string(i + 1);
    number.insert(0, digits - std::min(digits, number.size()), '0');
    return usable ? names[i] : prefix + number;
  };
  UrdfNames names;
  for (std::size_t i = 0; i < robot.model.links().size(); ++i) {
    names.links.push_back(name_of(robot.link_names, i, "link"));
    names.joints.push_back(name_of(robot.joint_names, i, "joint"));
    check_xml_text(names.links.back(), "link name");
    check_xml_text(names.joints.back(), "joint name");
  }
  names.base = unused("base_link", names.links);
  const bool tip_named = !robot.tip_link.empty() &&
                         !std::count(names.links.begin(), names.links.end(), robot.tip_link);
  if (tip_named) check_xml_text(robot.tip_link, "link name");
  names.tool = tip_named ? robot.tip_link : unused("tool", names.links);
  names.tool_joint = unused("tool_joint", names.joints);
  return names;
}

// Joint i and body i: J_i as the link frame (axis z); URDF's <dynamics> holds viscous and
// symmetric Coulomb friction at the joint, so a rotor inertia or an asymmetric Coulomb friction
// is lost (the return value says so).
bool add_body(TiXmlElement& robot, const LinkSpec<double>& l, const std::string& joint_name,
              const std::string& parent, const std::string& link_name) {
  const bool revolute = l.type == JointType::revolute;
  TiXmlElement& joint = add_joint(robot, joint_name, revolute ? "continuous" : "prismatic", parent,
                                  link_name, l.placement);
  set(*add(joint, "axis"), "xyz", "0 0 1");
  if (!revolute) {
    TiXmlElement& limit = *add(joint, "limit");
    for (const auto& [attribute, value] : {std::pair<const char*, const char*>{"lower", "-1e9"},
                                           {"upper", "1e9"},
                                           {"effort", "0"},
                                           {"velocity", "0"}})
      set(limit, attribute, value);
    joint.LinkEndChild(new TiXmlComment(" the limit is not known; not read by the suite "));
  }
  const Drive<double>& d = l.drive;
  const double damping = d.G * d.G * d.B, friction = std::abs(d.G) * d.Tc_pos;
  if (damping != 0 || friction != 0) {
    TiXmlElement& dynamics = *add(joint, "dynamics");
    set(dynamics, "damping", num(damping));
    set(dynamics, "friction", num(friction));
  }
  TiXmlElement& link = add_link(robot, link_name);
  if (l.mass != 0 || !l.inertia.isZero(0)) add_inertial(link, l.mass, l.com, l.inertia);
  return d.Jm != 0 || d.Tc_neg != -d.Tc_pos;
}

// The tool frame as a link on a fixed joint (read back, this leaf is the tip and its frame the
// tool frame), holding the payload, which the reader merges into the last body. Returns whether
// it wrote one.
bool add_tool(TiXmlElement& robot, const RobotFile& robot_file, const UrdfNames& names,
              const std::string& parent) {
  const Transform<double>& tool = robot_file.model.tool();
  const Payload<double>& p = robot_file.model.payload();
  if (!(p.mass > 0) && tool.R.isIdentity(0) && tool.p.isZero(0)) return false;
  // A URDF chain that ends in several links has no tool frame to write (a URDF has no payload).
  if (!robot_file.chain_ends.empty()) return false;
  add_joint(robot, names.tool_joint, "fixed", parent, names.tool, tool);
  TiXmlElement& link = add_link(robot, names.tool);
  if (p.mass > 0) {
    link.LinkEndChild(new TiXmlComment(" the payload "));
    add_inertial(link, p.mass, p.com, p.inertia);
  }
  return true;
}

// The frames fixed to links (a URDF's fixed links, a YAML's `frames`), each a link without
// inertia on a fixed joint from its body's link, placed in J_body as the model holds it; read
// back, each is a link merged into that body, the same frame. Not written, with a note: on a
// chain with a tool frame, those fixed to the last body (a leaf there would stand beside the
// tool's, or be taken for the tip, and the reader would lose the tool frame: docs/urdf.md); and
// a frame whose name a link written already has (the base link itself, the tool link, silently).
void add_frames(TiXmlElement& root, const RobotFile& robot, const UrdfNames& names,
                bool tool_written, std::vector<std::string>& notes) {
  std::vector<std::string> taken = names.links, joints = names.joints, beside_tool, clashing;
  taken.push_back(names.base);
  if (tool_written) {
    taken.push_back(names.tool);
    joints.push_back(names.tool_joint);
  }
  const int last = robot.model.dof() - 1;
  for (const RobotFile::LinkFrame& f : robot.fixed_link_frames) {
    const bool base_link = f.body < 0 && f.name == names.base;
    const bool tool_link = tool_written && f.name == names.tool && f.body == last;
    if (base_link || tool_link) continue;
    if (robot.has_tool_frame() && f.body == last) {
      beside_tool.push_back(f.name);
      continue;
    }
    if (std::count(taken.begin(), taken.end(), f.name)) {
      clashing.push_back(f.name);
      continue;
    }
    check_xml_text(f.name, "frame name");
    const std::string joint = unused(f.name + "_joint", joints);
    const std::string& parent = f.body < 0 ? names.base : names.links[std::size_t(f.body)];
    add_joint(root, joint, "fixed", parent, f.name, f.placement);
    add_link(root, f.name);
    taken.push_back(f.name);
    joints.push_back(joint);
  }
  auto listed = [](const std::vector<std::string>& frames) {
    std::string out;
    for (const std::string& name : frames)
      out += (out.empty() ? "" : ", ") + name;
    return out;
  };
  if (!beside_tool.empty())
    notes.push_back(
        "the frames fixed to the last link are not written to a URDF (a leaf there "
        "would take the tool frame's place; export to YAML keeps them): " +
        listed(beside_tool));
  if (!clashing.empty())
    notes.push_back("frames not written to the URDF, their names being links' already: " +
                    listed(clashing));
}

std::vector<std::string> urdf_notes(const RobotFile& robot, bool lost_drive) {
  std::vector<std::string> notes;
  if (lost_drive) {
    notes.push_back(
        "URDF's <dynamics> holds viscous and symmetric Coulomb friction only: the "
        "drives' rotor inertias (G^2 Jm) and asymmetric Coulomb friction are not "
        "written");
  }
  if (robot.model.gravity() != Vec3<double>(0, 0, -9.81)) {
    notes.push_back("URDF has no gravity: the robot file's " + vec(robot.model.gravity()) +
                    " m/s^2 is not written (a URDF is read with [0, 0, -9.81])");
  }
  if (robot.initial_q || robot.initial_qd || robot.trajectory) {
    notes.push_back("URDF has no initial state or trajectory: those blocks are not written");
  }
  if (needs_warn_checks(robot)) {
    notes.push_back(
        "some link has no mass or breaks the triangle inequality; the URDF reader "
        "checks inertias strictly and will refuse it");
  }
  return notes;
}

}  // namespace

void write_urdf(std::ostream& out, const RobotFile& robot, std::vector<std::string>& notes) {
  const std::string robot_name = robot.name.empty() ? "robot" : robot.name;
  check_xml_text(robot_name, "name");
  const UrdfNames names = urdf_names(robot);
  TiXmlDocument doc;
  doc.LinkEndChild(new TiXmlDeclaration("1.0", "", ""));
  const std::string header = " Exported by denoc from " + xml_comment(robot.path) +
                             ". Each link frame is the suite's joint frame J_i, whose z axis "
                             "is the joint axis. ";
  doc.LinkEndChild(new TiXmlComment(header.c_str()));
  if (!robot.source.empty()) {
    doc.LinkEndChild(new TiXmlComment((" source: " + xml_comment(robot.source) + " ").c_str()));
  }
  TiXmlElement& root = *add(doc, "robot");
  set(root, "name", robot_name);
  TiXmlElement& base = add_link(root, names.base);
  if (robot.model.floating()) {  // docs/floating-base.md: read back with --floating-base
    const RigidBody<double>& body = robot.model.base_body();
    base.LinkEndChild(
        new TiXmlComment(" the floating base's body (URDF cannot say that it floats) "));
    add_inertial(base, body.mass, body.com, body.inertia);
    notes.push_back("URDF cannot say that the base floats: read the file with " +
                    mention(Parameter::floating_base));
  }
  bool lost_drive = false;
  for (std::size_t i = 0; i < robot.model.links().size(); ++i) {
    const int parent = robot.model.parent(static_cast<int>(i));  // each joint's parent link
    lost_drive |=
        add_body(root, robot.model.links()[i], names.joints[i],
                 parent < 0 ? names.base : names.links[std::size_t(parent)], names.links[i]);
  }
  const bool tool_written =
      !names.links.empty() && add_tool(root, robot, names, names.links.back());
  add_frames(root, robot, names, tool_written, notes);
  TiXmlPrinter printer;
  printer.SetIndent("  ");
  doc.Accept(&printer);
  out << printer.Str();
  const std::vector<std::string> more = urdf_notes(robot, lost_drive);
  notes.insert(notes.end(), more.begin(), more.end());
}

std::vector<std::string> export_robot(const RobotFile& robot, const std::string& path,
                                      std::optional<DhConvention> convention) {
  auto ends_with = [&](const std::string& suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  std::ostringstream text;
  std::vector<std::string> notes;
  if (ends_with(".yaml") || ends_with(".yml")) {
    const DhConvention fallback = !robot.model.is_chain()  ? DhConvention::modified
                                  : robot.format == "urdf" ? DhConvention::standard
                                                           : robot.convention;
    write_robot_yaml(text, robot, convention.value_or(fallback), &notes);
  } else if (ends_with(".urdf")) {
    if (convention)
      throw InputError(mention(Parameter::dh) + ": applies to a YAML export, not to " + path);
    write_urdf(text, robot, notes);
  } else {
    throw InputError(mention(Parameter::export_file, path) +
                     ": the name must end in .yaml, .yml or .urdf");
  }
  if (robot.has_loops()) {  // docs/loops.md: the spanning tree only
    notes.push_back(
        "the spanning tree only: its loops (cut joints, actuated joints) are not "
        "written, and its initial q is the assembled one");
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError(path + ": cannot open for writing: " + std::strerror(errno));
  file << text.str();
  file.close();
  if (!file) throw InputError(path + ": cannot write");
  return notes;
}

}  // namespace denoc
