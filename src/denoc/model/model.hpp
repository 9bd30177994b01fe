// The model: a kinematic tree built once from a robot file and never changed while the
// algorithms run (as Pinocchio separates Model from Data; the per-sample storage is in each
// family's workspace: model/workspace.hpp for the shared joint frames, saha/, mata/, lee/).
//
// Joint i moves link i, whose parent is link lambda(i) < i (the base when lambda(i) = 0); the
// joints are numbered depth-first from the base, so the subtree of joint i is the contiguous range
// i .. subtree_end(i) - 1 (docs/trees.md). A serial chain is the tree with lambda(i) = i - 1, and
// every algorithm runs its chain case by the code it always had (topology.hpp).
//
// With a floating base (docs/floating-base.md) the base frame J_0 itself moves freely: six more
// coordinates come first, as Pinocchio's free-flyer joint (its position and unit quaternion in q,
// the velocity of its origin and its angular velocity, both in J_0, in the rates), and the base
// body's mass properties become part of the dynamics. The joints' recursions are unchanged; the
// base enters them at the root (saha/base_motion.hpp).
//
// Joint i carries a frame J_i. Its placement relative to J_lambda(i) (J_0 is the base frame) is a
// constant transform (R_i, o_i) followed by the joint's own motion about or along the z axis of
// J_i: Rz(q_i) for a revolute joint, Tz(q_i) for a prismatic one. Link i is rigidly attached to
// J_i, and its mass centre C_i and inertia are expressed there. The origin of J_i lies on the
// axis of joint i, so Saha's (1999) d_i (from the joint axis to C_i) is the constant `com`.
// DH tables (dh.hpp) are one way of building this tree; any format that gives each joint a
// fixed transform and a z axis (URDF, for one) maps onto it.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "denoc/model/body_inertia.hpp"
#include "denoc/model/spatial.hpp"

namespace denoc {

enum class JointType { revolute, prismatic };

// A rigid transform: a point x in the child frame is R x + p in the parent frame.
template <typename S>
struct Transform {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> p = Vec3<S>::Zero();

  Transform operator*(const Transform& child) const { return {R * child.R, R * child.p + p}; }
  Vec3<S> operator*(const Vec3<S>& x) const { return R * x + p; }
  // The parent frame seen from the child: (R^T, -R^T p).
  Transform inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
  // The same transform in another scalar type (Model::cast).
  template <typename T>
  Transform<T> cast() const {
    return {R.template cast<T>(), p.template cast<T>()};
  }

  static Transform rot_x(S angle);
  static Transform rot_z(S angle);
  static Transform trans_x(S distance) { return {Mat3<S>::Identity(), Vec3<S>(distance, 0, 0)}; }
  static Transform trans_z(S distance) { return {Mat3<S>::Identity(), Vec3<S>(0, 0, distance)}; }
};

template <typename S>
Transform<S> Transform<S>::rot_x(S angle) {
  using std::cos;
  using std::sin;
  Transform t;
  t.R << 1, 0, 0, 0, cos(angle), -sin(angle), 0, sin(angle), cos(angle);
  return t;
}

template <typename S>
Transform<S> Transform<S>::rot_z(S angle) {
  using std::cos;
  using std::sin;
  Transform t;
  t.R << cos(angle), -sin(angle), 0, sin(angle), cos(angle), 0, 0, 0, 1;
  return t;
}

// The actuator of a joint (docs/robot-file.md), with the meanings of Corke's toolbox: a rotor of
// inertia Jm behind a gear of ratio G (motor rate / joint rate), viscous friction B and Coulomb
// friction Tc at the motor. Seen at the joint: rotor inertia G^2 Jm, viscous G^2 B, Coulomb |G| Tc.
template <typename S>
struct Drive {
  S Jm = 0;      // rotor inertia, kg m^2
  S G = 1;       // gear ratio
  S B = 0;       // viscous friction, N m s/rad
  S Tc_pos = 0;  // Coulomb friction for qd > 0 (>= 0), N m
  S Tc_neg = 0;  // Coulomb friction for qd < 0 (<= 0), N m
};

// A rigid body given by its mass, mass centre and inertia about it, in the frame it is fixed to:
// the payload on the tool frame (docs/robot-file.md; mass 0: no payload), or the free-floating
// base body in the base frame (docs/floating-base.md).
template <typename S>
struct RigidBody {
  S mass = 0;
  Vec3<S> com = Vec3<S>::Zero();
  Mat3<S> inertia = Mat3<S>::Zero();

