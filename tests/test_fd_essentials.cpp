// Forward dynamics and simulation, the essentials: the O(n) route against the Cholesky route and
// the inverse dynamics on chains long enough to take the base-frame GIM, I = U D U^T, a
// pendulum's period against its closed form, and energy conservation in free fall.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "denoc/denoc.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/simulation.hpp"
#include "support/ascher_arm.hpp"
#include "support/free_fall.hpp"
#include "support/random_chains.hpp"

namespace fd_essentials_test {

using namespace denoc;

constexpr double kPi = 3.14159265358979323846;

using denoc_test::random_chain;

// The two routes to the GIM, whichever generalized_inertia picks for a length: local wrench
// transfers and the base-frame dot products (Eq. 24 both) must give the same matrix, and each
// must satisfy tau = M qdd + h with the recursions.
TEST(ForwardDynamicsEssentials, BothGimRoutesAgree) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 2, 6, 13, 31, 45, 66}) {
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      const Model<double> model = random_chain(n, convention, rng);
      Workspace<double> ws(model);
      VecX<double> q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) {
        q[i] = 3 * u(rng), qd[i] = u(rng), qdd[i] = 2 * u(rng);
      }
      const VecX<double> tau = inverse_dynamics(model, ws, q, qd, qdd);
      const VecX<double> h = bias_forces(model, ws, q, qd);
      gim_by_wrench_transfers(model, ws);  // the frames of q are set by bias_forces
      const MatX<double> M_local = ws.inertia.I;
      ws.inertia.I.setConstant(std::nan(""));  // every entry must be written again
      gim_in_base_frame(model, ws);
      const MatX<double> M_base = ws.inertia.I;
      const double scale = M_local.cwiseAbs().maxCoeff();
      EXPECT_LE((M_local - M_base).cwiseAbs().maxCoeff(), 1e-12 * scale) << "n = " << n;
      EXPECT_EQ(M_local, M_local.transpose());
      EXPECT_EQ(M_base, M_base.transpose());
      const double tau_scale = 1 + tau.cwiseAbs().maxCoeff();
      EXPECT_LE((M_local * qdd + h - tau).cwiseAbs().maxCoeff(), 1e-11 * tau_scale) << "n = " << n;
      EXPECT_LE((M_base * qdd + h - tau).cwiseAbs().maxCoeff(), 1e-11 * tau_scale) << "n = " << n;

      // float: SIMD blocks of 4 or 8 entries in the base-frame form, against double.
      const Model<float> model_f = model.cast<float>();
      Workspace<float> ws_f(model_f);
      update_joint_frames(model_f, ws_f, q.cast<float>());
      gim_by_wrench_transfers(model_f, ws_f);
      const MatX<float> M_local_f = ws_f.inertia.I;
      ws_f.inertia.I.setConstant(std::nanf(""));
      gim_in_base_frame(model_f, ws_f);
      const MatX<float> M_base_f = ws_f.inertia.I;
      EXPECT_LE((M_local_f.cast<double>() - M_local).cwiseAbs().maxCoeff(), 1e-5 * scale)
          << "n = " << n;
      EXPECT_LE((M_base_f.cast<double>() - M_local).cwiseAbs().maxCoeff(), 1e-5 * scale)
          << "n = " << n;
      EXPECT_EQ(M_base_f, M_base_f.transpose());
    }
  }
}

TEST(ForwardDynamicsEssentials, UduCholeskyAndInverseDynamicsAgree) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 3, 7, 13, 24, 40}) {
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      const Model<double> model = random_chain(n, convention, rng);
      Workspace<double> ws(model);
      VecX<double> q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) {
        q[i] = u(rng), qd[i] = u(rng), qdd[i] = 2 * u(rng);
      }
      const VecX<double> tau = inverse_dynamics(model, ws, q, qd, qdd);
      const MatX<double> M = generalized_inertia(model, ws, q);
      const VecX<double> h = bias_forces(model, ws, q, qd);
      // tau = M qdd + h checks the GIM (both of its code paths) against the recursions.
      EXPECT_LE((M * qdd + h - tau).cwiseAbs().maxCoeff(), 1e-11 * (1 + tau.cwiseAbs().maxCoeff()))
          << "n = " << n;

      udu_factors(model, ws, q);
      const MatX<double> U = ws.articulated.U;
      EXPECT_TRUE(U.isUpperTriangular(0.0));
      EXPECT_TRUE((U.diagonal().array() == 1.0).all());
      EXPECT_TRUE((ws.articulated.m_hat.array() > 0).all());
      const MatX<double> UDUt = U * ws.articulated.m_hat.asDiagonal() * U.transpose();
      EXPECT_LE((UDUt - M).cwiseAbs().maxCoeff(), 1e-12 * M.cwiseAbs().maxCoeff()) << "n = " << n;

      // Compared in torque space: the accelerations themselves carry cond(M) eps.
      const VecX<double> a_udu = forward_dynamics(model, ws, q, qd, tau);
      const VecX<double> a_chol = forward_dynamics_cholesky(model, ws, q, qd, tau);
      const double scale = (tau - h).cwiseAbs().maxCoeff() + M.cwiseAbs().maxCoeff();
      EXPECT_LE((M * (a_udu - qdd)).cwiseAbs().maxCoeff(), 1e-12 * scale) << "n = " << n;
      EXPECT_LE((M * (a_chol - qdd)).cwiseAbs().maxCoeff(), 1e-12 * scale) << "n = " << n;
    }
  }
}

