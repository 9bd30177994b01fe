#include "denoc/io/export.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "denoc/io/errors.hpp"

namespace denoc {

namespace {

using Pose = Transform<double>;

Pose inverse(const Pose& t) {
  return {t.R.transpose(), -(t.R.transpose() * t.p)};
}

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

}  // namespace

Vec3<double> rpy_of(const Mat3<double>& R) {
  const double c = std::hypot(R(0, 0), R(1, 0));
  const double pitch = std::atan2(-R(2, 0), c);
  if (c > 1e-12) return {std::atan2(R(2, 1), R(2, 2)), pitch, std::atan2(R(1, 0), R(0, 0))};
  return {std::atan2(-R(1, 2), R(1, 1)), pitch, 0.0};  // gimbal lock: the yaw folded into roll
}

Mat3<double> rotation_from_rpy(const Vec3<double>& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Vec3<double>::UnitZ()) *
          Eigen::AngleAxisd(rpy[1], Vec3<double>::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Vec3<double>::UnitX()))
      .toRotationMatrix();
}

DhFit fit_dh(const Model<double>& model, DhConvention convention) {
  const std::vector<LinkSpec<double>>& links = model.links();
  const std::size_t n = links.size();
  std::vector<Pose> W(n);  // J_i at q = 0, in the base frame
  Pose at;
  double scale = 1;
  for (std::size_t i = 0; i < n; ++i) {
    at = at * links[i].placement;
    W[i] = at;
    scale = std::max(scale, at.p.norm());
  }
  const double tol = 1e-12 * scale;
  auto z = [&](std::size_t i) { return Vec3<double>(W[i].R.col(2)); };
  auto o = [&](std::size_t i) { return W[i].p; };

  DhFit fit;
  fit.convention = convention;
  std::vector<Pose> F(n + 1);  // the DH frames 0..n at q = 0; link i's frame is F[i + 1]
  if (convention == DhConvention::standard) {
    // F_0's z axis must be the first joint axis (the joint turns about the frame before it).
    const Vec3<double> off_axis = o(0) - o(0).dot(z(0)) * z(0);
    if ((z(0) - Vec3<double>::UnitZ()).cwiseAbs().maxCoeff() > 1e-12 ||
        off_axis.cwiseAbs().maxCoeff() > tol) {
      fit.base = W[0];
      F[0] = W[0];
    }
    // F_k (k = 1..n-1) sits on axis k+1, x along the common normal from axis k to axis k+1.
    for (std::size_t k = 1; k < n; ++k) {
      const CommonNormal cn =
          common_normal(F[k - 1].p, z(k - 1), o(k), z(k), F[k - 1].p, F[k - 1].R.col(0), tol);
      F[k] = frame(cn.x, z(k), cn.foot_b);
    }
    F[n] = F[n - 1];  // a_n = alpha_n = d_n = theta_n = 0: F_n is F_{n-1} turned by q_n
    if (n == 1) F[1] = F[0];
  } else {
    // F_k (k = 1..n-1) sits on axis k, x along the common normal from axis k to axis k+1.
    for (std::size_t k = 1; k < n; ++k) {
      const CommonNormal cn =
          common_normal(o(k - 1), z(k - 1), o(k), z(k), F[k - 1].p, F[k - 1].R.col(0), tol);
      F[k] = frame(cn.x, z(k - 1), cn.foot_a);
    }
    // F_n: on the last axis where F_{n-1}'s x axis meets it, x along F_{n-1}'s x.
    const Vec3<double> foot = o(n - 1) + z(n - 1).dot(F[n - 1].p - o(n - 1)) * z(n - 1);
    F[n] = frame(perpendicular(z(n - 1), F[n - 1].R.col(0)), z(n - 1), foot);
    // F_0 -> F_1 must be Rx Tx Rz Tz: base x perpendicular to the first axis and meeting it.
    DhLink<double> first;
    if (dh_parameters(convention, F[1], first) > 1e-9) {
      fit.base = F[1];
      F[0] = F[1];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    DhLink<double> row;
    row.type = links[i].type;
    const double residual = dh_parameters(convention, inverse(F[i]) * F[i + 1], row);
    if (residual > 1e-9) {
      throw RunError("fit_dh: joint " + std::to_string(i + 1) + ": not of DH form (" +
                     std::to_string(residual) + "); please report this chain");
    }
    row.a = snapped(row.a, tol);
    row.b = snapped(row.b, tol);
    row.alpha = snapped(row.alpha, 1e-14);
    row.theta = snapped(row.theta, 1e-14);
    // Link i moves with J_i; its DH frame is F_{i+1} = J_i Post with Post constant.
    const Pose post = inverse(W[i]) * F[i + 1];
    row.mass = links[i].mass;
    row.com = inverse(post) * links[i].com;
    row.inertia = post.R.transpose() * links[i].inertia * post.R;
    row.inertia = (row.inertia + row.inertia.transpose()) / 2;
    fit.rows.push_back(row);
  }
  fit.last_frame = inverse(W[n - 1]) * F[n];
  // The table must give back the same axes (a check on the above, cheap beside a file write).
  const std::vector<LinkSpec<double>> rebuilt =
      links_from_dh(convention, fit.rows, fit.base ? *fit.base : Pose());
  Pose at2;
  for (std::size_t i = 0; i < n; ++i) {
    at2 = at2 * rebuilt[i].placement;
    const Vec3<double> dz = at2.R.col(2) - z(i);
    const Vec3<double> dp = (at2.p - o(i)).cross(z(i));
    if (dz.cwiseAbs().maxCoeff() > 1e-9 || dp.cwiseAbs().maxCoeff() > 1e-9 * scale) {
      throw RunError("fit_dh: joint " + std::to_string(i + 1) +
                     ": the DH table does not give back its axis; please report this chain");
    }
  }
  return fit;
}

namespace {

const double kDegrees = 180 / M_PI;

std::string num(double x) {
  if (x == 0) return "0";  // also -0
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, x);
  (void)ec;
  return std::string(text, end);
}

std::string vec(const Vec3<double>& v, double scale = 1) {
  return "[" + num(scale * v[0]) + ", " + num(scale * v[1]) + ", " + num(scale * v[2]) + "]";
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
    throw InputError("--export: " + key + " " + text +
                     " cannot be written to a robot YAML unchanged (it is not UTF-8 text)");
  }
  return text;
}

