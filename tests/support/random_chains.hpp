// Seeded random serial chains for the tests: DH rows (both conventions, mixed revolute and
// prismatic joints, full inertia tensors about the mass centre, gravity in an odd direction) and
// random states. random_chain() is the quicker form: the model alone, from a caller's engine.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"

namespace denoc_test {

using denoc::DhConvention;
using denoc::DhLink;
using denoc::JointType;
using denoc::Mat3;
using denoc::Model;
using denoc::Vec3;
using denoc::VecX;

// A random chain as the test sees it: the DH rows are the truth, the library model is built
// from them by links_from_dh.
struct Chain {
  std::string name;
  DhConvention convention = DhConvention::standard;
  std::vector<DhLink<double>> dh;
  Vec3<double> gravity = Vec3<double>::Zero();

  int dof() const { return static_cast<int>(dh.size()); }
  Model<double> model() const {
    return Model<double>(denoc::links_from_dh(convention, dh), gravity);
  }
};

namespace random_chains {

enum class JointMix { mixed, revolute, prismatic };

constexpr double kPi = 3.14159265358979323846;

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  double normal() { return std::normal_distribution<double>(0.0, 1.0)(rng_); }

  // R diag(I1, I2, I3) R^T with I1 = s2 + s3, I2 = s1 + s3, I3 = s1 + s2 from positive second
  // moments s_k: every principal moment positive and the triangle inequality strict. R is a
  // uniformly random rotation (normalized Gaussian quaternion).
  Mat3<double> inertia(double mass) {
    const double s1 = mass * uniform(0.002, 0.05), s2 = mass * uniform(0.002, 0.05),
                 s3 = mass * uniform(0.002, 0.05);
    const Mat3<double> R =
        Eigen::Quaterniond(normal(), normal(), normal(), normal()).normalized().toRotationMatrix();
    return R * Vec3<double>(s2 + s3, s1 + s3, s1 + s2).asDiagonal() * R.transpose();
  }

  DhLink<double> link(JointType type) {
    DhLink<double> l;
    l.type = type;
    l.a = uniform(-0.8, 0.8);
    l.b = uniform(-0.8, 0.8);
    l.alpha = uniform(-kPi, kPi);
    l.theta = uniform(-kPi, kPi);
    l.mass = uniform(0.5, 5.0);
    l.com = Vec3<double>(uniform(-0.4, 0.4), uniform(-0.4, 0.4), uniform(-0.4, 0.4));
    l.inertia = inertia(l.mass);
    return l;
  }

  Chain chain(DhConvention convention, int n, JointMix mix, const std::string& name) {
    Chain c;
    c.name = name;
    c.convention = convention;
    c.gravity = Vec3<double>(1.3, -4.2, -8.1);
    for (int i = 0; i < n; ++i) {
      JointType type = mix == JointMix::prismatic ? JointType::prismatic : JointType::revolute;
      if (mix == JointMix::mixed && uniform(0, 1) < 0.5) type = JointType::prismatic;
      c.dh.push_back(link(type));
    }
    return c;
  }

  // Revolute joints over a full turn, prismatic ones over +-1 m.
  VecX<double> positions(const Chain& c) {
    VecX<double> q(c.dof());
    for (int i = 0; i < c.dof(); ++i) {
      const bool revolute = c.dh[static_cast<std::size_t>(i)].type == JointType::revolute;
      q[i] = revolute ? uniform(-kPi, kPi) : uniform(-1.0, 1.0);
    }
    return q;
  }

  VecX<double> vector(int n, double bound) {
    VecX<double> v(n);
    for (int i = 0; i < n; ++i)
      v[i] = uniform(-bound, bound);
    return v;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace random_chains

// Random DH rows straight from the caller's engine: a share `prismatic` of prismatic joints (in
// expectation), random lengths and angles, full inertia tensors (a random rotation of a diagonal
// one).
inline std::vector<denoc::DhLink<double>> random_dh_rows(int n, std::mt19937& rng,
                                                         double prismatic = 0.5) {
  using namespace denoc;
  constexpr double kPi = 3.14159265358979323846;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<DhLink<double>> rows;
  for (int i = 0; i < n; ++i) {
    DhLink<double> r;
    r.type = u(rng) < 2 * prismatic - 1 ? JointType::prismatic : JointType::revolute;
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
  return rows;
}

// A model of such rows, about half of the joints prismatic, gravity in an odd direction.
inline denoc::Model<double> random_chain(int n, denoc::DhConvention convention, std::mt19937& rng) {
  return denoc::Model<double>(denoc::links_from_dh(convention, random_dh_rows(n, rng)),
                              denoc::Vec3<double>(1.3, -4.2, -8.1));
}

}  // namespace denoc_test
