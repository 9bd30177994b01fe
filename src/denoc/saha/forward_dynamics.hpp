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
                                           const Vec3<S>& ell, int i, ArticulatedData<S>& data,
                                           const Vec3<S>& n_hat, const Vec3<S>& f_hat) {
  // m^_i = p_i^T M^_i p_i, Eq. (47), plus the rotor inertia G^2 Jm of the drive
  // (docs/robot-file.md): the diagonal entry i_ii of I gains it, and the reverse elimination of
  // Eq. (53) takes each pivot m^_i with it, so psi_i (48) and the Schur complement of Eq. (50)
  // use this m^_i.
  const S m_hat = joint_force(joint.p, n_hat, f_hat) + joint.rotor_inertia;
  Vec3<S> n = n_hat / m_hat, f = f_hat / m_hat;
  data.m_hat[i] = m_hat;
  angular(data.psi[i]) = n;  // half by half (see forward_recursion)
  linear(data.psi[i]) = f;
  transfer_wrench(E, ell, n, f);
  angular(data.psi_parent[i]) = n;
  linear(data.psi_parent[i]) = f;
}

// On a tree, M^_i = M_i + the sum its children left in ws.articulated.children_mass[i] (Eq. 50
// summed over the children c of i, Shah, Saha and Dutt 2013; docs/trees.md).
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
EIGEN_ALWAYS_INLINE void scatter_to_parent(const KinematicsWorkspace<S>& frames,
                                           const ArticulatedData<S>& data, int i,
                                           const Vec3<S>& n_hat, const Vec3<S>& f_hat,
                                           ArticulatedMass<S>& M_hat, Mat6<S>& parent) {
  subtract_joint_motion(M_hat, n_hat, f_hat, Vec3<S>(angular(data.psi[i])),
                        Vec3<S>(linear(data.psi[i])));
  transfer_articulated(frames.E[i], frames.ell[i], M_hat);  // A and C whole, mirrored
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
// Reads the joint frames only (`frames`) and writes `data` only.
template <typename S, typename Topology>
void articulated_body_masses(const Model<S>& model, const KinematicsWorkspace<S>& frames,
                             ArticulatedData<S>& data, Topology topology) {
  ArticulatedMass<S> M_hat;
  Vec3<S> n_hat, f_hat;  // psi^_i = M^_i p_i = [n^; f^], kept for joint i - 1
  if constexpr (!Topology::chain) {
    for (Mat6<S>& M : data.children_mass)
      M.setZero();
    // A floating base gathers its children's terms as any parent does (docs/floating-base.md).
    data.M_hat_0.setZero();
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    if constexpr (!Topology::chain) {
      gather_children_mass(joint, data.children_mass[i], M_hat);
    } else if (i + 1 < model.dof()) {
      subtract_joint_motion(M_hat, n_hat, f_hat, Vec3<S>(angular(data.psi[i + 1])),
                            Vec3<S>(linear(data.psi[i + 1])));
      transfer_articulated(frames.E[i + 1], frames.ell[i + 1], M_hat);
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
    articulated_pivot(joint, frames.E[i], frames.ell[i], i, data, n_hat, f_hat);
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        scatter_to_parent(frames, data, i, n_hat, f_hat, M_hat, data.children_mass[parent]);
      else if (model.floating())
        scatter_to_parent(frames, data, i, n_hat, f_hat, M_hat, data.M_hat_0);
    }
  }
}

// psi_i, m^_i and psi_{i-1,i} of every joint for the current joint frames, whatever the topology.
template <typename S>
void articulated_body_masses(const Model<S>& model, Workspace<S>& ws) {
  require_workspace(model, ws, "articulated_body_masses");
  with_topology(
      model, [&](auto topology) { articulated_body_masses(model, ws, ws.articulated, topology); });
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
// as gamma_i sums them in backward_recursion): each child adds its own into
// ws.articulated.children_wrench.
template <typename S, typename Topology>
void solve_unit_upper(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau,
                      Topology topology) {
  Vec3<S> n = Vec3<S>::Zero(), f = Vec3<S>::Zero();  // zeta_i = [n; f]
  if constexpr (!Topology::chain) {
    for (Vec6<S>& zeta : ws.articulated.children_wrench)
      zeta.setZero();
    ws.articulated.zeta_0.setZero();  // a floating base gathers its children's too
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    if constexpr (!Topology::chain)
      n = angular(ws.articulated.children_wrench[i]), f = linear(ws.articulated.children_wrench[i]);
    add_link_wrench(joint.M, ws.id.t[i], ws.id.xi[i], n, f);  // gamma_i's own term, Eqs. (7)-(8)
    const S tau_hat = tau[i] - joint_force(joint.p, n, f);
    ws.articulated.tau_hat[i] = tau_hat;
    transfer_wrench(ws.E[i], ws.ell[i], n, f);
    n += angular(ws.articulated.psi_parent[i]) * tau_hat;
    f += linear(ws.articulated.psi_parent[i]) * tau_hat;
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      Vec6<S>& zeta = parent >= 0 ? ws.articulated.children_wrench[parent] : ws.articulated.zeta_0;
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
// back from ws.articulated.joint_twist (docs/trees.md).
template <typename S, typename Topology>
void solve_unit_lower(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  // mu_{i-1} = [w; v]; mu_0 = 0 for a fixed base (a chain's), the base's own acceleration for a
  // floating one (docs/floating-base.md: the base is the first pivot of the elimination).
  Vec3<S> w = Vec3<S>::Zero(), v = Vec3<S>::Zero();
  Vec3<S> base_w = w, base_v = v;
  if constexpr (!Topology::chain)
    if (model.floating())
      base_w = angular(ws.articulated.accel_0), base_v = linear(ws.articulated.accel_0);
  for (int i = 0; i < model.dof(); ++i) {
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0)
        w = angular(ws.articulated.joint_twist[parent]),
        v = linear(ws.articulated.joint_twist[parent]);
      else
        w = base_w, v = base_v;
    }
    const Vec6<S>& p = model.joint(i).p;
    ws.articulated.qdd[i] = ws.articulated.tau_hat[i] -
                            angular(ws.articulated.psi_parent[i]).dot(w) -
                            linear(ws.articulated.psi_parent[i]).dot(v);
    propagate_twist(ws.E[i], ws.ell[i], w, v);
    w += angular(p) * ws.articulated.qdd[i];
    v += linear(p) * ws.articulated.qdd[i];
    if constexpr (!Topology::chain)
      angular(ws.articulated.joint_twist[i]) = w, linear(ws.articulated.joint_twist[i]) = v;
  }
}

// M^_0 = M_0 + the sum the joints on the base left in ws.articulated.M_hat_0 (Eq. 50 at the base).
template <typename S>
Mat6<S> base_articulated_mass(const Model<S>& model, const ArticulatedData<S>& data) {
  Mat6<S> M = data.M_hat_0;  // [A K; . C], K^T still to place
  M.template bottomLeftCorner<3, 3>() = M.template topRightCorner<3, 3>().transpose();
  M += model.base_inertia().matrix();
  return M;
}

// M^_0 factored: the base's pivot. False unless it is positive definite.
template <typename S>
bool factor_base_pivot(const Model<S>& model, ArticulatedData<S>& data) {
  data.pivot_0.compute(base_articulated_mass(model, data));
  return data.pivot_0.info() == Eigen::Success;
}

// The base's accelerations [dw; dv] from M^_0 a_0 = f_0 - zeta_0: zeta_0 the base body's own
// wrench at zero acceleration plus what its joints left in ws.articulated.zeta_0 (Eq. 35 at the
// base), f_0 the wrench applied to the base (ws.articulated.applied_0).
template <typename S>
void solve_base_pivot(const Model<S>& model, Workspace<S>& ws) {
  const Vec6<S> zeta =
      ws.articulated.zeta_0 + base_body_wrench(model.base_inertia(), ws.id.t_0, ws.id.xi_0);
  ws.articulated.accel_0 = ws.articulated.pivot_0.solve(Vec6<S>(ws.articulated.applied_0 - zeta));
}

// [dv; dw; qdd] from ws.articulated.accel_0 and ws.articulated.qdd into
// ws.articulated.qdd_floating.
template <typename S>
void gather_floating_accelerations(const Model<S>& model, Workspace<S>& ws) {
  write_linear_first(ws.articulated.accel_0, ws.articulated.qdd_floating.template head<6>());
  ws.articulated.qdd_floating.tail(model.dof()) = ws.articulated.qdd;
}

// The elimination after the articulated masses: tau^ = U^-1 phi to the base, the base's pivot,
// then qdd from the base outwards (Eqs. 34-37 with the base first). The joint forces `tau`.
template <typename S, typename Topology>
void floating_solve(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau,
                    Topology topology) {
  solve_unit_upper(model, ws, tau, topology);  // down to the base, zeta_0 in ws.articulated.zeta_0
  ws.articulated.tau_hat.array() /= ws.articulated.m_hat.array();
  solve_base_pivot(model, ws);
  solve_unit_lower(model, ws, topology);  // from mu_0 = the base's accelerations
}

// The generalized forces of the forward dynamics: the joints' n (the base free), or all 6 + n,
// the base's [f; n] first (in the base frame, about its origin: an external wrench's J^T w).
// The base's into ws.articulated.applied_0 ([n; f], zero for n); returns the joints'.
template <typename S>
auto take_applied_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau) {
  if (tau.size() != model.dof() && tau.size() != model.nv())
    throw std::invalid_argument("the forward dynamics of a floating base: tau has " +
                                std::to_string(tau.size()) + " entries, and the model " +
                                std::to_string(model.dof()) + " joints and " +
                                std::to_string(model.nv()) + " rates");
  ws.articulated.applied_0.setZero();
  if (tau.size() == model.nv()) {
    linear(ws.articulated.applied_0) = tau.template head<3>();
    angular(ws.articulated.applied_0) = tau.template segment<3>(3);
  }
  return tau.tail(model.dof());
}

// The accelerations [dv; dw; qdd] (6 + n) that the forces `tau` (take_applied_forces) produce
// at (q, v), in O(n). Returns ws.articulated.qdd_floating; NaN if M^_0 is not positive definite.
namespace unchecked {
template <typename S>
const VecX<S>& floating_forward_dynamics(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> v,
                                         ConstVectorRef<S> tau) {
  set_base_motion(model, ws, q, v, VecX<S>());
  const auto joint_forces = take_applied_forces(model, ws, tau);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  bool factored = false;
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, joint_rates(model, v), ws.id.zeros, topology);
    // Eqs. (47)-(50), M^_0's sum included
    articulated_body_masses(model, ws, ws.articulated, topology);
    if (!(factored = factor_base_pivot(model, ws.articulated))) return;
    floating_solve(model, ws, joint_forces, topology);
  });
  if (!factored) {
    ws.articulated.qdd_floating.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.articulated.qdd_floating;
  }
  gather_floating_accelerations(model, ws);
  return ws.articulated.qdd_floating;
}
}  // namespace unchecked

