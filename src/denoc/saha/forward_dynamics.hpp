// Forward dynamics: the joint accelerations qdd that the joint forces tau produce.
//
// The O(n) route is Saha's (1999) Section 5.2 and Appendix B (RFDSIM; also Saha 1997, the UDU^T
// paper): reverse Gaussian elimination factors the generalized inertia matrix as I = U D U^T
// without forming it, Eq. (53), and I qdd = phi, Eq. (33), is solved in three recursions:
//   tau^ = U^-1 phi     backward, Eqs. (34)-(35)
//   tau~ = D^-1 tau^    one division per joint
//   qdd  = U^-T tau~    forward, Eqs. (36)-(37)
// U and D come from the articulated-body masses M^_i, Eqs. (47)-(50).
// The O(n^3) route forms I (generalized_inertia.hpp) and factors it by Cholesky; it is the
// reference that the O(n) route is compared with, and the faster one for short chains.
#pragma once

#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

// The five EIGEN_ALWAYS_INLINE of this file, measured together (g++ 12, docs/performance.md,
// "Compiler attributes, each measured"): without them the O(n) forward dynamics took 1.07-1.08x
// as long (the Panda, Baxter and Solo 12).

// An articulated-body mass M^ = [A K; K^T C] in 3x3 blocks (A, C symmetric): the 6x6 matrix
// of Eq. (50) without its mirrored lower-left block, so that no entry is computed twice.
template <typename S>
struct ArticulatedMass {
  Mat3<S> A, K, C;
};

// M^_{i+1} - psi^_{i+1} psi_{i+1}^T, psi^ = [n^; f^], psi = psi^ / m^ = [n; f]: the outer
// body as the joint i+1 lets it move (the bracket of Eq. 50), upper triangles of A and C only.
// psi^ as computed from M^ (not m^ psi) and psi by a division (not by 1 / m^): then
// (M^ - psi^ psi^T) p = psi^ (1 - psi^T p) cancels to rounding, which in single precision keeps
// the U D U^T route more accurate than Cholesky on an ill-conditioned arm (test_fd_essentials).
template <typename S>
EIGEN_ALWAYS_INLINE void subtract_joint_motion(ArticulatedMass<S>& M, const Vec3<S>& n_hat,
                                               const Vec3<S>& f_hat, const Vec3<S>& n,
                                               const Vec3<S>& f) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r <= c; ++r) {
      M.A(r, c) -= n_hat[r] * n[c];
      M.C(r, c) -= f_hat[r] * f[c];
    }
    M.K.col(c) -= n_hat * f[c];
  }
}

// B_{i+1,i}^T M B_{i+1,i} (the transfer in Eq. 50): with B = [1 0; -L 1] diag(E^T, E^T),
// L = [ell x] and M = [A K; K^T C] in 3x3 blocks,  A' = A + L K^T - K L - L C L,  K' = K + L C,
// C' = C,  then each block turned into J_i by E. The products by L are cross products; A and C are
// read and written through their upper triangles, mirrored by rotate_symmetric.
template <typename S>
EIGEN_ALWAYS_INLINE void transfer_articulated(const Mat3<S>& E, const Vec3<S>& ell,
                                              ArticulatedMass<S>& M) {
  Mat3<S> C = M.C.template selfadjointView<Eigen::Upper>();
  Mat3<S> LC, LKt;
  for (int j = 0; j < 3; ++j) {
    LC.col(j) = cross(ell, Vec3<S>(C.col(j)));
    LKt.col(j) = cross(ell, Vec3<S>(M.K.row(j).transpose()));
  }
  // (L C L)(r, c) = -(ell x (LC)^T_r)_c, upper triangle; -K L = (L K^T)^T.
  Mat3<S> A;
  for (int r = 0; r < 3; ++r) {
    const Vec3<S> LCL_r = -cross(ell, Vec3<S>(LC.row(r).transpose()));
    for (int c = r; c < 3; ++c)
      A(r, c) = A(c, r) = M.A(r, c) + LKt(r, c) + LKt(c, r) - LCL_r[c];
  }
  M.A = rotate_symmetric(E, A);
  M.C = rotate_symmetric(E, C);
  const Mat3<S> K = M.K + LC;
  Mat3<S> EK;
  EK.noalias() = E * K;
  M.K.noalias() = EK * E.transpose();
}

