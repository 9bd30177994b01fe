// A dual number a + b e with e^2 = 0, for the tests of the derivatives (test_derivatives.cpp):
// the library's algorithms are templated on the scalar, so running the DeNOC inverse dynamics or
// the forward dynamics on Dual gives a directional derivative exact to rounding, by a computation
// that shares nothing with the derivative recursions (forward-mode automatic differentiation).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "denoc/kernels/sin_cos.hpp"

namespace denoc_test {

class Dual {
 public:
  constexpr Dual() = default;
  constexpr Dual(double value, double derivative = 0)  // NOLINT(google-explicit-constructor)
      : a_(value), b_(derivative) {}

  constexpr double value() const { return a_; }
  constexpr double derivative() const { return b_; }
  explicit constexpr operator double() const { return a_; }

  Dual& operator+=(Dual o) { return *this = *this + o; }
  Dual& operator-=(Dual o) { return *this = *this - o; }
  Dual& operator*=(Dual o) { return *this = *this * o; }
  Dual& operator/=(Dual o) { return *this = *this / o; }

  friend constexpr Dual operator+(Dual x, Dual y) { return {x.a_ + y.a_, x.b_ + y.b_}; }
  friend constexpr Dual operator-(Dual x, Dual y) { return {x.a_ - y.a_, x.b_ - y.b_}; }
  friend constexpr Dual operator*(Dual x, Dual y) {
    return {x.a_ * y.a_, x.a_ * y.b_ + x.b_ * y.a_};
  }
  friend constexpr Dual operator/(Dual x, Dual y) {
    return {x.a_ / y.a_, (x.b_ * y.a_ - x.a_ * y.b_) / (y.a_ * y.a_)};
  }
  friend constexpr Dual operator-(Dual x) { return {-x.a_, -x.b_}; }
  friend constexpr Dual operator+(Dual x) { return x; }

  // Comparisons on the value: a branch taken is taken for the whole neighbourhood.
  friend constexpr bool operator==(Dual x, Dual y) { return x.a_ == y.a_; }
  friend constexpr bool operator!=(Dual x, Dual y) { return x.a_ != y.a_; }
  friend constexpr bool operator<(Dual x, Dual y) { return x.a_ < y.a_; }
  friend constexpr bool operator>(Dual x, Dual y) { return x.a_ > y.a_; }
  friend constexpr bool operator<=(Dual x, Dual y) { return x.a_ <= y.a_; }
  friend constexpr bool operator>=(Dual x, Dual y) { return x.a_ >= y.a_; }

  friend Dual sqrt(Dual x) {
    const double r = std::sqrt(x.a_);
    return {r, x.b_ / (2 * r)};
  }
  friend Dual sin(Dual x) { return {std::sin(x.a_), std::cos(x.a_) * x.b_}; }
  friend Dual cos(Dual x) { return {std::cos(x.a_), -std::sin(x.a_) * x.b_}; }
  friend Dual abs(Dual x) { return x.a_ < 0 ? -x : x; }
  friend Dual fabs(Dual x) { return abs(x); }
  friend Dual abs2(Dual x) { return x * x; }
  friend Dual real(Dual x) { return x; }
  friend Dual imag(Dual) { return Dual(0); }
  friend Dual conj(Dual x) { return x; }
  friend bool isfinite(Dual x) { return std::isfinite(x.a_) && std::isfinite(x.b_); }
  friend bool isnan(Dual x) { return std::isnan(x.a_) || std::isnan(x.b_); }
  friend bool isinf(Dual x) { return std::isinf(x.a_) || std::isinf(x.b_); }

 private:
  double a_ = 0, b_ = 0;
};

// The joint frames' sines and cosines (kernels/sin_cos.hpp), found by argument-dependent lookup.
inline void sin_cos(const Dual* q, int n, Dual* sin_q, Dual* cos_q) {
  for (int i = 0; i < n; ++i) {
    sin_q[i] = sin(q[i]);
    cos_q[i] = cos(q[i]);
  }
}

}  // namespace denoc_test

namespace std {
template <>
class numeric_limits<denoc_test::Dual> : public numeric_limits<double> {
 public:
  static constexpr denoc_test::Dual min() noexcept { return numeric_limits<double>::min(); }
  static constexpr denoc_test::Dual max() noexcept { return numeric_limits<double>::max(); }
  static constexpr denoc_test::Dual lowest() noexcept { return numeric_limits<double>::lowest(); }
  static constexpr denoc_test::Dual epsilon() noexcept { return numeric_limits<double>::epsilon(); }
  static constexpr denoc_test::Dual infinity() noexcept {
    return numeric_limits<double>::infinity();
  }
  static constexpr denoc_test::Dual quiet_NaN() noexcept {
    return numeric_limits<double>::quiet_NaN();
  }
};
}  // namespace std

namespace Eigen {
template <>
struct NumTraits<denoc_test::Dual> : GenericNumTraits<denoc_test::Dual> {
  using Real = denoc_test::Dual;
  using NonInteger = denoc_test::Dual;
  using Nested = denoc_test::Dual;
  using Literal = denoc_test::Dual;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 2,
    MulCost = 3
  };
  static inline denoc_test::Dual epsilon() { return NumTraits<double>::epsilon(); }
  static inline denoc_test::Dual dummy_precision() { return NumTraits<double>::dummy_precision(); }
  static inline denoc_test::Dual highest() { return NumTraits<double>::highest(); }
  static inline denoc_test::Dual lowest() { return NumTraits<double>::lowest(); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};
}  // namespace Eigen