// The same accelerations by forming the inertia matrix and factoring it (the cholesky route).
namespace unchecked {
template <typename S>
const VecX<S>& floating_forward_dynamics_cholesky(const Model<S>& model, Workspace<S>& ws,
                                                  ConstVectorRef<S> q, ConstVectorRef<S> v,
                                                  ConstVectorRef<S> tau) {
  VecX<S>& qdd = ws.inertia.qdd_floating;
  qdd = -floating_inverse_dynamics(model, ws, q, v, ws.id.zeros_floating);
  qdd.tail(model.dof()) += take_applied_forces(model, ws, tau);
  if (tau.size() == model.nv()) qdd.template head<6>() += tau.template head<6>();
  floating_inertia(model, ws, q);
  if (!factor_floating_inertia(model, ws)) {
    qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return qdd;
  }
  tree_ltdl_solve(ws.inertia.L_floating, model.rate_parents().data(), qdd);
  return qdd;
}
}  // namespace unchecked

// qdd from I(q) qdd = phi = tau - h(q, qd), Eq. (33), in O(n) through I = U D U^T. Returns
// ws.articulated.qdd. `tau` must not be a vector of the workspace. One topology dispatch for the
// whole call. With a floating base the elimination runs on to the base, whose pivot is the 6x6
// articulated mass M^_0 = M_0 + sum_c B^T (M^_c - psi^_c psi_c^T) B (Featherstone's floating-base
// articulated-body method): the 6 + n accelerations [dv; dw; qdd] into ws.articulated.qdd_floating,
// from tau of the joints' n forces (the base free) or all 6 + n (take_applied_forces).
namespace unchecked {
template <typename S>
const VecX<S>& forward_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  update_joint_frames(model, ws, q);
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, qd, ws.id.zeros, topology);       // the motion of h in Eq. (33)
    articulated_body_masses(model, ws, ws.articulated, topology);  // Eqs. (47)-(50)
    solve_unit_upper(model, ws, tau, topology);  // tau^ = U^-1 (tau - h), (33)-(35)
    // tau~ = D^-1 tau^, Section 5.2
    ws.articulated.tau_hat.array() /= ws.articulated.m_hat.array();
    solve_unit_lower(model, ws, topology);  // qdd, Eqs. (36)-(37)
  });
  return ws.articulated.qdd;
}
}  // namespace unchecked

