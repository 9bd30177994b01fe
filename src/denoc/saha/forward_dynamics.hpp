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

// M^_i = M_i + B_{i+1,i}^T (M^_{i+1} - psi^_{i+1} psi_{i+1}^T) B_{i+1,i},  M^_n = M_n   (50)
// psi^_i = M^_i p_i,  m^_i = p_i^T psi^_i (+ G_i^2 Jm_i),  psi_i = psi^_i / m^_i        (47)-(48)
// psi_{i-1,i} = B_{i,i-1}^T psi_i                                                       (47)
// From the tip inwards; needs the joint frames of the current q.
template <typename S>
void articulated_body_masses(const Model<S>& model, Workspace<S>& ws) {
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Vec6<S>& p = model.joint(i).p;
    Mat6<S>& M_hat = ws.M_hat[i];
    M_hat = model.joint(i).M.matrix();
    if (i + 1 < model.dof()) {
      // M^_{i+1} - psi^_{i+1} psi_{i+1}^T: the outer body as the joint i+1 lets it move.
      const Mat6<S> articulated =
          ws.M_hat[i + 1] - ws.m_hat[i + 1] * ws.psi[i + 1] * ws.psi[i + 1].transpose();
      M_hat += transfer_inertia(ws.E[i + 1], ws.ell[i + 1], articulated);
    }
    // M^_i p_i with p_i = [s e_z; p_v] (Eqs. 13, 15): one angular column at most.
    const Vec6<S> psi_hat = p[2] * M_hat.col(2) + M_hat.template rightCols<3>() * linear(p);
    // m^_i = p_i^T M^_i p_i, Eq. (47), plus the rotor inertia G^2 Jm of the drive (spec §6): the
    // diagonal entry i_ii of I gains it, and the reverse elimination of Eq. (53) takes each
    // pivot m^_i with it, so psi_i (48) and the Schur complement of Eq. (50) use this m^_i.
    const S m_hat = p.dot(psi_hat) + model.joint(i).rotor_inertia;
    Vec3<S> n = angular(psi_hat) / m_hat, f = linear(psi_hat) / m_hat;
    ws.m_hat[i] = m_hat;
    angular(ws.psi[i]) = n;  // half by half (see forward_recursion)
    linear(ws.psi[i]) = f;
    transfer_wrench(ws.E[i], ws.ell[i], n, f);
    angular(ws.psi_parent[i]) = n;
    linear(ws.psi_parent[i]) = f;
  }
}

// tau^ = U^-1 phi, from the tip inwards:                                             (34)-(35)
//   tau^_i = phi_i - p_i^T eta_{i,i+1},  eta_{i,i+1} = B_{i+1,i}^T eta_{i+1},
//   eta_{i+1} = psi_{i+1} tau^_{i+1} + eta_{i+1,i+2},  eta_{n,n+1} = 0.
// (Eq. 35 as printed has tau^_{i-1}; the elimination it performs needs tau^_{i+1}.)
// Written as eta_{i-1,i} = psi_{i-1,i} tau^_i + B_{i,i-1}^T eta_{i,i+1}, with psi_{i-1,i} from
// articulated_body_masses, so that the transfer need not wait for tau^_i.
template <typename S>
void solve_unit_upper(const Model<S>& model, Workspace<S>& ws) {
  Vec3<S> n = Vec3<S>::Zero(), f = Vec3<S>::Zero();  // eta_{i,i+1} = [n; f]
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Vec6<S>& p = model.joint(i).p;
    ws.tau_hat[i] = ws.phi[i] - angular(p).dot(n) - linear(p).dot(f);
    transfer_wrench(ws.E[i], ws.ell[i], n, f);
    n += angular(ws.psi_parent[i]) * ws.tau_hat[i];
    f += linear(ws.psi_parent[i]) * ws.tau_hat[i];
  }
}

// qdd = U^-T tau~, from the base outwards:                                           (36)-(37)
//   qdd_i = tau~_i - psi_i^T mu_{i,i-1},  mu_{i,i-1} = B_{i,i-1} mu_{i-1},
//   mu_{i-1} = p_{i-1} qdd_{i-1} + mu_{i-1,i-2},  mu_{1,0} = 0.
// psi_i^T B_{i,i-1} mu_{i-1} is read as psi_{i-1,i}^T mu_{i-1}, so that the transfer of mu_{i-1}
// need not wait for qdd_i.
template <typename S>
void solve_unit_lower(const Model<S>& model, Workspace<S>& ws) {
  Vec3<S> w = Vec3<S>::Zero(), v = Vec3<S>::Zero();  // mu_{i-1} = [w; v]; the base is still
  for (int i = 0; i < model.dof(); ++i) {
    const Vec6<S>& p = model.joint(i).p;
    ws.qdd[i] = ws.tau_hat[i] - angular(ws.psi_parent[i]).dot(w) - linear(ws.psi_parent[i]).dot(v);
    propagate_twist(ws.E[i], ws.ell[i], w, v);
    w += angular(p) * ws.qdd[i];
    v += linear(p) * ws.qdd[i];
  }
}

// qdd from I(q) qdd = phi = tau - h(q, qd), Eq. (33), in O(n) through I = U D U^T. Returns
// ws.qdd. `tau` must not be a vector of the workspace (ws.tau holds h on the way).
template <typename S>
const VecX<S>& forward_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> tau) {
  ws.phi = tau - bias_forces(model, ws, q, qd);  // Eq. (33); also sets the joint frames
  articulated_body_masses(model, ws);            // Eqs. (47)-(50)
  solve_unit_upper(model, ws);                   // tau^, Eqs. (34)-(35)
  ws.tau_hat.array() /= ws.m_hat.array();        // tau~ = D^-1 tau^, step 2 of Section 5.2
  solve_unit_lower(model, ws);                   // qdd, Eqs. (36)-(37)
  return ws.qdd;
}

// The same accelerations by forming I (Eq. 24) and factoring it, I = L L^T: O(n^3). Returns
// ws.qdd; NaN if I is not positive definite (ws.gim_factored is then false).
template <typename S>
const VecX<S>& forward_dynamics_cholesky(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                         ConstVectorRef<S> tau) {
  ws.phi = tau - bias_forces(model, ws, q, qd);
  generalized_inertia(model, ws, q);
  if (!factor_generalized_inertia(ws)) {
    ws.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.qdd;
  }
  ws.qdd = ws.phi;
  solve_with_gim_factor(ws, ws.qdd);
  return ws.qdd;
}

// The factors of I = U D U^T, Eqs. (53)-(54), for inspection: U (unit upper triangular) in
// ws.U, the diagonal of D in ws.m_hat. Above the diagonal, Eqs. (46)-(48):
//   U_ik = alpha_ik = p_i^T psi_ik,  psi_ik = B_ki^T psi_k  (i < k),
// with B_ki^T applied one joint at a time, as in generalized_inertia. O(n^2).
template <typename S>
void udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  articulated_body_masses(model, ws);
  ws.U.setIdentity();
  for (int k = model.dof() - 1; k > 0; --k) {
    Vec6<S> psi_ik = ws.psi[k];
    for (int i = k - 1; i >= 0; --i) {
      psi_ik = transfer_wrench(ws.E[i + 1], ws.ell[i + 1], psi_ik);
      ws.U(i, k) = model.joint(i).p.dot(psi_ik);
    }
  }
}

}  // namespace denoc
