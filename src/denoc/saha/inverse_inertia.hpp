// The inverse of the generalized inertia matrix in O(n^2) from its U D U^T factors, without
// forming I: Saha (1999) Section 5.2 and Appendix B (the UDU^T paper, Saha 1997) run for the n
// right-hand sides phi = e_k at once. I^-1 = U^-T D^-1 U^-1, and column k of I^-1 is the forward
// dynamics of Eqs. (34)-(37) with phi = e_k:
//   Y = U^-1       backward, Eqs. (34)-(35): eta wrenches
//   Z = D^-1 Y     step 2 of Section 5.2
//   X = U^-T Z     forward, Eqs. (36)-(37): mu twists
// The O(n^3) route (inverse_generalized_inertia: form I, Cholesky, L^-T L^-1) is the reference,
// and the `cholesky` route.
// On a tree (docs/trees.md) the factors are summed over children as in forward_dynamics.hpp, U
// and U^-1 are nonzero only where one joint supports the other, and the sweeps take a step at
// joint i only for the columns of i's subtree (backward) or keep the mu twists of the path from
// the base to i (forward); I^-1 itself is dense.
#pragma once

#include <algorithm>

#include "denoc/model/joint_frames.hpp"
#include "denoc/model/kinematics.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// The factors in the base frame's axes. Eqs. (47)-(50) are run with every link quantity about its
// own mass centre C_i, as in articulated_body_masses, but in the axes of the base frame instead of
// J_i's: then B_{i+1,i} is a shift of the reference point by ell (from C_i to C_{i+1}) without a
// rotation, and the step of Eq. (50) is that shift, while each link's own inertia tensor is
// rotated once (a 3x3 instead of a 6x6 articulated mass). The results are then referred to the
// base origin O for the sweeps (udu_factors_at_base_origin).

// Pass 1, from the base outwards: R_i (orientation of J_i) and c_i (C_i) in the base frame; p_i,
// ell_i and the link's inertia tensor about C_i in base axes. On a tree R and c start from the
// parent's, R_i and c_i kept in ws.R_base and ws.c_base (what link_frames_in_base stores). Its own
// pass rather than the shared one (link_frames_in_base, which it matches): from that one the
// inverse of a 24-joint chain took 1.05x as long (3124 -> 3277 ns, fastest of 8 alternated runs),
// the pass's dependent 3x3 products no longer overlapped with this loop's work.
template <typename S, typename Topology>
void udu_base_axes(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> c = Vec3<S>::Zero();  // C_0 is the base origin
  for (int i = 0; i < model.dof(); ++i) {
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        R = ws.R_base[parent], c = ws.c_base[parent];
      else
        R.setIdentity(), c.setZero();
    }
    const Mat3<S> R_i = R * ws.E[i];
    R = R_i;
    const Vec3<S> l = R * ws.ell[i];  // from C_{i-1} to C_i
    c += l;
    const Joint<S>& joint = model.joint(i);
    const Vec3<S> axis = joint.p[2] * R.col(2);  // p_i = [s e_z; p_v] (Eqs. 13, 15)
    const Vec3<S> p_v = R * linear(joint.p);
    const Mat3<S> I = rotate_symmetric(R, joint.M.rotational);
    auto g = ws.inverse.axes.col(i);
    g.template segment<3>(0) = axis;
    g.template segment<3>(3) = p_v;
    g.template segment<3>(6) = l;
    g.template segment<3>(9) = c;
    g.template segment<6>(12) << I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2);
    if constexpr (!Topology::chain) ws.R_base[i] = R, ws.c_base[i] = c;
  }
}