template <typename S>
const VecX<S>& forward_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  require_call(model, ws, "forward_dynamics", q, qd);
  if (model.floating()) return unchecked::floating_forward_dynamics(model, ws, q, qd, tau);
  require_joint_values(model, "forward_dynamics", "tau", tau);
  return unchecked::forward_dynamics(model, ws, q, qd, tau);
}

// The same accelerations by forming I (Eq. 24) and factoring it, I = L L^T: O(n^3); on a tree
// I = L^T D L with the parent array, O(n d^2) (accelerations_from_inertia), as with a floating
// base. Returns ws.inertia.qdd (ws.inertia.qdd_floating); NaN if I is not positive definite
// (ws.inertia.factored is then false).
template <typename S>
const VecX<S>& forward_dynamics_cholesky(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                         ConstVectorRef<S> tau) {
  require_call(model, ws, "forward_dynamics_cholesky", q, qd);
  if (model.floating()) return unchecked::floating_forward_dynamics_cholesky(model, ws, q, qd, tau);
  require_joint_values(model, "forward_dynamics_cholesky", "tau", tau);
  ws.inertia.phi = tau - unchecked::inverse_dynamics(model, ws, q, qd, ws.id.zeros);
  generalized_inertia(model, ws, q);
  return accelerations_from_inertia(model, ws);
}

