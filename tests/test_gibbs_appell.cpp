// The Gibbs-Appell routes of Mata et al. (2002) (src/denoc/mata/gibbs_appell.hpp) against the
// DeNOC routes of Saha (1999), an independent derivation of the same dynamics: the torques, the
// bias and gravity vectors, the inertia matrix and the forward dynamics, on random chains of 1
// to 40 joints (both DH conventions, mixed revolute/prismatic joints, full inertia tensors,
// gravity in an odd direction) and on the shipped robots; float against double; the identity
// tau = D qdd + h within the Gibbs-Appell routes alone.
//
// Differences are normwise relative: |a - b|_2 / |b|_2 (Frobenius for matrices). Each test
// prints the largest it saw, one line per quantity:
//   [gibbs-appell] <quantity>  max rel diff <r>  (tol <t>, <N> cases, worst: <case>)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/ascher_arm.hpp"
#include "support/random_chains.hpp"
#include "support/worst_residual.hpp"

namespace {

using namespace denoc;

constexpr double kPi = 3.14159265358979323846;

template <typename A, typename B>
double normwise(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  const double scale = static_cast<double>(b.norm());
  const double diff = static_cast<double>((a - b).norm());
  return scale > 0 ? diff / scale : diff;
}

using Worst = denoc_test::WorstResidual;

struct State {
  VecX<double> q, qd, qdd, tau;
};

// Revolute joints over a full turn, prismatic ones over +-1 m; rates of order 1. tau is a
// random joint force of the size of the inertia forces.
State random_state(const Model<double>& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = model.dof();
  State s{VecX<double>(n), VecX<double>(n), VecX<double>(n), VecX<double>(n)};
  for (int i = 0; i < n; ++i) {
    s.q[i] = model.joint(i).type == JointType::revolute ? kPi * u(rng) : u(rng);
    s.qd[i] = 2 * u(rng);
    s.qdd[i] = 3 * u(rng);
    s.tau[i] = 20 * u(rng);
  }
  return s;
}

// Every route against its DeNOC counterpart, one workspace for both (the results must live in
// distinct storage: each is copied only after both routes have run).
struct Checks {
  Worst tau{"tau (inverse dynamics) vs DeNOC", 1e-12};
  Worst bias{"h (bias) vs DeNOC", 1e-12};
  Worst gravity{"g (gravity) vs DeNOC", 1e-12};
  Worst inertia{"D (inertia matrix) vs DeNOC GIM", 1e-12};
  Worst fd{"qdd (forward dynamics) vs U D U^T", 1e-10};
  Worst split{"tau = D qdd + h within Gibbs-Appell", 1e-12};

  void run(const Model<double>& model, const State& s, const std::string& where) {
    Workspace<double> ws(model);
    GibbsAppellWorkspace<double> ga(model);
    // Both routes first, then compare the workspace's own storage: neither may overwrite the other.
    const VecX<double>& tau_ga = gibbs_appell_inverse_dynamics(model, ga, s.q, s.qd, s.qdd);
    const VecX<double>& tau_denoc = inverse_dynamics(model, ws, s.q, s.qd, s.qdd);
    tau.check(normwise(tau_ga, tau_denoc), where);
    const VecX<double> tau_ref = tau_denoc;

    const VecX<double> h_ga = gibbs_appell_bias(model, ga, s.q, s.qd);
    bias.check(normwise(h_ga, bias_forces(model, ws, s.q, s.qd)), where);
    const VecX<double> g_ga = gibbs_appell_gravity(model, ga, s.q);
    gravity.check(normwise(g_ga, gravity_forces(model, ws, s.q)), where);

    const MatX<double>& D = gibbs_appell_inertia(model, ga, s.q);
    const MatX<double>& M = generalized_inertia(model, ws, s.q);
    inertia.check(normwise(D, M), where);
    EXPECT_EQ(D, D.transpose()) << where;
    split.check(normwise(VecX<double>(D * s.qdd + h_ga), tau_ref), where);

    const VecX<double>& a_ga = forward_dynamics_gibbs_appell(model, ga, s.q, s.qd, s.tau);
    const VecX<double>& a_udu = forward_dynamics(model, ws, s.q, s.qd, s.tau);
    EXPECT_TRUE(ga.factored) << where;
    fd.check(normwise(a_ga, a_udu), where);
  }
};

TEST(GibbsAppell, RandomChainsAgreeWithDenoc) {
  Checks checks;
  std::mt19937 rng(2002);
  for (int n = 1; n <= 40; ++n) {
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      const Model<double> model = denoc_test::random_chain(n, convention, rng);
      for (int k = 0; k < 2; ++k) {
        const std::string where =
            std::string(convention == DhConvention::standard ? "standard" : "modified") +
            " n=" + std::to_string(n) + " state " + std::to_string(k);
        checks.run(model, random_state(model, rng), where);
      }
    }
  }
}