// An XML attribute value. XML 1.0 holds no control character but tab, line feed and carriage
// return, which are written as character references (a parser turns them into spaces when
// written raw); any other is refused, never dropped.
std::string xml_attribute(const std::string& s, const std::string& what) {
  std::string out;
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (byte < 0x20) {
          throw InputError("--export: " + what + " " + emitted(s) +
                           " has a control character that XML cannot hold; a URDF cannot carry "
                           "it (a robot YAML can)");
        }
        out += c;
    }
  }
  return out;
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

const double kDeg = 180 / M_PI;

std::string joint_values(const VecX<double>& v, const RobotFile& robot) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const bool revolute =
        robot.model.links()[static_cast<std::size_t>(i)].type == JointType::revolute;
    out += (i ? ", " : "") + num(revolute ? v[i] * kDeg : v[i]);
  }
  return out + "]";
}

}  // namespace

void write_robot_yaml(std::ostream& out, const RobotFile& robot, DhConvention convention) {
  const DhFit fit = fit_dh(robot.model, convention);
  const char* name = convention == DhConvention::standard ? "standard" : "modified";
  out << "# Written by ridim --export from " << emitted(robot.path) << ": the model as loaded, in "
      << name
      << " DH.\n# com and inertia are re-expressed in this convention's link frames; lengths in m,"
         " angles in deg.\n";
  if (!robot.name.empty()) out << "name: " << yaml_text(robot.name, "name") << '\n';
  if (!robot.source.empty()) out << "source: " << yaml_text(robot.source, "source") << '\n';
  out << "dh: " << name << "\nangle_unit: deg\ngravity: " << vec(robot.model.gravity()) << '\n';
  if (needs_warn_checks(robot)) {
    out << "inertia_checks: warn   # some link has no mass or breaks the triangle inequality\n";
  }
  if (fit.base) {
    out << "# The first joint axis is not where a " << name
        << " DH table starts from, so the DH frame 0 is placed in the\n# base frame by `base`"
           " (URDF-style: R = Rz(yaw) Ry(pitch) Rx(roll), in angle_unit).\n"
        << "base: {xyz: " << vec(fit.base->p) << ", rpy: " << vec(rpy_of(fit.base->R), kDeg)
        << "}\n";
  }
  out << "links:\n";
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const DhLink<double> r = tidied(fit.rows[i]);
    const std::string& link_name = i < robot.link_names.size() ? robot.link_names[i] : "";
    out << "  - ";
    if (!link_name.empty()) {
      out << "name: " << yaml_text(link_name, "links[" + std::to_string(i) + "].name") << "\n    ";
    }
    out << "joint: " << (r.type == JointType::revolute ? "revolute" : "prismatic") << '\n'
        << "    a: " << num(r.a) << "\n    b: " << num(r.b)
        << "\n    alpha: " << num(r.alpha * kDeg) << "\n    theta: " << num(r.theta * kDeg)
        << "\n    mass: " << num(r.mass) << "\n    com: " << vec(r.com)
        << "\n    inertia: {xx: " << num(r.inertia(0, 0)) << ", yy: " << num(r.inertia(1, 1))
        << ", zz: " << num(r.inertia(2, 2)) << ", xy: " << num(r.inertia(0, 1))
        << ", xz: " << num(r.inertia(0, 2)) << ", yz: " << num(r.inertia(1, 2)) << "}\n";
    // The drive (spec §6; from a URDF, its <dynamics damping friction> as B and Tc with G = 1).
    const Drive<double>& d = robot.model.links()[i].drive;
    if (d.Jm != 0 || d.G != 1 || d.B != 0 || d.Tc_pos != 0 || d.Tc_neg != 0) {
      out << "    drive: {Jm: " << num(d.Jm) << ", G: " << num(d.G) << ", B: " << num(d.B)
          << ", Tc: [" << num(d.Tc_pos) << ", " << num(d.Tc_neg) << "]}\n";
    }
  }
  // The tool frame, relative to the fitted table's last link frame (the model keeps it relative
  // to J_n, whose x axis the table need not keep), and the payload on it (spec §6). A URDF's
  // tool frame is its tip link's frame; without this block the last link frame would take its
  // place.
  const bool has_payload = robot.model.payload().mass > 0;
  const Transform<double> in_link_frame = inverse(fit.last_frame) * robot.model.tool();
  Vec3<double> xyz = in_link_frame.p, rpy = kDeg * rpy_of(in_link_frame.R);
  const double length = std::max(1.0, xyz.cwiseAbs().maxCoeff());
  for (int k = 0; k < 3; ++k) {
    xyz[k] = tidy(xyz[k], length);
    rpy[k] = tidy(rpy[k], 1);
  }
  if (has_payload || !xyz.isZero(0) || !rpy.isZero(0)) {
    out << "tool: {xyz: " << vec(xyz) << ", rpy: " << vec(rpy) << "}\n";
  }
  if (has_payload) {
    const Payload<double>& p = robot.model.payload();
    out << "payload:\n  mass: " << num(p.mass) << "\n  com: " << vec(p.com)
        << "\n  inertia: {xx: " << num(p.inertia(0, 0)) << ", yy: " << num(p.inertia(1, 1))
        << ", zz: " << num(p.inertia(2, 2)) << ", xy: " << num(p.inertia(0, 1))
        << ", xz: " << num(p.inertia(0, 2)) << ", yz: " << num(p.inertia(1, 2)) << "}\n";
  }
  if (robot.initial_q || robot.initial_qd) {
    out << "initial:\n";
    if (robot.initial_q) out << "  q: " << joint_values(*robot.initial_q, robot) << '\n';
    if (robot.initial_qd) out << "  qd: " << joint_values(*robot.initial_qd, robot) << '\n';
  }
  if (robot.trajectory) {
    const CycloidalTrajectory<double>& t = *robot.trajectory;
    out << "trajectory:\n  type: cycloidal\n  duration: " << num(t.duration)
        << "\n  samples: " << t.samples << "\n  from: " << joint_values(t.from, robot)
        << "\n  to: " << joint_values(t.to, robot) << '\n';
  }
}

