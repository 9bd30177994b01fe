// Recursive O(n) inverse dynamics with the DeNOC matrices, Saha (1999) Section 5.1 (RIDIM):
//   forward recursion   t_i  = B_{i,i-1} t_{i-1} + p_i qd_i                                (12)
//                       xi_i = B_{i,i-1} xi_{i-1} + Bdot_{i,i-1} t_{i-1}
//                              + p_i qdd_i + Omega_i p_i qd_i,   xi_0 = rho                (32)
//   backward recursion  gamma_i = M_i xi_i + Mdot_i t_i + B_{i+1,i}^T gamma_{i+1}          (7)
//                       tau_i   = p_i^T gamma_i                                           (30)
// Gravity enters only through rho = [0; -g] at the base, Eq. (32).
// On a tree (the DeNOC for tree-type systems, Shah, Saha and Dutt 2013; docs/trees.md) i - 1
// becomes the parent lambda(i) in the forward recursion, and the backward one sums
// B_{c,i}^T gamma_c over every child c of link i: each gamma_c is added into its parent's entry
// once it is complete, since children come after their parent in the numbering.
// A floating base is link 0 (base_motion.hpp): the forward recursion starts from its t_0 and
// xi_0, and its wrench is Eq. (7) at i = 0, its own Newton-Euler wrench plus B_{c,0}^T gamma_c of
// every joint c on it. The forces are then [f_0; n_0; tau_1 .. tau_n], 6 + n.
#pragma once

#include "denoc/model/joint_frames.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/saha/base_motion.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// t_0 = [w; v] and xi_0 = [dw; dv] at the base origin: a fixed base does not move but
// accelerates at -g, Eq. (32); a floating one moves as ws.id.t_0 and xi_0 hold (base_motion.hpp),
// -g in its own frame added to the acceleration of its origin.
template <typename S>
void base_motion(const Model<S>& model, const Workspace<S>& ws, Vec3<S>& w, Vec3<S>& v, Vec3<S>& dw,
                 Vec3<S>& dv) {
  if (!model.floating()) {
    w.setZero(), v.setZero(), dw.setZero(), dv = -model.gravity();
    return;
  }
  w = angular(ws.id.t_0), v = linear(ws.id.t_0);
  dw = angular(ws.id.xi_0), dv = linear(ws.id.xi_0);
}

template <typename S, typename Topology>
void forward_recursion(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> qd,
                       ConstVectorRef<S> qdd, Topology topology) {
  // t_{i-1} = [w; v] and xi_{i-1} = [dw; dv] travel as 3-vectors (packing them into 6-vectors
  // at every step costs more than the arithmetic); on a tree they are the parent's, read back.
  Vec3<S> w = Vec3<S>::Zero(), v = Vec3<S>::Zero();
  Vec3<S> dw = Vec3<S>::Zero(), dv = -model.gravity();  // the chain's base is fixed
  for (int i = 0; i < model.dof(); ++i) {
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent >= 0) {
        w = angular(ws.id.t[parent]), v = linear(ws.id.t[parent]);
        dw = angular(ws.id.xi[parent]), dv = linear(ws.id.xi[parent]);
      } else {
        base_motion(model, ws, w, v, dw, dv);
      }
    }
    const Mat3<S>& E = ws.E[i];
    const Vec3<S>& ell = ws.ell[i];
    // p_i = [s e_z; p_v]: s = 1 for a revolute joint and 0 for a prismatic one, Eqs. (13), (15).
    const S s = model.joint(i).p[2];
    const Vec3<S> p_v = linear(model.joint(i).p);
    // t_i = B_{i,i-1} t_{i-1} + p_i qd_i, Eq. (12)
    const Vec3<S> w_parent = transposed_times(E, w);
    const Vec3<S> carried = cross(w_parent, ell);  // omega_{i-1} x ell
    const Vec3<S> ell_rate = carried + p_v * qd[i];
    w = w_parent;
    w.z() += s * qd[i];
    v = transposed_times(E, v) + ell_rate;
    // xi_i = B_{i,i-1} xi_{i-1} + Bdot_{i,i-1} t_{i-1} + p_i qdd_i + Omega_i p_i qd_i, Eq. (32),
    // with Bdot_{i,i-1} t_{i-1} = [0; omega_{i-1} x d(ell)/dt] and omega_i x e_z = (w_y, -w_x, 0)
    dw = transposed_times(E, dw);
    dv = transposed_times(E, dv) + cross(dw, ell) + cross(w_parent, ell_rate);
    dw += Vec3<S>(s * w.y() * qd[i], -s * w.x() * qd[i], s * qdd[i]);
    dv += p_v * qdd[i] + cross(w, p_v) * qd[i];
    // Stored half by half: clang with AVX2 compiles a comma initializer (t << w, v) into an
    // out-of-line copy loop over run-time-sized blocks, a call per half and per joint.
    angular(ws.id.t[i]) = w;
    linear(ws.id.t[i]) = v;
    angular(ws.id.xi[i]) = dw;
    linear(ws.id.xi[i]) = dv;
  }
}

