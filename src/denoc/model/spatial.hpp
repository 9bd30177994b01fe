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

#include "denoc/kernels/matrix_types.hpp"

namespace denoc {

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

// a where `condition` holds, else b: a branch on double, a choice lane by lane on packs of
// samples (lanes/lanes.hpp), where a condition on data differs from lane to lane.
template <typename S>
inline S select(bool condition, const S& a, const S& b) {
  return condition ? a : b;
}

// a x b, written out: Eigen's vectorised cross product of 3-vectors reads past their end (g++
// warns) and mixes packed and scalar stores, which stalls the recursions.
template <typename S>
inline Vec3<S> cross(const Vec3<S>& a, const Vec3<S>& b) {
  return Vec3<S>(a.y() * b.z() - a.z() * b.y(), a.z() * b.x() - a.x() * b.z(),
                 a.x() * b.y() - a.y() * b.x());
}

// The four EIGEN_ALWAYS_INLINE of this file, measured together (g++ 12, docs/performance.md,
// "Compiler attributes, each measured"): without them, in float, the inertia matrix of two trees
// took 1.18-1.20x as long and the Cholesky route's forward dynamics 1.06-1.08x; in double,
// within the noise.

// E^T x: x re-expressed in the frame that E turns into, one dot product with each column of E.
// Written so rather than as Eigen's E.transpose() * x, whose result clang 14 stored coefficient by
// coefficient and the next sum loaded two at a time: a load spanning two smaller stores is not
// forwarded, and those two stalls took a third of clang's forward recursion.
template <typename S>
EIGEN_ALWAYS_INLINE Vec3<S> transposed_times(const Mat3<S>& E, const Vec3<S>& x) {
  return Vec3<S>(E.col(0).dot(x), E.col(1).dot(x), E.col(2).dot(x));
}

// B_{i,i-1} t_{i-1}, Eqs. (12)-(13): the twist of link i-1 carried rigidly from C_{i-1} to C_i,
// v = v_{i-1} + omega_{i-1} x ell (c_{i,i-1} = -ell), then re-expressed in J_i.
//   E   rotation of J_i relative to J_{i-1} (columns: axes of J_i in J_{i-1})
//   ell vector from C_{i-1} to C_i, expressed in J_i
template <typename S>
inline Vec6<S> propagate_twist(const Mat3<S>& E, const Vec3<S>& ell, const Vec6<S>& t) {
  const Vec3<S> omega = transposed_times(E, Vec3<S>(angular(t)));
  Vec6<S> out;
  angular(out) = omega;  // half by half, not a comma initializer (see forward_recursion)
  linear(out) = transposed_times(E, Vec3<S>(linear(t))) + cross(omega, ell);
  return out;
}

// B_{i,i-1}^T w_i, the transpose used in Eq. (30) and the backward recursion of Section 5.1:
// a wrench about C_i in J_i carried to C_{i-1} (n + ell x f) and re-expressed in J_{i-1}.
// Both forms always inlined: once the tree recursions called them too, g++ stopped inlining them
// in the chain's, and the cholesky route's forward dynamics took 1.1x as long.
template <typename S>
EIGEN_ALWAYS_INLINE Vec6<S> transfer_wrench(const Mat3<S>& E, const Vec3<S>& ell,
                                            const Vec6<S>& w) {
  const Vec3<S> force = linear(w);
  Vec6<S> out;
  angular(out) = E * (angular(w) + cross(ell, force));
  linear(out) = E * force;
  return out;
}

// The same two operations on a twist [w; v] or a wrench [n; f] kept as two 3-vectors, in
// place: recursions carry them so, because packing six-vectors at every joint stalls on store
// forwarding.
template <typename S>
inline void propagate_twist(const Mat3<S>& E, const Vec3<S>& ell, Vec3<S>& w, Vec3<S>& v) {
  w = transposed_times(E, w);
  v = transposed_times(E, v) + cross(w, ell);
}
template <typename S>
EIGEN_ALWAYS_INLINE void transfer_wrench(const Mat3<S>& E, const Vec3<S>& ell, Vec3<S>& n,
                                         Vec3<S>& f) {
  n = E * (n + cross(ell, f));
  f = E * f;
}

// E X E^T for a symmetric X (an inertia tensor re-expressed in a rotated frame): the upper
// triangle of the product, mirrored, so that the result is exactly symmetric. Always inlined:
// g++ left it a call in the float recursions (float FD 8% slower for it).
template <typename S>
EIGEN_ALWAYS_INLINE Mat3<S> rotate_symmetric(const Mat3<S>& E, const Mat3<S>& X) {
  Mat3<S> EX;
  EX.noalias() = E * X;
  Mat3<S> out;
  out(0, 0) = EX.row(0).dot(E.row(0));
  out(1, 1) = EX.row(1).dot(E.row(1));
  out(2, 2) = EX.row(2).dot(E.row(2));
  out(0, 1) = out(1, 0) = EX.row(0).dot(E.row(1));
  out(0, 2) = out(2, 0) = EX.row(0).dot(E.row(2));
  out(1, 2) = out(2, 1) = EX.row(1).dot(E.row(2));
  return out;
}

// [x]: the cross-product matrix, [x] y = x cross y.
template <typename S>
inline Mat3<S> cross_matrix(const Vec3<S>& x) {
  Mat3<S> m;
  m << 0, -x.z(), x.y(), x.z(), 0, -x.x(), -x.y(), x.x(), 0;
  return m;
}

// Omega_i x, Eq. (2): both halves of a six-vector crossed with the angular velocity omega_i.
template <typename S>
inline Vec6<S> omega_cross(const Vec3<S>& omega, const Vec6<S>& x) {
  Vec6<S> out;
  angular(out) = cross(omega, Vec3<S>(angular(x)));
  linear(out) = cross(omega, Vec3<S>(linear(x)));
  return out;
}

}  // namespace denoc