// A chain of one kind of joint only: the all-prismatic chain has D_jk = M_j z_j . z_k and no
// moments at all, the all-revolute one is the paper's own case.
TEST(GibbsAppell, SingleKindChainsAgreeWithDenoc) {
  using denoc_test::random_chains::JointMix;
  Checks checks;
  std::mt19937 rng(37);
  denoc_test::random_chains::Generator generator(37);
  for (JointType type : {JointType::revolute, JointType::prismatic}) {
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      for (int n : {1, 2, 5, 9, 17}) {
        const JointMix mix = type == JointType::revolute ? JointMix::revolute : JointMix::prismatic;
        const Model<double> model = generator.chain(convention, n, mix, "").model();
        checks.run(model, random_state(model, rng),
                   std::string(type == JointType::revolute ? "revolute" : "prismatic") +
                       " n=" + std::to_string(n));
      }
    }
  }
}

TEST(GibbsAppell, ShippedRobotsAgreeWithDenoc) {
  Checks checks;
  std::mt19937 rng(5);
  int robots = 0;
  for (const auto& entry : std::filesystem::directory_iterator(DENOC_ROBOTS_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    const RobotFile robot = load_robot_file(entry.path().string());
    if (robot.model.floating()) continue;  // the route refuses a floating base
    ++robots;
    for (int k = 0; k < 5; ++k) {
      checks.run(robot.model, random_state(robot.model, rng),
                 entry.path().filename().string() + " state " + std::to_string(k));
    }
  }
  EXPECT_GE(robots, 2);
}

// The float instantiation against the double one, route by route: the model cast to float, the
// inputs rounded to float and the double reference fed the same rounded inputs.
// |x_f - x_d| / max(1, |x_d|) in the max norm for the torques and D (as the DeNOC float test);
// the accelerations in torque space, |D (qdd_f - qdd_d)| / (|tau - h| + |D|), since qdd itself
// carries cond(D) times float's rounding.
TEST(GibbsAppell, FloatAgreesWithDouble) {
  Worst tau("tau float=double", 1e-4), bias("h float=double", 1e-4),
      gravity("g float=double", 1e-4), inertia("D float=double", 1e-4),
      fd("D qdd float=double", 1e-4);
  std::mt19937 rng(17);
  auto rel = [](const auto& f, const auto& d) {
    return (f.template cast<double>() - d).cwiseAbs().maxCoeff() /
           std::max(1.0, d.cwiseAbs().maxCoeff());
  };
  for (int n : {1, 2, 3, 6, 7, 12, 20}) {
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      const Model<double> model = denoc_test::random_chain(n, convention, rng);
      const Model<float> model_f = model.cast<float>();
      Workspace<double> ws(model);
      GibbsAppellWorkspace<double> ga(model);
      Workspace<float> ws_f(model_f);
      GibbsAppellWorkspace<float> ga_f(model_f);
      const State s = random_state(model, rng);
      const VecX<float> q_f = s.q.cast<float>(), qd_f = s.qd.cast<float>(),
                        qdd_f = s.qdd.cast<float>(), tau_f = s.tau.cast<float>();
      const VecX<double> q = q_f.cast<double>(), qd = qd_f.cast<double>(),
                         qdd = qdd_f.cast<double>(), t = tau_f.cast<double>();
      const std::string where = "n=" + std::to_string(n);
      tau.check(rel(gibbs_appell_inverse_dynamics(model_f, ga_f, q_f, qd_f, qdd_f),
                    gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd)),
                where);
      const VecX<double> h = gibbs_appell_bias(model, ga, q, qd);
      bias.check(rel(gibbs_appell_bias(model_f, ga_f, q_f, qd_f), h), where);
      gravity.check(
          rel(gibbs_appell_gravity(model_f, ga_f, q_f), gibbs_appell_gravity(model, ga, q)), where);
      const MatX<double> D = gibbs_appell_inertia(model, ga, q);
      inertia.check(rel(gibbs_appell_inertia(model_f, ga_f, q_f), D), where);
      const VecX<double> a = forward_dynamics_gibbs_appell(model, ga, q, qd, t);
      const VecX<double> a_f =
          forward_dynamics_gibbs_appell(model_f, ga_f, q_f, qd_f, tau_f).cast<double>();
      fd.check((D * (a_f - a)).cwiseAbs().maxCoeff() /
                   ((t - h).cwiseAbs().maxCoeff() + D.cwiseAbs().maxCoeff()),
               where);
    }
  }
}