// A point mass m at distance l on a revolute joint whose axis is horizontal; q = 0 hangs down.
Model<double> pendulum(double l) {
  DhLink<double> link;
  link.a = l;
  link.theta = -kPi / 2;
  link.mass = 1.5;
  link.com = Vec3<double>::Zero();  // at the link frame origin, at distance a from the axis
  return Model<double>(links_from_dh(DhConvention::standard, std::vector{link}),
                       Vec3<double>(0, -9.81, 0));
}

// The first time after t = 0 at which qd changes sign from negative to positive, i.e. half a
// period for a pendulum released at rest at q0 > 0 (it swings to -q0 and stops there).
double half_period(double q0, double l) {
  const Model<double> model = pendulum(l);
  ZeroForces forces;
  ChainDynamics system(model, Route::udu, forces);
  IntegratorSettings settings;
  settings.rtol = settings.atol = 1e-12;
  IntegrationStats stats;
  double previous_t = 0, previous_qd = 0, crossing = -1;
  const double T0 = 2 * kPi * std::sqrt(l / 9.81);
  integrate(
      system, {q0, 0.0}, OutputTimes(0.75 * T0 * 1.4, 1e-4), settings,
      [&](double t, const State& x) {
        if (crossing < 0 && t > 0 && previous_qd < 0 && x[1] >= 0) {
          crossing = previous_t + (t - previous_t) * previous_qd / (previous_qd - x[1]);
        }
        previous_t = t;
        previous_qd = x[1];
      },
      stats);
  return crossing;
}

// Complete elliptic integral of the first kind by the arithmetic-geometric mean.
double elliptic_k(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 30; ++i) {
    const double m = (a + b) / 2;
    b = std::sqrt(a * b);
    a = m;
  }
  return kPi / (2 * a);
}

// The numerical-stability example of Ascher et al., as Mata et al. (2002) §5.1 and Table 5 run
// it: a planar arm of a short light link (0.02 m, 0.1 kg) and a long heavy one (2 m, 10 kg), bars
// 0.02 m wide, gravity across the links, no joint forces, link 2 turned through a full circle in
// 2 degree steps. The inertia matrix is badly conditioned, and in single precision the route
// that forms and factors it loses more of qdd_2 than the articulated-body route: Table 5 gives a
// largest error of 1.29 rad/s^2 for the CRBA against 0.50 for the ABA.
TEST(ForwardDynamicsEssentials, UduIsMoreAccurateInSinglePrecision) {
  const Model<double> model = denoc_test::ascher_arm<double>();
  const Model<float> model_f = denoc_test::ascher_arm<float>();
  Workspace<double> ws(model);
  Workspace<float> ws_f(model_f);
  double worst_udu = 0, worst_cholesky = 0, sum_udu = 0, sum_cholesky = 0;
  const int steps = 180;
  for (int k = 0; k < steps; ++k) {
    VecX<double> q(2);
    q << 0, k * 2 * kPi / steps;
    const VecX<double> zero = VecX<double>::Zero(2);
    const VecX<float> q_f = q.cast<float>(), zero_f = VecX<float>::Zero(2);
    const double exact = forward_dynamics(model, ws, q, zero, zero)[1];
    const double udu = std::abs(forward_dynamics(model_f, ws_f, q_f, zero_f, zero_f)[1] - exact);
    const double cholesky =
        std::abs(forward_dynamics_cholesky(model_f, ws_f, q_f, zero_f, zero_f)[1] - exact);
    worst_udu = std::max(worst_udu, udu);
    worst_cholesky = std::max(worst_cholesky, cholesky);
    sum_udu += udu;
    sum_cholesky += cholesky;
  }
  std::cout << "[stability] single-precision error in qdd_2 (rad/s^2), largest / mean: udu "
            << worst_udu << " / " << sum_udu / steps << ", cholesky " << worst_cholesky << " / "
            << sum_cholesky / steps << "\n";
  EXPECT_LT(2 * worst_udu, worst_cholesky);
  EXPECT_LT(sum_udu, sum_cholesky);
}

