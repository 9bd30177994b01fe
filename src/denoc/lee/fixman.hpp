// O(n) solution of M(q) x = b by the extended Fixman theorem: K. Lee, Y. Wang and
// G. S. Chirikjian, "O(n) mass matrix inversion for serial manipulators and polypeptide chains
// using Lie derivatives", Robotica 25 (2007). How the suite's chain maps onto the paper, and
// why prismatic joints need nothing more: docs/fixman.md.
//
// The n links are first set free: each is a rigid body with six coordinates, so that the chain
// has 6n of them, q_k = (alpha, beta, gamma, a, b, c)_k of the joint transform X_k (Eq. 26), and
// its mass matrix G is invertible. Its inverse H = G^-1 = J_+^-1 I^-1 J_+^-T (Eq. 20) is block
// tridiagonal, because q_k depends only on the bodies k-1 and k (Eqs. 21-22). Splitting the
// coordinates into soft ones s (the joint variables) and hard ones h (the five others, held at
// zero by the joint), the chain's mass matrix is M = G11 and (Eq. 6)
//   M^-1 = H11 - H12 H22^-1 H21,
// applied to b in O(n) by steps I-V of §2.2 with a block-tridiagonal Cholesky factor of H22.
//
//   step                                       paper               here
//   I    soft/hard partition                   §2.2, §4.2          soft_coordinate
//   II   coordinates as functions of poses     after Eq. (27)      screw_coordinates.hpp
//   III  nonzero blocks of [ds/dxi], [dh/dxi]  Eqs. (21)-(22), (28) inverse_jacobian_blocks
//        free-body inertias, null axes         Eq. (20), §3.6      FreeBodyInertia (workspace)
//   IV   H11, H12, H22                         Eqs. (8), (20)      unconstrained_inverse_blocks
//        H22 = L L^T, block bidiagonal L       §2.2 step V         factor_hard_block
//        or the bordered K, tip inwards        docs/fixman.md      bordered_factor
//   V    c = H21 b, d = H22^-1 c, e = H12 d,   Eq. (7)             schur_complement_apply
//        f = H11 b, x = f - e                                      (bordered_apply)
//
// Point masses and thin rods: Eq. (20) inverts each free body's 6x6 inertia, which a link whose
// inertia about its mass centre is singular does not have. Such a link's null axes (rotations
// that cost no kinetic energy) join the hard block as unknowns of their own, which borders H22
// into the symmetric indefinite block-tridiagonal K of bordered_factor (docs/fixman.md derives
// it); K is invertible whenever M is, and is factored from the tip inwards in O(n).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <limits>
#include <string>

#include "denoc/kernels/sin_cos.hpp"
#include "denoc/lee/fixman_workspace.hpp"
#include "denoc/lee/screw_coordinates.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

// Why the extended Fixman method cannot treat this model, or "" if it can: drives' rotors, a
// massless link, or a link whose inertia is not one of a body. Point masses and thin rods it treats
// (docs/fixman.md). Names the link from 1.
template <typename S>
std::string fixman_unsupported_reason(const Model<S>& model) {
  if (!model.is_chain()) {
    // Eqs. (20)-(22): the free bodies' inverse mass matrix is block tridiagonal because each body
    // has one neighbour outwards; at a branch point the Schur complement of the constraints is no
    // longer tridiagonal, and the paper's O(n) elimination does not apply (docs/fixman.md).
    return "the robot is a tree; the extended Fixman method (Lee, Wang and Chirikjian 2007, "
           "Eqs. 20-22) eliminates the constraints of a serial chain, one neighbour per body";
  }
  if (model.has_rotors()) {
    // M = G11 of Eq. (6) holds for the mass matrix of rigid bodies set free; a drive's rotor
    // inertia G^2 Jm (docs/robot-file.md) added to the diagonal of M is no body's, and with it the
    // inverse of the unconstrained mass matrix is no longer block tridiagonal (Eqs. 20-22).
    return "the drives' rotor inertias G^2 Jm are not bodies of the chain; the extended Fixman "
           "method (Lee, Wang and Chirikjian 2007, Eq. 6) inverts the free bodies' mass matrix, "
           "which they would make dense";
  }
  for (int k = 0; k < model.dof(); ++k) {
    if (!(model.joint(k).M.mass > 0)) {
      return "link " + std::to_string(k + 1) +
             " has no mass (a URDF link without <inertial>); the extended Fixman method (Lee, "
             "Wang and Chirikjian 2007, Eq. 20) inverts each link's mass as a free body";
    }
    if (!FreeBodyInertia<S>(model.joint(k).M.rotational).physical) {
      return "link " + std::to_string(k + 1) +
             ": its inertia tensor about the mass centre has a negative principal moment";
    }
  }
  return "";
}