// m^_i = p_i^T psi^_i (+ G_i^2 Jm_i),  psi_i = psi^_i / m^_i                             (47)-(48)
// psi_{i-1,i} = B_{i,i-1}^T psi_i                                                       (47)
// stored for joint i, from psi^_i = M^_i p_i = [n^; f^]. The caller forms psi^_i in its own loop
// and passes it in: formed in a helper and passed out through references, g++ 12 kept it in
// memory, and the chain's articulated masses took 1.07x as long.
template <typename S>
EIGEN_ALWAYS_INLINE void articulated_pivot(const Joint<S>& joint, const Mat3<S>& E,
                                           const Vec3<S>& ell, int i, Workspace<S>& ws,
                                           const Vec3<S>& n_hat, const Vec3<S>& f_hat) {
  // m^_i = p_i^T M^_i p_i, Eq. (47), plus the rotor inertia G^2 Jm of the drive
  // (docs/robot-file.md): the diagonal entry i_ii of I gains it, and the reverse elimination of
  // Eq. (53) takes each pivot m^_i with it, so psi_i (48) and the Schur complement of Eq. (50)
  // use this m^_i.
  const S m_hat = joint_force(joint.p, n_hat, f_hat) + joint.rotor_inertia;
  Vec3<S> n = n_hat / m_hat, f = f_hat / m_hat;
  ws.m_hat[i] = m_hat;
  angular(ws.psi[i]) = n;  // half by half (see forward_recursion)
  linear(ws.psi[i]) = f;
  transfer_wrench(E, ell, n, f);
  angular(ws.psi_parent[i]) = n;
  linear(ws.psi_parent[i]) = f;
}

// On a tree, M^_i = M_i + the sum its children left in ws.children_mass[i] (Eq. 50 summed over
// the children c of i, Shah, Saha and Dutt 2013; docs/trees.md).
template <typename S>
EIGEN_ALWAYS_INLINE void gather_children_mass(const Joint<S>& joint, const Mat6<S>& children,
                                              ArticulatedMass<S>& M_hat) {
  M_hat.A = children.template topLeftCorner<3, 3>() + joint.M.rotational;
  M_hat.K = children.template topRightCorner<3, 3>();
  M_hat.C = children.template bottomRightCorner<3, 3>();
  M_hat.C.diagonal().array() += joint.M.mass;
}

// On a tree, joint i's term of its parent's sum in Eq. (50):
// B_{i,lambda(i)}^T (M^_i - psi^_i psi_i^T) B_{i,lambda(i)}, added into the parent's entry.
template <typename S>
EIGEN_ALWAYS_INLINE void scatter_to_parent(const Workspace<S>& ws, int i, const Vec3<S>& n_hat,
                                           const Vec3<S>& f_hat, ArticulatedMass<S>& M_hat,
                                           Mat6<S>& parent) {
  subtract_joint_motion(M_hat, n_hat, f_hat, Vec3<S>(angular(ws.psi[i])),
                        Vec3<S>(linear(ws.psi[i])));
  transfer_articulated(ws.E[i], ws.ell[i], M_hat);  // A and C whole, mirrored
  parent.template topLeftCorner<3, 3>() += M_hat.A;
  parent.template topRightCorner<3, 3>() += M_hat.K;
  parent.template bottomRightCorner<3, 3>() += M_hat.C;
}

// M^_i = M_i + B_{i+1,i}^T (M^_{i+1} - psi^_{i+1} psi_{i+1}^T) B_{i+1,i},  M^_n = M_n   (50)
// then the pivot of joint i, Eqs. (47)-(48) (articulated_pivot).
// From the tip inwards; needs the joint frames of the current q. On a chain M^ lives only from one
// joint to the next: only psi_i, m^_i and psi_{i-1,i} are kept. On a tree the bracket sums over
// the children of i (Shah, Saha and Dutt 2013): each child, complete before its parent since it
// comes later in the numbering, adds its term into the parent's entry (docs/trees.md).
template <typename S, typename Topology>
void articulated_body_masses(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  ArticulatedMass<S> M_hat;
  Vec3<S> n_hat, f_hat;  // psi^_i = M^_i p_i = [n^; f^], kept for joint i - 1
  if constexpr (!Topology::chain) {
    for (Mat6<S>& M : ws.children_mass)
      M.setZero();
    // A floating base gathers its children's terms as any parent does (docs/floating-base.md).
    ws.base.articulated.setZero();
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    if constexpr (!Topology::chain) {
      gather_children_mass(joint, ws.children_mass[i], M_hat);
    } else if (i + 1 < model.dof()) {
      subtract_joint_motion(M_hat, n_hat, f_hat, Vec3<S>(angular(ws.psi[i + 1])),
                            Vec3<S>(linear(ws.psi[i + 1])));
      transfer_articulated(ws.E[i + 1], ws.ell[i + 1], M_hat);
      M_hat.A += joint.M.rotational;  // M_i about C_i: [I_i 0; 0 m_i 1], no first moment
      M_hat.C.diagonal().array() += joint.M.mass;
    } else {
      M_hat.A = joint.M.rotational;
      M_hat.K.setZero();
      M_hat.C = joint.M.mass * Mat3<S>::Identity();
    }
    // psi^_i = M^_i p_i with p_i = [s e_z; p_v] (Eqs. 13, 15): one angular column at most.
    const S s = joint.p[2];
    const Vec3<S> p_v = linear(joint.p);
    n_hat = s * M_hat.A.col(2) + M_hat.K * p_v;
    f_hat = s * M_hat.K.row(2).transpose() + M_hat.C * p_v;
    articulated_pivot(joint, ws.E[i], ws.ell[i], i, ws, n_hat, f_hat);
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        scatter_to_parent(ws, i, n_hat, f_hat, M_hat, ws.children_mass[parent]);
      else if (model.floating())
        scatter_to_parent(ws, i, n_hat, f_hat, M_hat, ws.base.articulated);
    }
  }
}

