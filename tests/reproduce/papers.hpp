// The computations behind scripts/reproduce, shared by the denoc_reproduce tool (which writes
// them as CSV) and by tests/test_reproduce.cpp (which asserts what the papers claim of them).
#pragma once

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/ascher_arm.hpp"

namespace denoc::reproduce {

constexpr double kPi = 3.14159265358979323846;

// Ascher et al.'s badly conditioned two-link arm (Mata et al. 2002, Sec. 5.1), shared with the
// tests.
using denoc_test::ascher_arm;

// The forward-dynamics routes of the suite, in the order of Table 5 and beyond.
constexpr std::array<Route, 4> kRoutes = {Route::udu, Route::cholesky, Route::gibbs_appell,
                                          Route::fixman};

// A route's name in the CSV columns (gibbs_appell_dp1): the command-line name, '-' as '_'.
inline std::string column_name(Route r) {
  std::string name = route_name(r);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// One configuration of the turn: q = (0, angle), at rest, no joint forces.
struct Table5Step {
  double angle_deg = 0;
  double condition = 0;                       // of the inertia matrix (2-norm), double precision
  std::array<std::array<double, 2>, 4> dp{};  // qdd in double precision, per route and joint
  std::array<std::array<double, 2>, 4> sp{};  // qdd in single precision
};

struct Table5Summary {
  std::array<std::array<double, 2>, 4> max{}, mean{};  // |qdd_DP - qdd_SP| per route and joint
};

// Body 2 turned through a full circle in 2-degree steps (180 configurations), every route in
// double and in single precision (the whole computation in float: model, workspace, algorithm).
inline std::vector<Table5Step> table5_steps(int steps = 180) {
  const Model<double> model = ascher_arm<double>();
  const Model<float> model_f = ascher_arm<float>();
  Dynamics<double> dynamics(model);
  Dynamics<float> dynamics_f(model_f);
  std::vector<Table5Step> out;
  const VecX<double> zero = VecX<double>::Zero(2);
  const VecX<float> zero_f = VecX<float>::Zero(2);
  for (int k = 0; k < steps; ++k) {
    Table5Step s;
    // Both precisions at the same configuration: the angle rounded to float once, so that the
    // difference is the algorithms' rounding, not the input's.
    VecX<float> q_f(2);
    q_f << 0, static_cast<float>(k * 2 * kPi / steps);
    const VecX<double> q = q_f.cast<double>();
    s.angle_deg = k * 360.0 / steps;
    const Eigen::SelfAdjointEigenSolver<MatX<double>> eig(
        generalized_inertia(model, dynamics.denoc(), q));
    s.condition = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
    for (std::size_t r = 0; r < kRoutes.size(); ++r) {
      const VecX<double> dp = forward_dynamics(kRoutes[r], dynamics, q, zero, zero);
      const VecX<float> sp = forward_dynamics(kRoutes[r], dynamics_f, q_f, zero_f, zero_f);
      for (int j = 0; j < 2; ++j) {
        s.dp[r][static_cast<std::size_t>(j)] = dp[j];
        s.sp[r][static_cast<std::size_t>(j)] = static_cast<double>(sp[j]);
      }
    }
    out.push_back(s);
  }
  return out;
}

inline Table5Summary table5_summary(const std::vector<Table5Step>& steps) {
  Table5Summary sum;
  for (const Table5Step& s : steps)
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t j = 0; j < 2; ++j) {
        const double e = std::abs(s.dp[r][j] - s.sp[r][j]);
        sum.max[r][j] = std::max(sum.max[r][j], e);
        sum.mean[r][j] += e / static_cast<double>(steps.size());
      }
  return sum;
}

// x = A^-1 b by Gauss-Jordan elimination with partial pivoting, in S: how Mata et al. solve the
// CRBA's and Gibbs-Appell's M qdd = tau - h (§5.1), in FORTRAN REAL.
template <typename S>
VecX<S> gauss_jordan(MatX<S> A, VecX<S> b) {
  const Eigen::Index n = A.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index pivot = k;
    A.col(k).tail(n - k).cwiseAbs().maxCoeff(&pivot);
    pivot += k;
    A.row(k).swap(A.row(pivot));
    std::swap(b[k], b[pivot]);
    const S d = A(k, k);
    A.row(k) /= d;
    b[k] /= d;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (i == k) continue;
      const S f = A(i, k);
      A.row(i) -= f * A.row(k);
      b[i] -= f * b[k];
    }
  }
  return b;
}

// Table 5 by other means, to find what the paper's numbers come from (docs/papers.md): the
// CRBA's (Saha's composite bodies) and Gibbs-Appell's M and h formed in float and M qdd = -h
// solved by Gauss-Jordan in float, as the paper solves them; and the arm's data stored in float
// with the computation in double (the data's rounding alone). Each against the double route, as
// table5_steps, summarised as table5_summary does (max and mean per joint).
struct Table5Variant {
  std::string name;
  std::array<double, 2> max{}, mean{};
};