template <typename S>
bool fixman_supports(const Model<S>& model) {
  return fixman_unsupported_reason(model).empty();
}

// Step I (§2.2, §4.2): the soft variable of joint k among (alpha, beta, gamma, a, b, c) of Eq.
// (26): the rotation gamma_k about e3 for a revolute joint, the translation c_k along e3 for a
// prismatic one. The other five are hard. Rows are stored soft first, then the hard ones in the
// order of Eq. (26): (gamma | alpha beta a b c) or (c | alpha beta gamma a b), the PUMA
// ordering of §4.2 for revolute joints.
inline int soft_coordinate(JointType type) {
  return type == JointType::revolute ? kGamma : kC;
}

template <typename S>
Vec6<S> soft_first(const Vec6<S>& coordinates, JointType type) {
  const int soft = soft_coordinate(type);
  Vec6<S> out;
  out[0] = coordinates[soft];
  for (int i = 0, row = 1; i < 6; ++i) {
    if (i != soft) out[row++] = coordinates[i];
  }
  return out;
}

// X_k = Rz(q_k) or Tz(q_k): the joint transform with the hard coordinates at their constrained
// value 0 and the soft one at q_k (Eq. 26 with alpha = beta = a = b = 0).
template <typename S>
Pose34<S> joint_transform(JointType type, S q, S sin_q, S cos_q) {
  Pose34<S> X;
  if (type == JointType::revolute) {
    X.R << cos_q, -sin_q, 0, sin_q, cos_q, 0, 0, 0, 1;
  } else {
    X.p[2] = q;
  }
  return X;
}

// Step III: the two nonzero 6x6 blocks of row k of J_+^-1, by Eq. (28) applied to the Lie
// derivatives of Eq. (22). In the suite's chain T_k = T_{k-1} P_k X_k with P_k the joint's
// constant placement and T^c_k = T_k Q_k, Q_k = (1, d_k), so Eq. (21) reads
//   X_k = P_k^-1 Q_{k-1} (T^c_{k-1})^-1 T^c_k Q_k^-1,
// and the derivatives along the unit twists e~_i of body k and of body k-1 (Eq. 22) are
//   body k:    X_k Q_k E~_i Q_k^-1                 = X_k [w], X_k (v + d_k x w)
//   body k-1: -P_k^-1 Q_{k-1} E~_i (T^c_{k-1})^-1 T^c_k Q_k^-1
//                                                  = -[w'] R_X, -(w' x (r_{k-1} + p_X) + v')
// for e~_i = [w; v], with w' = R_k^T w, v' = R_k^T v in the placement's axes and r_{k-1} from
// C_{k-1} to the origin of J_k at q_k = 0 (Joint::r_placed), X_k = (R_X, p_X).
template <typename S>
void inverse_jacobian_blocks(const Model<S>& model, FixmanWorkspace<S>& fx, ConstVectorRef<S> q,
                             int k) {
  const Joint<S>& joint = model.joint(k);
  const Pose34<S> X = joint_transform(joint.type, q[k], fx.sin_q[k], fx.cos_q[k]);
  for (int i = 0; i < 6; ++i) {
    const Vec6<S> unit_twist = Vec6<S>::Unit(i);  // e~_i = [w; v]
    const Vec3<S> w = unit_twist.template head<3>(), v = unit_twist.template tail<3>();
    Pose34<S> Td;  // dX_k / d xi~_k^i, Eq. (22), j = k
    Td.R = X.R * cross_matrix(w);
    Td.p = X.R * (v + cross(joint.d, w));
    fx.P_own[k].col(i) = soft_first(screw_coordinate_derivatives(X, Td), joint.type);
    if (k == 0) continue;  // body 0 is the base: no coordinates of its own
    const Vec3<S> w_placed = joint.R.transpose() * w, v_placed = joint.R.transpose() * v;
    Td.R = -cross_matrix(w_placed) * X.R;  // dX_k / d xi~_{k-1}^i, Eq. (22), j = k-1
    Td.p = -(cross(w_placed, Vec3<S>(joint.r_placed + X.p)) + v_placed);
    fx.P_parent[k].col(i) = soft_first(screw_coordinate_derivatives(X, Td), joint.type);
  }
}