  template <typename T>
  RigidBody<T> cast() const {
    return {static_cast<T>(mass), com.template cast<T>(), inertia.template cast<T>()};
  }
};
template <typename S>
using Payload = RigidBody<S>;

// Two rigidly joined bodies, given in one frame, as one: each body's inertia carried from its own
// mass centre to the common one (the parallel-axis theorem, BodyInertia::shifted) and the two
// added.
template <typename S>
RigidBody<S> combined(const RigidBody<S>& a, const RigidBody<S>& b) {
  RigidBody<S> c;
  c.mass = a.mass + b.mass;
  // Massless bodies may still carry rotational inertia (Corke's Puma link 1), about any point.
  if (c.mass != 0) c.com = (a.mass * a.com + b.mass * b.com) / c.mass;
  const auto about_common_centre = [&](const RigidBody<S>& body) {
    return BodyInertia<S>::about_mass_centre(body.mass, body.inertia)
        .shifted(body.com - c.com)
        .rotational;
  };
  c.inertia = about_common_centre(a) + about_common_centre(b);
  return c;
}

// A body expressed in another frame: `to` maps the body's frame into it.
template <typename S>
RigidBody<S> transformed(const RigidBody<S>& body, const Transform<S>& to) {
  return {body.mass, to * body.com, to.R * body.inertia * to.R.transpose()};
}

// A frame fixed to a link: link `link`'s J_link (0-based; -1 is the base frame) followed by a
// constant placement. The tool frame is one (Model::tool_frame); `--frame LINK` names others.
template <typename S>
struct BodyFrame {
  int link = -1;
  Transform<S> placement;
};

// An external wrench w = [f; n] on a frame, at the frame's origin, in the base frame (the world
// frame with a floating base), or in the frame's own axes: what the environment exerts
// (docs/ridim.md, "External wrench").
template <typename S>
struct FrameWrench {
  BodyFrame<S> frame;
  Vec6<S> w = Vec6<S>::Zero();
  bool in_frame_axes = false;  // w's components along the frame's own axes (--wrench-frame tool)
};

// What a robot file says about one joint and the link it moves, in J_i.
template <typename S>
struct LinkSpec {
  // `parent` is the index of the parent link in the list (0-based), kBase for the base, or
  // kPrevious for the link before (the base for the first): the default, so that a list of links
  // is a chain unless it says otherwise.
  static constexpr int kBase = -1;
  static constexpr int kPrevious = -2;

  JointType type = JointType::revolute;
  int parent = kPrevious;
  Transform<S> placement;  // (R_i, o_i): J_i at q_i = 0 relative to J_lambda(i)
  S mass = S(1);
  Vec3<S> com = Vec3<S>::Zero();      // d_i: from the origin of J_i to C_i
  Mat3<S> inertia = Mat3<S>::Zero();  // I_i about C_i
  Drive<S> drive;                     // the actuator of joint i (none by default)
  // The frame K_i in which joint i's reaction wrench is reported (docs/csv.md: the DH frame whose z
  // axis is joint i's axis): K_i = J_i motion(q_i)^-1 reaction_frame when
  // reaction_frame_undoes_motion (the frame is fixed to link i-1), else J_i reaction_frame.
  Transform<S> reaction_frame;
  bool reaction_frame_undoes_motion = false;
};

// A body rigidly joined to link i, given in J_i, made part of the link.
template <typename S>
void join_body(LinkSpec<S>& link, const RigidBody<S>& body) {
  const RigidBody<S> sum = combined(RigidBody<S>{link.mass, link.com, link.inertia}, body);
  link.mass = sum.mass;
  link.com = sum.com;
  link.inertia = sum.inertia;
}

template <typename S>
struct Joint {
  JointType type;
  Mat3<S> R;         // placement rotation of J_i (at q_i = 0) relative to J_lambda(i)
  Vec3<S> r_placed;  // r_lambda(i): from C_lambda(i) to the origin of J_i at q_i = 0, in R_i's axes
  Vec3<S> d;         // d_i: from the origin of J_i (on the joint axis) to C_i, in J_i
  Vec6<S> p;         // joint-rate propagation vector p_i, Eq. (13) or (15), constant in J_i
  BodyInertia<S> M;  // M_i of Eq. (2): link i about C_i, in J_i (the last one with the payload)
  // The drive seen at the joint (docs/robot-file.md): G^2 Jm, G^2 B, |G| Tc for qd > 0 and for qd <
  // 0.
  S rotor_inertia = 0;
  S viscous = 0;
  S coulomb_pos = 0, coulomb_neg = 0;
};

// Makes the scalar argument of an algorithm non-deducible, so that Eigen blocks, maps and
// vectors all bind without a copy while S is taken from the model.
template <typename T>
struct type_identity {
  using type = T;
};
template <typename S>
using ConstVectorRef = typename type_identity<Eigen::Ref<const VecX<S>>>::type;
// The same for a vector written in place.
template <typename S>
using VectorRef = typename type_identity<Eigen::Ref<VecX<S>>>::type;

template <typename S>
class Model {
 public:
  using Scalar = S;

