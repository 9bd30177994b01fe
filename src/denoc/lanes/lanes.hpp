// Many samples per instruction: a scalar type whose every value is a pack of independent
// samples, one per SIMD lane, so that the same templated algorithms (the DeNOC recursions of
// saha/, the model, the joint frames) run on 2 to 16 samples at once, as they run on double,
// float and the counting scalar (count/counted.hpp). The pack is GCC's std::experimental::simd
// (Parallelism TS 2, in libstdc++ since GCC 11) of the machine's native width: 2 doubles (4
// floats) with SSE2, 4 (8) with AVX2 (x86-64-v3), 8 (16) with AVX-512; docs/performance.md says
// why it and not xsimd or Eigen's packets.
//
// A branch on a value is a branch on every lane at once, so a comparison gives a LaneMask, which
// converts to bool only when its lanes agree: the model's constants are the same in every lane
// (the model is built once, broadcast), and a branch on them is a branch as on double; a branch
// on data whose lanes differ (the sign of qd in Coulomb friction) throws std::logic_error rather
// than take one side for all lanes, and the code that needs it selects per lane (select below).
#pragma once

#include <cmath>
#include <experimental/simd>
#include <stdexcept>
#include <type_traits>

#include <Eigen/Core>

#include "denoc/kernels/sin_cos.hpp"

namespace denoc {

namespace stdx = std::experimental;

template <typename T>
class LaneMask {
 public:
  using Mask = stdx::native_simd_mask<T>;
  explicit LaneMask(Mask m) : m_(m) {}
  const Mask& mask() const { return m_; }
  // A branch: all lanes the same way, or a logic error (see above).
  explicit operator bool() const {
    if (stdx::all_of(m_)) return true;
    if (stdx::none_of(m_)) return false;
    throw std::logic_error("a branch on a value whose lanes differ (select per lane instead)");
  }
  friend LaneMask operator!(const LaneMask& a) { return LaneMask(!a.m_); }

 private:
  Mask m_;
};

template <typename T>
class Lanes {
 public:
  using Simd = stdx::native_simd<T>;
  static constexpr int size = static_cast<int>(Simd::size());
  // Eigen's vectors of packs live on Eigen's heap, aligned to EIGEN_MAX_ALIGN_BYTES (malloc's 16
  // bytes when it is 0, as EIGEN_DONT_VECTORIZE makes it): a pack of AVX2 or AVX-512 needs 32 or
  // 64, and a misaligned one faults. The library states its build's value to every program that
  // links it (cmake/denoc_eigen_abi.cmake), so a file compiled with a wider -march than the
  // library's stops here: its packs would not be the library's.
  static_assert(alignof(Simd) <= EIGEN_MAX_ALIGN_BYTES || alignof(Simd) <= 16,
                "Eigen's heap alignment is below a pack's: compile with the -march the denoc "
                "library was built with (or, building it, define EIGEN_MAX_ALIGN_BYTES=64)");

  Lanes() = default;
  // Implicit from any number, broadcast, as double and float are from literals: `S(0)`, `x * 2`,
  // `S(0.5)` and Eigen's constants read so (for packs of floats a double literal is rounded to
  // float as `float(0.5)` would be).
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
  Lanes(U value) : v_(static_cast<T>(value)) {}  // NOLINT(google-explicit-constructor)
  explicit Lanes(const Simd& v) : v_(v) {}

  const Simd& simd() const { return v_; }
  // Lane l from f(l), l = 0 .. size - 1: a gather the compiler sees whole.
  template <typename F>
  static Lanes generate(F f) {
    return Lanes(Simd([&](auto lane) { return f(static_cast<int>(lane)); }));
  }
  T operator[](int lane) const { return v_[lane]; }
  void set(int lane, T value) { v_[lane] = value; }