// M <- B^T M B + M_i, in place: a symmetric 6x6 M = [A K; K^T C] about C_{i+1} seen from C_i, all
// in base axes, ell from C_i to C_{i+1}, L = [ell x] (transfer_articulated without the rotation),
// plus the link's own M_i = [I 0; 0 m 1] about C_i (Eq. 50):
//   A' = A + L K^T - K L - L C L + I,   K' = K + L C,   C' = C + m 1,
// with the products by L as cross products (x^T L = -(ell x x)^T) and A' as symmetric. I holds
// I_00, I_11, I_22, I_01, I_02, I_12.
template <typename S>
inline void shift_inertia_add(const Vec3<S>& ell, Mat6<S>& M, const S* I, S m) {
  Mat3<S> LC, LKt, LCL;
  for (int j = 0; j < 3; ++j) {
    LC.col(j) = cross(ell, Vec3<S>(M.template block<3, 1>(3, 3 + j)));
    LKt.col(j) = cross(ell, Vec3<S>(M.template block<1, 3>(j, 3).transpose()));
  }
  for (int r = 0; r < 3; ++r)
    LCL.row(r) = -cross(ell, Vec3<S>(LC.row(r).transpose())).transpose();
  for (int r = 0; r < 3; ++r) {
    M(r, r) += 2 * LKt(r, r) - LCL(r, r) + I[r];
    for (int c = r + 1; c < 3; ++c)
      M(c, r) = M(r, c) += LKt(r, c) + LKt(c, r) - LCL(r, c) + I[r + c + 2];
  }
  M.template topRightCorner<3, 3>() += LC;
  M.template bottomLeftCorner<3, 3>() = M.template topRightCorner<3, 3>().transpose();
  M.template bottomRightCorner<3, 3>().diagonal().array() += m;
}

// M_i = [I 0; 0 m 1] about C_i, in base axes, added to M (g: the joint's column of udu_axes).
template <typename S, typename Column>
inline void add_link_inertia(const Column& g, S mass, Mat6<S>& M) {
  M(0, 0) += g[12], M(1, 1) += g[13], M(2, 2) += g[14];
  M(0, 1) += g[15], M(0, 2) += g[16], M(1, 2) += g[17];
  M(1, 0) = M(0, 1), M(2, 0) = M(0, 2), M(2, 1) = M(1, 2);
  M(3, 3) += mass, M(4, 4) += mass, M(5, 5) += mass;
}

// The pivot of joint i from M^_i (Eqs. 47-48), stored in column i of ws.inverse.at_origin as the
// sweeps read it (see udu_factors_at_base_origin); returns 1 / m^_i, psi^_i in psi_hat.
template <typename S>
S store_udu_pivot(const Model<S>& model, Workspace<S>& ws, int i, const Mat6<S>& M_hat,
                  Vec6<S>& psi_hat) {
  const auto g = ws.inverse.axes.col(i);
  const Vec6<S> p = g.template head<6>();
  psi_hat = M_hat * p;
  // 1 / m^_i, with the rotor inertia G^2 Jm of a drive in the pivot as in
  // articulated_body_masses (docs/robot-file.md).
  const S d = S(1) / (p.dot(psi_hat) + model.joint(i).rotor_inertia);
  const Vec3<S> c = g.template segment<3>(9);
  const Vec3<S> axis = p.template head<3>(), f = psi_hat.template tail<3>();
  const Vec3<S> p_v = Vec3<S>(p.template tail<3>()) + cross(c, axis);
  const Vec3<S> n = Vec3<S>(psi_hat.template head<3>()) + cross(c, f);
  S* out = ws.inverse.at_origin.col(i).data();
  for (int k = 0; k < 3; ++k) {
    out[k] = -axis[k] * d;
    out[k + 3] = -p_v[k] * d;
    out[k + 6] = n[k];
    out[k + 9] = f[k];
    out[k + 12] = n[k] * d;
    out[k + 15] = f[k] * d;
    out[k + 18] = axis[k];
    out[k + 21] = p_v[k];
  }
  out[24] = d;
  return d;
}