// A I_j^-1 B^T for the free body j, I_j^-1 = I^-1 (+) m^-1 1 block diagonal (Eq. 20, §3.6), in
// the axes of J_j about C_j; I^-1 is FreeBodyInertia's (over the axes that are not null).
template <typename S>
Mat6<S> through_free_body(const Mat6<S>& A, const Mat3<S>& inertia_inverse, S mass,
                          const Mat6<S>& B) {
  Mat6<S> out;
  out.noalias() = A.template leftCols<3>() * inertia_inverse * B.template leftCols<3>().transpose();
  out.noalias() +=
      (S(1) / mass) * A.template rightCols<3>() * B.template rightCols<3>().transpose();
  return out;
}

// Step IV: H = J_+^-1 I^-1 J_+^-T (Eq. 20), whose soft and hard rows and columns are H11, H12
// and H22 (Eq. 8). Row k of J_+^-1 has blocks in columns k-1 and k only, so
//   H_kk      = P_{k,k} I_k^-1 P_{k,k}^T + P_{k,k-1} I_{k-1}^-1 P_{k,k-1}^T
//   H_{k,k+1} = P_{k,k} I_k^-1 P_{k+1,k}^T,
// and H is block tridiagonal.
template <typename S>
void unconstrained_inverse_blocks(const Model<S>& model, FixmanWorkspace<S>& fx) {
  const int n = model.dof();
  for (int k = 0; k < n; ++k) {
    const S m = model.joint(k).M.mass;
    const Mat3<S>& inertia_inverse = fx.bodies[k].inverse;
    fx.H_diag[k] = through_free_body(fx.P_own[k], inertia_inverse, m, fx.P_own[k]);
    if (k > 0) {
      fx.H_diag[k] += through_free_body(fx.P_parent[k], fx.bodies[k - 1].inverse,
                                        model.joint(k - 1).M.mass, fx.P_parent[k]);
    }
    if (k + 1 < n) {
      fx.H_upper[k] = through_free_body(fx.P_own[k], inertia_inverse, m, fx.P_parent[k + 1]);
    }
  }
}

// H22 (the hard rows and columns of H, symmetric positive definite and block tridiagonal with
// 5x5 blocks A_k = H_kk[h,h], B_k = H_{k,k+1}[h,h]) as L L^T, L block lower bidiagonal:
//   L_11 L_11^T = A_1,  L_{k,k-1} = B_{k-1}^T L_{k-1,k-1}^-T,
//   L_kk L_kk^T = A_k - L_{k,k-1} L_{k,k-1}^T.
// The paper (step V) leaves the banded solver open (LU, Golub and Van Loan); H22 is symmetric
// positive definite, so Cholesky by blocks. False if a pivot block is not positive definite.
template <typename S>
bool factor_hard_block(int n, FixmanWorkspace<S>& fx) {
  using Block5 = typename FixmanWorkspace<S>::Block5;
  for (int k = 0; k < n; ++k) {
    Block5 A = fx.H_diag[k].template bottomRightCorner<5, 5>();
    if (k > 0) {
      // L_{k,k-1}^T = L_{k-1,k-1}^-1 B_{k-1}
      Block5 Lt = fx.H_upper[k - 1].template bottomRightCorner<5, 5>();
      fx.L[k - 1].template triangularView<Eigen::Lower>().solveInPlace(Lt);
      fx.L_sub[k] = Lt.transpose();
      A.noalias() -= fx.L_sub[k] * Lt;
    }
    const Eigen::LLT<Block5> llt(A);
    if (llt.info() != Eigen::Success) return false;
    fx.L[k] = llt.matrixL();
  }
  return true;
}

