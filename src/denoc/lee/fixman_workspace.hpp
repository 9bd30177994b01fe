// Per-configuration storage of the extended Fixman solve (fixman.hpp), sized once from the number
// of joints, apart from the other families' storage. Everything is block-banded: per joint k a few
// 6x6 or 5x5 blocks, nothing n x n except the inverse that fixman_inverse_inertia returns, which
// that function sizes at its first call.
//
// Rows of a joint's blocks are its six screw coordinates q_k (Eq. 26) with the soft one first:
// row 0 is s_k (gamma_k of a revolute joint, c_k of a prismatic one), rows 1..5 the hard h_k.
#pragma once

#include <vector>

#include "denoc/model/workspace.hpp"

namespace denoc {

template <typename S>
struct FixmanWorkspace {
  using Block5 = Eigen::Matrix<S, 5, 5>;
  using Vec5 = Eigen::Matrix<S, 5, 1>;

  explicit FixmanWorkspace(int n)
      : sin_q(VecX<S>::Zero(n)),
        cos_q(VecX<S>::Zero(n)),
        inertia_inverse(static_cast<std::size_t>(n), Mat3<S>::Identity()),
        P_own(static_cast<std::size_t>(n), Mat6<S>::Zero()),
        P_parent(static_cast<std::size_t>(n), Mat6<S>::Zero()),
        H_diag(static_cast<std::size_t>(n), Mat6<S>::Zero()),
        H_upper(static_cast<std::size_t>(n), Mat6<S>::Zero()),
        L(static_cast<std::size_t>(n), Block5::Zero()),
        L_sub(static_cast<std::size_t>(n), Block5::Zero()),
        d(static_cast<std::size_t>(n), Vec5::Zero()),
        x(VecX<S>::Zero(n)),
        rhs(VecX<S>::Zero(n)),
        qdd(VecX<S>::Zero(n)),
        unit(VecX<S>::Zero(n)) {}

  VecX<S> sin_q, cos_q;                  // of the joint variables, for X_k = Rz(q_k)
  std::vector<Mat3<S>> inertia_inverse;  // I_k^-1 of the free body k (Eq. 20)
  // The two nonzero 6x6 blocks of row k of J_+^-1 (Eqs. 22, 28): d q_k / d xi~_k and
  // d q_k / d xi~_{k-1} (zero for k = 1, whose parent is the fixed base).
  std::vector<Mat6<S>> P_own, P_parent;
  // H = J_+^-1 I^-1 J_+^-T (Eq. 20), block tridiagonal: H_kk and H_{k,k+1} (Eq. 8).
  std::vector<Mat6<S>> H_diag, H_upper;
  // H22 = L L^T by blocks: L_kk (lower triangular) and L_{k,k-1} (L_sub[k], zero for k = 1).
  std::vector<Block5> L, L_sub;
  std::vector<Vec5> d;  // c = H21 b, then H22^-1 c in place (step V)
  bool factored = false;
  VecX<S> x;        // fixman_apply / fixman_solve: M^-1 b (Eq. 7)
  VecX<S> rhs;      // forward_dynamics_fixman: phi = tau - h
  VecX<S> qdd;      // forward_dynamics_fixman: M^-1 phi
  VecX<S> unit;     // e_j for fixman_inverse_inertia
  MatX<S> inverse;  // fixman_inverse_inertia: M^-1, column by column; n x n at first use
};

}  // namespace denoc
