// The six screw coordinates of a relative rigid-body transform and their Lie derivatives, Lee,
// Wang and Chirikjian (2007) §4.1: the parameterisation of Eq. (26), its closed form (27), the
// extraction of the coordinates from a transform (step II of §2.2) and the Lie derivatives of
// Eq. (28), which are the entries of the band-limited inverse Jacobian J_+^-1 = [ds/dxi; dh/dxi].
//
//   T = screw(e1, b, beta) screw(e2, a, alpha) screw(e3, c, gamma)                       (26)
//
// with screw(n, d, theta) = [A_n(theta), d n; 0, 1]. Coordinates are kept in the order
// (alpha, beta, gamma, a, b, c). The Jacobian of (26) has determinant cos^2 alpha: it is regular
// wherever |alpha| < pi/2, and in particular at alpha = 0, where the suite's joints are (see
// docs/fixman.md).
#pragma once

#include <cmath>

#include "denoc/model/spatial.hpp"

namespace denoc {

// A homogeneous transform's upper 3x4 part [R p], and a tangent vector to SE(3) at it (the
// derivative T~ of Eq. 28, whose bottom row is zero).
template <typename S>
struct Pose34 {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> p = Vec3<S>::Zero();
};

// (alpha, beta, gamma, a, b, c) of Eq. (26).
enum ScrewCoordinate { kAlpha = 0, kBeta = 1, kGamma = 2, kA = 3, kB = 4, kC = 5 };

// screw(n, d, theta) for n a coordinate axis e_k (k = 0, 1, 2): rotation theta about e_k and
// translation d along it (§4.1).
template <typename S>
Pose34<S> screw(int k, S d, S theta) {
  Pose34<S> s;
  s.R = Eigen::AngleAxis<S>(theta, Vec3<S>::Unit(k)).toRotationMatrix();
  s.p = d * Vec3<S>::Unit(k);
  return s;
}

template <typename S>
Pose34<S> compose(const Pose34<S>& x, const Pose34<S>& y) {
  return {x.R * y.R, x.R * y.p + x.p};
}

// Eq. (26): the transform of the coordinates q = (alpha, beta, gamma, a, b, c); its entries are
// Eq. (27).
template <typename S>
Pose34<S> screw_transform(const Vec6<S>& q) {
  return compose(compose(screw<S>(0, q[kB], q[kBeta]), screw<S>(1, q[kA], q[kAlpha])),
                 screw<S>(2, q[kC], q[kGamma]));
}

// Step II of §2.2, the coordinates as functions of the transform (the formulas after Eq. 27,
// valid for alpha in (-pi/2, pi/2)). T_kl is the paper's 1-based (k, l) entry.
template <typename S>
Vec6<S> screw_coordinates(const Pose34<S>& T) {
  using std::atan;
  using std::atan2;
  using std::sqrt;
  const S T11 = T.R(0, 0), T12 = T.R(0, 1), T13 = T.R(0, 2), T14 = T.p[0];
  const S T23 = T.R(1, 2), T24 = T.p[1], T33 = T.R(2, 2), T34 = T.p[2];
  const S rho = T11 * T11 + T12 * T12;  // cos^2 alpha
  const S root = sqrt(rho);
  Vec6<S> q;
  q[kAlpha] = atan(T13 / root);
  q[kBeta] = atan2(-T23 / root, T33 / root);
  q[kGamma] = atan2(-T12 / root, T11 / root);
  q[kA] = (T24 * T33 - T34 * T23) / root;
  q[kC] = (T24 * T23 + T34 * T33) / rho;
  q[kB] = T14 - T13 * q[kC];
  return q;
}

// Eq. (28): the derivatives of (alpha, beta, gamma, a, b, c) along the tangent T~ at T, i.e.
// d q(T + eps T~) / d eps. When T~ = dT / d xi~_j^i (Eq. 22) these are the entries
// d q / d xi~_j^i of J_+^-1.
template <typename S>
Vec6<S> screw_coordinate_derivatives(const Pose34<S>& T, const Pose34<S>& Td) {
  using std::sqrt;
  // T14 does not enter: b depends on it linearly.
  const S T11 = T.R(0, 0), T12 = T.R(0, 1), T13 = T.R(0, 2);
  const S T23 = T.R(1, 2), T24 = T.p[1], T33 = T.R(2, 2), T34 = T.p[2];
  const S D11 = Td.R(0, 0), D12 = Td.R(0, 1), D13 = Td.R(0, 2), D14 = Td.p[0];  // T~_kl
  const S D23 = Td.R(1, 2), D24 = Td.p[1], D33 = Td.R(2, 2), D34 = Td.p[2];
  const S rho = T11 * T11 + T12 * T12;  // T11^2 + T12^2
  const S root = sqrt(rho);
  const S rho_rate = T11 * D11 + T12 * D12;  // T11 T~11 + T12 T~12
  const S n_a = T24 * T33 - T34 * T23;       // numerator of a
  const S n_c = T24 * T23 + T34 * T33;       // numerator of c
  const S n_c_rate = T24 * D23 + T23 * D24 + T34 * D33 + T33 * D34;
  Vec6<S> d;
  d[kAlpha] = (rho * D13 - T13 * rho_rate) / root;
  d[kBeta] = (T23 * D33 - T33 * D23) / (T23 * T23 + T33 * T33);
  d[kGamma] = (T12 * D11 - T11 * D12) / rho;
  d[kA] = (T24 * D33 + T33 * D24 - T34 * D23 - T23 * D34) / root - n_a * rho_rate / (rho * root);
  d[kB] = D14 - n_c * (rho * D13 - 2 * T13 * rho_rate) / (rho * rho) - T13 * n_c_rate / rho;
  d[kC] = n_c_rate / rho - 2 * n_c * rho_rate / (rho * rho);
  return d;
}

}  // namespace denoc
