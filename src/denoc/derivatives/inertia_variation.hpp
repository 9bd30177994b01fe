// B of docs/derivatives.md, Eq. (D4): for a rigid body of spatial inertia I moving with the
// velocity v, B = v x* I - I v x + [I v]^ ([h]^ x = x x* h), the derivative of its force
// I a + v x* I v along a motion that turns its velocity; and sums of such over a subtree.
// With I = [I_O, [c]; -[c], m 1] (BodyInertia: c its first moment) and I v = [k; l], the blocks
// reduce to
//     B = [ T        0 ]      T = [w] I_O - I_O [w] - [v][c] - [c][v] - [k]
//         [ -2 [l]   0 ]
// (the right half cancels: [w][c] - [c][w] = [w x c], and l = m v + w x c), so B is kept as T
// and l, which sum as B does. [w] I_O - I_O [w] = A + A^T with A = [w] I_O (I_O symmetric), and
// [v][c] + [c][v] = c v^T + v c^T - 2 (v . c) 1.
#pragma once

#include "denoc/model/body_inertia.hpp"

namespace denoc {

template <typename S>
struct InertiaVariation {
  Mat3<S> T = Mat3<S>::Zero();
  Vec3<S> l = Vec3<S>::Zero();

  // B of one body of inertia I (about the origin the motions are at) at the velocity v = [w; u],
  // with its momentum h = I v = [k; l].
  static InertiaVariation of_body(const BodyInertia<S>& I, const Vec6<S>& v, const Vec6<S>& h) {
    const Vec3<S> w = angular(v), u = linear(v), c = I.first_moment;
    Mat3<S> A;  // [w] I_O, column by column
    for (int j = 0; j < 3; ++j)
      A.col(j) = cross(w, Vec3<S>(I.rotational.col(j)));
    InertiaVariation out;
    out.T = A + A.transpose();
    out.T.noalias() -= c * u.transpose() + u * c.transpose();
    out.T.diagonal().array() += S(2) * u.dot(c);
    out.T -= cross_matrix(Vec3<S>(angular(h)));
    out.l = linear(h);
    return out;
  }

  // B x = [T x_w; -2 l x x_w].
  Vec6<S> operator*(const Vec6<S>& x) const {
    const Vec3<S> xw = angular(x);
    Vec6<S> out;
    angular(out).noalias() = T * xw;
    linear(out) = S(-2) * cross(l, xw);
    return out;
  }

  // B^T s = [T^T s_w + 2 l x s_v; 0]: its angular half (the linear one is zero).
  Vec3<S> transpose_times(const Vec6<S>& s) const {
    Vec3<S> out;
    out.noalias() = T.transpose() * Vec3<S>(angular(s));
    out += S(2) * cross(l, Vec3<S>(linear(s)));
    return out;
  }

  InertiaVariation& operator+=(const InertiaVariation& other) {
    T += other.T;
    l += other.l;
    return *this;
  }
};

}  // namespace denoc
