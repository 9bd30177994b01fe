// Counting changes no value: the counting scalar (count/counted.hpp) does each operation of the
// double code on its double, so every route gives the double route's numbers bit for bit. Bit for
// bit against double evaluated one scalar at a time, as the counting scalar is: this binary is
// compiled with EIGEN_DONT_VECTORIZE and instantiates the algorithms itself (no libdenoc), since
// Eigen's SIMD packets for double sum some products in another order (results within a few ulps
// of these; docs/operation-counts.md).
#include <gtest/gtest.h>

#ifndef EIGEN_DONT_VECTORIZE
#error "compile with EIGEN_DONT_VECTORIZE (tests/CMakeLists.txt)"
#endif

#include "support/counted_cases.hpp"
#include "support/random_chains.hpp"

namespace {

using denoc::CountingDynamics;
using denoc::Dynamics;
using denoc::MatX;
using denoc::Model;
using denoc::VecX;
using denoc_test::Case;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

// Counting changes no value: every route on the counting scalar gives the double route's
// numbers bit for bit, on mixed chains in both forms of the inertia matrix.
TEST(OperationCounts, CountingGivesTheDoubleValuesBitForBit) {
  for (int n : {7, 30}) {
    Generator random(static_cast<std::uint32_t>(7 * n));
    const denoc_test::Chain chain =
        random.chain(denoc::DhConvention::modified, n, JointMix::mixed, "chain");
    const Model<double> model = chain.model();
    Dynamics<double> dynamics(model);
    CountingDynamics counting(model);
    const VecX<double> q = random.positions(chain), qd = random.vector(n, 1.0),
                       x = random.vector(n, 2.0);
    for (const Case& c : denoc_test::counted_cases()) {
      const MatX<double> expected = c.on_double(dynamics, q, qd, x);
      const MatX<double> got =
          c.on_counted(counting.dynamics, denoc::counted(q), denoc::counted(qd), denoc::counted(x));
      ASSERT_EQ(got.rows(), expected.rows()) << c.name;
      ASSERT_TRUE(expected.allFinite()) << c.name;
      for (Eigen::Index k = 0; k < got.size(); ++k)
        ASSERT_EQ(got.data()[k], expected.data()[k])
            << c.name << " at n = " << n << ", entry " << k;
    }
  }
}

}  // namespace
