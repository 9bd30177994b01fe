// Storage of the extended Fixman solve (fixman.hpp), apart from the other families' storage: the
// free bodies' inverse inertias, computed once from the model (off line, like Mata's Step 1), and
// per-configuration blocks, sized once from the number of joints. Everything is block-banded: per
// joint k a few 6x6, 5x5 or 8x8 blocks, nothing n x n except the inverse that
// fixman_inverse_inertia returns, which that function sizes at its first call.
//
// Rows of a joint's blocks are its six screw coordinates q_k (Eq. 26) with the soft one first:
// row 0 is s_k (gamma_k of a revolute joint, c_k of a prismatic one), rows 1..5 the hard h_k.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <vector>

#include "denoc/model/model.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

// The rotational inertia of a free body (Eq. 20) split into what Eq. (20) can invert well and what
// it cannot (docs/fixman.md, "Point masses and thin rods"): principal axes whose moment about the
// mass centre is below kNullRatio times the largest ("null" axes: all three of a point mass, the
// axis of a thin rod) are kept apart with their moments, and the rest is inverted. Either way is
// exact; inverting a moment a fraction r of the others costs about 100 eps / r of the solve's
// accuracy, the bordered solve does not, and it is slower: the line is where the loss would
// pass 1e-12 in double.
template <typename S>
struct FreeBodyInertia {
  Mat3<S> inverse = Mat3<S>::Zero();       // I^-1, or I^+ over the axes that are not null
  Mat3<S> null_axes = Mat3<S>::Zero();     // columns 0..null_count-1: the null axes V_k
  Vec3<S> null_moments = Vec3<S>::Zero();  // their moments mu_k >= 0 (0 for a point mass)
  int null_count = 0;
  bool physical = true;  // false if a principal moment is clearly negative
  static constexpr double kNullRatio = 1e-2;

  explicit FreeBodyInertia(const Mat3<S>& inertia_about_com) {
    using std::abs;
    const Eigen::SelfAdjointEigenSolver<Mat3<S>> eig(inertia_about_com);
    const Vec3<S> moments = eig.eigenvalues();  // ascending
    const S line = S(kNullRatio) * abs(moments[2]);
    if (moments[0] > line) {  // the paper's case: positive definite, inverted as a whole
      inverse = Eigen::LLT<Mat3<S>>(inertia_about_com).solve(Mat3<S>::Identity());
      return;
    }
    physical = moments[0] >= -line;
    for (int i = 0; i < 3; ++i) {
      const Vec3<S> axis = eig.eigenvectors().col(i);
      if (moments[i] <= line) {
        null_axes.col(null_count) = axis;
        null_moments[null_count++] = moments[i] > S(0) ? moments[i] : S(0);
      } else {
        inverse.noalias() += (S(1) / moments[i]) * axis * axis.transpose();
      }
    }
  }
};

template <typename S>
struct FixmanWorkspace {
  using Block5 = Eigen::Matrix<S, 5, 5>;
  using Vec5 = Eigen::Matrix<S, 5, 1>;
  using Block8 = Eigen::Matrix<S, 8, 8>;
  using Vec8 = Eigen::Matrix<S, 8, 1>;

  explicit FixmanWorkspace(const Model<S>& model)
      : sin_q(VecX<S>::Zero(model.dof())),
        cos_q(VecX<S>::Zero(model.dof())),
        P_own(joints(model), Mat6<S>::Zero()),
        P_parent(joints(model), Mat6<S>::Zero()),
        H_diag(joints(model), Mat6<S>::Zero()),
        H_upper(joints(model), Mat6<S>::Zero()),
        L(joints(model), Block5::Zero()),
        L_sub(joints(model), Block5::Zero()),
        d(joints(model), Vec5::Zero()),
        x(VecX<S>::Zero(model.dof())),
        rhs(VecX<S>::Zero(model.dof())),
        qdd(VecX<S>::Zero(model.dof())),
        unit(VecX<S>::Zero(model.dof())) {
    for (int k = 0; k < model.dof(); ++k) {
      bodies.emplace_back(model.joint(k).M.rotational);
      bordered = bordered || bodies.back().null_count > 0;
    }
    if (bordered) {
      schur.assign(joints(model), Eigen::PartialPivLU<Block8>(8));
      coupling.assign(joints(model), Block8::Zero());
      coupled.assign(joints(model), Block8::Zero());
      u.assign(joints(model), Vec8::Zero());
    }
  }

  std::vector<FreeBodyInertia<S>> bodies;  // per link, from the model (Eq. 20)
  bool bordered = false;  // some link has null axes: H22 is bordered (docs/fixman.md)
  VecX<S> sin_q, cos_q;   // of the joint variables, for X_k = Rz(q_k)
  // The two nonzero 6x6 blocks of row k of J_+^-1 (Eqs. 22, 28): d q_k / d xi~_k and
  // d q_k / d xi~_{k-1} (zero for k = 1, whose parent is the fixed base).
  std::vector<Mat6<S>> P_own, P_parent;
  // H = J_+^-1 I^-1 J_+^-T (Eq. 20), block tridiagonal: H_kk and H_{k,k+1} (Eq. 8); with null
  // axes, I^-1 is the inverse over the other axes.
  std::vector<Mat6<S>> H_diag, H_upper;
  // H22 = L L^T by blocks: L_kk (lower triangular) and L_{k,k-1} (L_sub[k], zero for k = 1).
  std::vector<Block5> L, L_sub;
  std::vector<Vec5> d;  // c = H21 b, then H22^-1 c in place (step V)
  // With null axes, the bordered system K [d; eta] = [H21 b; A_s^T b] takes the place of
  // H22 d = H21 b (docs/fixman.md). Per joint k the unknowns u_k = [d_k; eta_k] (5 + 3, the
  // unused slots held at zero); E_k = K(k, k+1); from the tip inwards the Schur complements
  // S_k = D_k - E_k S_{k+1}^-1 E_k^T (their LU) and W_k = S_{k+1}^-1 E_k^T.
  std::vector<Eigen::PartialPivLU<Block8>> schur;
  std::vector<Block8> coupling, coupled;  // E_k, W_k
  std::vector<Vec8> u;
  bool factored = false;
  VecX<S> x;        // fixman_apply / fixman_solve: M^-1 b (Eq. 7)
  VecX<S> rhs;      // forward_dynamics_fixman: phi = tau - h
  VecX<S> qdd;      // forward_dynamics_fixman: M^-1 phi
  VecX<S> unit;     // e_j for fixman_inverse_inertia
  MatX<S> inverse;  // fixman_inverse_inertia: M^-1, column by column; n x n at first use

 private:
  static std::size_t joints(const Model<S>& model) { return static_cast<std::size_t>(model.dof()); }
};

}  // namespace denoc
