// Mass properties of a rigid body, or of a composite of rigidly joined bodies, about a
// reference point: the 6x6 matrix that Saha (1999) writes M_i (Eq. 2, about the body's own
// mass centre) and M~_i (Eq. 23b, composite body i about C_i), kept as its ten parameters.
//
// About a reference point O, with h the first moment of mass about O and I_O the rotational
// inertia about O, the 6x6 matrix acting on a twist [omega; v_O] is
//     [ I_O      h x 1 ]
//     [ -h x 1   m 1   ]
// so that the momentum is [I_O omega + h x v_O;  m v_O - h x omega].
#pragma once

#include "denoc/model/spatial.hpp"

namespace denoc {

template <typename S>
struct BodyInertia {
  S mass = S(0);
  Vec3<S> first_moment = Vec3<S>::Zero();  // h = m c, c the mass centre seen from O
  Mat3<S> rotational = Mat3<S>::Zero();    // I_O, about the reference point O

  // M_i of Eq. (2): a single body about its own mass centre.
  static BodyInertia about_mass_centre(S m, const Mat3<S>& inertia_about_com) {
    BodyInertia b;
    b.mass = m;
    b.rotational = inertia_about_com;
    return b;
  }

  // The seven EIGEN_ALWAYS_INLINE below, measured together (g++ 12, docs/performance.md,
  // "Compiler attributes, each measured"): as plain inline functions the inertia matrix took 1.07x
  // as long on the Panda and 1.10-1.12x on two trees, the Cholesky route's forward dynamics
  // 1.07x on the trees.
  // The 6x6 matrix times a twist [omega; v_O] (Eq. 7's M_i t_i): the momentum about O.
  Vec6<S> operator*(const Vec6<S>& twist) const { return momentum(angular(twist), linear(twist)); }

  // The same from the twist's halves, which callers may hold apart: a 6-vector just stored and
  // read back by halves stalls on store-to-load forwarding (the linear half straddles 16 bytes).
  EIGEN_ALWAYS_INLINE Vec6<S> momentum(const Vec3<S>& omega, const Vec3<S>& v) const {
    Vec6<S> out;
    angular(out).noalias() = rotational * omega;
    angular(out) += cross(first_moment, v);
    linear(out) = mass * v - cross(first_moment, omega);
    return out;
  }

  // M p for a joint-rate propagation vector p = [s e_z; p_v] (Eqs. 13, 15; s = 1 for a revolute
  // joint, 0 for a prismatic one): the same product with the zeros of p skipped.
  EIGEN_ALWAYS_INLINE Vec6<S> times_joint_vector(const Vec6<S>& p) const {
    const S s = p[2];
    const Vec3<S> p_v = linear(p);
    Vec6<S> out;
    angular(out) = s * rotational.col(2) + cross(first_moment, p_v);
    linear(out) = mass * p_v - s * Vec3<S>(first_moment.y(), -first_moment.x(), S(0));
    return out;
  }

  // The 6x6 matrix itself, [I_O, [h]; -[h], m 1], where articulated-body masses (Eq. 50),
  // which are no longer rigid-body inertias, start from it.
  Mat6<S> matrix() const {
    Mat6<S> out;
    out.template topLeftCorner<3, 3>() = rotational;
    out.template topRightCorner<3, 3>() = cross_matrix(first_moment);
    out.template bottomLeftCorner<3, 3>() = -cross_matrix(first_moment);
    out.template bottomRightCorner<3, 3>() = mass * Mat3<S>::Identity();
    return out;
  }

  // B^T M B of Eq. (23b) for B = B_{i+1,i}: the same body seen from the point O - ell (so that
  // ell runs from the new reference point to the old one), expressed in the same frame.
  // I_new = I_O - [ell x][h x] - [h x][ell x] - m [ell x]^2, h_new = h + m ell.
  // Always inlined, as rotated(): g++ left both calls in the base-frame GIM (1.2-1.3x slower).
  EIGEN_ALWAYS_INLINE BodyInertia shifted(const Vec3<S>& ell) const {
    BodyInertia b;
    b.mass = mass;
    b.first_moment = first_moment + mass * ell;
    b.rotational = shifted_rotational(ell);
    return b;
  }

  // shifted(ell).rotated(E) in one step: the mass M~_{i+1} carried to C_i and J_i in Eq. (23b).
  // Always inlined: clang left it a call, its result passed through memory at every joint.
  EIGEN_ALWAYS_INLINE BodyInertia transferred(const Mat3<S>& E, const Vec3<S>& ell) const {
    BodyInertia b;
    b.mass = mass;
    b.first_moment.noalias() = E * (first_moment + mass * ell);
    b.rotational = rotate_symmetric(E, shifted_rotational(ell));
    return b;
  }

  // The same body, its vectors re-expressed in a frame rotated by E (E maps old to new).
  EIGEN_ALWAYS_INLINE BodyInertia rotated(const Mat3<S>& E) const {
    BodyInertia b;
    b.mass = mass;
    b.first_moment.noalias() = E * first_moment;
    b.rotational = rotate_symmetric(E, rotational);
    return b;
  }

  EIGEN_ALWAYS_INLINE BodyInertia& operator+=(const BodyInertia& other) {
    mass += other.mass;
    first_moment += other.first_moment;
    rotational += other.rotational;
    return *this;
  }

  template <typename T>
  BodyInertia<T> cast() const {
    BodyInertia<T> b;
    b.mass = static_cast<T>(mass);
    b.first_moment = first_moment.template cast<T>();
    b.rotational = rotational.template cast<T>();
    return b;
  }

 private:
  // I_O seen from O - ell: with u = h + m ell / 2 the three terms of shifted() are
  // 2 (ell . u) 1 - ell u^T - u ell^T.
  EIGEN_ALWAYS_INLINE Mat3<S> shifted_rotational(const Vec3<S>& ell) const {
    const Vec3<S> u = first_moment + (mass / 2) * ell;
    Mat3<S> out = rotational;
    out.noalias() -= ell * u.transpose() + u * ell.transpose();
    out.diagonal().array() += 2 * ell.dot(u);
    return out;
  }
};

}  // namespace denoc