// The factors of I = U D U^T, Eqs. (53)-(54), for inspection: U (unit upper triangular) in
// ws.articulated.U, the diagonal of D in ws.articulated.m_hat. Above the diagonal, Eqs. (46)-(48):
//   U_ik = alpha_ik = p_i^T psi_ik,  psi_ik = B_ki^T psi_k  (i < k),
// with B_ki^T applied one joint at a time, as in generalized_inertia. On a tree U_ik is nonzero
// only where i supports k: psi_k is carried inwards along k's path to the base, through its
// parents, and every other entry stays zero (docs/trees.md). O(n^2) on a chain, O(n d) on a tree
// of depth d.
namespace unchecked {
template <typename S>
void udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  ws.articulated.U.setIdentity(model.dof(), model.dof());  // sized at the first call
  with_topology(model, [&](auto topology) {
    articulated_body_masses(model, ws, ws.articulated, topology);
    for (int k = model.dof() - 1; k > 0; --k) {
      Vec6<S> psi_ik = ws.articulated.psi[k];
      for (int j = k, i = topology.parent(k); i >= 0; j = i, i = topology.parent(i)) {
        psi_ik = transfer_wrench(ws.E[j], ws.ell[j], psi_ik);  // B_{j,i}^T, i = lambda(j)
        ws.articulated.U(i, k) = model.joint(i).p.dot(psi_ik);
      }
    }
  });
}
}  // namespace unchecked

// A symmetric 6x6 matrix A = U D U^T, U unit upper triangular: its last row and column
// eliminated first, as Eqs. (47)-(50) eliminate the joints from the tips inwards. A is overwritten.
template <typename S, typename UBlock, typename DBlock>
void factor_udu_6x6(Mat6<S>& A, UBlock&& U, DBlock&& d) {
  U.setIdentity();
  for (int k = 5; k >= 0; --k) {
    d[k] = A(k, k);
    U.col(k).head(k) = A.col(k).head(k) / d[k];
    A.topLeftCorner(k, k).noalias() -= d[k] * U.col(k).head(k) * U.col(k).head(k).transpose();
  }
}

