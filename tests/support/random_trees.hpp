// Seeded random kinematic trees for the tests, and a reference for their dynamics that shares no
// recursion with the library. A tree is grown depth-first (so its links come numbered as the
// model wants them) with a chosen largest branching factor and depth; each link has a random
// placement (any rotation, any offset), a random joint type, mass, mass centre and full inertia,
// and gravity points in an odd direction.
//
// The reference works in the base frame from the link specifications alone: each link's pose by
// composing placements and joint motions along its path, each mass centre's velocity and
// acceleration from the geometric Jacobians of the joints that support it (and their rates,
// differentiated by hand), then
//   M   = sum_i Jv_i^T m_i Jv_i + Jw_i^T I_i Jw_i                  (the kinetic energy's Hessian)
//   tau = sum_i Jv_i^T m_i (a_i - g) + Jw_i^T (I_i alpha_i + w_i x I_i w_i)   (Newton-Euler, J^T)
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "denoc/denoc.hpp"

namespace denoc_test {

struct TreeShape {
  int branching = 2;  // the most children a link may have
  int depth = 4;      // the most joints on a path from the base
  int max_links = 40;
};

class TreeGenerator {
 public:
  explicit TreeGenerator(std::uint32_t seed) : rng_(seed) {}

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  denoc::Mat3<double> rotation() {
    std::normal_distribution<double> n(0.0, 1.0);
    return Eigen::Quaterniond(n(rng_), n(rng_), n(rng_), n(rng_)).normalized().toRotationMatrix();
  }

  // A link with a random placement relative to its parent, joint type, mass and inertia.
  denoc::LinkSpec<double> link(int parent, double prismatic_share = 0.3) {
    denoc::LinkSpec<double> l;
    l.parent = parent;
    l.type =
        uniform(0, 1) < prismatic_share ? denoc::JointType::prismatic : denoc::JointType::revolute;
    l.placement.R = rotation();
    l.placement.p = denoc::Vec3<double>(uniform(-0.5, 0.5), uniform(-0.5, 0.5), uniform(-0.5, 0.5));
    l.mass = uniform(0.5, 5.0);
    l.com = denoc::Vec3<double>(uniform(-0.3, 0.3), uniform(-0.3, 0.3), uniform(-0.3, 0.3));
    const double s1 = uniform(0.002, 0.05), s2 = uniform(0.002, 0.05), s3 = uniform(0.002, 0.05);
    const denoc::Mat3<double> R = rotation();
    l.inertia =
        l.mass * R * denoc::Vec3<double>(s2 + s3, s1 + s3, s1 + s2).asDiagonal() * R.transpose();
    return l;
  }

  // The links of a random tree: the base has 1..branching children, every link 0..branching,
  // no path longer than depth, at most max_links links; always at least one branch point when
  // branching > 1 and depth > 1 allow one (else the tree is regrown).
  std::vector<denoc::LinkSpec<double>> tree(const TreeShape& shape) {
    for (;;) {
      std::vector<denoc::LinkSpec<double>> links;
      grow(shape, denoc::LinkSpec<double>::kBase, 0, links);
      if (shape.branching < 2 || shape.depth < 2 || !is_chain(links)) return links;
    }
  }

  // Two random arms of `left` and `right` links side by side on the base: the tree (left's links
  // first, then right's) and each arm alone, as chains.
  struct TwoArms {
    denoc::Model<double> both, left, right;
  };
  TwoArms two_arms(int left, int right) {
    std::vector<denoc::LinkSpec<double>> left_links, right_links;
    for (int i = 0; i < left; ++i)
      left_links.push_back(link(i - 1));
    for (int i = 0; i < right; ++i)
      right_links.push_back(link(i - 1));
    std::vector<denoc::LinkSpec<double>> both = left_links;
    for (denoc::LinkSpec<double> l : right_links) {
      l.parent = l.parent < 0 ? -1 : l.parent + left;
      both.push_back(l);
    }
    TwoArms arms{model(both), model(left_links), model(right_links)};
    if (arms.both.is_chain() || !arms.left.is_chain() || !arms.right.is_chain())
      throw std::logic_error("two_arms: not a tree of two chains");
    return arms;
  }