inline std::vector<Table5Variant> table5_variants(int steps = 180) {
  const Model<double> model = ascher_arm<double>();
  const Model<float> model_f = ascher_arm<float>();
  const Model<double> float_data = ascher_arm<double, float>();
  Dynamics<double> dynamics(model), dynamics_data(float_data);
  Dynamics<float> dynamics_f(model_f);
  std::vector<Table5Variant> out = {{"cholesky_gauss_jordan", {}, {}},
                                    {"gibbs_appell_gauss_jordan", {}, {}},
                                    {"float_data", {}, {}}};
  const VecX<double> zero = VecX<double>::Zero(2);
  const VecX<float> zero_f = VecX<float>::Zero(2);
  for (int k = 0; k < steps; ++k) {
    VecX<float> q_f(2);
    q_f << 0, static_cast<float>(k * 2 * kPi / steps);
    const VecX<double> q = q_f.cast<double>();
    const VecX<double> dp = forward_dynamics(Route::udu, dynamics, q, zero, zero);
    VecX<double> sp[3];
    for (std::size_t v = 0; v < 2; ++v) {
      const Route route = v == 0 ? Route::denoc : Route::gibbs_appell;
      const MatX<float> M = generalized_inertia(route, dynamics_f, q_f);
      const VecX<float> h = bias_forces(route, dynamics_f, q_f, zero_f);
      sp[v] = gauss_jordan<float>(M, -h).cast<double>();
    }
    sp[2] = forward_dynamics(Route::udu, dynamics_data, q, zero, zero);
    for (std::size_t v = 0; v < out.size(); ++v)
      for (std::size_t j = 0; j < 2; ++j) {
        const double e = std::abs(dp[Eigen::Index(j)] - sp[v][Eigen::Index(j)]);
        out[v].max[j] = std::max(out[v].max[j], e);
        out[v].mean[j] += e / steps;
      }
  }
  return out;
}

// Lee et al.'s Fig. 3: the time to solve M x = b on the first n links of a chain.
enum class Solve { fixman, udu, cholesky, inverse };
constexpr std::array<Solve, 4> kSolves = {Solve::fixman, Solve::udu, Solve::cholesky,
                                          Solve::inverse};
inline const char* solve_name(Solve s) {
  switch (s) {
    case Solve::fixman:
      return "fixman";
    case Solve::udu:
      return "udu";
    case Solve::cholesky:
      return "cholesky";
    case Solve::inverse:
      return "inverse";
  }
  return "?";
}

// The first n links of `chain`, with no gravity so that forward dynamics at rest solves
// M x = b exactly (h = 0).
inline Model<double> first_links(const Model<double>& chain, int n) {
  const auto& links = chain.links();
  return Model<double>(std::vector<LinkSpec<double>>(links.begin(), links.begin() + n),
                       Vec3<double>::Zero());
}

// x = M(q)^-1 b by one route; returns x (in the workspace, or in `x` for the inverse).
// fixman: Lee et al.'s Eq. (7) in O(n); udu: Saha's U D U^T forward dynamics at rest, O(n);
// cholesky: form M (Saha's Eq. 24) and factor it, O(n^3); inverse: M^-1 formed (the suite's
// inverse GIM, O(n^3)) and applied to b, as Lee et al. time Matlab's inv(M).
inline const VecX<double>& solve_by(Solve s, Dynamics<double>& d, const VecX<double>& q,
                                    const VecX<double>& zero, const VecX<double>& b,
                                    VecX<double>& x) {
  switch (s) {
    case Solve::fixman:
      return fixman_solve(d.model(), d.fixman(), q, b);
    case Solve::udu:
      return forward_dynamics(Route::udu, d, q, zero, b);
    case Solve::cholesky:
      return forward_dynamics(Route::cholesky, d, q, zero, b);
    case Solve::inverse:
      break;
  }
  x.noalias() = inverse_inertia(Route::cholesky, d, q) * b;
  return x;
}

// Seconds per solve: the fastest of `rounds` batches, each long enough to take ~min_seconds.
inline double time_solve(Solve s, const Model<double>& model, double min_seconds = 2e-3,
                         int rounds = 3) {
  using clock = std::chrono::steady_clock;
  const int n = model.dof();
  Dynamics<double> dynamics(model);
  VecX<double> q(n), zero = VecX<double>::Zero(n), b(n), x(n);
  for (int i = 0; i < n; ++i) {
    q[i] = i == 0 ? 0.0 : kPi / 3;  // Lee et al. §4.3: beta_1 = 0, beta_i = pi/3
    b[i] = 1.0 + 0.01 * i;
  }
  double sink = 0;
  long batch = 1;
  for (;;) {  // grow the batch until it takes min_seconds
    const auto t0 = clock::now();
    for (long k = 0; k < batch; ++k)
      sink += solve_by(s, dynamics, q, zero, b, x)[0];
    const double dt = std::chrono::duration<double>(clock::now() - t0).count();
    if (dt >= min_seconds || batch > (1L << 24)) break;
    batch *= 2;
  }
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = clock::now();
    for (long k = 0; k < batch; ++k)
      sink += solve_by(s, dynamics, q, zero, b, x)[0];
    best = std::min(best, std::chrono::duration<double>(clock::now() - t0).count() /
                              static_cast<double>(batch));
  }
  if (sink == 12345.678) best *= 1.0;  // keep the results alive
  return best;
}

// Least-squares slope of log(t) against log(n) over the points with n >= n_min.
inline double loglog_slope(const std::vector<int>& n, const std::vector<double>& t, int n_min) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (n[i] < n_min) continue;
    const double x = std::log(n[i]), y = std::log(t[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y, m += 1;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

}  // namespace denoc::reproduce
