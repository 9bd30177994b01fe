// sin q and cos q of a joint angle together, inline and without branches.
//
// Every algorithm starts from the joint rotations Rz(q_i), and the C library's sincos (a call,
// about a hundred instructions and data-dependent branches) was a fifth of the inverse dynamics.
// Here q is reduced to r = q - k pi/2, |r| <= pi/4, with pi/2 split in three parts (Cody and
// Waite) so that k P1 and k P2 are exact, and sin r, cos r are their Taylor series, cut where
// the first term left out is below 1e-19 at |r| = pi/4. The error against the correctly rounded
// value is about one unit in the last place of 1, the scale of every entry of a rotation matrix
// (tests/test_closed_forms.cpp checks it against std::sin and std::cos). Angles beyond kMaxReduced,
// infinities and NaN go to std.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace denoc {

namespace detail {

// pi/2 = P1 + P2 + P3 (+ 1e-37): P1 and P2 have 33 significant bits, so k P1 and k P2 are exact
// for |k| < 2^20.
constexpr double kHalfPi1 = 1.5707963267341256;
constexpr double kHalfPi2 = 6.077100506303966e-11;
constexpr double kHalfPi3 = 2.0222662487959506e-21;
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kMaxReduced = 1e5;  // |k| < 2^17
// Adding and subtracting 1.5 2^52 rounds a double of magnitude below 2^51 to an integer.
constexpr double kRoundToInteger = 6755399441055744.0;

constexpr double inverse_factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i)
    f *= i;
  return 1 / f;
}
template <int N>
constexpr double kInvFactorial = inverse_factorial(N);  // evaluated at compile time

// sin r = r (1 - z/3! + z^2/5! - ... + z^8/17!) and cos r = 1 - z/2! + ... + z^8/16!, z = r^2.
// Templates on the value type so that packs of samples (lanes/lanes.hpp) run the same operations.
template <typename V>
inline V sin_series(const V& r, const V& z) {
  V p = kInvFactorial<17>;
  p = p * z - kInvFactorial<15>;
  p = p * z + kInvFactorial<13>;
  p = p * z - kInvFactorial<11>;
  p = p * z + kInvFactorial<9>;
  p = p * z - kInvFactorial<7>;
  p = p * z + kInvFactorial<5>;
  p = p * z - kInvFactorial<3>;
  return r + r * z * p;
}

template <typename V>
inline V cos_series(const V& z) {
  V p = kInvFactorial<16>;
  p = p * z - kInvFactorial<14>;
  p = p * z + kInvFactorial<12>;
  p = p * z - kInvFactorial<10>;
  p = p * z + kInvFactorial<8>;
  p = p * z - kInvFactorial<6>;
  p = p * z + kInvFactorial<4>;
  p = p * z - kInvFactorial<2>;
  return 1 + z * p;
}

}  // namespace detail

// sin q and cos q for |q| <= kMaxReduced, without a branch.
inline void sin_cos_reduced(double q, double& sin_q, double& cos_q) {
  using namespace detail;
  const double shifted = q * kTwoOverPi + kRoundToInteger;
  const double k = shifted - kRoundToInteger;
  const double r = ((q - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  const double z = r * r;
  const double s = sin_series(r, z), c = cos_series(z);
  // q = r + k pi/2: the quadrant k mod 4 swaps and negates. Selected by multiplying with exact
  // 0, 1 and -1 rather than by branches, which random angles would mispredict.
  // k mod 4 is in the low bits of `shifted`, whose unit in the last place is 1. Read there, not
  // by converting k to int: for NaN or |q| beyond about 1e9 (sent to std by the callers) that
  // conversion is undefined behaviour, and this is the same instruction count.
  std::uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  const int quadrant = static_cast<int>(bits & 3);
  const double swap = static_cast<double>(quadrant & 1);
  const double sin_sign = 1 - 2 * static_cast<double>((quadrant >> 1) & 1);
  const double cos_sign = 1 - 2 * static_cast<double>(((quadrant + 1) >> 1) & 1);
  sin_q = sin_sign * (s * (1 - swap) + c * swap);
  cos_q = cos_sign * (c * (1 - swap) + s * swap);
}

inline void sin_cos(double q, double& sin_q, double& cos_q) {
  if (std::abs(q) <= detail::kMaxReduced) {
    sin_cos_reduced(q, sin_q, cos_q);
  } else {
    sin_q = std::sin(q);
    cos_q = std::cos(q);
  }
}

// Single precision through double: the reduction and the series are then exact for float.
inline void sin_cos(float q, float& sin_q, float& cos_q) {
  double s, c;
  sin_cos(static_cast<double>(q), s, c);
  sin_q = static_cast<float>(s);
  cos_q = static_cast<float>(c);
}

// The same for n angles at once: one loop without branches, which the compiler vectorises,
// then the rare angles beyond the reduction's range again, one by one.
template <typename S>
void sin_cos(const S* q, int n, S* __restrict sin_q, S* __restrict cos_q) {
  for (int i = 0; i < n; ++i) {
    double s, c;
    sin_cos_reduced(static_cast<double>(q[i]), s, c);
    sin_q[i] = static_cast<S>(s);
    cos_q[i] = static_cast<S>(c);
  }
  for (int i = 0; i < n; ++i) {
    if (!(std::abs(q[i]) <= detail::kMaxReduced)) sin_cos(q[i], sin_q[i], cos_q[i]);
  }
}

}  // namespace denoc
