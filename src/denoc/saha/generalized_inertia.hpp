// The generalized inertia matrix (GIM) I(q) of Eq. (20) from composite-body masses, Saha (1999)
// Section 4.1, O(n^2); and its inverse through its Cholesky factor. On a tree (Shah, Saha and
// Dutt 2013; docs/trees.md) the composite body of joint i is its subtree, I_ij is non-zero only
// when one of i, j supports the other, and the factor is Featherstone's sparse L^T D L
// (kernels/tree_cholesky.hpp, docs/tree-cholesky.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "denoc/kernels/cholesky.hpp"
#include "denoc/kernels/symmetric_projections.hpp"
#include "denoc/kernels/tree_cholesky.hpp"
#include "denoc/model/joint_frames.hpp"
#include "denoc/model/kinematics.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/saha/inverse_dynamics.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// M~_i = M_i + B_{i+1,i}^T M~_{i+1} B_{i+1,i}, M~_n = M_n: Eq. (23b), from the tip inwards.
// Each M~_i is summed in a local and stored once: adding into ws.inertia.M_tilde[i] just copied
// from M_i stalled clang's code on store-to-load forwarding (its 16-byte loads spanned two smaller
// stores). On a tree the sum runs over the children c of i, M~_i = M_i + sum_c B_{c,i}^T M~_c
// B_{c,i}: every M~_c, complete when reached (children are numbered after their parent), is carried
// to its parent and added into the parent's entry, which starts as the parent's own M_i.
template <typename S, typename Topology>
void composite_body_masses(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  const int n = model.dof();
  if constexpr (Topology::chain) {
    if (n > 0) ws.inertia.M_tilde[n - 1] = model.joint(n - 1).M;
    for (int i = n - 2; i >= 0; --i) {
      BodyInertia<S> M_tilde = ws.inertia.M_tilde[i + 1].transferred(ws.E[i + 1], ws.ell[i + 1]);
      M_tilde += model.joint(i).M;
      ws.inertia.M_tilde[i] = M_tilde;
    }
  } else {
    for (int i = 0; i < n; ++i)
      ws.inertia.M_tilde[i] = model.joint(i).M;
    for (int i = n - 1; i >= 0; --i) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        ws.inertia.M_tilde[parent] += ws.inertia.M_tilde[i].transferred(ws.E[i], ws.ell[i]);
    }
  }
}

template <typename S>
void composite_body_masses(const Model<S>& model, Workspace<S>& ws) {
  composite_body_masses(model, ws, ChainTopology{});
}

// Wrenches [n; f] kept component by component, entry i of each row for joint i, all carried
// one joint inwards, [n; f] <- B_{j+1,j}^T [n; f] = [E (n + l x f); E f], and projected on p:
// out[i] = p^T [n; f]. Written out over plain rows (distinct: __restrict) so that the compiler
// does two or four wrenches at once.
template <typename S>
void transfer_wrench_rows(const Mat3<S>& E, const Vec3<S>& l, const Vec6<S>& p, int begin, int end,
                          S* __restrict nx, S* __restrict ny, S* __restrict nz, S* __restrict fx,
                          S* __restrict fy, S* __restrict fz, S* __restrict out) {
  const S e00 = E(0, 0), e01 = E(0, 1), e02 = E(0, 2), e10 = E(1, 0), e11 = E(1, 1), e12 = E(1, 2),
          e20 = E(2, 0), e21 = E(2, 1), e22 = E(2, 2);
  const S lx = l.x(), ly = l.y(), lz = l.z();
  const S p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5];  // p = [0 0 s; p_v]: p0 = p1 = 0
  for (int i = begin; i < end; ++i) {
    const S mx = nx[i] + ly * fz[i] - lz * fy[i];
    const S my = ny[i] + lz * fx[i] - lx * fz[i];
    const S mz = nz[i] + lx * fy[i] - ly * fx[i];
    const S gx = e00 * fx[i] + e01 * fy[i] + e02 * fz[i];
    const S gy = e10 * fx[i] + e11 * fy[i] + e12 * fz[i];
    const S gz = e20 * fx[i] + e21 * fy[i] + e22 * fz[i];
    nx[i] = e00 * mx + e01 * my + e02 * mz;
    ny[i] = e10 * mx + e11 * my + e12 * mz;
    nz[i] = e20 * mx + e21 * my + e22 * mz;
    fx[i] = gx;
    fy[i] = gy;
    fz[i] = gz;
    out[i] = p2 * nz[i] + p3 * gx + p4 * gy + p5 * gz;
  }
}