// Pass 2, from the tip inwards, Eqs. (47)-(50) in base axes:
//   M^_i = M_i + B_{i+1,i}^T (M^_{i+1} - psi^_{i+1} psi^_{i+1}^T / m^_{i+1}) B_{i+1,i}
//   psi^_i = M^_i p_i,  m^_i = p_i^T psi^_i,  psi_i = psi^_i / m^_i
// then p_i and psi^_i referred to the base origin O, as gim_in_base_frame refers p_i: there every
// twist and wrench is of the same point, so B_ij = 1 in Eqs. (35) and (37) and the eta and mu of
// different joints simply add:
//   p_i^O    = [p_w; p_v + c_i x p_w]   (a twist carried from C_i to O)
//   psi^_i^O = [n + c_i x f; f]         (a wrench [n; f] carried from C_i to O)
// Stored as the sweeps use them, column i of ws.inverse.at_origin: a_i = -p_i^O / m^_i (rows 0-5:
// the sign of Eq. 34's subtraction folded in) and b_i = psi^_i^O (6-11) for the backward sweep,
// psi_i^O (12-17) and p_i^O (18-23) for the forward one, 1 / m^_i (24), the diagonal of D^-1. On a
// tree the bracket of M^_i sums over the children of i, each child adding its shifted term into
// ws.inverse.children_mass of its parent (as articulated_body_masses does in the joint frames).
template <typename S, typename Topology>
void udu_factors_at_base_origin(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  Mat6<S> M_hat = Mat6<S>::Zero();      // M^_i, then M^_i - psi^_i psi_i^T for joint i - 1
  Vec6<S> psi_outer = Vec6<S>::Zero();  // psi^_{i+1}
  S d_outer = S(0);                     // 1 / m^_{i+1}
  if constexpr (!Topology::chain)
    for (Mat6<S>& M : ws.inverse.children_mass)
      M.setZero();
  for (int i = model.dof() - 1; i >= 0; --i) {
    const auto g = ws.inverse.axes.col(i);
    const S mass = model.joint(i).M.mass;
    if constexpr (!Topology::chain) {
      M_hat = ws.inverse.children_mass[i];  // the children's terms of Eq. (50)
      add_link_inertia(g, mass, M_hat);
    } else if (i + 1 < model.dof()) {
      // M^_{i+1} - psi^_{i+1} psi_{i+1}^T: the outer body as the joint i+1 lets it move.
      M_hat.noalias() -= (d_outer * psi_outer) * psi_outer.transpose();
      shift_inertia_add(Vec3<S>(ws.inverse.axes.col(i + 1).template segment<3>(6)), M_hat,
                        &g.coeffRef(12), mass);
    } else {  // M^_n = M_n = [I 0; 0 m 1] about C_n
      M_hat(0, 0) = g[12], M_hat(1, 1) = g[13], M_hat(2, 2) = g[14];
      M_hat(0, 1) = M_hat(1, 0) = g[15], M_hat(0, 2) = M_hat(2, 0) = g[16];
      M_hat(1, 2) = M_hat(2, 1) = g[17];
      M_hat(3, 3) = M_hat(4, 4) = M_hat(5, 5) = mass;
    }
    d_outer = store_udu_pivot(model, ws, i, M_hat, psi_outer);
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent < 0) continue;
      const S no_inertia[6] = {S(0), S(0), S(0), S(0), S(0), S(0)};
      M_hat.noalias() -= (d_outer * psi_outer) * psi_outer.transpose();
      shift_inertia_add(Vec3<S>(g.template segment<3>(6)), M_hat, no_inertia, S(0));
      ws.inverse.children_mass[parent] += M_hat;
    }
  }
}

// The sweeps carry n six-vectors (wrenches, then twists) as component rows: row r holds
// component r, entry k the vector of column k of I^-1. Each step treats a contiguous range of
// columns with the same joint data: loops over plain, distinct (__restrict) rows that the
// compiler vectorises, as transfer_wrench_rows does for the GIM.

// One step of Eqs. (34)-(35) at joint i for the columns k in [begin, end) (k > i), whose eta
// wrench is nonzero at joint i:
//   z_ik = Y_ik / m^_i = -(p_i^O / m^_i)^T eta^k = a_i^T eta^k,   eta^k <- eta^k + psi^_i^O z_ik
// (psi_i^O Y_ik = psi^_i^O z_ik). z goes to out[k].
template <typename S>
inline void eta_step(const S* __restrict a, const S* __restrict b, S* __restrict r0,
                     S* __restrict r1, S* __restrict r2, S* __restrict r3, S* __restrict r4,
                     S* __restrict r5, int begin, int end, S* __restrict out) {
  const S a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
  const S b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5];
  for (int k = begin; k < end; ++k) {
    const S z = a0 * r0[k] + a1 * r1[k] + a2 * r2[k] + a3 * r3[k] + a4 * r4[k] + a5 * r5[k];
    out[k] = z;
    r0[k] += b0 * z;
    r1[k] += b1 * z;
    r2[k] += b2 * z;
    r3[k] += b3 * z;
    r4[k] += b4 * z;
    r5[k] += b5 * z;
  }
}