  Model() = default;
  // Throws std::invalid_argument when the parents are not numbered depth-first (a parent after its
  // child, or a subtree split by another branch); the robot-file readers order links before this.
  explicit Model(const std::vector<LinkSpec<S>>& links,
                 const Vec3<S>& gravity = Vec3<S>(0, 0, S(-9.81)));
  // With a tool frame (relative to J_n) and a payload on it (docs/robot-file.md). The payload is
  // folded into the last link's M_n here, once, so that every algorithm carries it without knowing.
  Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity, const Transform<S>& tool,
        const Payload<S>& payload);
  // The same with a floating base whose body, in the base frame, is `base_body` (gravity is then
  // in the world frame).
  Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity, const Transform<S>& tool,
        const Payload<S>& payload, const RigidBody<S>& base_body);

  // The number of joints n; with a floating base the coordinates number nq() = 7 + n and the
  // rates nv() = 6 + n (docs/floating-base.md), otherwise both n.
  int dof() const { return static_cast<int>(joints_.size()); }
  bool floating() const { return floating_; }
  int nq() const { return floating_ ? dof() + 7 : dof(); }
  int nv() const { return floating_ ? dof() + 6 : dof(); }
  // The floating base body as given, and its mass properties about the base origin in the base
  // frame (the M_0 of the base's Newton-Euler equations).
  const RigidBody<S>& base_body() const { return base_body_; }
  const BodyInertia<S>& base_inertia() const { return base_inertia_; }
  // The parent array and subtree ends of the 6 + n rates with a floating base: the six base rates
  // as a chain (their block of the inertia matrix is full), every joint on the root below them.
  // The sparse factorisation of the inertia matrix reads them (docs/floating-base.md).
  const std::vector<int>& rate_parents() const { return rate_parents_; }
  const std::vector<int>& rate_subtree_ends() const { return rate_subtree_ends_; }
  const Joint<S>& joint(int i) const { return joints_[static_cast<std::size_t>(i)]; }
  // The topology, all 0-based: parent(i) is lambda(i) - 1 (-1 for the base), the subtree of joint
  // i is i .. subtree_end(i) - 1, depth(i) is the number of joints from the base to i inclusive.
  bool is_chain() const { return is_chain_; }
  int parent(int i) const { return parents_[static_cast<std::size_t>(i)]; }
  const std::vector<int>& parents() const { return parents_; }
  int subtree_end(int i) const { return subtree_ends_[static_cast<std::size_t>(i)]; }
  const std::vector<int>& subtree_ends() const { return subtree_ends_; }
  int depth(int i) const { return depths_[static_cast<std::size_t>(i)]; }
  // Whether joint j lies on the path from the base to joint i (j = i included): then and only then
  // does joint j's motion move link i, and I_ij can differ from 0.
  bool supports(int j, int i) const { return j <= i && i < subtree_end(j); }
  const std::vector<LinkSpec<S>>& links() const { return links_; }
  const Vec3<S>& gravity() const { return gravity_; }

  // The tool frame relative to J_n (identity when none was given) and the payload on it.
  const Transform<S>& tool() const { return tool_; }
  BodyFrame<S> tool_frame() const { return {dof() - 1, tool_}; }
  const Payload<S>& payload() const { return payload_; }
  // G^2 Jm of every joint: the rotor terms on the diagonal of the inertia matrix.
  const VecX<S>& rotor_inertia() const { return rotor_inertia_; }
  bool has_rotors() const { return has_rotors_; }
  bool has_friction() const { return has_friction_; }

  template <typename T>
  Model<T> cast() const;

 private:
  std::vector<LinkSpec<S>> links_;
  std::vector<Joint<S>> joints_;
  std::vector<int> parents_, subtree_ends_, depths_;
  bool is_chain_ = true;
  Vec3<S> gravity_ = Vec3<S>(0, 0, S(-9.81));
  Transform<S> tool_;
  Payload<S> payload_;
  VecX<S> rotor_inertia_;
  bool has_rotors_ = false;
  bool has_friction_ = false;
  bool floating_ = false;
  RigidBody<S> base_body_;
  BodyInertia<S> base_inertia_;
  std::vector<int> rate_parents_, rate_subtree_ends_;
};