// c_k = (H21 b)_k = H_kk[h,s] b_k + H_{k-1,k}[s,h]^T b_{k-1} + H_{k,k+1}[h,s] b_{k+1}.
template <typename S>
typename FixmanWorkspace<S>::Vec5 hard_rows_of_H21(int n, const FixmanWorkspace<S>& fx,
                                                   ConstVectorRef<S> b, int k) {
  typename FixmanWorkspace<S>::Vec5 c = fx.H_diag[k].col(0).template tail<5>() * b[k];
  if (k > 0) c += fx.H_upper[k - 1].row(0).template tail<5>().transpose() * b[k - 1];
  if (k + 1 < n) c += fx.H_upper[k].col(0).template tail<5>() * b[k + 1];
  return c;
}

// f_k - e_k = (H11 b)_k - (H12 d)_k over the three blocks of row k; d(j) gives d_j.
template <typename S, typename HardOf>
S soft_row_of_schur_complement(int n, const FixmanWorkspace<S>& fx, ConstVectorRef<S> b,
                               const HardOf& d, int k) {
  S f = fx.H_diag[k](0, 0) * b[k];
  S e = fx.H_diag[k].row(0).template tail<5>().dot(d(k));
  if (k > 0) {
    f += fx.H_upper[k - 1](0, 0) * b[k - 1];
    e += fx.H_upper[k - 1].col(0).template tail<5>().dot(d(k - 1));
  }
  if (k + 1 < n) {
    f += fx.H_upper[k](0, 0) * b[k + 1];
    e += fx.H_upper[k].row(0).template tail<5>().dot(d(k + 1));
  }
  return f - e;
}

// Step V, Eq. (7): x = (H11 - H12 H22^-1 H21) b through
//   c = H21 b  ->  d = H22^-1 c  ->  e = H12 d,   f = H11 b,   x = f - e,
// every product over the three blocks of a block row of the tridiagonal H.
template <typename S, typename Out>
void schur_complement_apply(int n, FixmanWorkspace<S>& fx, ConstVectorRef<S> b, Out&& x) {
  using Vec5 = typename FixmanWorkspace<S>::Vec5;
  // c = H21 b and the forward substitution L y = c in the same sweep.
  for (int k = 0; k < n; ++k) {
    Vec5 c = hard_rows_of_H21(n, fx, b, k);
    if (k > 0) c.noalias() -= fx.L_sub[k] * fx.d[k - 1];
    fx.L[k].template triangularView<Eigen::Lower>().solveInPlace(c);
    fx.d[k] = c;
  }
  // d = L^-T y, from the tip inwards.
  for (int k = n - 1; k >= 0; --k) {
    Vec5 y = fx.d[k];
    if (k + 1 < n) y.noalias() -= fx.L_sub[k + 1].transpose() * fx.d[k + 1];
    fx.L[k].transpose().template triangularView<Eigen::Upper>().solveInPlace(y);
    fx.d[k] = y;
  }
  const auto d = [&fx](int j) -> const Vec5& { return fx.d[j]; };
  for (int k = 0; k < n; ++k)
    x[k] = soft_row_of_schur_complement(n, fx, b, d, k);
}

// Point masses and thin rods (docs/fixman.md). A row block P of J_+^-1 along body j's null axes:
// P [V_j; 0], the columns past its null count zero.
template <typename S>
Eigen::Matrix<S, 6, 3> along_null_axes(const Mat6<S>& P, const FreeBodyInertia<S>& body) {
  return P.template leftCols<3>() * body.null_axes;
}

// The bordered K's diagonal block of joint k, over u_k = [d_k; eta_k]:
//   D_k = [H22_kk, A_kk; A_kk^T, -diag(mu_k)],  A_kk = P_{k,k}[h] [V_k; 0],
// with 1 on the diagonal for unused slots of eta_k (held at zero).
template <typename S>
typename FixmanWorkspace<S>::Block8 bordered_diagonal(const FixmanWorkspace<S>& fx, int k) {
  const FreeBodyInertia<S>& body = fx.bodies[k];
  const Eigen::Matrix<S, 5, 3> A = along_null_axes(fx.P_own[k], body).template bottomRows<5>();
  typename FixmanWorkspace<S>::Block8 D;
  D.template topLeftCorner<5, 5>() = fx.H_diag[k].template bottomRightCorner<5, 5>();
  D.template topRightCorner<5, 3>() = A;
  D.template bottomLeftCorner<3, 5>() = A.transpose();
  D.template bottomRightCorner<3, 3>().setZero();
  for (int i = 0; i < 3; ++i)
    D(5 + i, 5 + i) = i < body.null_count ? S(-body.null_moments[i]) : S(1);
  return D;
}