// psi_i, m^_i and psi_{i-1,i} of every joint for the current joint frames, whatever the topology.
template <typename S>
void articulated_body_masses(const Model<S>& model, Workspace<S>& ws) {
  require_workspace(model, ws, "articulated_body_masses");
  with_topology(model, [&](auto topology) { articulated_body_masses(model, ws, topology); });
}

// tau^ = U^-1 phi with phi = tau - h, from the tip inwards:                         (33)-(35)
//   tau^_i = phi_i - p_i^T eta_{i,i+1},  eta_{i,i+1} = B_{i+1,i}^T eta_{i+1},
//   eta_{i+1} = psi_{i+1} tau^_{i+1} + eta_{i+1,i+2},  eta_{n,n+1} = 0.
// (Eq. 35 as printed has tau^_{i-1}; the elimination it performs needs tau^_{i+1}.)
// h_i = p_i^T gamma_i, Eq. (30), with gamma_i from the backward recursion of Eq. (7) at qdd = 0
// (t_i and xi_i from forward_recursion). gamma and eta are both wrenches carried inwards by
// B^T, so their sum zeta_i = gamma_i + eta_{i,i+1} is carried instead, one transfer per joint:
//   zeta_i = M_i xi_i + Mdot_i t_i + B_{i+1,i}^T zeta_{i+1} + psi_{i,i+1} tau^_{i+1}
//   tau^_i = tau_i - p_i^T zeta_i
// with psi_{i-1,i} from articulated_body_masses, so that the transfer need not wait for tau^_i.
// On a tree the last two terms of zeta_i sum over the children c of i (eta_{i,c} of every branch,
// as gamma_i sums them in backward_recursion): each child adds its own into ws.children_wrench.
template <typename S, typename Topology>
void solve_unit_upper(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau,
                      Topology topology) {
  Vec3<S> n = Vec3<S>::Zero(), f = Vec3<S>::Zero();  // zeta_i = [n; f]
  if constexpr (!Topology::chain) {
    for (Vec6<S>& zeta : ws.children_wrench)
      zeta.setZero();
    ws.base.bias.setZero();  // a floating base gathers its children's too
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    if constexpr (!Topology::chain)
      n = angular(ws.children_wrench[i]), f = linear(ws.children_wrench[i]);
    add_link_wrench(joint.M, ws.t[i], ws.xi[i], n, f);  // gamma_i's own term, Eqs. (7)-(8)
    const S tau_hat = tau[i] - joint_force(joint.p, n, f);
    ws.tau_hat[i] = tau_hat;
    transfer_wrench(ws.E[i], ws.ell[i], n, f);
    n += angular(ws.psi_parent[i]) * tau_hat;
    f += linear(ws.psi_parent[i]) * tau_hat;
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      Vec6<S>& zeta = parent >= 0 ? ws.children_wrench[parent] : ws.base.bias;
      if (parent < 0 && !model.floating()) continue;
      angular(zeta) += n;
      linear(zeta) += f;
    }
  }
}

