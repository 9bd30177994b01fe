// A double that counts the arithmetic done on it, so that the papers' operation counts (Saha 1999
// Tables 1-2, the U D U^T paper's totals, Mata et al. 2002 Tables 1-4) can be set beside the
// suite's own: the same templated algorithms run on Counted instead of double (Eigen treats it as
// a custom scalar through the NumTraits below), and every multiplication, addition (a subtraction
// is one), division, square root, sine and cosine adds one to the counters of the calling
// thread. What is counted is what the code executes: a multiplication by a constant the model
// holds counts, a product Eigen forms with a zero or one it does not know is such counts, a
// negation or a comparison does not. The values are the double ones: each operation is the
// double operation on the wrapped value (docs/operation-counts.md says where the kernels take
// their reference versions instead, and what that changes).
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "denoc/kernels/sin_cos.hpp"

namespace denoc {

// The counts of one evaluation (engine/count_operations.hpp resets and reads them around it).
struct OperationCounts {
  long long multiplications = 0;
  long long additions = 0;  // subtractions included
  long long divisions = 0;
  long long square_roots = 0;
  long long sines_cosines = 0;  // a sine and a cosine of the same angle are two

  bool operator==(const OperationCounts& o) const {
    return multiplications == o.multiplications && additions == o.additions &&
           divisions == o.divisions && square_roots == o.square_roots &&
           sines_cosines == o.sines_cosines;
  }
  bool operator!=(const OperationCounts& o) const { return !(*this == o); }
};

// Per thread, so that tests and tools counting on several threads do not mix their counts.
inline thread_local OperationCounts operation_counts;

class Counted {
 public:
  constexpr Counted() = default;
  // Implicit, as double is from its literals: `S(0)`, `x * 2` and Eigen's constants read so.
  constexpr Counted(double value) : value_(value) {}  // NOLINT(google-explicit-constructor)

  constexpr double value() const { return value_; }
  explicit constexpr operator double() const { return value_; }
  explicit constexpr operator float() const { return static_cast<float>(value_); }

  Counted& operator+=(Counted o) {
    ++operation_counts.additions;
    value_ += o.value_;
    return *this;
  }
  Counted& operator-=(Counted o) {
    ++operation_counts.additions;
    value_ -= o.value_;
    return *this;
  }
  Counted& operator*=(Counted o) {
    ++operation_counts.multiplications;
    value_ *= o.value_;
    return *this;
  }
  Counted& operator/=(Counted o) {
    ++operation_counts.divisions;
    value_ /= o.value_;
    return *this;
  }

  friend Counted operator+(Counted a, Counted b) { return a += b; }
  friend Counted operator-(Counted a, Counted b) { return a -= b; }
  friend Counted operator*(Counted a, Counted b) { return a *= b; }
  friend Counted operator/(Counted a, Counted b) { return a /= b; }
  friend constexpr Counted operator-(Counted a) { return Counted(-a.value_); }  // a sign, free
  friend constexpr Counted operator+(Counted a) { return a; }

  friend constexpr bool operator==(Counted a, Counted b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(Counted a, Counted b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(Counted a, Counted b) { return a.value_ < b.value_; }
  friend constexpr bool operator>(Counted a, Counted b) { return a.value_ > b.value_; }
  friend constexpr bool operator<=(Counted a, Counted b) { return a.value_ <= b.value_; }
  friend constexpr bool operator>=(Counted a, Counted b) { return a.value_ >= b.value_; }

  friend Counted sqrt(Counted a) {
    ++operation_counts.square_roots;
    return Counted(std::sqrt(a.value_));
  }
  friend Counted sin(Counted a) {
    ++operation_counts.sines_cosines;
    return Counted(std::sin(a.value_));
  }
  friend Counted cos(Counted a) {
    ++operation_counts.sines_cosines;
    return Counted(std::cos(a.value_));
  }
  // Not in the papers' tables and used only where the model is built (screw_coordinates.hpp,
  // Fixman's tests): computed, not counted.
  friend Counted atan(Counted a) { return Counted(std::atan(a.value_)); }
  friend Counted atan2(Counted y, Counted x) { return Counted(std::atan2(y.value_, x.value_)); }
  // Sign manipulations and classifications, free as negation is.
  friend constexpr Counted abs(Counted a) { return Counted(a.value_ < 0 ? -a.value_ : a.value_); }
  friend Counted fabs(Counted a) { return abs(a); }
  friend Counted abs2(Counted a) { return a * a; }
  friend constexpr Counted real(Counted a) { return a; }
  friend constexpr Counted imag(Counted) { return Counted(0); }
  friend constexpr Counted conj(Counted a) { return a; }
  friend bool isfinite(Counted a) { return std::isfinite(a.value_); }
  friend bool isnan(Counted a) { return std::isnan(a.value_); }
  friend bool isinf(Counted a) { return std::isinf(a.value_); }

 private:
  double value_ = 0;
};

// The joint angles' sines and cosines (kernels/sin_cos.hpp) on the counting scalar: each angle
// counts one sine and one cosine, as the papers count them, and takes its values from the
// kernel's scalar form, so that they are the double route's bit for bit. The kernel itself
// executes about twenty multiplications and twenty additions per angle instead (its series),
// which these counts leave out as the papers leave out their library's.
inline void sin_cos(const Counted* q, int n, Counted* sin_q, Counted* cos_q) {
  for (int i = 0; i < n; ++i) {
    double s, c;
    sin_cos(q[i].value(), s, c);
    sin_q[i] = s;
    cos_q[i] = c;
  }
  operation_counts.sines_cosines += 2 * n;
}

}  // namespace denoc

namespace std {
template <>
class numeric_limits<denoc::Counted> : public numeric_limits<double> {
 public:
  static constexpr denoc::Counted min() noexcept { return numeric_limits<double>::min(); }
  static constexpr denoc::Counted max() noexcept { return numeric_limits<double>::max(); }
  static constexpr denoc::Counted lowest() noexcept { return numeric_limits<double>::lowest(); }
  static constexpr denoc::Counted epsilon() noexcept { return numeric_limits<double>::epsilon(); }
  static constexpr denoc::Counted infinity() noexcept { return numeric_limits<double>::infinity(); }
  static constexpr denoc::Counted quiet_NaN() noexcept {
    return numeric_limits<double>::quiet_NaN();
  }
};
}  // namespace std

namespace Eigen {
// Counted as a real scalar for Eigen (its custom-scalar recipe): no SIMD packets, so every Eigen
// expression on it is evaluated one scalar operation at a time, each counted.
template <>
struct NumTraits<denoc::Counted> : GenericNumTraits<denoc::Counted> {
  using Real = denoc::Counted;
  using NonInteger = denoc::Counted;
  using Nested = denoc::Counted;
  using Literal = denoc::Counted;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline denoc::Counted epsilon() { return NumTraits<double>::epsilon(); }
  static inline denoc::Counted dummy_precision() { return NumTraits<double>::dummy_precision(); }
  static inline denoc::Counted highest() { return NumTraits<double>::highest(); }
  static inline denoc::Counted lowest() { return NumTraits<double>::lowest(); }
  static inline denoc::Counted infinity() { return NumTraits<double>::infinity(); }
  static inline denoc::Counted quiet_NaN() { return NumTraits<double>::quiet_NaN(); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};
}  // namespace Eigen