  // [of_left 0; 0 of_right] and [of_left; of_right]: the tree's matrix or vector that two arms
  // which do not interact give.
  static denoc::MatX<double> block_diagonal(const denoc::MatX<double>& of_left,
                                            const denoc::MatX<double>& of_right) {
    denoc::MatX<double> m = denoc::MatX<double>::Zero(of_left.rows() + of_right.rows(),
                                                      of_left.cols() + of_right.cols());
    m.topLeftCorner(of_left.rows(), of_left.cols()) = of_left;
    m.bottomRightCorner(of_right.rows(), of_right.cols()) = of_right;
    return m;
  }
  static denoc::VecX<double> stacked(const denoc::VecX<double>& of_left,
                                     const denoc::VecX<double>& of_right) {
    denoc::VecX<double> v(of_left.size() + of_right.size());
    v << of_left, of_right;
    return v;
  }

  denoc::Model<double> model(const std::vector<denoc::LinkSpec<double>>& links) {
    return denoc::Model<double>(links, denoc::Vec3<double>(1.3, -4.2, -8.1));
  }

  // Revolute joints over a full turn, prismatic ones over +-0.5 m; rates within +-bound.
  denoc::VecX<double> positions(const denoc::Model<double>& m) {
    denoc::VecX<double> q(m.dof());
    for (int i = 0; i < m.dof(); ++i)
      q[i] = m.joint(i).type == denoc::JointType::revolute ? uniform(-3.14159, 3.14159)
                                                           : uniform(-0.5, 0.5);
    return q;
  }
  denoc::VecX<double> vector(int n, double bound) {
    denoc::VecX<double> v(n);
    for (int i = 0; i < n; ++i)
      v[i] = uniform(-bound, bound);
    return v;
  }

 private:
  static bool is_chain(const std::vector<denoc::LinkSpec<double>>& links) {
    for (std::size_t k = 0; k < links.size(); ++k)
      if (links[k].parent != static_cast<int>(k) - 1) return false;
    return true;
  }

  void grow(const TreeShape& shape, int parent, int depth,
            std::vector<denoc::LinkSpec<double>>& links) {
    if (depth == shape.depth) return;
    const int children = integer(parent < 0 ? 1 : 0, shape.branching);
    for (int c = 0; c < children && static_cast<int>(links.size()) < shape.max_links; ++c) {
      links.push_back(link(parent));
      grow(shape, static_cast<int>(links.size()) - 1, depth + 1, links);
    }
  }

  std::mt19937 rng_;
};

// The largest entry of a - b relative to b's largest (at least 1): vectors or matrices.
template <typename A, typename B>
double relative_error(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, double(b.cwiseAbs().maxCoeff()));
}

// Every shape the tree tests walk: branching factors 1 to 4 (1: a chain, through the chain code
// path), depths 1 to 10, up to 40 links (beyond the 18 joints where a chain changes forms).
inline std::vector<TreeShape> tree_shapes() {
  std::vector<TreeShape> s;
  for (int branching = 1; branching <= 4; ++branching)
    for (int depth = 1; depth <= 10; ++depth)
      s.push_back({branching, depth, 40});
  return s;
}

// Mass-centre kinematics and the dynamics of a tree, all in the base frame, from the link
// specifications only (see the top of this file).
class TreeReference {
 public:
  using Vec3 = denoc::Vec3<double>;
  using Mat3 = denoc::Mat3<double>;
  using MatX = denoc::MatX<double>;
  using VecX = denoc::VecX<double>;