// qdd = U^-T tau~, from the base outwards:                                           (36)-(37)
//   qdd_i = tau~_i - psi_i^T mu_{i,i-1},  mu_{i,i-1} = B_{i,i-1} mu_{i-1},
//   mu_{i-1} = p_{i-1} qdd_{i-1} + mu_{i-1,i-2},  mu_{1,0} = 0.
// psi_i^T B_{i,i-1} mu_{i-1} is read as psi_{i-1,i}^T mu_{i-1}, so that the transfer of mu_{i-1}
// need not wait for qdd_i. On a tree i - 1 is the parent lambda(i), whose mu every child reads
// back from ws.joint_twist (docs/trees.md).
template <typename S, typename Topology>
void solve_unit_lower(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  // mu_{i-1} = [w; v]; mu_0 = 0 for a fixed base (a chain's), the base's own acceleration for a
  // floating one (docs/floating-base.md: the base is the first pivot of the elimination).
  Vec3<S> w = Vec3<S>::Zero(), v = Vec3<S>::Zero();
  Vec3<S> base_w = w, base_v = v;
  if constexpr (!Topology::chain)
    if (model.floating()) base_w = angular(ws.base.accel), base_v = linear(ws.base.accel);
  for (int i = 0; i < model.dof(); ++i) {
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        w = angular(ws.joint_twist[parent]), v = linear(ws.joint_twist[parent]);
      else
        w = base_w, v = base_v;
    }
    const Vec6<S>& p = model.joint(i).p;
    ws.qdd[i] = ws.tau_hat[i] - angular(ws.psi_parent[i]).dot(w) - linear(ws.psi_parent[i]).dot(v);
    propagate_twist(ws.E[i], ws.ell[i], w, v);
    w += angular(p) * ws.qdd[i];
    v += linear(p) * ws.qdd[i];
    if constexpr (!Topology::chain) angular(ws.joint_twist[i]) = w, linear(ws.joint_twist[i]) = v;
  }
}

// qdd from I(q) qdd = phi = tau - h(q, qd), Eq. (33), in O(n) through I = U D U^T. Returns
// ws.qdd. `tau` must not be a vector of the workspace. One topology dispatch for the whole call.
template <typename S>
const VecX<S>& forward_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  require_fixed_base_call(model, ws, "forward_dynamics");
  require_joint_values(model, "forward_dynamics", "q", q);
  require_joint_values(model, "forward_dynamics", "qd", qd);
  require_joint_values(model, "forward_dynamics", "tau", tau);
  update_joint_frames(model, ws, q);
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, qd, ws.zeros, topology);  // the motion of h in Eq. (33)
    articulated_body_masses(model, ws, topology);          // Eqs. (47)-(50)
    solve_unit_upper(model, ws, tau, topology);            // tau^ = U^-1 (tau - h), (33)-(35)
    ws.tau_hat.array() /= ws.m_hat.array();                // tau~ = D^-1 tau^, Section 5.2
    solve_unit_lower(model, ws, topology);                 // qdd, Eqs. (36)-(37)
  });
  return ws.qdd;
}

// The same accelerations by forming I (Eq. 24) and factoring it, I = L L^T: O(n^3); on a tree
// I = L^T D L with the parent array, O(n d^2) (accelerations_from_inertia). Returns ws.qdd; NaN
// if I is not positive definite (ws.gim_factored is then false).
template <typename S>
const VecX<S>& forward_dynamics_cholesky(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                         ConstVectorRef<S> tau) {
  require_joint_values(model, "forward_dynamics_cholesky", "tau", tau);
  ws.phi = tau - bias_forces(model, ws, q, qd);
  generalized_inertia(model, ws, q);
  return accelerations_from_inertia(model, ws);
}

// The factors of I = U D U^T, Eqs. (53)-(54), for inspection: U (unit upper triangular) in
// ws.U, the diagonal of D in ws.m_hat. Above the diagonal, Eqs. (46)-(48):
//   U_ik = alpha_ik = p_i^T psi_ik,  psi_ik = B_ki^T psi_k  (i < k),
// with B_ki^T applied one joint at a time, as in generalized_inertia. On a tree U_ik is nonzero
// only where i supports k: psi_k is carried inwards along k's path to the base, through its
// parents, and every other entry stays zero (docs/trees.md). O(n^2) on a chain, O(n d) on a tree
// of depth d.
namespace unchecked {  // the floating routes' entry (inverse_dynamics.hpp)
template <typename S>
void udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  ws.U.setIdentity(model.dof(), model.dof());  // sized at the first call
  with_topology(model, [&](auto topology) {
    articulated_body_masses(model, ws, topology);
    for (int k = model.dof() - 1; k > 0; --k) {
      Vec6<S> psi_ik = ws.psi[k];
      for (int j = k, i = topology.parent(k); i >= 0; j = i, i = topology.parent(i)) {
        psi_ik = transfer_wrench(ws.E[j], ws.ell[j], psi_ik);  // B_{j,i}^T, i = lambda(j)
        ws.U(i, k) = model.joint(i).p.dot(psi_ik);
      }
    }
  });
}
}  // namespace unchecked

template <typename S>
void udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_fixed_base_call(model, ws, "udu_factors");
  require_joint_values(model, "udu_factors", "q", q);
  unchecked::udu_factors(model, ws, q);
}

}  // namespace denoc