// One step of Eqs. (36)-(37) at joint i for the columns k in [begin, end) (k >= i):
//   x_ik = z_ik - (psi_i^O)^T mu^k,   mu^k <- mu^k + p_i^O x_ik
// z_ik is read from io[k] and x_ik written over it.
template <typename S>
inline void mu_step(const S* __restrict s, const S* __restrict p, S* __restrict r0,
                    S* __restrict r1, S* __restrict r2, S* __restrict r3, S* __restrict r4,
                    S* __restrict r5, int begin, int end, S* __restrict io) {
  const S s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4], s5 = s[5];
  const S p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5];
  for (int k = begin; k < end; ++k) {
    const S x =
        io[k] - (s0 * r0[k] + s1 * r1[k] + s2 * r2[k] + s3 * r3[k] + s4 * r4[k] + s5 * r5[k]);
    io[k] = x;
    r0[k] += p0 * x;
    r1[k] += p1 * x;
    r2[k] += p2 * x;
    r3[k] += p3 * x;
    r4[k] += p4 * x;
    r5[k] += p5 * x;
  }
}

// On a tree, the forward sweep's undoing of joint j on leaving its branch, for the columns k in
// [begin, end):  mu^k <- mu^k - p_j^O x_jk, x_jk read from x[k] (row j of the upper triangle).
template <typename S>
inline void mu_unstep(const S* __restrict p, S* __restrict r0, S* __restrict r1, S* __restrict r2,
                      S* __restrict r3, S* __restrict r4, S* __restrict r5, int begin, int end,
                      const S* __restrict x) {
  const S p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5];
  for (int k = begin; k < end; ++k) {
    r0[k] -= p0 * x[k];
    r1[k] -= p1 * x[k];
    r2[k] -= p2 * x[k];
    r3[k] -= p3 * x[k];
    r4[k] -= p4 * x[k];
    r5[k] -= p5 * x[k];
  }
}

// The six component rows of the sweeps' wrenches and twists (ws.inverse.rows).
template <typename S>
struct SweepRows {
  S *r0, *r1, *r2, *r3, *r4, *r5;
};

// Backward sweep, Eqs. (34)-(35): z_ik = Y_ik / m^_i into X(k, i). The eta wrench of column k is
// zero at the joints that do not support k, so at joint i only the columns of i's subtree,
// k in (i, subtree_end(i)), take a step (all k > i on a chain); Y_ik = 0 for the others.
template <typename S, typename Topology>
void udu_backward_sweep(const Model<S>& model, Workspace<S>& ws, SweepRows<S> w, Topology) {
  const int n = model.dof();
  MatX<S>& X = ws.inverse.matrix;
  for (int i = n - 1; i >= 0; --i) {
    const S* g = ws.inverse.at_origin.col(i).data();
    S* out = X.col(i).data();
    int end = n;
    if constexpr (!Topology::chain) {
      end = model.subtree_end(i);
      std::fill(out + end, out + n, S(0));  // U^-1 is zero off the paths (docs/trees.md)
    }
    if (i + 1 < end) eta_step(g, g + 6, w.r0, w.r1, w.r2, w.r3, w.r4, w.r5, i + 1, end, out);
    out[i] = g[24];  // D^-1, step 2 of Section 5.2
    // eta^i = psi_i^O Y_ii, Y_ii = 1
    w.r0[i] = g[12], w.r1[i] = g[13], w.r2[i] = g[14], w.r3[i] = g[15], w.r4[i] = g[16],
    w.r5[i] = g[17];
  }
}

// Forward sweep, Eqs. (36)-(37): x_ik over z_ik in X(k, i), k >= i; mu^k = 0 at the base. Row i
// is mirrored as soon as it is done, while its column is still in cache (on long chains the
// rows' cache lines are reused by the next few joints). mu^k at joint i must hold the terms of
// i's ancestors only: on a tree, the joints of the branch just left (from i - 1 up to, not
// including, lambda(i)) take their terms back out, each once, so the sweep stays O(n^2).
template <typename S, typename Topology>
void udu_forward_sweep(const Model<S>& model, Workspace<S>& ws, SweepRows<S> w, Topology topology) {
  const int n = model.dof();
  MatX<S>& X = ws.inverse.matrix;
  for (int i = 0; i < n; ++i) {
    if constexpr (!Topology::chain)
      for (int j = i - 1; j != topology.parent(i); j = topology.parent(j))
        mu_unstep(ws.inverse.at_origin.col(j).data() + 18, w.r0, w.r1, w.r2, w.r3, w.r4, w.r5, i, n,
                  X.col(j).data());
    const S* g = ws.inverse.at_origin.col(i).data();
    S* column = X.col(i).data();
    mu_step(g + 12, g + 18, w.r0, w.r1, w.r2, w.r3, w.r4, w.r5, i, n, column);
    for (int k = i + 1; k < n; ++k)
      X(i, k) = column[k];
  }
}

