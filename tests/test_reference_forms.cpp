// The hand-expanded hot paths against their readings one statement per equation: the DeNOC
// recursions of Saha (1999) (saha/reference.hpp) and the SIMD kernel of the base-frame inertia
// matrix (kernels/symmetric_projections.hpp). A term dropped or a sign flipped in the expansion
// shows here, on random chains with mixed joints, both DH conventions and drives.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/kernels/symmetric_projections.hpp"
#include "denoc/saha/reference.hpp"
#include "support/random_chains.hpp"

namespace {

using denoc::MatX;
using denoc::Model;
using denoc::Vec6;
using denoc::VecX;
using denoc::Workspace;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

struct Case {
  std::string name;
  Model<double> model;
  VecX<double> q, qd, qdd;
};

// Random chains of 1 to 23 joints, every other one with a rotor on each joint.
std::vector<Case> cases() {
  Generator random(20231125u);
  std::vector<Case> out;
  int k = 0;
  for (denoc::DhConvention convention :
       {denoc::DhConvention::standard, denoc::DhConvention::modified}) {
    for (int n : {1, 2, 7, 23}) {
      const denoc_test::Chain chain =
          random.chain(convention, n, JointMix::mixed, "chain " + std::to_string(k));
      std::vector<denoc::LinkSpec<double>> links = denoc::links_from_dh(convention, chain.dh);
      if (k % 2 == 1) {
        for (denoc::LinkSpec<double>& link : links) {
          link.drive.Jm = random.uniform(1e-5, 1e-3);
          link.drive.G = random.uniform(-80, 80);
        }
      }
      out.push_back({chain.name, Model<double>(links, chain.gravity), random.positions(chain),
                     random.vector(n, 2.0), random.vector(n, 3.0)});
      ++k;
    }
  }
  return out;
}

double relative(const VecX<double>& a, const VecX<double>& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

double relative(const Vec6<double>& a, const Vec6<double>& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

// Eqs. (12), (32), (7) and (30) as forward_recursion and backward_recursion expand them.
TEST(ReferenceForms, InverseDynamicsRecursionsReadAsTheirEquations) {
  for (const Case& c : cases()) {
    Workspace<double> ws(c.model);
    denoc::KinematicsWorkspace<double> frames(c.model.dof());
    const VecX<double> tau = denoc::inverse_dynamics(c.model, ws, c.q, c.qd, c.qdd);
    const auto ref = denoc::reference::inverse_dynamics(c.model, frames, c.q, c.qd, c.qdd);
    EXPECT_LT(relative(tau, ref.tau), 1e-12) << c.name;
    for (int i = 0; i < c.model.dof(); ++i) {
      const auto at = static_cast<std::size_t>(i);
      EXPECT_LT(relative(ws.t[at], ref.t[at]), 1e-12) << c.name << ", t of link " << i + 1;
      EXPECT_LT(relative(ws.xi[at], ref.xi[at]), 1e-12) << c.name << ", xi of link " << i + 1;
      EXPECT_LT(relative(ws.gamma[at], ref.gamma[at]), 1e-12)
          << c.name << ", gamma of link " << i + 1;
    }
  }
}

// Eqs. (47)-(50) as articulated_body_masses expands them over 3 x 3 blocks.
TEST(ReferenceForms, ArticulatedBodyMassesReadAsEquation50) {
  for (const Case& c : cases()) {
    Workspace<double> ws(c.model);
    denoc::update_joint_frames(c.model, ws, c.q);
    denoc::articulated_body_masses(c.model, ws);
    const auto ref = denoc::reference::articulated_bodies(c.model, ws);
    EXPECT_LT(relative(ws.m_hat, ref.m_hat), 1e-12) << c.name;
    for (int i = 0; i < c.model.dof(); ++i) {
      const auto at = static_cast<std::size_t>(i);
      EXPECT_LT(relative(ws.psi[at], ref.psi[at]), 1e-12) << c.name << ", psi of joint " << i + 1;
    }
  }
}

// The packet kernel against i_ij = w_i^T p_j entry by entry, at orders that end inside and
// outside a SIMD block and a 32 x 32 tile.
TEST(ReferenceForms, SimdInertiaKernelEqualsEntryByEntry) {
  std::mt19937 rng(7u);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 2, 3, 5, 8, 31, 32, 33, 67, 130}) {
    Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::RowMajor> W(6, n);
    Eigen::Matrix<double, 6, Eigen::Dynamic> P(6, n);
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < 6; ++k) {
        W(k, j) = u(rng);
        P(k, j) = u(rng);
      }
    MatX<double> fast = MatX<double>::Constant(n, n, 99), reference = fast;
    denoc::symmetric_from_projections(W, P, fast);
    denoc::reference_symmetric_from_projections(W, P, reference);
    EXPECT_LT((fast - reference).cwiseAbs().maxCoeff(), 1e-14) << "n = " << n;
  }
}

}  // namespace
