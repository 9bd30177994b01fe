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

#include "denoc/io/robot_file.hpp"
#include "denoc/lanes/lane_quantities.hpp"
#include "denoc/quantities.hpp"

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

TEST(Lanes, QuantitiesAgreeWithTheScalarRouteOnEveryFixedBaseRobot) {
  std::mt19937 rng(29);
  for (const std::string& path : fixed_base_robots()) {
    const RobotFile robot = load_robot_file(path);
    const int n = robot.dof();
    const Samples s(n, rng);
    LaneDynamics lanes(robot.model);
    for (const Quantity quantity :
         {Quantity::torques, Quantity::bias, Quantity::gravity, Quantity::mass_matrix}) {
      ASSERT_TRUE(LaneDynamics::supports(quantity, Route::denoc, robot.model));
      for (const bool friction : {true, false}) {
        QuantitySettings settings;
        settings.friction = friction;
        SampleQuantities scalar(robot, quantity, Route::denoc, settings);
        MatX<double> expected(scalar.size(), Samples::count), got(scalar.size(), Samples::count);
        for (int k = 0; k < Samples::count; ++k)
          scalar.evaluate(s.q.col(k), s.qd.col(k), s.x.col(k), expected.col(k));
        got.setConstant(NAN);
        by_packs(s, got, [&](int count, const LanePointers& p) {
          lanes.evaluate(quantity, friction && robot.model.has_friction(), count, p);
        });
        expect_rows_near(got, expected, path + " " + quantity_name(quantity));
      }
    }
    for (const bool friction : {true, false}) {
      ForwardDynamics scalar(robot, Route::udu, friction);
      MatX<double> expected(n, Samples::count), got(n, Samples::count);
      for (int k = 0; k < Samples::count; ++k)
        expected.col(k) = scalar(s.q.col(k), s.qd.col(k), s.x.col(k));
      by_packs(s, got, [&](int count, const LanePointers& p) {
        lanes.forward(friction && robot.model.has_friction(), count, p);
      });
      expect_rows_near(got, expected, path + " forward dynamics");
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