// The last step of the transfers, to the first joint, whose wrenches are projected and not
// kept: out[i] = p^T B^T [n; f] = (B p)^T [n; f] with B p = [a; b], a = E^T p_w and
// b = E^T p_v + a x l (as p_w^T E (l x f) = (a x l)^T f). One 6-vector per step, then a
// six-term dot product per entry instead of a transfer (a third of the transfers at n = 6).
template <typename S>
void project_transferred_rows(const Mat3<S>& E, const Vec3<S>& l, const Vec6<S>& p, int begin,
                              int end, const S* __restrict nx, const S* __restrict ny,
                              const S* __restrict nz, const S* __restrict fx,
                              const S* __restrict fy, const S* __restrict fz, S* __restrict out) {
  const Vec3<S> a = p[2] * E.row(2).transpose();  // E^T p_w, p_w = [0 0 s]
  const Vec3<S> b = E.transpose() * linear(p) + cross(a, l);
  const S a0 = a.x(), a1 = a.y(), a2 = a.z(), b0 = b.x(), b1 = b.y(), b2 = b.z();
  for (int i = begin; i < end; ++i)
    out[i] = a0 * nx[i] + a1 * ny[i] + a2 * nz[i] + b0 * fx[i] + b1 * fy[i] + b2 * fz[i];
}

// p^T w for a joint-rate propagation vector p = [0 0 s; p_v] (Eqs. 13, 15), its zeros skipped
// and w read by components: Eigen's packed dot product loaded w back from memory just after it
// was stored, and stalled clang's code on store-to-load forwarding.
template <typename S>
inline S joint_vector_dot(const Vec6<S>& p, const Vec6<S>& w) {
  return p[2] * w[2] + p[3] * w[3] + p[4] * w[4] + p[5] * w[5];
}

// i_ij = i_ji = p_i^T M~_i B_ij p_j, Eq. (24), for j <= i. Read as p_j^T (B_ij^T M~_i p_i): the
// wrench M~_i p_i is carried inwards one joint at a time, B_ij^T = B_{j+1,j}^T ... B_{i,i-1}^T
// by Eq. (14), and projected on each p_j; so an entry costs one transfer, not a 6x6 product.
// Joint by joint from the tip, the wrenches of all outer joints take the step together: they
// are independent of one another, where each wrench's own steps are not.
template <typename S>
void gim_by_wrench_transfers(const Model<S>& model, Workspace<S>& ws) {
  size_square(ws.inertia.I, model.dof());
  composite_body_masses(model, ws);
  const int n = model.dof();
  auto& W = ws.inertia.wrenches;  // row-major: rows n_x, n_y, n_z, f_x, f_y, f_z; column i: joint i
  for (int j = n - 1; j >= 0; --j) {
    const Vec6<S>& p = model.joint(j).p;
    if (j == 0 && n > 1) {  // the wrenches are not needed beyond joint 1: projected only
      project_transferred_rows(ws.E[1], ws.ell[1], p, 1, n, W.row(0).data(), W.row(1).data(),
                               W.row(2).data(), W.row(3).data(), W.row(4).data(), W.row(5).data(),
                               ws.inertia.I.col(0).data());
    } else if (j + 1 < n) {
      transfer_wrench_rows(ws.E[j + 1], ws.ell[j + 1], p, j + 1, n, W.row(0).data(),
                           W.row(1).data(), W.row(2).data(), W.row(3).data(), W.row(4).data(),
                           W.row(5).data(), ws.inertia.I.col(j).data());
    }
    const Vec6<S> w = ws.inertia.M_tilde[j].times_joint_vector(p);  // M~_j p_j
    W.col(j) = w;
    ws.inertia.I(j, j) = joint_vector_dot(p, w);
  }
  ws.inertia.I.template triangularView<Eigen::StrictlyUpper>() = ws.inertia.I.transpose();
}