  Lanes& operator+=(const Lanes& o) { return v_ += o.v_, *this; }
  Lanes& operator-=(const Lanes& o) { return v_ -= o.v_, *this; }
  Lanes& operator*=(const Lanes& o) { return v_ *= o.v_, *this; }
  Lanes& operator/=(const Lanes& o) { return v_ /= o.v_, *this; }
  friend Lanes operator+(Lanes a, const Lanes& b) { return a += b; }
  friend Lanes operator-(Lanes a, const Lanes& b) { return a -= b; }
  friend Lanes operator*(Lanes a, const Lanes& b) { return a *= b; }
  friend Lanes operator/(Lanes a, const Lanes& b) { return a /= b; }
  friend Lanes operator-(const Lanes& a) { return Lanes(-a.v_); }
  friend Lanes operator+(const Lanes& a) { return a; }

  friend LaneMask<T> operator==(const Lanes& a, const Lanes& b) {
    return LaneMask<T>(a.v_ == b.v_);
  }
  friend LaneMask<T> operator!=(const Lanes& a, const Lanes& b) {
    return LaneMask<T>(a.v_ != b.v_);
  }
  friend LaneMask<T> operator<(const Lanes& a, const Lanes& b) { return LaneMask<T>(a.v_ < b.v_); }
  friend LaneMask<T> operator>(const Lanes& a, const Lanes& b) { return LaneMask<T>(a.v_ > b.v_); }
  friend LaneMask<T> operator<=(const Lanes& a, const Lanes& b) {
    return LaneMask<T>(a.v_ <= b.v_);
  }
  friend LaneMask<T> operator>=(const Lanes& a, const Lanes& b) {
    return LaneMask<T>(a.v_ >= b.v_);
  }

  friend Lanes sqrt(const Lanes& a) { return Lanes(stdx::sqrt(a.v_)); }
  friend Lanes abs(const Lanes& a) { return Lanes(stdx::abs(a.v_)); }
  friend Lanes fabs(const Lanes& a) { return abs(a); }
  friend Lanes abs2(const Lanes& a) { return a * a; }
  friend Lanes real(const Lanes& a) { return a; }
  friend Lanes imag(const Lanes&) { return Lanes(T(0)); }
  friend Lanes conj(const Lanes& a) { return a; }
  friend Lanes floor(const Lanes& a) { return Lanes(stdx::floor(a.v_)); }
  // sin, cos, atan and atan2 lane by lane through std (the joint angles take the kernel below).
  friend Lanes sin(const Lanes& a) {
    return a.each([](T x) { return std::sin(x); });
  }
  friend Lanes cos(const Lanes& a) {
    return a.each([](T x) { return std::cos(x); });
  }
  friend Lanes atan(const Lanes& a) {
    return a.each([](T x) { return std::atan(x); });
  }
  friend Lanes atan2(const Lanes& y, const Lanes& x) {
    Lanes r;
    for (int l = 0; l < size; ++l)
      r.set(l, std::atan2(y[l], x[l]));
    return r;
  }
  friend LaneMask<T> isfinite(const Lanes& a) { return LaneMask<T>(stdx::isfinite(a.v_)); }
  friend LaneMask<T> isnan(const Lanes& a) { return LaneMask<T>(stdx::isnan(a.v_)); }

  // Per lane: a where `mask`, else b (the branches on data, e.g. the sign of qd).
  friend Lanes select(const LaneMask<T>& mask, const Lanes& a, const Lanes& b) {
    Simd r = b.v_;
    stdx::where(mask.mask(), r) = a.v_;
    return Lanes(r);
  }

