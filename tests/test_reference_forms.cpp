// The hand-expanded hot paths against their readings one statement per equation: the DeNOC
// recursions of Saha (1999) (saha/reference.hpp: inverse dynamics, the articulated bodies, the
// inertia matrix's three forms, the U D U^T factor and the inverse's sweeps) and the SIMD kernel of
// the base-frame inertia matrix (kernels/symmetric_projections.hpp). A term dropped or a sign
// flipped in the expansion shows here, on random chains with mixed joints, both DH conventions and
// drives.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/kernels/symmetric_projections.hpp"
#include "denoc/saha/reference.hpp"
#include "support/random_chains.hpp"

namespace reference_forms_test {

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
      EXPECT_LT(relative(ws.id.t[at], ref.t[at]), 1e-12) << c.name << ", t of link " << i + 1;
      EXPECT_LT(relative(ws.id.xi[at], ref.xi[at]), 1e-12) << c.name << ", xi of link " << i + 1;
      EXPECT_LT(relative(ws.id.gamma[at], ref.gamma[at]), 1e-12)
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
    EXPECT_LT(relative(ws.articulated.m_hat, ref.m_hat), 1e-12) << c.name;
    for (int i = 0; i < c.model.dof(); ++i) {
      const auto at = static_cast<std::size_t>(i);
      EXPECT_LT(relative(ws.articulated.psi[at], ref.psi[at]), 1e-12)
          << c.name << ", psi of joint " << i + 1;
    }
  }
}

// Eqs. (23b) and (24) as the three forms of generalized_inertia expand them: by wrench transfers
// (chains of up to 18 joints), in the base frame (longer chains: the 23-joint cases) and over the
// paths of a tree (gim_on_tree, which a chain is too).
TEST(ReferenceForms, InertiaMatrixReadsAsEquations23bAnd24) {
  for (const Case& c : cases()) {
    Workspace<double> ws(c.model);
    const MatX<double> M = denoc::generalized_inertia(c.model, ws, c.q);
    const MatX<double> ref = denoc::reference::composite_inertia(c.model, ws);
    const double scale = std::max(1.0, ref.cwiseAbs().maxCoeff());
    EXPECT_LT((M - ref).cwiseAbs().maxCoeff(), 1e-12 * scale) << c.name;
    denoc::gim_on_tree(c.model, ws);
    if (c.model.has_rotors()) ws.inertia.I.diagonal() += c.model.rotor_inertia();
    EXPECT_LT((ws.inertia.I - ref).cwiseAbs().maxCoeff(), 1e-12 * scale)
        << c.name << ", on the paths";
  }
}

// The U D U^T paper's closed form of the factor, Eq. (22a): U = 1 + T_d^T (T_l - 1)^T N T_d, with
// T_l the 6n x 6n block lower triangle of the B_ij (Eq. 9a), T_d = diag(p_1 .. p_n) (Eq. 9b) and
// N = diag(M^_{i,i+1} / m^_i) (Eq. 22b), the articulated bodies of saha/reference.hpp, all as
// dense matrices: against udu_factors' recursive U (Eqs. 46-48 of the 1999 paper), and U D U^T
// against the inertia matrix.
TEST(ReferenceForms, UnitUpperFactorIsTheUduPapersEquation22a) {
  for (const Case& c : cases()) {
    const int n = c.model.dof();
    Workspace<double> ws(c.model);
    denoc::udu_factors(c.model, ws, c.q);
    const auto bodies = denoc::reference::articulated_bodies(c.model, ws);
    MatX<double> T_l = MatX<double>::Identity(6 * n, 6 * n), T_d = MatX<double>::Zero(6 * n, n);
    MatX<double> N = MatX<double>::Zero(6 * n, 6 * n);
    for (int i = 0; i < n; ++i) {
      const auto at = static_cast<std::size_t>(i);
      T_d.block(6 * i, i, 6, 1) = c.model.joint(i).p;
      N.block(6 * i, 6 * i, 6, 6) = bodies.M_hat[at] / bodies.m_hat[i];
      // B_ij = B_{i,i-1} B_{i-1,j} for j < i (Eq. 6), B_{i,i-1} of Eq. (13)
      if (i == 0) continue;
      const denoc::Mat6<double> B = denoc::reference::twist_propagation(ws.E[at], ws.ell[at]);
      for (int j = 0; j < i; ++j)
        T_l.block(6 * i, 6 * j, 6, 6) =
            B * (j == i - 1 ? denoc::Mat6<double>::Identity()
                            : denoc::Mat6<double>(T_l.block(6 * (i - 1), 6 * j, 6, 6)));
    }
    const MatX<double> I_6n = MatX<double>::Identity(6 * n, 6 * n);
    const MatX<double> U =
        MatX<double>::Identity(n, n) + T_d.transpose() * (T_l - I_6n).transpose() * N * T_d;
    const double scale = std::max(1.0, ws.articulated.U.cwiseAbs().maxCoeff());
    EXPECT_LT((U - ws.articulated.U).cwiseAbs().maxCoeff(), 1e-12 * scale) << c.name;
    const MatX<double> M = denoc::generalized_inertia(c.model, ws, c.q);
    EXPECT_LT((U * bodies.m_hat.asDiagonal() * U.transpose() - M).cwiseAbs().maxCoeff(),
              1e-12 * M.cwiseAbs().maxCoeff())
        << c.name;
    // The inverse by the sweeps of inverse_inertia_udu, against U^-T D^-1 U^-1 of this U.
    const MatX<double> U_inverse =
        U.triangularView<Eigen::Upper>().solve(MatX<double>::Identity(n, n));
    const MatX<double> inverse =
        U_inverse.transpose() * bodies.m_hat.cwiseInverse().asDiagonal() * U_inverse;
    const MatX<double>& swept = denoc::inverse_inertia_udu(c.model, ws, c.q);
    EXPECT_LT((swept - inverse).cwiseAbs().maxCoeff(), 1e-12 * inverse.cwiseAbs().maxCoeff())
        << c.name << ": "
        << (swept - inverse).cwiseAbs().maxCoeff() / inverse.cwiseAbs().maxCoeff();
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

}  // namespace reference_forms_test