// The same Eqs. (23b) and (24) with every vector referred to one point, the base origin O, in
// the base frame. There all twists are of the same point, so B_ij = 1 and
//   M~_i^O = M_i^O + M~_{i+1}^O,   i_ij = i_ji = (p_j^O)^T M~_i^O p_i^O  (j <= i),
// where, with R_i the orientation of J_i and c_i the mass centre C_i in the base frame,
//   p_i^O = [R_i p_w; R_i p_v + c_i x R_i p_w]   (the rate of the point at O)
//   M_i^O = M_i rotated by R_i and seen from O.
// Each entry is one independent dot product instead of a chain of transfers: more work per
// joint, far less per entry, so it wins on long chains.
// With w_i = M~_i^O p_i^O, entry (i, j) of I below the diagonal is w_i^T p_j (i >= j), six
// multiply-adds, and the same number above it (symmetric_from_projections).
template <typename S>
void gim_in_base_frame(const Model<S>& model, Workspace<S>& ws) {
  const int n = model.dof();
  size_square(ws.inertia.I, n);
  link_frames_in_base(model, ws);
  for (int i = 0; i < n; ++i) {
    const Mat3<S>& R = ws.R_base[i];
    const Vec3<S>& c = ws.c_base[i];
    const Vec6<S>& p = model.joint(i).p;
    const Vec3<S> axis = R * angular(p);
    ws.inertia.p_O.col(i).template head<3>() = axis;
    ws.inertia.p_O.col(i).template tail<3>() = R * linear(p) + cross(c, axis);
    ws.inertia.M_O[i] = model.joint(i).M.rotated(R).shifted(c);
  }
  auto& W =
      ws.inertia.wrenches;  // row-major; gim_by_wrench_transfers' scratch, unused on this path
  BodyInertia<S> M_tilde;   // M~_i^O, Eq. (23b), summed in a local as in composite_body_masses
  for (int i = n - 1; i >= 0; --i) {
    M_tilde += ws.inertia.M_O[i];
    W.col(i) = M_tilde.momentum(ws.inertia.p_O.col(i).template head<3>(),
                                ws.inertia.p_O.col(i).template tail<3>());
  }
  symmetric_from_projections(W, ws.inertia.p_O, ws.inertia.I);  // Eq. (24)
}