// The payload folded into the last link (parallel-axis theorem): mass, mass centre and inertia
// about the joint combined, all in J_n. `tool` places the payload's frame in J_n.
template <typename S>
LinkSpec<S> with_payload(LinkSpec<S> link, const Transform<S>& tool, const Payload<S>& payload) {
  if (!(payload.mass > 0)) return link;
  // Both bodies about the origin of J_n (BodyInertia::shifted(c) moves the reference point from
  // the mass centre to the point at -c from it), summed, then referred to the joint mass centre.
  BodyInertia<S> sum = BodyInertia<S>::about_mass_centre(link.mass, link.inertia).shifted(link.com);
  const Vec3<S> payload_com = tool * payload.com;
  sum +=
      BodyInertia<S>::about_mass_centre(payload.mass, tool.R * payload.inertia * tool.R.transpose())
          .shifted(payload_com);
  const Vec3<S> com = sum.first_moment / sum.mass;
  const BodyInertia<S> about_com = sum.shifted(-com);
  link.mass = sum.mass;
  link.com = com;
  link.inertia = (about_com.rotational + about_com.rotational.transpose()) / 2;
  return link;
}

template <typename S>
Model<S>::Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity)
    : Model(links, gravity, Transform<S>(), Payload<S>()) {}

// The parents of `links` resolved (kPrevious to the index before) and checked to be numbered
// depth-first: each parent is the link just before or one of its ancestors, so that every subtree
// is a contiguous range.
template <typename S>
std::vector<int> resolve_parents(const std::vector<LinkSpec<S>>& links) {
  std::vector<int> parents(links.size());
  std::vector<int> path;  // the ancestors of the link before, and that link
  for (std::size_t k = 0; k < links.size(); ++k) {
    const int i = static_cast<int>(k);
    const int parent = links[k].parent == LinkSpec<S>::kPrevious ? i - 1 : links[k].parent;
    while (!path.empty() && path.back() != parent)
      path.pop_back();
    if (parent != LinkSpec<S>::kBase && path.empty())
      throw std::invalid_argument("link " + std::to_string(i + 1) + "'s parent " +
                                  std::to_string(parent + 1) +
                                  " is not an earlier link on the path to it: links must be "
                                  "numbered depth-first from the base");
    parents[k] = parent;
    path.push_back(i);
  }
  return parents;
}