// The inverse of the (6 + n) inertia matrix by the U D U^T factors (the udu route): column k is
// the accelerations that a unit force on rate k produces with no motion and no gravity, one O(n)
// solve each after one elimination of the masses, O(n^2) in all. Returns
// ws.inverse.matrix_floating.
namespace unchecked {
template <typename S>
const MatX<S>& floating_inverse_inertia_udu(const Model<S>& model, Workspace<S>& ws,
                                            ConstVectorRef<S> q) {
  const int n = model.dof();
  size_square(ws.inverse.matrix_floating, n + 6);
  set_base_at_rest(ws);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, ws.id.zeros, ws.id.zeros, topology);  // t_i = xi_i = 0
    articulated_body_masses(model, ws, ws.articulated, topology);
    if (!factor_base_pivot(model, ws.articulated)) {
      ws.inverse.matrix_floating.setConstant(std::numeric_limits<S>::quiet_NaN());
      return;
    }
    auto unit = ws.inverse.column_floating.tail(n);
    for (int k = 0; k < n + 6; ++k) {
      ws.articulated.applied_0.setZero();
      unit.setZero();
      if (k < 3)
        ws.articulated.applied_0[3 + k] = 1;  // a force on the base: the linear half
      else if (k < 6)
        ws.articulated.applied_0[k - 3] = 1;  // a moment: the angular half
      else
        unit[k - 6] = 1;
      floating_solve(model, ws, unit, topology);
      gather_floating_accelerations(model, ws);
      ws.inverse.matrix_floating.col(k) = ws.articulated.qdd_floating;
    }
  });
  ws.articulated.applied_0.setZero();
  return ws.inverse.matrix_floating;
}
}  // namespace unchecked

// I^-1 = U^-T D^-1 U^-1 (Eqs. 34-37 with phi = e_k for every k), O(n^2). Returns
// ws.inverse.matrix.
//
// Backward, joint i from the tip: the eta wrench of column k is zero at the joints outside k's
// support (i >= k), so only the columns k > i take a step there: sum_i (n - 1 - i) steps. Column i
// enters with Y_ii = 1, eta^i = psi_i^O. Forward, joint i from the base: X = I^-1 is symmetric, so
// only its upper triangle is computed, X_ik for k >= i; the mu twists of those columns at joint
// i-1 are built from X_jk with j < i <= k, upper-triangle entries themselves. Row i of the upper
// triangle is kept as column i of the lower one, so that every step writes and reads contiguous
// memory: z_ik, then x_ik, in X(k, i); each row is mirrored once the forward sweep is done with it.
// With a floating base, (6 + n) x (6 + n), by the forward dynamics' elimination with the base's
// pivot (floating_inverse_inertia_udu) into ws.inverse.matrix_floating.
template <typename S>
const MatX<S>& inverse_inertia_udu(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_call(model, ws, "inverse_inertia_udu", q);
  if (model.floating()) return unchecked::floating_inverse_inertia_udu(model, ws, q);
  update_joint_frames(model, ws, q);
  size_square(ws.inverse.matrix, model.dof());
  auto& W = ws.inverse.rows;
  const SweepRows<S> rows{W.row(0).data(), W.row(1).data(), W.row(2).data(),
                          W.row(3).data(), W.row(4).data(), W.row(5).data()};
  with_topology(model, [&](auto topology) {
    udu_base_axes(model, ws, topology);
    udu_factors_at_base_origin(model, ws, topology);  // Eqs. (47)-(50)
    udu_backward_sweep(model, ws, rows, topology);
    W.setZero();
    udu_forward_sweep(model, ws, rows, topology);
  });
  return ws.inverse.matrix;
}

}  // namespace denoc