TEST(ForwardDynamicsEssentials, PendulumPeriod) {
  const double l = 0.7, T0 = 2 * kPi * std::sqrt(l / 9.81);
  // Small amplitude: T = 2 pi sqrt(l/g) (1 + q0^2/16 + ...), so 1e-3 rad is within 1e-7.
  EXPECT_NEAR(2 * half_period(1e-3, l), T0, 2e-6 * T0);
  // Finite amplitude: T = 4 sqrt(l/g) K(sin(q0/2)).
  const double q0 = 2.0;
  const double exact = 4 * std::sqrt(l / 9.81) * elliptic_k(std::sin(q0 / 2));
  EXPECT_NEAR(2 * half_period(q0, l), exact, 2e-6 * exact);
  EXPECT_GT(exact, 1.3 * T0);  // the finite-amplitude case really differs
}

TEST(ForwardDynamicsEssentials, FreeFallConservesEnergy) {
  const RobotFile planar = load_robot_file(DENOC_ROBOTS_DIR "/planar3.yaml");
  std::mt19937 rng(11);
  const Model<double> seven = random_chain(7, DhConvention::standard, rng);
  for (const auto& [name, model] :
       {std::pair<const char*, const Model<double>*>{"planar3", &planar.model},
        {"random 7-link", &seven}}) {
    const VecX<double> q0 = VecX<double>::Constant(model->dof(), 0.3);
    // E(t) = T + V over a 10 s free fall from rest (support/free_fall.hpp).
    const denoc_test::FreeFall fall = denoc_test::free_fall(*model, Route::udu, q0, 1e-9, 10);
    const double loose = fall.drift, scale = fall.scale;
    const double tight = denoc_test::free_fall(*model, Route::udu, q0, 1e-12, 10).drift;
    std::cout << "[simulation] " << name << " energy drift over 10 s: " << loose
              << " J at rtol=atol=1e-9, " << tight << " J at 1e-12 (energies up to " << scale
              << " J)\n";
    // Measured: 1.0e-6 J (planar3) and 8.8e-5 J (random 7-link) at 1e-9, i.e. 3e-8 and 2e-6
    // of the energy scale; the bound allows 1e4 x tol x scale.
    EXPECT_LT(loose, 1e4 * 1e-9 * scale) << name;
    EXPECT_LT(tight, loose / 10) << name;
  }
}

TEST(ForwardDynamicsEssentials, OutputTimesAreDecimal) {
  const OutputTimes times(10, 0.1);
  ASSERT_EQ(times.size(), 101);
  EXPECT_EQ(times[3], 0.3);
  EXPECT_EQ(times[100], 10.0);
  const OutputTimes uneven(1, 0.3);
  ASSERT_EQ(uneven.size(), 5);
  EXPECT_EQ(uneven[3], 0.9);
  EXPECT_EQ(uneven[4], 1.0);
  EXPECT_EQ(OutputTimes(0, 0.01).size(), 1);
}

TEST(ForwardDynamicsEssentials, StepUnderflowIsARunError) {
  const RobotFile planar = load_robot_file(DENOC_ROBOTS_DIR "/planar3.yaml");
  ZeroForces forces;
  ChainDynamics system(planar.model, Route::udu, forces);
  IntegratorSettings settings;
  settings.rtol = settings.atol = 1e-30;
  settings.min_step = 1e-6;
  IntegrationStats stats;
  int rows = 0;
  try {
    integrate(
        system, State(6, 0.0), OutputTimes(1, 0.01), settings,
        [&](double, const State&) { ++rows; }, stats);
    FAIL() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("step size underflow"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t = "), std::string::npos) << e.what();
  }
  EXPECT_EQ(rows, 1);  // the initial state was reported before the failure
  EXPECT_GT(stats.rejected, 0);
}

}  // namespace fd_essentials_test