// Eq. (24) on a tree: i_ij = p_j^T B_ij^T M~_i p_i for every joint j on the path from the base
// to i, B_ij^T the transfers along that path (B_{k,lambda(k)}^T, one per joint, Eq. 14); for the
// other pairs I_ij = 0, no link being moved by both joints. The wrench M~_i p_i is carried from
// i towards the base, projected on each joint it passes: O(n d) entries, one transfer each, each
// written with its mirror i_ji. The matrix is zeroed first (n^2 contiguous stores), so that no
// stale entry survives off the paths; mirroring the whole triangle instead, a strided copy of
// n^2 / 2 entries, took more time than the entries themselves (the humanoid's 29 joints).
// With a floating base (floating_inertia, below) the same pass fills the joints' block of the
// (6 + n) matrix `gim`, from row and column 6, and carries each wrench the last step to the
// base: B_{k,0}^T M~_i p_i is the coupling of joint i with the base's six rates, [f; n] in rows 0-5
// of column 6 + i (and its mirror).
template <typename S>
void gim_on_tree(const Model<S>& model, Workspace<S>& ws, MatX<S>& gim, int offset) {
  const int n = model.dof();
  size_square(gim, n + offset);
  gim.setZero();
  composite_body_masses(model, ws, TreeTopology{model.parents().data()});
  for (int i = 0; i < n; ++i) {
    const Vec6<S>& p = model.joint(i).p;
    const Vec6<S> w = ws.inertia.M_tilde[i].times_joint_vector(p);  // M~_i p_i
    const int row = offset + i;
    gim(row, row) = joint_vector_dot(p, w);
    Vec3<S> n_i = angular(w), f_i = linear(w);
    int k = i;
    for (int j = model.parent(i); j >= 0; k = j, j = model.parent(j)) {
      transfer_wrench(ws.E[k], ws.ell[k], n_i, f_i);  // B_{k,j}^T, j = lambda(k)
      gim(offset + j, row) = gim(row, offset + j) = joint_force(model.joint(j).p, n_i, f_i);
    }
    if (offset == 0) continue;
    transfer_wrench(ws.E[k], ws.ell[k], n_i, f_i);  // B_{k,0}^T: to the base origin
    gim.col(row).template head<3>() = f_i;
    gim.col(row).template segment<3>(3) = n_i;
    gim.row(row).template head<6>() = gim.col(row).template head<6>().transpose();
  }
}

template <typename S>
void gim_on_tree(const Model<S>& model, Workspace<S>& ws) {
  gim_on_tree(model, ws, ws.inertia.I, 0);
}

// The GIM I(q) of Eq. (20). Up to kShortChain joints the wrench transfers are cheaper; beyond,
// the base-frame form (measured crossover on this project's machine: about 14 joints with
// clang++ 14, 20 with g++ 12). A tree takes the wrench transfers at every size (gim_on_tree):
// the base-frame form wins by its cheap entries when there are n^2 of them to fill, and its
// kernel (symmetric_from_projections) fills them all, where a tree has O(n d) entries on its
// paths and zeros elsewhere, and its per-joint set-up (each link's mass moved to the base
// origin) then dominates.
constexpr int kShortChain = 18;

// With a floating base (base_motion.hpp), the base's 6x6 block from the composite body M~_0
// about the base origin, acting on [v; w]: the momentum is m v - h x w and h x v + I_O w.
template <typename S, typename Block>
void write_base_block(const BodyInertia<S>& M, Block&& out) {
  out.template topLeftCorner<3, 3>() = M.mass * Mat3<S>::Identity();
  out.template topRightCorner<3, 3>() = -cross_matrix(M.first_moment);
  out.template bottomLeftCorner<3, 3>() = cross_matrix(M.first_moment);
  out.template bottomRightCorner<3, 3>() = M.rotational;
}

namespace unchecked {
// The (6 + n) x (6 + n) inertia matrix, rates ordered [v; w; qd]: the joints' block and their
// coupling with the base in one pass over the paths (gim_on_tree with the base: Eq. 24 with
// p_0 = 1, the base's six rates, B_{j,0}^T M~_j p_j), then the base's block from the composite
// of everything, M~_0 of Eq. (23b). Returns ws.inertia.I_floating.
template <typename S>
const MatX<S>& floating_inertia(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, joint_coordinates(model, q));
  MatX<S>& M = ws.inertia.I_floating;
  gim_on_tree(model, ws, M, 6);
  if (model.has_rotors()) M.diagonal().tail(model.dof()) += model.rotor_inertia();
  BodyInertia<S> composite = model.base_inertia();
  for_each_root_joint(
      model, [&](int c) { composite += ws.inertia.M_tilde[c].transferred(ws.E[c], ws.ell[c]); });
  write_base_block(composite, M.template topLeftCorner<6, 6>());
  return M;
}