// E_k = K(k, k+1) = [H22_{k,k+1}, 0; A_{k+1,k}^T, 0], A_{k+1,k} = P_{k+1,k}[h] [V_k; 0]: joint
// k+1's hard rows see body k's null axes; joint k's do not see body k+1.
template <typename S>
typename FixmanWorkspace<S>::Block8 bordered_coupling(const FixmanWorkspace<S>& fx, int k) {
  typename FixmanWorkspace<S>::Block8 E = FixmanWorkspace<S>::Block8::Zero();
  E.template topLeftCorner<5, 5>() = fx.H_upper[k].template bottomRightCorner<5, 5>();
  E.template bottomLeftCorner<3, 5>() =
      along_null_axes(fx.P_parent[k + 1], fx.bodies[k]).template bottomRows<5>().transpose();
  return E;
}

// K by blocks from the tip inwards: S_{n} = D_n, S_k = D_k - E_k S_{k+1}^-1 E_k^T, each S_k by
// LU with partial pivoting (K is symmetric but indefinite). Every S_k is invertible when M is
// (docs/fixman.md): false if a pivot vanishes.
template <typename S>
bool bordered_factor(int n, FixmanWorkspace<S>& fx) {
  for (int k = n - 1; k >= 0; --k) {
    typename FixmanWorkspace<S>::Block8 Sk = bordered_diagonal(fx, k);
    if (k + 1 < n) {
      fx.coupling[k] = bordered_coupling(fx, k);
      fx.coupled[k] = fx.schur[k + 1].solve(fx.coupling[k].transpose());
      Sk.noalias() -= fx.coupling[k] * fx.coupled[k];
    }
    fx.schur[k].compute(Sk);
    const auto pivots = fx.schur[k].matrixLU().diagonal().array().abs();
    if (!(pivots > S(0)).all() || !pivots.isFinite().all()) return false;
  }
  return true;
}

// Eq. (7) with the bordered K: [d; eta] = K^-1 [H21 b; A_s^T b], then
//   x = H11 b - H12 d - A_s eta,  A_s = [ds/dxi~] [V; 0]
// (docs/fixman.md), the solve reducing the right-hand side from the tip inwards and substituting
// outwards.
template <typename S, typename Out>
void bordered_apply(int n, FixmanWorkspace<S>& fx, ConstVectorRef<S> b, Out&& x) {
  using Vec8 = typename FixmanWorkspace<S>::Vec8;
  for (int k = n - 1; k >= 0; --k) {  // y_k = r_k - W_k^T y_{k+1}
    Vec3<S> soft_force = fx.P_own[k].row(0).template head<3>().transpose() * b[k];
    if (k + 1 < n)
      soft_force += fx.P_parent[k + 1].row(0).template head<3>().transpose() * b[k + 1];
    Vec8 y;
    y.template head<5>() = hard_rows_of_H21(n, fx, b, k);
    y.template tail<3>() = fx.bodies[k].null_axes.transpose() * soft_force;
    if (k + 1 < n) y.noalias() -= fx.coupled[k].transpose() * fx.u[k + 1];
    fx.u[k] = y;
  }
  for (int k = 0; k < n; ++k) {  // u_k = S_k^-1 (y_k - E_{k-1}^T u_{k-1})
    Vec8 y = fx.u[k];
    if (k > 0) y.noalias() -= fx.coupling[k - 1].transpose() * fx.u[k - 1];
    fx.u[k] = fx.schur[k].solve(y);
  }
  const auto d = [&fx](int j) { return fx.u[j].template head<5>(); };
  for (int k = 0; k < n; ++k) {
    S a_eta =
        fx.P_own[k].row(0).template head<3>() * fx.bodies[k].null_axes * fx.u[k].template tail<3>();
    if (k > 0) {
      a_eta += fx.P_parent[k].row(0).template head<3>() * fx.bodies[k - 1].null_axes *
               fx.u[k - 1].template tail<3>();
    }
    x[k] = soft_row_of_schur_complement(n, fx, b, d, k) - a_eta;
  }
}