// The factors of I = U D U^T with a floating base (Saha 1999, Eqs. 46-54 run on to the base),
// rates [v; w; qd]: the joints' rows and D as on a fixed base (udu_factors); the base's rows of
// joint k's column, S_0^T B_{r,0}^T psi_k^0, psi_k carried along k's path to the base through its
// root r and read by the base's six unit rates S_0; and the base's 6x6 pivot M^_0 in the order
// [v; w], factored once more as U_0 D_0 U_0^T so that D is diagonal. U into
// ws.articulated.U_floating, the diagonal of D into ws.articulated.d_floating. D is positive where
// I is positive definite.
namespace unchecked {
template <typename S>
void floating_udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  const int n = model.dof();
  unchecked::udu_factors(model, ws,
                         joint_coordinates(model, q));  // also leaves M^_0's sum in ws.articulated
  MatX<S>& U = ws.articulated.U_floating;
  U.setIdentity(n + 6, n + 6);  // sized at the first call
  ws.articulated.d_floating.resize(n + 6);
  U.bottomRightCorner(n, n) = ws.articulated.U;
  ws.articulated.d_floating.tail(n) = ws.articulated.m_hat;
  for (int k = 0; k < n; ++k) {
    Vec6<S> psi = ws.articulated.psi[k];
    for (int j = k; j >= 0; j = model.parent(j))
      psi = transfer_wrench(ws.E[j], ws.ell[j], psi);  // B_{j,lambda(j)}^T, to the base
    write_linear_first(psi, U.col(6 + k).template head<6>());
  }
  const Mat6<S> M = base_articulated_mass(model, ws.articulated);  // [angular; linear]
  Mat6<S> pivot;                                                   // in the order [v; w]
  pivot << M.template bottomRightCorner<3, 3>(), M.template bottomLeftCorner<3, 3>(),
      M.template topRightCorner<3, 3>(), M.template topLeftCorner<3, 3>();
  factor_udu_6x6(pivot, U.template topLeftCorner<6, 6>(),
                 ws.articulated.d_floating.template head<6>());
}
}  // namespace unchecked

// The factors of I = U D U^T: U, unit upper triangular, and the diagonal of D.
template <typename S>
struct UduFactors {
  const MatX<S>& U;
  const VecX<S>& d;
};

// I = U D U^T: n x n (ws.articulated.U and ws.articulated.m_hat), or (6 + n) x (6 + n) with a
// floating base, the base's pivot factored too (ws.articulated.U_floating and
// ws.articulated.d_floating).
template <typename S>
UduFactors<S> udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_call(model, ws, "udu_factors", q);
  if (model.floating()) {
    unchecked::floating_udu_factors(model, ws, q);
    return {ws.articulated.U_floating, ws.articulated.d_floating};
  }
  unchecked::udu_factors(model, ws, q);
  return {ws.articulated.U, ws.articulated.m_hat};
}

// The pivots of I = U D U^T for q, O(n) without forming U: the joints' m^_i (Eq. 47, the
// diagonal of D) and, with a floating base, whether the base's 6x6 pivot M^_0 is positive
// definite (true on a fixed base). What the positive-definiteness check of a run reads.
template <typename S>
struct UduPivots {
  const VecX<S>& joints;
  bool base_positive_definite;
};

namespace unchecked {
template <typename S>
UduPivots<S> udu_pivots(const Model<S>& model, const ArticulatedData<S>& data) {
  return {data.m_hat, !model.floating() || data.pivot_0.info() == Eigen::Success};
}
}  // namespace unchecked

// Eqs. (47)-(50) alone, on a workspace of their own (a check that runs beside another route).
template <typename S>
UduPivots<S> udu_pivots(const Model<S>& model, PivotWorkspace<S>& ws, ConstVectorRef<S> q) {
  require_workspace(model, ws, "udu_pivots");
  require_coordinates(model, "udu_pivots", "q", q);
  update_joint_frames(model, ws.frames, joint_coordinates(model, q));
  with_topology(model, [&](auto topology) {
    articulated_body_masses(model, ws.frames, ws.articulated, topology);
  });
  if (model.floating()) factor_base_pivot(model, ws.articulated);
  return unchecked::udu_pivots(model, ws.articulated);
}

// The same pivots as the last forward_dynamics of the udu route left them.
template <typename S>
UduPivots<S> last_udu_pivots(const Model<S>& model, const Workspace<S>& ws) {
  return unchecked::udu_pivots(model, ws.articulated);
}

}  // namespace denoc
