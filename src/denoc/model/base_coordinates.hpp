// The coordinates of a floating base (docs/floating-base.md): those of Pinocchio's free-flyer
// joint, placed before the joints':
//   q = [x y z qx qy qz qw q_1 .. q_n]     the base origin in the world frame and the unit
//                                          quaternion of the base frame's orientation R
//   v = [v_x v_y v_z w_x w_y w_z qd_1 ..]  the velocity v of the base origin and the angular
//                                          velocity w, both in the base frame J_0
//   a = d v / dt, number by number          (the derivative of the base-frame components)
// With a fixed base, q and v are the joints' alone.
#pragma once

#include <cmath>

#include "denoc/model/model.hpp"

namespace denoc {

// The rotation of the unit quaternion (x, y, z, w) (scalar last, as Pinocchio and Eigen store
// it); the quaternion is normalised first, so that any non-zero one gives a rotation.
template <typename S>
Mat3<S> quaternion_rotation(S x, S y, S z, S w) {
  using std::sqrt;
  const S norm = sqrt(x * x + y * y + z * z + w * w);
  return Eigen::Quaternion<S>(w / norm, x / norm, y / norm, z / norm).toRotationMatrix();
}

// The base frame in the world frame from the first seven coordinates of q.
template <typename S>
Transform<S> base_pose(ConstVectorRef<S> q) {
  return {quaternion_rotation(q[3], q[4], q[5], q[6]), Vec3<S>(q[0], q[1], q[2])};
}

// The joints' part of a coordinate vector (after the base's seven) and of a rate vector (after
// the base's six); the whole vector with a fixed base.
template <typename S>
auto joint_coordinates(const Model<S>& model, ConstVectorRef<S> q) {
  return q.tail(model.dof());
}
template <typename S>
auto joint_rates(const Model<S>& model, ConstVectorRef<S> v) {
  return v.tail(model.dof());
}

// A six-vector of the recursions, [angular; linear], in the order of the base rates and forces,
// [linear; angular], into `out`.
template <typename S, typename Out>
void write_linear_first(const Vec6<S>& x, Out&& out) {
  out.template head<3>() = linear(x);
  out.template segment<3>(3) = angular(x);
}

}  // namespace denoc