// t_i and xi_i of every link for the current joint frames, whatever the topology.
template <typename S>
void forward_recursion(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> qd,
                       ConstVectorRef<S> qdd) {
  with_topology(model, [&](auto topology) { forward_recursion(model, ws, qd, qdd, topology); });
}

// p_i^T [n; f], Eq. (30): the force on joint i of the wrench [n; f], with p_i = [s e_z; p_v]
// (Eqs. 13, 15), so the angular part is one product.
template <typename S>
S joint_force(const Vec6<S>& p, const Vec3<S>& n, const Vec3<S>& f) {
  return p[2] * n.z() + linear(p).dot(f);
}

// M_i xi_i + Mdot_i t_i of Eq. (7), Eq. (8), added to the wrench [n; f]: link i about its mass
// centre C_i (no first moment), t_i = [w; v], xi_i = [dw; dv]. Forced inline: with two callers
// (this recursion and the forward dynamics' bias pass) g++ 12 made it a call per link.
template <typename S>
EIGEN_ALWAYS_INLINE void add_link_wrench(const BodyInertia<S>& M, const Vec6<S>& t,
                                         const Vec6<S>& xi, Vec3<S>& n, Vec3<S>& f) {
  const Vec3<S> w = angular(t), dw = angular(xi);
  n += M.rotational * dw + cross(w, Vec3<S>(M.rotational * w));
  f += M.mass * linear(xi);
}

template <typename S, typename Topology>
void backward_recursion(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  // gamma_{i+1} = [n; f], carried inwards as 3-vectors; on a tree, the children's sum
  // B_{c,i}^T gamma_c is gathered in gamma_i before link i's own wrench is added.
  Vec3<S> n = Vec3<S>::Zero(), f = Vec3<S>::Zero();
  if constexpr (!Topology::chain)
    for (Vec6<S>& gamma : ws.id.gamma)
      gamma.setZero();
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    if constexpr (Topology::chain) {
      if (i + 1 < model.dof()) transfer_wrench(ws.E[i + 1], ws.ell[i + 1], n, f);  // B^T gamma
    } else {
      n = angular(ws.id.gamma[i]), f = linear(ws.id.gamma[i]);  // sum of B_{c,i}^T gamma_c
    }
    add_link_wrench(joint.M, ws.id.t[i], ws.id.xi[i], n, f);  // M_i xi_i + Mdot_i t_i, (8)
    angular(ws.id.gamma[i]) = n;  // half by half, as in forward_recursion
    linear(ws.id.gamma[i]) = f;
    ws.id.tau[i] = joint_force(joint.p, n, f);  // Eq. (30)
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(i);
      if (parent < 0) continue;
      transfer_wrench(ws.E[i], ws.ell[i], n, f);  // B_{i,lambda(i)}^T gamma_i
      angular(ws.id.gamma[parent]) += n;
      linear(ws.id.gamma[parent]) += f;
    }
  }
}

// The joint forces tau of Eq. (20), I(q) qdd + C(q, qd) qd, with gravity (through rho): the
// forces that produce the motion (q, qd, qdd). O(n). Returns ws.id.tau.
// With drives (docs/robot-file.md), I includes the rotor inertia G^2 Jm on its diagonal, so tau_i
// gains G^2 Jm qdd_i; friction is not included (friction_forces adds it).
// `unchecked` holds the recursions on the joints' share of the vectors, with the base's motion
// already in ws.id.t_0 and xi_0 when it floats; the checked function below is the one to call.
namespace unchecked {
template <typename S>
const VecX<S>& inverse_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> qdd) {
  update_joint_frames(model, ws, q);
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, qd, qdd, topology);
    backward_recursion(model, ws, topology);
  });
  if (model.has_rotors()) ws.id.tau.array() += model.rotor_inertia().array() * qdd.array();
  return ws.id.tau;
}
}  // namespace unchecked

