// The packs' values are the scalar route's bit for bit where the operations are the same: each
// lane of the saha/ recursions on packs (lanes/lanes.hpp) against the same recursions on double,
// one sample per lane. As tests/test_counted_values.cpp does, this binary is compiled with
// EIGEN_DONT_VECTORIZE (Eigen's packets for double sum some products in another order than its
// scalar path, which the packs take) and without fused multiply-adds (-ffp-contract=off: the
// compiler may fuse in one form and not the other), and instantiates the algorithms itself.
// With both, the two forms execute the same operations, and any difference is an error of the
// packs. (The library's own builds differ from double within 1e-14: tests/test_lanes.cpp.)
#include <gtest/gtest.h>

#ifndef EIGEN_DONT_VECTORIZE
#error "compile with EIGEN_DONT_VECTORIZE (tests/CMakeLists.txt)"
#endif

#include <functional>
#include <string>
#include <vector>

#include "denoc/lanes/lanes.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"
#include "support/random_chains.hpp"

namespace {

using denoc::MatX;
using denoc::Model;
using denoc::VecX;
using denoc::Workspace;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

// One sample per lane: q, qd and x (qdd or tau) of lane l are samples[l].
template <typename T>
struct LaneSamples {
  using Pack = denoc::Lanes<T>;
  std::vector<VecX<T>> q, qd, x;
  VecX<Pack> pack(const std::vector<VecX<T>>& v) const {
    VecX<Pack> p(v.front().size());
    for (Eigen::Index i = 0; i < p.size(); ++i)
      p[i] = Pack::generate([&](int lane) { return v[static_cast<std::size_t>(lane)][i]; });
    return p;
  }
};

// A quantity on T (double or float) and on packs of T, as a matrix (vectors as one column).
template <typename T>
struct Case {
  using Pack = denoc::Lanes<T>;
  std::string name;
  std::function<MatX<T>(const Model<T>&, Workspace<T>&, const VecX<T>&, const VecX<T>&,
                        const VecX<T>&)>
      on_scalar;
  std::function<MatX<Pack>(const Model<Pack>&, Workspace<Pack>&, const VecX<Pack>&,
                           const VecX<Pack>&, const VecX<Pack>&)>
      on_packs;
};

template <typename S>
MatX<S> friction(const Model<S>& m, const VecX<S>& qd) {
  VecX<S> f(m.dof());
  denoc::friction_forces(m, qd, f);
  return f;
}

template <typename T>
std::vector<Case<T>> cases() {
#define DENOC_BOTH(EXPR)                                                                      \
  [](const auto& m, auto& ws, const auto& q, const auto& qd, const auto& x) {                 \
    static_cast<void>(ws), static_cast<void>(q), static_cast<void>(qd), static_cast<void>(x); \
    using M = MatX<typename std::decay_t<decltype(m)>::Scalar>;                               \
    return M(EXPR);                                                                           \
  }
  return {
      {"inverse dynamics", DENOC_BOTH(denoc::inverse_dynamics(m, ws, q, qd, x)),
       DENOC_BOTH(denoc::inverse_dynamics(m, ws, q, qd, x))},
      {"bias", DENOC_BOTH(denoc::bias_forces(m, ws, q, qd)),
       DENOC_BOTH(denoc::bias_forces(m, ws, q, qd))},
      {"gravity", DENOC_BOTH(denoc::gravity_forces(m, ws, q)),
       DENOC_BOTH(denoc::gravity_forces(m, ws, q))},
      {"friction", DENOC_BOTH(friction(m, qd)), DENOC_BOTH(friction(m, qd))},
      {"inertia matrix", DENOC_BOTH(denoc::generalized_inertia(m, ws, q)),
       DENOC_BOTH(denoc::generalized_inertia(m, ws, q))},
      {"forward dynamics", DENOC_BOTH(denoc::forward_dynamics(m, ws, q, qd, x)),
       DENOC_BOTH(denoc::forward_dynamics(m, ws, q, qd, x))},
  };
#undef DENOC_BOTH
}

// Every lane of every quantity on packs of T against the same recursion on T, on random mixed
// chains with drives (friction on every joint), one joint at rest in lane 0 only.
template <typename T>
void expect_every_lane_bit_for_bit() {
  using Pack = denoc::Lanes<T>;
  for (int n : {7, 30}) {
    Generator random(static_cast<std::uint32_t>(11 * n));
    const denoc_test::Chain chain =
        random.chain(denoc::DhConvention::modified, n, JointMix::mixed, "c");
    std::vector<denoc::LinkSpec<double>> links = denoc::links_from_dh(chain.convention, chain.dh);
    for (std::size_t i = 0; i < links.size(); ++i)  // drives with friction on every joint
      links[i].drive = {0.01, 1.0 + static_cast<double>(i), 0.2, 0.3, -0.25};
    const Model<T> model = Model<double>(links, chain.gravity).template cast<T>();
    ASSERT_TRUE(model.has_friction());
    const Model<Pack> packs = model.template cast<Pack>();
    Workspace<T> ws(model);
    Workspace<Pack> ws_packs(packs);
    LaneSamples<T> s;
    for (int l = 0; l < Pack::size; ++l) {
      s.q.push_back(random.positions(chain).template cast<T>());
      s.qd.push_back(random.vector(n, 1.0).template cast<T>());
      s.x.push_back(random.vector(n, 2.0).template cast<T>());
    }
    s.qd[0][1] = 0;  // at rest: no Coulomb friction in lane 0 only
    const VecX<Pack> q = s.pack(s.q), qd = s.pack(s.qd), x = s.pack(s.x);
    for (const Case<T>& c : cases<T>()) {
      const MatX<Pack> got = c.on_packs(packs, ws_packs, q, qd, x);
      for (int l = 0; l < Pack::size; ++l) {
        const auto lane = static_cast<std::size_t>(l);
        const MatX<T> expected = c.on_scalar(model, ws, s.q[lane], s.qd[lane], s.x[lane]);
        ASSERT_EQ(got.rows(), expected.rows());
        ASSERT_TRUE(expected.allFinite()) << c.name;
        for (Eigen::Index k = 0; k < expected.size(); ++k)
          ASSERT_EQ(got.data()[k][l], expected.data()[k])
              << c.name << " at n = " << n << ", lane " << l << ", entry " << k;
      }
    }
  }
}

TEST(LaneValues, EveryLaneIsTheScalarRouteBitForBit) {
  expect_every_lane_bit_for_bit<double>();
}

// Packs of floats (twice the lanes) against float, the sines and cosines through doubles as the
// scalar kernel takes them.
TEST(LaneValues, EveryFloatLaneIsTheFloatRouteBitForBit) {
  expect_every_lane_bit_for_bit<float>();
}

}  // namespace
