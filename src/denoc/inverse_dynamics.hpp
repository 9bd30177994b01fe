// Recursive O(n) inverse dynamics with the DeNOC matrices, Saha (1999) Section 5.1 (RIDIM):
//   forward recursion   t_i  = B_{i,i-1} t_{i-1} + p_i qd_i                                (12)
//                       xi_i = B_{i,i-1} xi_{i-1} + Bdot_{i,i-1} t_{i-1}
//                              + p_i qdd_i + Omega_i p_i qd_i,   xi_0 = rho                (32)
//   backward recursion  gamma_i = M_i xi_i + Mdot_i t_i + B_{i+1,i}^T gamma_{i+1}          (7)
//                       tau_i   = p_i^T gamma_i                                           (30)
// Gravity enters only through rho = [0; -g] at the base, Eq. (32).
#pragma once

#include "denoc/joint_frames.hpp"

namespace denoc {

template <typename S>
void forward_recursion(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> qd,
                       ConstVectorRef<S> qdd) {
  Vec6<S> t_parent = Vec6<S>::Zero();  // the base does not move...
  Vec6<S> xi_parent = model.rho();     // ...but accelerates at -g, Eq. (32)
  for (int i = 0; i < model.dof(); ++i) {
    const Joint<S>& joint = model.joint(i);
    const Mat3<S>& E = ws.E[i];
    const Vec3<S>& ell = ws.ell[i];
    const Vec6<S> Bt = propagate_twist(E, ell, t_parent);
    ws.t[i] = Bt + joint.p * qd[i];  // Eq. (12)

    // Bdot_{i,i-1} t_{i-1} = [0; omega_{i-1} x d(ell)/dt]: the rate of c_{i,i-1} = -ell.
    const Vec3<S> ell_rate = angular(Bt).cross(ell) + linear(joint.p) * qd[i];
    Vec6<S>& xi = ws.xi[i];
    xi = propagate_twist(E, ell, xi_parent);
    linear(xi) += angular(Bt).cross(ell_rate);
    const Vec3<S> omega = angular(ws.t[i]);
    xi += joint.p * qdd[i] + omega_cross(omega, joint.p) * qd[i];

    t_parent = ws.t[i];
    xi_parent = xi;
  }
}

template <typename S>
void backward_recursion(const Model<S>& model, Workspace<S>& ws) {
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    Vec6<S>& gamma = ws.gamma[i];
    gamma = joint.M * ws.xi[i];  // M_i xi_i
    const Vec3<S> omega = angular(ws.t[i]);
    angular(gamma) += omega.cross(joint.M.rotational * omega);  // Mdot_i t_i, Eq. (8)
    if (i + 1 < model.dof()) gamma += transfer_wrench(ws.E[i + 1], ws.ell[i + 1], ws.gamma[i + 1]);
    ws.tau[i] = joint.p.dot(gamma);  // Eq. (30)
  }
}

// The joint forces tau of Eq. (20), I(q) qdd + C(q, qd) qd, with gravity (through rho): the
// forces that produce the motion (q, qd, qdd). O(n). Returns ws.tau.
template <typename S>
const VecX<S>& inverse_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> qdd) {
  update_joint_frames(model, ws, q);
  forward_recursion(model, ws, qd, qdd);
  backward_recursion(model, ws);
  return ws.tau;
}

// h(q, qd) = C qd + gravity terms = tau(q, qd, 0): what phi = tau - h of Section 5.2 subtracts.
template <typename S>
const VecX<S>& bias_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                           ConstVectorRef<S> qd) {
  return inverse_dynamics(model, ws, q, qd, ws.zeros);
}

// g(q) = tau(q, 0, 0): the joint forces that hold the arm still against gravity.
template <typename S>
const VecX<S>& gravity_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  return inverse_dynamics(model, ws, q, ws.zeros, ws.zeros);
}

}  // namespace denoc
