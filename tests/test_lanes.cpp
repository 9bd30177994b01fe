// Many samples per instruction (src/denoc/lanes/): every quantity of the packs against the scalar
// route on the shipped fixed-base robots, sample by sample, with friction and a last pack only
// partly filled; the packs' sines and cosines against the scalar kernel bit for bit; a branch on
// lanes that differ refused.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/engine/lane_quantities.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"

namespace denoc {
namespace {

using Pack = Lanes<double>;
constexpr int kWidth = LaneDynamics::width;

// The fixed-base robots shipped in robots/ (the floating ones would need a trajectory of the base).
std::vector<std::string> fixed_base_robots() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(DENOC_ROBOTS_DIR)) {
    const std::string path = entry.path().string();
    if (load_robot_file(path).model.floating()) continue;
    paths.push_back(path);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Samples as columns; 3 whole packs and a part, so that the last call has fewer samples than
// lanes. Angles up to 4 rad, rates and accelerations of either sign (the friction's branches).
struct Samples {
  Samples(int n, std::mt19937& rng) : q(n, count), qd(n, count), x(n, count) {
    std::uniform_real_distribution<double> u(-4, 4);
    for (double* m : {q.data(), qd.data(), x.data()})
      for (long k = 0; k < n * count; ++k)
        m[k] = u(rng);
    qd(0, 1) = 0;  // at rest: Coulomb friction 0
  }
  static constexpr int count = 3 * kWidth + kWidth / 2 + 1;
  MatX<double> q, qd, x;
};

// The entries agree to 1e-14 of the largest entry of the scalar row: the packs run the scalar
// route's operations in its order, and where the compiler fuses a multiply and an add (FMA) in
// one and not in the other, the last bit may differ (docs/performance.md).
void expect_rows_near(const MatX<double>& lanes, const MatX<double>& scalar,
                      const std::string& what) {
  for (Eigen::Index k = 0; k < scalar.cols(); ++k) {
    const double scale = std::max(1.0, scalar.col(k).cwiseAbs().maxCoeff());
    const double error = (lanes.col(k) - scalar.col(k)).cwiseAbs().maxCoeff();
    ASSERT_LE(error, 1e-14 * scale) << what << ", sample " << k;
  }
}

// Runs `call(count, pointers)` pack by pack over the samples' columns, rows into `out`.
template <typename Call>
void by_packs(const Samples& s, MatX<double>& out, Call call) {
  for (int k = 0; k < Samples::count; k += kWidth) {
    const int count = std::min(kWidth, Samples::count - k);
    const Eigen::Index n = s.q.rows();
    call(count, lane_pointers(k, count, {s.q.data(), n}, {s.qd.data(), n}, {s.x.data(), n},
                              {out.data(), out.rows()}));
  }
}

// The scalar route: saha/'s functions on double, with the drives' friction added to the forces
// (and subtracted from tau before the forward dynamics) as SampleQuantities and ForwardDynamics
// do (docs/robot-file.md); the inertia matrix row by row.
template <typename T>
VecX<T> scalar_row(const Model<T>& model, Workspace<T>& ws, Quantity quantity, bool friction,
                   const VecX<T>& q, const VecX<T>& qd, const VecX<T>& x) {
  const int n = model.dof();
  VecX<T> f = VecX<T>::Zero(n);
  if (friction) friction_forces(model, qd, f);
  switch (quantity) {
    case Quantity::torques:
      return inverse_dynamics(model, ws, q, qd, x) + f;
    case Quantity::bias:
      return bias_forces(model, ws, q, qd) + f;
    case Quantity::gravity:
      return gravity_forces(model, ws, q);
    case Quantity::mass_matrix: {
      const MatX<T> rows = generalized_inertia(model, ws, q).transpose();
      return Eigen::Map<const VecX<T>>(rows.data(), rows.size());
    }
    case Quantity::torque_derivatives: {  // the two matrices row by row, one after the other
      DerivativesWorkspace<T> d(model);
      inverse_dynamics_derivatives(model, d, q, qd, x, friction);
      MatX<T> rows(n, 2 * n);
      rows << d.dtau_dq.transpose(), d.dtau_dv.transpose();
      return Eigen::Map<const VecX<T>>(rows.data(), rows.size());
    }
    default:  // the forward dynamics
      return forward_dynamics(model, ws, q, qd, VecX<T>(x - f));
  }
}

TEST(Lanes, QuantitiesAgreeWithTheScalarRouteOnEveryFixedBaseRobot) {
  std::mt19937 rng(29);
  for (const std::string& path : fixed_base_robots()) {
    const RobotFile robot = load_robot_file(path);
    const Model<double>& model = robot.model;
    const int n = robot.dof();
    const Samples s(n, rng);
    LaneDynamics lanes(model);
    Workspace<double> ws(model);
    for (const Quantity quantity :
         {Quantity::torques, Quantity::bias, Quantity::gravity, Quantity::mass_matrix,
          Quantity::torque_derivatives, Quantity::udu}) {  // udu: the FD here
      const bool forward = quantity == Quantity::udu;
      if (!forward) {
        ASSERT_TRUE(LaneDynamics::supports(quantity, Route::denoc, model));
      }
      const Eigen::Index size = quantity == Quantity::mass_matrix          ? n * n
                                : quantity == Quantity::torque_derivatives ? 2 * n * n
                                                                           : n;
      for (const bool friction : {true, false}) {
        MatX<double> expected(size, Samples::count), got(size, Samples::count);
        for (int k = 0; k < Samples::count; ++k)
          expected.col(k) = scalar_row<double>(model, ws, quantity, friction, s.q.col(k),
                                               s.qd.col(k), s.x.col(k));
        got.setConstant(NAN);
        by_packs(s, got, [&](int count, const LanePointers& p) {
          if (forward) {
            lanes.forward(friction, count, p);
          } else {
            lanes.evaluate(quantity, friction, count, p);
          }
        });
        expect_rows_near(got, expected,
                         path + " " + (forward ? "forward dynamics" : quantity_name(quantity)));
      }
    }
  }
}

// Packs of floats (LaneDynamicsOf<float>, twice the lanes) against saha/'s functions on float.
// Within 2e-6 of the row's largest entry (16 units of float's last place): the packs run the
// float route's operations, Eigen's packets of floats sum some products in another order than
// the packs' coefficient-wise path (test_lane_values: bit for bit without them).
TEST(Lanes, FloatPacksAgreeWithTheFloatRoute) {
  using Floats = LaneDynamicsOf<float>;
  constexpr int width = Floats::width;
  static_assert(width == 2 * kWidth, "as many floats as doubles fill twice the lanes");
  std::mt19937 rng(31);
  for (const std::string& path : fixed_base_robots()) {
    const Model<float> model = load_robot_file(path).model.cast<float>();
    const int n = model.dof();
    const Samples s(n, rng);
    const MatX<float> q = s.q.cast<float>(), qd = s.qd.cast<float>(), x = s.x.cast<float>();
    Floats lanes(model);
    Workspace<float> ws(model);
    for (const Quantity quantity : {Quantity::torques, Quantity::mass_matrix, Quantity::udu}) {
      const bool forward = quantity == Quantity::udu;
      const Eigen::Index size = quantity == Quantity::mass_matrix ? n * n : n;
      MatX<float> expected(size, Samples::count), got(size, Samples::count);
      for (int k = 0; k < Samples::count; ++k)
        expected.col(k) = scalar_row(model, ws, quantity, true, VecX<float>(q.col(k)),
                                     VecX<float>(qd.col(k)), VecX<float>(x.col(k)));
      got.setConstant(NAN);
      for (int k = 0; k < Samples::count; k += width) {
        const int count = std::min(width, Samples::count - k);
        const LanePointersOf<float> p = lane_pointers<float>(
            k, count, {q.data(), n}, {qd.data(), n}, {x.data(), n}, {got.data(), size});
        if (forward) {
          lanes.forward(true, count, p);
        } else {
          lanes.evaluate(quantity, true, count, p);
        }
      }
      for (int k = 0; k < Samples::count; ++k) {
        const float scale = std::max(1.0f, expected.col(k).cwiseAbs().maxCoeff());
        ASSERT_LE((got.col(k) - expected.col(k)).cwiseAbs().maxCoeff(), 2e-6f * scale)
            << path << " " << (forward ? "forward dynamics" : quantity_name(quantity))
            << ", sample " << k;
      }
    }
  }
}

// What ridim and the Python module call: SampleQuantities and ForwardDynamics give a sample the
// packs' numbers bit for bit, alone (evaluate, operator()) and in a batch (evaluate_samples).
TEST(Lanes, ASampleHasTheSameNumbersAloneAndInABatch) {
  std::mt19937 rng(3);
  const RobotFile robot = load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/puma560.yaml");
  ASSERT_TRUE(robot.model.has_friction());
  const int n = robot.dof();
  const Samples s(n, rng);
  SampleQuantities torques(robot, Quantity::torques, Route::denoc);
  ForwardDynamics forward(robot, Route::udu);
  ASSERT_EQ(torques.samples_per_call(), kWidth);
  ASSERT_EQ(forward.samples_per_call(), kWidth);
  MatX<double> tau_batch(n, Samples::count), qdd_batch(n, Samples::count);
  by_packs(s, tau_batch,
           [&](int count, const LanePointers& p) { torques.evaluate_samples(count, p); });
  by_packs(s, qdd_batch,
           [&](int count, const LanePointers& p) { forward.evaluate_samples(count, p, n); });
  VecX<double> tau(n);
  for (int k = 0; k < Samples::count; ++k) {
    torques.evaluate(s.q.col(k), s.qd.col(k), s.x.col(k), tau);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(tau[i], tau_batch(i, k)) << "sample " << k;
      ASSERT_EQ(forward(s.q.col(k), s.qd.col(k), s.x.col(k))[i], qdd_batch(i, k)) << k;
    }
  }
}

TEST(Lanes, SinesAndCosinesAreTheScalarKernelsBitForBit) {
  // Every quadrant, both signs, the ends of the reduction's range and angles beyond it (std).
  const std::vector<double> angles = {0,    -0.0, 0.3,   1.6,    -1.6,   3.2,    -3.2,  4.8,
                                      -4.8, 1e-9, 7.0,   -25.1,  99999., -99999, 1e5,   1.5e5,
                                      -3e7, 1e12, 0.785, -0.786, 2.356,  -2.357, 6.283, -6.284};
  for (std::size_t k = 0; k + kWidth <= angles.size(); k += kWidth) {
    const Pack q =
        Pack::generate([&](int lane) { return angles[k + static_cast<std::size_t>(lane)]; });
    Pack s, c;
    sin_cos(&q, 1, &s, &c);
    for (int l = 0; l < kWidth; ++l) {
      double s_ref, c_ref;
      sin_cos(q[l], s_ref, c_ref);
      EXPECT_EQ(s[l], s_ref) << "sin " << q[l];
      EXPECT_EQ(c[l], c_ref) << "cos " << q[l];
    }
  }
}

// Packs of floats through doubles, as the scalar float kernel.
TEST(Lanes, FloatSinesAndCosinesAreTheScalarKernelsBitForBit) {
  using Floats = Lanes<float>;
  const std::vector<float> angles = {
      0,      -0.0f,   0.3f,   1.6f, -1.6f,  3.2f,  -3.2f, 4.8f,   -4.8f,   1e-9f,  7.0f,
      -25.1f, 99999.f, -99999, 1e5f, 1.5e5f, -3e7f, 1e12f, 0.785f, -0.786f, 2.356f, -2.357f,
      6.283f, -6.284f, 0.1f,   0.2f, 0.4f,   0.8f,  1.2f,  2.4f,   4.4f,    8.8f};
  for (std::size_t k = 0; k + Floats::size <= angles.size(); k += Floats::size) {
    const Floats q =
        Floats::generate([&](int lane) { return angles[k + static_cast<std::size_t>(lane)]; });
    Floats s, c;
    sin_cos(&q, 1, &s, &c);
    for (int l = 0; l < Floats::size; ++l) {
      float s_ref, c_ref;
      sin_cos(q[l], s_ref, c_ref);
      EXPECT_EQ(s[l], s_ref) << "sin " << q[l];
      EXPECT_EQ(c[l], c_ref) << "cos " << q[l];
    }
  }
}

TEST(Lanes, ABranchOnLanesThatDifferIsRefused) {
  const Pack mixed = Pack::generate([](int lane) { return lane == 0 ? -1.0 : 1.0; });
  EXPECT_THROW(static_cast<void>(static_cast<bool>(mixed > 0)), std::logic_error);
  EXPECT_TRUE(static_cast<bool>(Pack(2.0) > 0));  // the model's constants: every lane alike
  EXPECT_FALSE(static_cast<bool>(Pack(-2.0) > 0));
  // The friction's sign chosen per lane instead.
  const Pack chosen = select(mixed > 0, Pack(5.0), Pack(7.0));
  EXPECT_EQ(chosen[0], 7.0);
  EXPECT_EQ(chosen[kWidth - 1], 5.0);
}

}  // namespace
}  // namespace denoc