void write_urdf(std::ostream& out, const RobotFile& robot, std::vector<std::string>& notes) {
  const std::vector<LinkSpec<double>>& links = robot.model.links();
  const std::size_t n = links.size();
  auto name_of = [&](const std::vector<std::string>& names, std::size_t i, const char* prefix) {
    const bool usable = i < names.size() && !names[i].empty() &&
                        std::count(names.begin(), names.end(), names[i]) == 1;
    return usable ? names[i] : prefix + std::to_string(i + 1);
  };
  std::vector<std::string> link_names, joint_names;
  for (std::size_t i = 0; i < n; ++i) {
    link_names.push_back(name_of(robot.link_names, i, "link"));
    joint_names.push_back(name_of(robot.joint_names, i, "joint"));
  }
  // A name of our own that none of the robot's takes.
  auto unused = [](std::string name, const std::vector<std::string>& taken) {
    while (std::count(taken.begin(), taken.end(), name))
      name += "_0";
    return name;
  };
  const std::string base = unused("base_link", link_names);
  const std::string robot_name = robot.name.empty() ? "robot" : robot.name;
  out << "<?xml version=\"1.0\"?>\n<!-- Written by ridim --export from " << xml_comment(robot.path)
      << ". Each link frame is the suite's joint frame J_i, whose z axis is the joint axis. -->\n";
  if (!robot.source.empty()) out << "<!-- source: " << xml_comment(robot.source) << " -->\n";
  out << "<robot name=\"" << xml_attribute(robot_name, "name") << "\">\n  <link name=\"" << base
      << "\"/>\n";
  std::string parent = base;
  bool lost_drive = false;
  for (std::size_t i = 0; i < n; ++i) {
    const LinkSpec<double>& l = links[i];
    const std::string link = xml_attribute(link_names[i], "link name");
    const Vec3<double> rpy = rpy_of(l.placement.R);
    const bool revolute = l.type == JointType::revolute;
    out << "  <joint name=\"" << xml_attribute(joint_names[i], "joint name") << "\" type=\""
        << (revolute ? "continuous" : "prismatic") << "\">\n    <parent link=\"" << parent
        << "\"/>\n    <child link=\"" << link << "\"/>\n    <origin xyz=\"" << num(l.placement.p[0])
        << ' ' << num(l.placement.p[1]) << ' ' << num(l.placement.p[2]) << "\" rpy=\""
        << num(rpy[0]) << ' ' << num(rpy[1]) << ' ' << num(rpy[2])
        << "\"/>\n    <axis xyz=\"0 0 1\"/>\n";
    if (!revolute) {
      out << "    <limit lower=\"-1e9\" upper=\"1e9\" effort=\"0\" velocity=\"0\"/>"
             "  <!-- not known; not read by the suite -->\n";
    }
    // URDF's <dynamics>: viscous and symmetric Coulomb friction at the joint; a rotor inertia or
    // an asymmetric Coulomb friction has no place there (noted below).
    const Drive<double>& d = l.drive;
    const double damping = d.G * d.G * d.B, friction = std::abs(d.G) * d.Tc_pos;
    if (damping != 0 || friction != 0) {
      out << "    <dynamics damping=\"" << num(damping) << "\" friction=\"" << num(friction)
          << "\"/>\n";
    }
    if (d.Jm != 0 || d.Tc_neg != -d.Tc_pos) lost_drive = true;
    out << "  </joint>\n  <link name=\"" << link << "\">\n";
    const Mat3<double>& I = l.inertia;
    if (l.mass != 0 || !I.isZero(0)) {
      out << "    <inertial>\n      <origin xyz=\"" << num(l.com[0]) << ' ' << num(l.com[1]) << ' '
          << num(l.com[2]) << "\" rpy=\"0 0 0\"/>\n      <mass value=\"" << num(l.mass)
          << "\"/>\n      <inertia ixx=\"" << num(I(0, 0)) << "\" ixy=\"" << num(I(0, 1))
          << "\" ixz=\"" << num(I(0, 2)) << "\" iyy=\"" << num(I(1, 1)) << "\" iyz=\""
          << num(I(1, 2)) << "\" izz=\"" << num(I(2, 2)) << "\"/>\n    </inertial>\n";
    }
    out << "  </link>\n";
    parent = link;
  }
  // The tool frame as a link on a fixed joint (spec §8: read back, this leaf is the tip and its
  // frame the tool frame), holding the payload, which the reader merges into the last body.
  const Transform<double>& tool = robot.model.tool();
  const Payload<double>& p = robot.model.payload();
  if (p.mass > 0 || !tool.R.isIdentity(0) || !tool.p.isZero(0)) {
    const Vec3<double> rpy = rpy_of(tool.R);
    const bool tip_named = !robot.tip_link.empty() &&
                           !std::count(link_names.begin(), link_names.end(), robot.tip_link);
    const std::string tool_link =
        tip_named ? xml_attribute(robot.tip_link, "link name") : unused("tool", link_names);
    out << "  <joint name=\"" << unused("tool_joint", joint_names)
        << "\" type=\"fixed\">\n    <parent link=\"" << parent << "\"/>\n    <child link=\""
        << tool_link << "\"/>\n    <origin xyz=\"" << num(tool.p[0]) << ' ' << num(tool.p[1]) << ' '
        << num(tool.p[2]) << "\" rpy=\"" << num(rpy[0]) << ' ' << num(rpy[1]) << ' ' << num(rpy[2])
        << "\"/>\n  </joint>\n  <link name=\"" << tool_link << "\">";
    if (p.mass > 0) {
      const Mat3<double>& I = p.inertia;
      out << "  <!-- the payload -->\n    <inertial>\n      <origin xyz=\"" << num(p.com[0]) << ' '
          << num(p.com[1]) << ' ' << num(p.com[2]) << "\" rpy=\"0 0 0\"/>\n      <mass value=\""
          << num(p.mass) << "\"/>\n      <inertia ixx=\"" << num(I(0, 0)) << "\" ixy=\""
          << num(I(0, 1)) << "\" ixz=\"" << num(I(0, 2)) << "\" iyy=\"" << num(I(1, 1))
          << "\" iyz=\"" << num(I(1, 2)) << "\" izz=\"" << num(I(2, 2))
          << "\"/>\n    </inertial>\n";
    } else {
      out << '\n';
    }
    out << "  </link>\n";
  }
  if (lost_drive) {
    notes.push_back(
        "URDF's <dynamics> holds viscous and symmetric Coulomb friction only: the "
        "drives' rotor inertias (G^2 Jm) and asymmetric Coulomb friction are not "
        "written");
  }
  out << "</robot>\n";
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
    const DhConvention fallback =
        robot.format == "urdf" ? DhConvention::standard : robot.convention;
    write_robot_yaml(text, robot, convention.value_or(fallback));
  } else if (ends_with(".urdf")) {
    if (convention) throw InputError("--dh: applies to a YAML export, not to " + path);
    write_urdf(text, robot, notes);
  } else {
    throw InputError("--export " + path + ": the name must end in .yaml, .yml or .urdf");
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError(path + ": cannot open for writing: " + std::strerror(errno));
  file << text.str();
  file.close();
  if (!file) throw InputError(path + ": cannot write");
  return notes;
}

}  // namespace denoc
