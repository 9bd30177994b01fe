// The model: a serial chain built once from a robot file and never changed while the
// algorithms run (as Pinocchio separates Model from Data; the per-sample storage is in
// workspace.hpp).
//
// Joint i carries a frame J_i. Its placement relative to J_{i-1} (J_0 is the base frame) is a
// constant transform (R_i, o_i) followed by the joint's own motion about or along the z axis of
// J_i: Rz(q_i) for a revolute joint, Tz(q_i) for a prismatic one. Link i is rigidly attached to
// J_i, and its mass centre C_i and inertia are expressed there. The origin of J_i lies on the
// axis of joint i, so Saha's (1999) d_i (from the joint axis to C_i) is the constant `com`.
// DH tables (dh.hpp) are one way of building this chain; any format that gives each joint a
// fixed transform and a z axis (URDF, for one) maps onto it.
#pragma once

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

// What a robot file says about one joint and the link it moves, in J_i.
template <typename S>
struct LinkSpec {
  JointType type = JointType::revolute;
  Transform<S> placement;  // (R_i, o_i): J_i at q_i = 0 relative to J_{i-1}
  S mass = S(1);
  Vec3<S> com = Vec3<S>::Zero();      // d_i: from the origin of J_i to C_i
  Mat3<S> inertia = Mat3<S>::Zero();  // I_i about C_i
};

template <typename S>
struct Joint {
  JointType type;
  Mat3<S> R;         // placement rotation of J_i (at q_i = 0) relative to J_{i-1}
  Vec3<S> r_placed;  // r_{i-1}: from C_{i-1} to the origin of J_i at q_i = 0, in R_i's axes
  Vec3<S> d;         // d_i: from the origin of J_i (on the joint axis) to C_i, in J_i
  Vec6<S> p;         // joint-rate propagation vector p_i, Eq. (13) or (15), constant in J_i
  BodyInertia<S> M;  // M_i of Eq. (2): link i about C_i, in J_i
};

// Makes the scalar argument of an algorithm non-deducible, so that Eigen blocks, maps and
// vectors all bind without a copy while S is taken from the model.
template <typename T>
struct type_identity {
  using type = T;
};
template <typename S>
using ConstVectorRef = typename type_identity<Eigen::Ref<const VecX<S>>>::type;

template <typename S>
class Model {
 public:
  using Scalar = S;

  Model() = default;
  explicit Model(const std::vector<LinkSpec<S>>& links,
                 const Vec3<S>& gravity = Vec3<S>(0, 0, S(-9.81)));

  int dof() const { return static_cast<int>(joints_.size()); }
  const Joint<S>& joint(int i) const { return joints_[static_cast<std::size_t>(i)]; }
  const std::vector<LinkSpec<S>>& links() const { return links_; }
  const Vec3<S>& gravity() const { return gravity_; }
  // rho of Eq. (32): the base is given the acceleration -g so that gravity needs no other term.
  Vec6<S> rho() const {
    Vec6<S> r;
    r << Vec3<S>::Zero(), -gravity_;
    return r;
  }

  template <typename T>
  Model<T> cast() const;

 private:
  std::vector<LinkSpec<S>> links_;
  std::vector<Joint<S>> joints_;
  Vec3<S> gravity_ = Vec3<S>(0, 0, S(-9.81));
};

template <typename S>
Model<S>::Model(const std::vector<LinkSpec<S>>& links, const Vec3<S>& gravity)
    : links_(links), gravity_(gravity) {
  joints_.reserve(links.size());
  Vec3<S> parent_com = Vec3<S>::Zero();  // C_0 is taken at the base origin; t_0 = 0 anyway
  for (const LinkSpec<S>& link : links) {
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
    joints_.push_back(j);
    parent_com = link.com;
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
    c.placement.R = l.placement.R.template cast<T>();
    c.placement.p = l.placement.p.template cast<T>();
    c.mass = static_cast<T>(l.mass);
    c.com = l.com.template cast<T>();
    c.inertia = l.inertia.template cast<T>();
    links.push_back(c);
  }
  return Model<T>(links, gravity_.template cast<T>());
}

}  // namespace denoc