// The (6 + n) inertia matrix factored as L^T D L with the parent array of the rates (tree_ltdl;
// Model::rate_parents: the six base rates a chain, the joints below them). False unless it is
// positive definite.
template <typename S>
bool factor_floating_inertia(const Model<S>& model, Workspace<S>& ws) {
  size_square(ws.inertia.L_floating, model.nv());
  return tree_ltdl(ws.inertia.I_floating, ws.inertia.L_floating, ws.inertia.column_floating,
                   model.rate_parents().data(), model.rate_subtree_ends().data());
}

// Its inverse through that factor. Returns ws.inertia.inverse_floating.
template <typename S>
const MatX<S>& floating_inverse_inertia(const Model<S>& model, Workspace<S>& ws,
                                        ConstVectorRef<S> q) {
  floating_inertia(model, ws, q);
  size_square(ws.inertia.inverse_floating, model.nv());
  if (!factor_floating_inertia(model, ws)) {
    ws.inertia.inverse_floating.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.inertia.inverse_floating;
  }
  tree_ltdl_inverse(ws.inertia.L_floating, model.rate_parents().data(), ws.inertia.column_floating,
                    ws.inertia.inverse_floating);
  return ws.inertia.inverse_floating;
}
}  // namespace unchecked

// The generalized inertia matrix I(q), Eq. (24), n x n (ws.inertia.I), or (6 + n) x (6 + n) with a
// floating base (ws.inertia.I_floating), rates ordered [v; w; qd].
template <typename S>
const MatX<S>& generalized_inertia(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_call(model, ws, "generalized_inertia", q);
  if (model.floating()) return unchecked::floating_inertia(model, ws, q);
  update_joint_frames(model, ws, q);
  if (!model.is_chain()) {
    gim_on_tree(model, ws);
  } else if (model.dof() <= kShortChain) {
    gim_by_wrench_transfers(model, ws);
  } else {
    gim_in_base_frame(model, ws);
  }
  // The rotor inertias G^2 Jm of the drives (docs/robot-file.md) on the diagonal.
  if (model.has_rotors()) ws.inertia.I.diagonal() += model.rotor_inertia();
  return ws.inertia.I;
}

// I = L L^T (Cholesky), L into the lower triangle of ws.inertia.L; false unless I is positive
// definite (cholesky.hpp).
template <typename S>
bool factor_generalized_inertia(Workspace<S>& ws) {
  ws.inertia.L = ws.inertia.I;  // sized like I at the first call
  ws.inertia.cholesky.size_for(ws.inertia.I.rows());
  return ws.inertia.factored = cholesky_in_place(ws.inertia.L, ws.inertia.cholesky);
}

// x <- I^-1 x with the factor of factor_generalized_inertia: L y = x, then L^T x = y.
template <typename S, typename Vector>
void solve_with_inertia_factor(const Workspace<S>& ws, Vector&& x) {
  ws.inertia.L.template triangularView<Eigen::Lower>().solveInPlace(x);
  ws.inertia.L.transpose().template triangularView<Eigen::Upper>().solveInPlace(x);
}

// On a tree, I = L^T D L with the parent array (Featherstone 2008, Table 6.3, by dot products:
// tree_ltdl in kernels/tree_cholesky.hpp), which keeps L as sparse as I: O(n d^2), not O(n^3).
// D on the diagonal of ws.inertia.L, the unit L below it on the paths (zeros elsewhere); false
// (and ws.inertia.factored false) unless I is positive definite.
template <typename S>
bool factor_tree_inertia(const Model<S>& model, Workspace<S>& ws) {
  size_square(ws.inertia.L, model.dof());
  return ws.inertia.factored = tree_ltdl(ws.inertia.I, ws.inertia.L, ws.inertia.column,
                                         model.parents().data(), model.subtree_ends().data());
}

// I factored as the cholesky route factors it: I = L L^T on a chain (factor_generalized_inertia),
// I = L^T D L on a tree (factor_tree_inertia).
template <typename S>
bool factor_inertia_for(const Model<S>& model, Workspace<S>& ws) {
  if (model.is_chain()) return factor_generalized_inertia(ws);
  return factor_tree_inertia(model, ws);
}

