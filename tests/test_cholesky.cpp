// The in-place Cholesky factor (kernels/cholesky.hpp) against Eigen's LLT of the same matrix and
// against the matrix itself (L L^T = A), at orders on both sides of the crossover to the
// blocked form and of its block boundaries, in float and double.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <limits>
#include <random>
#include <vector>

#include "denoc/kernels/cholesky.hpp"

namespace cholesky_test {

using namespace denoc;

// A symmetric positive definite matrix of order n, condition number a few tens: B B^T / n + 1.
MatX<double> spd_matrix(Eigen::Index n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  MatX<double> B(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      B(i, j) = u(rng);
  MatX<double> A = B * B.transpose() / static_cast<double>(n);
  A.diagonal().array() += 1;
  return A;
}

// Orders 1, 2, each side of a block (b) and of the crossover (t), several blocks past it with a
// remainder, and a few hundred.
std::vector<Eigen::Index> orders(Eigen::Index t, Eigen::Index b) {
  return {1, 2, b - 1, b, b + 1, t - 1, t, t + 1, t + b - 1, t + b, t + b + 1, t + 3 * b + 7, 300};
}

template <typename S>
void expect_factor_agrees(double tolerance) {
  std::mt19937 rng(16);
  const Eigen::Index t = CholeskyScratch<S>::kBlockedFrom, b = CholeskyScratch<S>::kBlock;
  for (Eigen::Index n : orders(t, b)) {
    const MatX<double> A = spd_matrix(n, rng);
    const MatX<S> A_s = A.cast<S>();
    // The reference: Eigen's LLT in double of the matrix as given (rounded to S).
    const MatX<double> L_ref = A_s.template cast<double>().llt().matrixL();
    CholeskyScratch<S> scratch(n);
    MatX<S> L = A_s;
    // Only the lower triangle is read and written: NaN above it must stay there, untouched.
    L.template triangularView<Eigen::StrictlyUpper>().setConstant(
        std::numeric_limits<S>::quiet_NaN());
    ASSERT_TRUE(cholesky_in_place(L, scratch)) << "n = " << n;
    const MatX<double> lower =
        L.template triangularView<Eigen::Lower>().toDenseMatrix().template cast<double>();
    EXPECT_LE((lower - L_ref).norm(), tolerance * L_ref.norm()) << "n = " << n;
    EXPECT_LE((lower * lower.transpose() - A_s.template cast<double>()).norm(),
              tolerance * A.norm())
        << "n = " << n;
    for (Eigen::Index j = 1; j < n; ++j)
      for (Eigen::Index i = 0; i < j; ++i)
        ASSERT_TRUE(std::isnan(L(i, j))) << "n = " << n << ", (" << i << ", " << j << ")";
  }
}

TEST(Cholesky, AgreesWithEigensLltDouble) {
  expect_factor_agrees<double>(1e-12);
}

TEST(Cholesky, AgreesWithEigensLltFloat) {
  expect_factor_agrees<float>(1e-5);
}

// A matrix that is not positive definite, its trouble in a late block, is reported as such.
TEST(Cholesky, RejectsIndefiniteMatrices) {
  std::mt19937 rng(7);
  const Eigen::Index t = CholeskyScratch<double>::kBlockedFrom, b = CholeskyScratch<double>::kBlock;
  for (Eigen::Index n : {Eigen::Index(5), t - 1, t + 2 * b + 3}) {
    MatX<double> L = spd_matrix(n, rng);
    L(n - 2, n - 2) = -1;
    CholeskyScratch<double> scratch(n);
    EXPECT_FALSE(cholesky_in_place(L, scratch)) << "n = " << n;
  }
}

}  // namespace cholesky_test
