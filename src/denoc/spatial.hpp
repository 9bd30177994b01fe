// Six-dimensional twists and wrenches in Saha's (1999) convention, and the two operations
// the DeNOC recursions need: the twist-propagation matrix B_{i,i-1} of Eqs. (12)-(13) applied
// to a twist, and its transpose applied to a wrench.
//
// A twist t_i = [omega_i; v_i] holds the angular velocity of link i and the linear velocity
// of its mass centre C_i (Eq. 1); a wrench w_i = [n_i; f_i] holds the moment about C_i and the
// force (Eq. 1). Every link quantity is expressed in its joint frame J_i (see model.hpp), so
// B_{i,i-1} is applied as a rotation plus a cross product, never as a 6x6 product.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace denoc {

template <typename S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <typename S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
template <typename S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <typename S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <typename S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

template <typename S>
inline auto angular(Vec6<S>& x) {
  return x.template head<3>();
}
template <typename S>
inline auto angular(const Vec6<S>& x) {
  return x.template head<3>();
}
template <typename S>
inline auto linear(Vec6<S>& x) {
  return x.template tail<3>();
}
template <typename S>
inline auto linear(const Vec6<S>& x) {
  return x.template tail<3>();
}

// B_{i,i-1} t_{i-1}, Eqs. (12)-(13): the twist of link i-1 carried rigidly from C_{i-1} to C_i,
// v = v_{i-1} + omega_{i-1} x ell (c_{i,i-1} = -ell), then re-expressed in J_i.
//   E   rotation of J_i relative to J_{i-1} (columns: axes of J_i in J_{i-1})
//   ell vector from C_{i-1} to C_i, expressed in J_i
template <typename S>
inline Vec6<S> propagate_twist(const Mat3<S>& E, const Vec3<S>& ell, const Vec6<S>& t) {
  Vec6<S> out;
  angular(out).noalias() = E.transpose() * angular(t);
  linear(out).noalias() = E.transpose() * linear(t);
  linear(out) += angular(out).cross(ell);
  return out;
}

// B_{i,i-1}^T w_i, the transpose used in Eq. (30) and the backward recursion of Section 5.1:
// a wrench about C_i in J_i carried to C_{i-1} (n + ell x f) and re-expressed in J_{i-1}.
template <typename S>
inline Vec6<S> transfer_wrench(const Mat3<S>& E, const Vec3<S>& ell, const Vec6<S>& w) {
  Vec6<S> out;
  const Vec3<S> moment = angular(w) + ell.cross(linear(w));
  angular(out).noalias() = E * moment;
  linear(out).noalias() = E * linear(w);
  return out;
}

// Omega_i x, Eq. (2): both halves of a six-vector crossed with the angular velocity omega_i.
template <typename S>
inline Vec6<S> omega_cross(const Vec3<S>& omega, const Vec6<S>& x) {
  Vec6<S> out;
  angular(out) = omega.cross(angular(x));
  linear(out) = omega.cross(linear(x));
  return out;
}

}  // namespace denoc