template <typename S>
Model<S>::Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity,
                const Transform<S>& tool, const Payload<S>& payload)
    : links_(links),
      parents_(resolve_parents(links)),
      gravity_(gravity),
      tool_(tool),
      payload_(payload) {
  const std::size_t n = links.size();
  subtree_ends_.assign(n, 0);
  depths_.assign(n, 1);
  for (std::size_t k = 0; k < n; ++k) {
    links_[k].parent = parents_[k];
    is_chain_ = is_chain_ && parents_[k] == static_cast<int>(k) - 1;
    if (parents_[k] >= 0) depths_[k] = depths_[static_cast<std::size_t>(parents_[k])] + 1;
  }
  for (std::size_t k = n; k-- > 0;) {  // a subtree ends where its last descendant's does
    subtree_ends_[k] = std::max(subtree_ends_[k], static_cast<int>(k) + 1);
    if (parents_[k] >= 0) {
      int& end = subtree_ends_[static_cast<std::size_t>(parents_[k])];
      end = std::max(end, subtree_ends_[k]);
    }
  }
  joints_.reserve(n);
  rotor_inertia_ = VecX<S>::Zero(static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    const LinkSpec<S> link = k + 1 == n ? with_payload(links[k], tool, payload) : links[k];
    // C_0 is taken at the base origin (t_0 = 0 anyway). The payload is on the last link, a leaf.
    const Vec3<S> parent_com =
        parents_[k] >= 0 ? links[static_cast<std::size_t>(parents_[k])].com : Vec3<S>::Zero();
    Joint<S> j;
    j.type = link.type;
    j.R = link.placement.R;
    // Kept in the axes of the placement R_i, where only Rz(q_i) remains to be applied.
    j.r_placed = link.placement.R.transpose() * (link.placement.p - parent_com);
    j.d = link.com;
    // The joint axis e_i is the z axis of J_i, so e_i x d_i = (-d_y, d_x, 0).
    if (link.type == JointType::revolute) {
      j.p << 0, 0, 1, -j.d.y(), j.d.x(), 0;  // Eq. (13): [e_i; e_i x d_i]
    } else {
      j.p << 0, 0, 0, 0, 0, 1;  // Eq. (15): [0; e_i]
    }
    j.M = BodyInertia<S>::about_mass_centre(link.mass, link.inertia);
    const Drive<S>& drive = link.drive;
    j.rotor_inertia = drive.G * drive.G * drive.Jm;
    j.viscous = drive.G * drive.G * drive.B;
    using std::abs;  // and the counting scalar's (count/counted.hpp)
    j.coulomb_pos = abs(drive.G) * drive.Tc_pos;
    j.coulomb_neg = abs(drive.G) * drive.Tc_neg;
    rotor_inertia_[static_cast<Eigen::Index>(k)] = j.rotor_inertia;
    has_rotors_ = has_rotors_ || j.rotor_inertia != 0;
    has_friction_ = has_friction_ || j.viscous != 0 || j.coulomb_pos != 0 || j.coulomb_neg != 0;
    joints_.push_back(j);
  }
}

template <typename S>
Model<S>::Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity,
                const Transform<S>& tool, const Payload<S>& payload, const RigidBody<S>& base_body)
    : Model(links, gravity, tool, payload) {
  floating_ = true;
  base_body_ = base_body;
  // About the base origin: the body about its mass centre seen from the point at -com from it.
  base_inertia_ =
      BodyInertia<S>::about_mass_centre(base_body.mass, base_body.inertia).shifted(base_body.com);
  const int n = dof();
  rate_parents_.resize(static_cast<std::size_t>(n + 6));
  rate_subtree_ends_.resize(static_cast<std::size_t>(n + 6));
  for (int k = 0; k < 6; ++k) {
    rate_parents_[static_cast<std::size_t>(k)] = k - 1;
    rate_subtree_ends_[static_cast<std::size_t>(k)] = n + 6;
  }
  for (int i = 0; i < n; ++i) {
    rate_parents_[static_cast<std::size_t>(i + 6)] = parent(i) >= 0 ? parent(i) + 6 : 5;
    rate_subtree_ends_[static_cast<std::size_t>(i + 6)] = subtree_end(i) + 6;
  }
}

template <typename S>
template <typename T>
Model<T> Model<S>::cast() const {
  std::vector<LinkSpec<T>> links;
  links.reserve(links_.size());
  for (const LinkSpec<S>& l : links_) {
    LinkSpec<T> c;
    c.type = l.type;
    c.parent = l.parent;
    c.placement = l.placement.template cast<T>();
    c.mass = static_cast<T>(l.mass);
    c.com = l.com.template cast<T>();
    c.inertia = l.inertia.template cast<T>();
    c.drive = {static_cast<T>(l.drive.Jm), static_cast<T>(l.drive.G), static_cast<T>(l.drive.B),
               static_cast<T>(l.drive.Tc_pos), static_cast<T>(l.drive.Tc_neg)};
    c.reaction_frame = l.reaction_frame.template cast<T>();
    c.reaction_frame_undoes_motion = l.reaction_frame_undoes_motion;
    links.push_back(c);
  }
  const Transform<T> tool = tool_.template cast<T>();
  const Payload<T> payload = payload_.template cast<T>();
  if (!floating_) return Model<T>(links, gravity_.template cast<T>(), tool, payload);
  return Model<T>(links, gravity_.template cast<T>(), tool, payload, base_body_.template cast<T>());
}

}  // namespace denoc