// gamma_0 = M_0 xi_0 + Mdot_0 t_0 + sum_c B_{c,0}^T gamma_c, Eq. (7) at the base: the wrench
// [n; f] on the base about its origin, in the base frame, after the backward recursion.
template <typename S>
Vec6<S> base_wrench(const Model<S>& model, const Workspace<S>& ws) {
  Vec6<S> gamma = base_body_wrench(model.base_inertia(), ws.id.t_0, ws.id.xi_0);
  for_each_root_joint(model,
                      [&](int c) { gamma += transfer_wrench(ws.E[c], ws.ell[c], ws.id.gamma[c]); });
  return gamma;
}

namespace unchecked {
// With a floating base: the base's motion from (q, v, a), the joints' recursions from it, then
// the base's wrench. Returns ws.id.tau_floating.
template <typename S>
const VecX<S>& floating_inverse_dynamics(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> v,
                                         ConstVectorRef<S> a) {
  set_base_motion(model, ws, q, v, a);
  unchecked::inverse_dynamics(model, ws, joint_coordinates(model, q), joint_rates(model, v),
                              joint_rates(model, a));
  write_linear_first(base_wrench(model, ws), ws.id.tau_floating.template head<6>());
  ws.id.tau_floating.tail(model.dof()) = ws.id.tau;
  return ws.id.tau_floating;
}
}  // namespace unchecked

// tau(q, qd, qdd), Eq. (30), the drives' rotors included: n joint forces (ws.id.tau), or with a
// floating base the 6 + n forces [f_0; n_0; tau] for q (7 + n), qd and qdd (6 + n each), the
// base's wrench in the base frame about its origin (ws.id.tau_floating).
template <typename S>
const VecX<S>& inverse_dynamics(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                ConstVectorRef<S> qd, ConstVectorRef<S> qdd) {
  require_call(model, ws, "inverse_dynamics", q, qd);
  require_rates(model, "inverse_dynamics", "qdd", qdd);
  if (model.floating()) return unchecked::floating_inverse_dynamics(model, ws, q, qd, qdd);
  return unchecked::inverse_dynamics(model, ws, q, qd, qdd);
}

// Friction of the drives at the joints (docs/robot-file.md): G^2 B qd_i + |G| Tc(qd_i), Tc(qd) the
// first value for qd > 0, the second for qd < 0 and 0 at rest. Written into `out`.
template <typename S>
void friction_forces(const Model<S>& model, ConstVectorRef<S> qd,
                     typename type_identity<Eigen::Ref<VecX<S>>>::type out) {
  require_joint_values(model, "friction_forces", "qd", qd);
  require_joint_values(model, "friction_forces", "out", out);
  for (int i = 0; i < model.dof(); ++i) {
    const Joint<S>& j = model.joint(i);
    const S coulomb = select(qd[i] > 0, j.coulomb_pos, select(qd[i] < 0, j.coulomb_neg, S(0)));
    out[i] = j.viscous * qd[i] + coulomb;
  }
}

// h(q, qd) = C qd + gravity terms = tau(q, qd, 0): what phi = tau - h of Section 5.2 subtracts.
template <typename S>
const VecX<S>& bias_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                           ConstVectorRef<S> qd) {
  require_call(model, ws, "bias_forces", q, qd);
  if (model.floating())
    return unchecked::floating_inverse_dynamics(model, ws, q, qd, ws.id.zeros_floating);
  return unchecked::inverse_dynamics(model, ws, q, qd, ws.id.zeros);
}

// g(q) = tau(q, 0, 0): the joint forces that hold the arm still against gravity (and the base's
// wrench that holds a floating base still).
template <typename S>
const VecX<S>& gravity_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_call(model, ws, "gravity_forces", q);
  if (model.floating())
    return unchecked::floating_inverse_dynamics(model, ws, q, ws.id.zeros_floating,
                                                ws.id.zeros_floating);
  return unchecked::inverse_dynamics(model, ws, q, ws.id.zeros, ws.id.zeros);
}

}  // namespace denoc