// Mata et al.'s §5.1 and Table 5: Ascher et al.'s badly conditioned two-link arm (links of 0.02 m,
// 0.1 kg and 2 m, 10 kg, bars 0.02 m wide, gravity across them, no joint forces), link 2 turned
// through a full circle in 2 degree steps, qdd_2 in single precision against double. The paper
// finds the Gibbs-Appell route between the articulated-body and the composite-body routes
// (largest error 0.53 against 0.50 and 1.29 rad/s^2): forming D by §4.2 loses less than forming
// it by composite bodies, although both then factor it. Here the composite-body route is the
// DeNOC GIM + Cholesky, the articulated-body one U D U^T.
TEST(GibbsAppell, SinglePrecisionBetweenArticulatedAndCompositeBodies) {
  const Model<double> model = denoc_test::ascher_arm<double>();
  const Model<float> model_f = denoc_test::ascher_arm<float>();
  Workspace<double> ws(model);
  Workspace<float> ws_f(model_f);
  GibbsAppellWorkspace<float> ga_f(model_f);
  double worst[3] = {0, 0, 0}, sum[3] = {0, 0, 0};  // U D U^T, DeNOC GIM + Cholesky, Gibbs-Appell
  const int steps = 180;
  for (int k = 0; k < steps; ++k) {
    VecX<double> q(2);
    q << 0, k * 2 * kPi / steps;
    const VecX<double> zero = VecX<double>::Zero(2);
    const VecX<float> q_f = q.cast<float>(), zero_f = VecX<float>::Zero(2);
    const double exact = forward_dynamics(model, ws, q, zero, zero)[1];
    const double error[3] = {
        std::abs(forward_dynamics(model_f, ws_f, q_f, zero_f, zero_f)[1] - exact),
        std::abs(forward_dynamics_cholesky(model_f, ws_f, q_f, zero_f, zero_f)[1] - exact),
        std::abs(forward_dynamics_gibbs_appell(model_f, ga_f, q_f, zero_f, zero_f)[1] - exact)};
    for (int r = 0; r < 3; ++r) {
      worst[r] = std::max(worst[r], error[r]);
      sum[r] += error[r];
    }
  }
  std::cout << "[gibbs-appell] single-precision error in qdd_2 (rad/s^2), largest / mean: udu "
            << worst[0] << " / " << sum[0] / steps << ", cholesky " << worst[1] << " / "
            << sum[1] / steps << ", gibbs-appell " << worst[2] << " / " << sum[2] / steps << "\n";
  EXPECT_LT(worst[2], worst[1]);
  EXPECT_LT(sum[2], sum[1]);
  EXPECT_LT(worst[0], worst[2]);
}

// A link without mass or inertia on a prismatic joint: D = 0 is not positive definite, and the
// forward dynamics says so with NaN, as forward_dynamics_cholesky does.
TEST(GibbsAppell, SingularInertiaMatrixGivesNaN) {
  DhLink<double> row;
  row.type = JointType::prismatic;
  row.mass = 0;
  const Model<double> model(links_from_dh(DhConvention::standard, std::vector{row}));
  GibbsAppellWorkspace<double> ga(model);
  const VecX<double> x = VecX<double>::Ones(1);
  const VecX<double>& qdd = forward_dynamics_gibbs_appell(model, ga, x, x, x);
  EXPECT_FALSE(ga.factored);
  EXPECT_TRUE(std::isnan(qdd[0]));
}

}  // namespace