  TreeReference(const denoc::Model<double>& model, const VecX& q, const VecX& qd)
      : model_(model), n_(model.dof()), R_(n_), o_(n_), c_(n_), w_(n_), vc_(n_), vo_(n_) {
    const auto& links = model.links();
    for (int i = 0; i < n_; ++i) {
      const auto& l = links[static_cast<std::size_t>(i)];
      const int p = model.parent(i);
      const Mat3 Rp = p < 0 ? Mat3::Identity() : R_[p];
      const Vec3 op = p < 0 ? Vec3::Zero() : o_[p];
      const bool revolute = l.type == denoc::JointType::revolute;
      const Mat3 Rz = Eigen::AngleAxisd(revolute ? q[i] : 0.0, Vec3::UnitZ()).toRotationMatrix();
      R_[i] = Rp * l.placement.R * Rz;
      o_[i] = op + Rp * l.placement.p + (revolute ? 0.0 : q[i]) * R_[i].col(2);
      c_[i] = o_[i] + R_[i] * link_com(i);
    }
    for (int i = 0; i < n_; ++i) {
      w_[i] = angular_jacobian(i) * qd;
      vc_[i] = linear_jacobian(i, c_[i]) * qd;
      vo_[i] = linear_jacobian(i, o_[i]) * qd;
    }
  }

  // The link's mass centre and mass as the model holds them (the payload folded into the last).
  Vec3 link_com(int i) const { return model_.joint(i).d; }

  // Rows: the angular velocity of link i per joint rate.
  Eigen::Matrix3Xd angular_jacobian(int i) const {
    Eigen::Matrix3Xd J = Eigen::Matrix3Xd::Zero(3, n_);
    for (int j = i; j >= 0; j = model_.parent(j))
      if (revolute(j)) J.col(j) = R_[j].col(2);
    return J;
  }
  // Rows: the velocity of a point x fixed in link i per joint rate.
  Eigen::Matrix3Xd linear_jacobian(int i, const Vec3& x) const {
    Eigen::Matrix3Xd J = Eigen::Matrix3Xd::Zero(3, n_);
    for (int j = i; j >= 0; j = model_.parent(j)) {
      const Vec3 z = R_[j].col(2);
      J.col(j) = revolute(j) ? Vec3(z.cross(x - o_[j])) : z;
    }
    return J;
  }

  MatX mass_matrix() const {
    MatX M = MatX::Zero(n_, n_);
    for (int i = 0; i < n_; ++i) {
      const auto Jv = linear_jacobian(i, c_[i]);
      const auto Jw = angular_jacobian(i);
      M += mass(i) * Jv.transpose() * Jv + Jw.transpose() * inertia(i) * Jw;
    }
    M.diagonal() += model_.rotor_inertia();
    return M;
  }

  // tau for the accelerations qdd at the (q, qd) given to the constructor, rotors included.
  VecX torques(const VecX& qd, const VecX& qdd) const {
    VecX tau = model_.rotor_inertia().cwiseProduct(qdd);
    for (int i = 0; i < n_; ++i) {
      Vec3 alpha = Vec3::Zero(), a = Vec3::Zero();
      for (int j = i; j >= 0; j = model_.parent(j)) {
        const Vec3 z = R_[j].col(2), zdot = w_[j].cross(z);
        if (revolute(j)) {
          alpha += z * qdd[j] + zdot * qd[j];
          a += z.cross(c_[i] - o_[j]) * qdd[j] +
               (zdot.cross(c_[i] - o_[j]) + z.cross(vc_[i] - vo_[j])) * qd[j];
        } else {
          a += z * qdd[j] + zdot * qd[j];
        }
      }
      const Vec3 force = mass(i) * (a - model_.gravity());
      const Vec3 moment = inertia(i) * alpha + w_[i].cross(inertia(i) * w_[i]);
      tau +=
          linear_jacobian(i, c_[i]).transpose() * force + angular_jacobian(i).transpose() * moment;
    }
    return tau;
  }

 private:
  bool revolute(int j) const { return model_.joint(j).type == denoc::JointType::revolute; }
  double mass(int i) const { return model_.joint(i).M.mass; }
  Mat3 inertia(int i) const { return R_[i] * model_.joint(i).M.rotational * R_[i].transpose(); }

  const denoc::Model<double>& model_;
  int n_;
  std::vector<Mat3> R_;
  std::vector<Vec3> o_, c_, w_, vc_, vo_;
};

}  // namespace denoc_test
