// The counting scalar (count/counted.hpp) run through the same templates as double: the counts
// have the orders the algorithms claim, exactly: affine in n for the O(n) routes, quadratic or
// cubic for the others (docs/operation-counts.md). test_counted_values.cpp checks the values.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "denoc/engine/count_operations.hpp"
#include "denoc/mata/gibbs_appell.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "support/counted_cases.hpp"
#include "support/random_chains.hpp"

namespace {

using denoc::Counted;
using denoc::CountingDynamics;
using denoc::Dynamics;
using denoc::MatX;
using denoc::Model;
using denoc::OperationCounts;
using denoc::Route;
using denoc::VecX;
using denoc_test::Case;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

// The counts of one evaluation of `c` on an all-revolute random chain of n joints (the papers'
// tables are for revolute joints; a prismatic joint costs less, so mixed chains are not affine).
OperationCounts counts_at(const Case& c, int n) {
  Generator random(static_cast<std::uint32_t>(100 + n));
  const denoc_test::Chain chain =
      random.chain(denoc::DhConvention::standard, n, JointMix::revolute, "chain");
  const Model<double> model = chain.model();
  CountingDynamics counting(model);
  const VecX<Counted> q = denoc::counted(random.positions(chain)),
                      qd = denoc::counted(random.vector(n, 1.0)),
                      x = denoc::counted(random.vector(n, 2.0));
  return denoc::count_operations([&] { c.on_counted(counting.dynamics, q, qd, x); });
}

std::array<long long, 5> fields(const OperationCounts& c) {
  return {c.multiplications, c.additions, c.divisions, c.square_roots, c.sines_cosines};
}

// An all-revolute random chain of n joints on the counting scalar, with a state and a third
// vector (qdd or tau), for counting an algorithm step by step.
struct CountedChain {
  CountedChain(denoc::DhConvention convention, int n, std::uint32_t seed) {
    Generator random(seed);
    const denoc_test::Chain chain = random.chain(convention, n, JointMix::revolute, "chain");
    model = chain.model().cast<Counted>();
    q = denoc::counted(random.positions(chain));
    qd = denoc::counted(random.vector(n, 1.0));
    x = denoc::counted(random.vector(n, 2.0));
  }
  Model<Counted> model;
  VecX<Counted> q, qd, x;
};

// The steps' counts add up to the whole call's, field by field.
template <std::size_t N>
void expect_steps_add_up(const std::array<OperationCounts, N>& steps, const OperationCounts& whole,
                         int n) {
  std::array<long long, 5> sum{};
  for (const OperationCounts& c : steps)
    for (std::size_t f = 0; f < 5; ++f)
      sum[f] += fields(c)[f];
  EXPECT_EQ(sum, fields(whole)) << "n = " << n;
}

// True if the values at equally spaced n lie exactly on a polynomial of degree `order`: their
// finite differences of order `order` + 1 vanish (needs order + 2 points).
bool on_polynomial(std::vector<long long> values, int order) {
  for (int k = 0; k <= order; ++k) {
    for (std::size_t i = 0; i + 1 < values.size(); ++i)
      values[i] = values[i + 1] - values[i];
    values.pop_back();
  }
  for (long long v : values)
    if (v != 0) return false;
  return true;
}

void expect_polynomial(const Case& c, const std::vector<int>& ns, int order) {
  std::vector<std::array<long long, 5>> at;
  for (int n : ns)
    at.push_back(fields(counts_at(c, n)));
  for (std::size_t f = 0; f < 5; ++f) {
    std::vector<long long> values;
    for (const auto& a : at)
      values.push_back(a[f]);
    EXPECT_TRUE(on_polynomial(values, order))
        << c.name << ", count " << f << " from n = " << ns.front() << ": " << values[0] << ", "
        << values[1] << ", " << values[2] << ", " << values[3];
  }
}

// The O(n) routes: at n = 6, 12, 24, 48 the counts lie on one line a n + b (affine for unevenly
// spaced n means equal slopes between neighbours).
TEST(OperationCounts, LinearRoutesAreExactlyAffineInN) {
  for (const Case& c : denoc_test::counted_cases()) {
    if (c.order != 1) continue;
    const std::array<int, 4> ns = {6, 12, 24, 48};
    std::array<std::array<long long, 5>, 4> at;
    for (std::size_t k = 0; k < 4; ++k)
      at[k] = fields(counts_at(c, ns[k]));
    for (std::size_t f = 0; f < 5; ++f) {
      const long long a = (at[1][f] - at[0][f]) / 6, b = at[0][f] - 6 * a;
      for (std::size_t k = 0; k < 4; ++k)
        EXPECT_EQ(at[k][f], a * ns[k] + b) << c.name << ", count " << f << " at n = " << ns[k];
    }
    EXPECT_GT(at[0][0], 0) << c.name;  // something was counted
  }
}

// The O(n^2) and O(n^3) routes, exactly quadratic or cubic on each side of the inertia matrix's
// change of form at kShortChain joints (saha/generalized_inertia.hpp): transfers up to it, the
// base frame beyond. The cubic ones solve with Eigen's triangular solvers, which go by panels of
// 8 columns and add a term that repeats with n mod 8: exactly cubic at n a multiple of 8.
TEST(OperationCounts, QuadraticAndCubicRoutesAreExactPolynomials) {
  static_assert(denoc::kShortChain == 18, "the points below straddle kShortChain");
  for (const Case& c : denoc_test::counted_cases()) {
    if (c.order == 2) {
      expect_polynomial(c, {3, 6, 9, 12}, 2);
      expect_polynomial(c, {24, 30, 36, 42}, 2);
    } else if (c.order == 3) {
      expect_polynomial(c, {24, 32, 40, 48, 56}, 3);
    }
  }
}

// The counters see only what they are asked to: an evaluation counted twice gives the same counts,
// and nothing outside count_operations is in them.
TEST(OperationCounts, CountsAreThoseOfOneEvaluation) {
  const Case c = denoc_test::counted_cases().front();
  EXPECT_EQ(counts_at(c, 6), counts_at(c, 6));
  const Counted a = 1.5, b = 2.5;
  const OperationCounts one = denoc::count_operations([&] {
    volatile double sink = (a * b + a - b / a).value() + sqrt(a).value() + sin(a).value();
    (void)sink;
  });
  EXPECT_EQ(one, (OperationCounts{1, 2, 1, 1, 1}));
}

// The U D U^T forward dynamics (forward_dynamics.hpp) step by step, as docs/operation-counts.md
// sets them beside the paper's 201n: the steps' counts add up to the whole call's, and their
// slopes per joint (multiplications and divisions) are the ones the docs give. h's backward
// recursion is not a step of its own: the unit-upper solve carries gamma and eta together.
TEST(OperationCounts, UduForwardDynamicsIsTheSumOfItsSteps) {
  struct Step {
    const char* name;
    long long per_joint;  // multiplications and divisions
  };
  const std::array<Step, 6> steps = {{{"joint frames", 16},
                                      {"forward recursion", 75},
                                      {"articulated masses", 277},
                                      {"unit upper solve", 61},
                                      {"D^-1", 1},
                                      {"unit lower solve", 36}}};
  std::array<std::array<OperationCounts, 6>, 2> at;
  for (int k = 0; k < 2; ++k) {
    const int n = 12 * (k + 1);
    const CountedChain chain(denoc::DhConvention::standard, n, static_cast<std::uint32_t>(100 + n));
    const Model<Counted>& model = chain.model;
    const VecX<Counted>&q = chain.q, &qd = chain.qd, &tau = chain.x;
    denoc::Workspace<Counted> ws(model);
    const OperationCounts whole =
        denoc::count_operations([&] { denoc::forward_dynamics(model, ws, q, qd, tau); });
    const denoc::ChainTopology chain_topology;
    auto& step = at[static_cast<std::size_t>(k)];
    step[0] = denoc::count_operations([&] { denoc::update_joint_frames(model, ws, q); });
    step[1] = denoc::count_operations(
        [&] { denoc::forward_recursion(model, ws, qd, ws.id.zeros, chain_topology); });
    step[2] = denoc::count_operations(
        [&] { denoc::articulated_body_masses(model, ws, ws.articulated, chain_topology); });
    step[3] =
        denoc::count_operations([&] { denoc::solve_unit_upper(model, ws, tau, chain_topology); });
    step[4] = denoc::count_operations(
        [&] { ws.articulated.tau_hat.array() /= ws.articulated.m_hat.array(); });
    step[5] = denoc::count_operations([&] { denoc::solve_unit_lower(model, ws, chain_topology); });
    expect_steps_add_up(step, whole, n);
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto md = [&](int k) {
      const OperationCounts& c = at[static_cast<std::size_t>(k)][i];
      return c.multiplications + c.divisions;
    };
    EXPECT_EQ((md(1) - md(0)) / 12, steps[i].per_joint) << steps[i].name;
  }
}

// The Gibbs-Appell inverse dynamics (mata/gibbs_appell.hpp) step by step, as
// docs/operation-counts.md sets them beside Mata et al.'s §4.1: the steps add up to the whole
// call, and their slopes per joint, multiplications (and divisions) and additions, are the docs'.
// The paper's Steps 1-2 cost 68 M and 58 A per joint and its Step 3 28 M and 26 A; the suite's
// extra cost is its general joint frames (12 M to form R_i Rz(q_i), and 1 M more per rotation of
// a vector) and Eq. (10)'s six dot products.
TEST(OperationCounts, GibbsAppellInverseDynamicsIsTheSumOfItsSteps) {
  struct Step {
    const char* name;
    long long multiplications, additions;  // per joint
  };
  const std::array<Step, 3> steps = {
      {{"joint frames", 12, 6}, {"Steps 1-2, outwards", 74, 66}, {"Step 3, inwards", 30, 30}}};
  std::array<std::array<OperationCounts, 3>, 2> at;
  for (int k = 0; k < 2; ++k) {
    const int n = 12 * (k + 1);
    const CountedChain chain(denoc::DhConvention::modified, n, static_cast<std::uint32_t>(200 + n));
    const Model<Counted>& model = chain.model;
    const VecX<Counted>&q = chain.q, &qd = chain.qd, &qdd = chain.x;
    denoc::GibbsAppellWorkspace<Counted> ga(model);
    const OperationCounts whole = denoc::count_operations(
        [&] { denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd); });
    const denoc::ChainTopology chain_topology;
    auto& step = at[static_cast<std::size_t>(k)];
    step[0] = denoc::count_operations([&] { denoc::gibbs_appell::joint_frames(model, ga, q); });
    step[1] = denoc::count_operations(
        [&] { denoc::gibbs_appell::outward_recursion(model, ga, qd, qdd, chain_topology); });
    step[2] = denoc::count_operations(
        [&] { denoc::gibbs_appell::inward_recursion(model, ga, chain_topology); });
    expect_steps_add_up(step, whole, n);
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const OperationCounts &c0 = at[0][i], &c1 = at[1][i];
    EXPECT_EQ((c1.multiplications + c1.divisions - c0.multiplications - c0.divisions) / 12,
              steps[i].multiplications)
        << steps[i].name;
    EXPECT_EQ((c1.additions - c0.additions) / 12, steps[i].additions) << steps[i].name;
  }
}

}  // namespace