// x = M^-1 b with the factor in fx (Eq. 7), by whichever form fixman_factor built.
template <typename S, typename Out>
void fixman_apply_factor(int n, FixmanWorkspace<S>& fx, ConstVectorRef<S> b, Out&& x) {
  if (fx.bordered)
    bordered_apply<S>(n, fx, b, x);
  else
    schur_complement_apply<S>(n, fx, b, x);
}

// Steps I-IV for the configuration q: H's blocks and the factor of H22 (or of the bordered K) in
// fx. O(n). False (and fx.factored false) if a link's inertia is not a body's or the factor fails
// (M singular). `fx` must have been built from `model`.
template <typename S>
bool fixman_factor(const Model<S>& model, FixmanWorkspace<S>& fx, ConstVectorRef<S> q) {
  require_fixed_base(model, "fixman_factor");
  if (!model.is_chain() || model.has_rotors())
    throw std::invalid_argument("fixman_factor: " + fixman_unsupported_reason(model));
  if (fx.sin_q.size() != model.dof()) wrong_workspace("fixman_factor");
  require_joint_values(model, "fixman_factor", "q", q);
  const int n = model.dof();
  fx.factored = false;
  for (int k = 0; k < n; ++k)
    if (!fx.bodies[k].physical || !(model.joint(k).M.mass > 0)) return false;
  sin_cos(q.data(), n, fx.sin_q.data(), fx.cos_q.data());
  for (int k = 0; k < n; ++k)
    inverse_jacobian_blocks(model, fx, q, k);
  unconstrained_inverse_blocks(model, fx);
  return fx.factored = fx.bordered ? bordered_factor(n, fx) : factor_hard_block(n, fx);
}

// Step V for one right-hand side, with the factor of fixman_factor: M^-1 b in fx.x. O(n).
// NaN if the factorisation failed. `b` must not be fx.x.
template <typename S>
const VecX<S>& fixman_apply(const Model<S>& model, FixmanWorkspace<S>& fx, ConstVectorRef<S> b) {
  if (fx.sin_q.size() != model.dof()) wrong_workspace("fixman_apply");
  require_joint_values(model, "fixman_apply", "b", b);
  if (!fx.factored) {
    fx.x.setConstant(std::numeric_limits<S>::quiet_NaN());
    return fx.x;
  }
  fixman_apply_factor<S>(model.dof(), fx, b, fx.x);
  return fx.x;
}

// x = M(q)^-1 b in O(n), Eq. (7). Returns fx.x.
template <typename S>
const VecX<S>& fixman_solve(const Model<S>& model, FixmanWorkspace<S>& fx, ConstVectorRef<S> q,
                            ConstVectorRef<S> b) {
  fixman_factor(model, fx, q);
  return fixman_apply(model, fx, b);
}

// M(q)^-1 column by column, M^-1 e_j (the Appendix's remark: each column in O(n), O(n^2) in
// all). Returns fx.inverse; NaN if the factorisation failed.
template <typename S>
const MatX<S>& fixman_inverse_inertia(const Model<S>& model, FixmanWorkspace<S>& fx,
                                      ConstVectorRef<S> q) {
  size_square(fx.inverse, model.dof());  // at the first call
  if (!fixman_factor(model, fx, q)) {
    fx.inverse.setConstant(std::numeric_limits<S>::quiet_NaN());
    return fx.inverse;
  }
  fx.unit.setZero();
  for (int j = 0; j < model.dof(); ++j) {
    fx.unit[j] = 1;
    fixman_apply_factor<S>(model.dof(), fx, fx.unit, fx.inverse.col(j));
    fx.unit[j] = 0;
  }
  return fx.inverse;
}

// qdd from M qdd = phi = tau - h(q, qd) (h from the DeNOC recursions, Saha 1999 Eq. 33), solved by
// the extended Fixman method. Returns fx.qdd. `tau` must not be ws.id.tau (h goes there).
template <typename S>
const VecX<S>& forward_dynamics_fixman(const Model<S>& model, Workspace<S>& ws,
                                       FixmanWorkspace<S>& fx, ConstVectorRef<S> q,
                                       ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  require_joint_values(model, "forward_dynamics_fixman", "tau", tau);
  fx.rhs = tau - bias_forces(model, ws, q, qd);
  if (!fixman_factor(model, fx, q)) {
    fx.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return fx.qdd;
  }
  fixman_apply_factor<S>(model.dof(), fx, fx.rhs, fx.qdd);
  return fx.qdd;
}

}  // namespace denoc