// qdd = I^-1 phi on a tree, from ws.inertia.I and ws.inertia.phi through I = L^T D L (Table 6.4:
// O(n d) once factored).
template <typename S>
const VecX<S>& accelerations_on_tree(const Model<S>& model, Workspace<S>& ws) {
  if (!factor_tree_inertia(model, ws)) {
    ws.inertia.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.inertia.qdd;
  }
  ws.inertia.qdd = ws.inertia.phi;
  tree_ltdl_solve(ws.inertia.L, model.parents().data(), ws.inertia.qdd);
  return ws.inertia.qdd;
}

// qdd = I^-1 phi, Eq. (33), from ws.inertia.I and ws.inertia.phi: I = L L^T on a chain, the sparse
// I = L^T D L on a tree (accelerations_on_tree). Returns ws.inertia.qdd; NaN if I is not positive
// definite (ws.inertia.factored is then false).
template <typename S>
const VecX<S>& accelerations_from_inertia(const Model<S>& model, Workspace<S>& ws) {
  if (!model.is_chain()) return accelerations_on_tree(model, ws);
  if (!factor_generalized_inertia(ws)) {
    ws.inertia.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.inertia.qdd;
  }
  ws.inertia.qdd = ws.inertia.phi;
  solve_with_inertia_factor(ws, ws.inertia.qdd);
  return ws.inertia.qdd;
}

// I^-1 = L^-T L^-1 through the Cholesky factor I = L L^T (I is symmetric positive definite):
// X = L^-1 column by column (L x = e_k involves only the trailing block of L), then the lower
// triangle of X^T X, each column one triangular matrix-vector product, mirrored. Triangular
// solves with I as the right-hand side would take their blocks from the heap on long chains.
// Column j of X^T X needs only the columns of X from j on, so it replaces column j of X in
// place. NaN if I is not positive definite (ws.inertia.factored is then false); L stays in
// ws.inertia.L either way. On a tree, I = L^T D L with the parent array and
// I^-1 = L^-1 D^-1 L^-T (tree_ltdl_inverse): O(n^2 d) where the chain's form is O(n^3).
// With a floating base, the (6 + n) inverse through the L^T D L factor of the rates' tree.
template <typename S>
const MatX<S>& inverse_generalized_inertia(const Model<S>& model, Workspace<S>& ws,
                                           ConstVectorRef<S> q) {
  if (model.floating()) {
    require_call(model, ws, "inverse_generalized_inertia", q);
    return unchecked::floating_inverse_inertia(model, ws, q);
  }
  generalized_inertia(model, ws, q);
  size_square(ws.inertia.inverse, model.dof());
  if (!factor_inertia_for(model, ws)) {
    ws.inertia.inverse.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.inertia.inverse;
  }
  if (!model.is_chain()) {
    tree_ltdl_inverse(ws.inertia.L, model.parents().data(), ws.inertia.column, ws.inertia.inverse);
    return ws.inertia.inverse;
  }
  const Eigen::Index n = ws.inertia.I.rows();
  MatX<S>& X = ws.inertia.inverse;
  X.setIdentity();
  for (Eigen::Index k = 0; k < n; ++k) {
    ws.inertia.L.bottomRightCorner(n - k, n - k)
        .template triangularView<Eigen::Lower>()
        .solveInPlace(X.col(k).tail(n - k));
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    auto column = ws.inertia.column.head(n - j);
    column.noalias() =
        X.bottomRightCorner(n - j, n - j).template triangularView<Eigen::Lower>().transpose() *
        X.col(j).tail(n - j);
    X.col(j).tail(n - j) = column;
  }
  X.template triangularView<Eigen::StrictlyUpper>() = X.transpose();
  return ws.inertia.inverse;
}

}  // namespace denoc
