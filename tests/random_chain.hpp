// Seeded random chains shared by the test files: mixed revolute/prismatic joints (about half
// each), random DH rows of either convention, full inertia tensors (a random rotation of a
// diagonal one), gravity in an odd direction.
#pragma once

#include <Eigen/Geometry>
#include <random>
#include <vector>

#include "denoc/denoc.hpp"

namespace denoc_test {

inline denoc::Model<double> random_chain(int n, denoc::DhConvention convention, std::mt19937& rng) {
  using namespace denoc;
  constexpr double kPi = 3.14159265358979323846;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<DhLink<double>> rows;
  for (int i = 0; i < n; ++i) {
    DhLink<double> r;
    r.type = u(rng) < 0 ? JointType::prismatic : JointType::revolute;
    r.a = 0.5 * u(rng);
    r.b = 0.5 * u(rng);
    r.alpha = kPi * u(rng);
    r.theta = kPi * u(rng);
    r.mass = 2 + u(rng);
    r.com = Vec3<double>(0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng));
    const Eigen::Quaterniond turn(u(rng), u(rng), u(rng), 1.0);
    const Mat3<double> R = turn.normalized().toRotationMatrix();
    r.inertia = R * Vec3<double>(0.05, 0.04, 0.07).asDiagonal() * R.transpose();
    rows.push_back(r);
  }
  return Model<double>(links_from_dh(convention, rows), Vec3<double>(1.3, -4.2, -8.1));
}

}  // namespace denoc_test