 private:
  template <typename F>
  Lanes each(F f) const {
    Lanes r;
    for (int l = 0; l < size; ++l)
      r.set(l, f(v_[l]));
    return r;
  }
  Simd v_;
};

namespace detail {

// The joint angles' sines and cosines on a pack V of doubles (any width): kernels/sin_cos.hpp's
// reduction, series and quadrant selection, the same operations in the same order on every lane,
// so that each lane is the scalar kernel's value bit for bit. Only the quadrant k mod 4 and the
// factors it selects are found differently (exactly, by comparisons) instead of from the bits of
// `shifted`. Lanes beyond the reduction's range (rare) take std::sin and std::cos, as the scalar
// kernel does.
template <typename V>
void sin_cos_pack(const V& x, V& sin_x, V& cos_x) {
  const V shifted = x * kTwoOverPi + kRoundToInteger;
  const V k = shifted - kRoundToInteger;
  const V r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  const V z = r * r;
  const V s = sin_series(r, z), c = cos_series(z);
  // k mod 4 without a floor (a library call on SSE2): k - 4 round(k/4) is in -2..2, exact.
  V quadrant = k - 4 * (((k * 0.25) + kRoundToInteger) - kRoundToInteger);
  stdx::where(quadrant < 0, quadrant) += 4;  // 0, 1, 2, 3
  const V one = 1, zero = 0;
  V swap = zero, sin_sign = one, cos_sign = one;
  stdx::where(quadrant == 1 || quadrant == 3, swap) = one;       // quadrant & 1
  stdx::where(quadrant >= 2, sin_sign) = -one;                   // (quadrant >> 1) & 1
  stdx::where(quadrant == 1 || quadrant == 2, cos_sign) = -one;  // ((quadrant + 1) >> 1) & 1
  sin_x = sin_sign * (s * (1 - swap) + c * swap);
  cos_x = cos_sign * (c * (1 - swap) + s * swap);
  const auto outside = !(stdx::abs(x) <= kMaxReduced);
  if (stdx::any_of(outside)) {
    for (int l = 0; l < static_cast<int>(V::size()); ++l) {
      if (!outside[l]) continue;
      double s_l, c_l;
      sin_cos(static_cast<double>(x[l]), s_l, c_l);
      sin_x[l] = s_l;
      cos_x[l] = c_l;
    }
  }
}

}  // namespace detail

// sin q_i and cos q_i of n packs of doubles.
inline void sin_cos(const Lanes<double>* q, int n, Lanes<double>* sin_q, Lanes<double>* cos_q) {
  for (int i = 0; i < n; ++i) {
    Lanes<double>::Simd s, c;
    detail::sin_cos_pack(q[i].simd(), s, c);
    sin_q[i] = Lanes<double>(s);
    cos_q[i] = Lanes<double>(c);
  }
}

// Packs of floats through doubles, as the scalar kernel takes a float (sin_cos.hpp): the angles
// widened exactly to as many doubles (two or more native packs), the results rounded back, so
// each lane is the scalar float's value bit for bit.
inline void sin_cos(const Lanes<float>* q, int n, Lanes<float>* sin_q, Lanes<float>* cos_q) {
  using Wide = stdx::fixed_size_simd<double, Lanes<float>::size>;
  using Narrow = Lanes<float>::Simd;
  for (int i = 0; i < n; ++i) {
    Wide s, c;
    detail::sin_cos_pack(stdx::static_simd_cast<Wide>(q[i].simd()), s, c);
    sin_q[i] = Lanes<float>(stdx::static_simd_cast<Narrow>(s));
    cos_q[i] = Lanes<float>(stdx::static_simd_cast<Narrow>(c));
  }
}

}  // namespace denoc

namespace Eigen {
// Lanes as a real scalar for Eigen (its custom-scalar recipe): Eigen sees no packets of it and
// evaluates each expression coefficient by coefficient, every coefficient a SIMD register.
template <typename T>
struct NumTraits<denoc::Lanes<T>> : GenericNumTraits<denoc::Lanes<T>> {
  using Real = denoc::Lanes<T>;
  using NonInteger = denoc::Lanes<T>;
  using Nested = denoc::Lanes<T>;
  using Literal = denoc::Lanes<T>;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline denoc::Lanes<T> epsilon() { return NumTraits<T>::epsilon(); }
  static inline denoc::Lanes<T> dummy_precision() { return NumTraits<T>::dummy_precision(); }
  static inline denoc::Lanes<T> highest() { return NumTraits<T>::highest(); }
  static inline denoc::Lanes<T> lowest() { return NumTraits<T>::lowest(); }
  static inline denoc::Lanes<T> infinity() { return NumTraits<T>::infinity(); }
  static inline denoc::Lanes<T> quiet_NaN() { return NumTraits<T>::quiet_NaN(); }
  static inline int digits10() { return NumTraits<T>::digits10(); }
};
}  // namespace Eigen
