// The partial derivatives of the inverse dynamics, d tau / d q and d tau / d v, by recursions over
// the tree in O(n d) (d the depth), in the form of Carpentier and Mansard (RSS 2018): every
// spatial quantity at one origin in one set of axes, where turning joint c about its axis moves
// each quantity of its subtree by the cross product with its axis s_c. The base frame serves as
// those axes; with a floating base it is the base's frame at this instant (the ground's velocity
// is zero in it, its acceleration -g). docs/derivatives.md derives Eqs. (D1)-(D9) cited below.
//
// Spatial vectors here are [angular; linear] at the base origin O (Featherstone's, not the DeNOC's
// twists at the mass centres): a motion m = [w; v_O], a force f = [n_O; f].
#pragma once

#include "denoc/derivatives/workspace.hpp"
#include "denoc/model/base_coordinates.hpp"
#include "denoc/model/body_inertia.hpp"
#include "denoc/model/joint_frames.hpp"
#include "denoc/model/kinematics.hpp"

namespace denoc {

namespace derivatives_detail {

// m x x for two motions (Featherstone's crm(m) x).
template <typename S>
Vec6<S> motion_cross(const Vec6<S>& m, const Vec6<S>& x) {
  const Vec3<S> w = angular(m), v = linear(m), xw = angular(x), xv = linear(x);
  Vec6<S> out;
  angular(out) = cross(w, xw);
  linear(out) = cross(w, xv) + cross(v, xw);
  return out;
}

// m x* f for a motion and a force (Featherstone's crf(m) f = -crm(m)^T f).
template <typename S>
Vec6<S> force_cross(const Vec6<S>& m, const Vec6<S>& f) {
  const Vec3<S> w = angular(m), v = linear(m), n = angular(f), fl = linear(f);
  Vec6<S> out;
  angular(out) = cross(w, n) + cross(v, fl);
  linear(out) = cross(w, fl);
  return out;
}

// The motion axis of joint i at the base origin: [z; o x z] for a revolute joint through o,
// [0; z] for a prismatic one, after joint_poses.
template <typename S>
Vec6<S> joint_axis(const Model<S>& model, const KinematicsWorkspace<S>& k, int i) {
  const Vec3<S> z = k.R_base[i].col(2);
  Vec6<S> s;
  if (model.joint(i).type == JointType::revolute) {
    angular(s) = z;
    linear(s) = cross(k.o_base[i], z);
  } else {
    angular(s).setZero();
    linear(s) = z;
  }
  return s;
}

// Link i's spatial inertia at the base origin in the base frame: M_i (about C_i, in J_i) turned
// into the base frame and seen from O.
template <typename S>
BodyInertia<S> link_inertia(const Model<S>& model, const KinematicsWorkspace<S>& k, int i) {
  return model.joint(i).M.rotated(k.R_base[i]).shifted(k.c_base[i]);
}

}  // namespace derivatives_detail

// Outwards, body after body: the axes, Eqs. (D1)-(D2) and (D5), the body's force (D3) and the
// first term of its sums (D4). q, v and a are the whole vectors (the base's first, if it floats).
template <typename S>
void derivatives_forward_pass(const Model<S>& model, DerivativesWorkspace<S>& ws,
                              ConstVectorRef<S> q, ConstVectorRef<S> v, ConstVectorRef<S> a) {
  using namespace derivatives_detail;
  update_joint_frames(model, ws.kinematics, joint_coordinates(model, q));
  joint_poses(model, ws.kinematics);
  const int base = model.floating() ? 1 : 0;
  Vec6<S> ground_a = Vec6<S>::Zero();  // -g, Eq. (D2), in the base frame's axes
  linear(ground_a) = base ? Vec3<S>(-(base_pose<S>(q).R.transpose() * model.gravity()))
                          : Vec3<S>(-model.gravity());
  for (int b = 0; b < ws.bodies(); ++b) {
    const int parent = ws.parent_body[b];
    const Vec6<S> v_parent = parent >= 0 ? ws.v[parent] : Vec6<S>::Zero();
    const Vec6<S> a_parent = parent >= 0 ? ws.a[parent] : ground_a;
    const int first = ws.first_column[b], end = ws.first_column[b + 1];
    Vec6<S> u = Vec6<S>::Zero(), a_b = a_parent;  // the body's own rates' share of v and a
    for (int c = first; c < end; ++c) {
      Vec6<S>& s = ws.axis[c];
      if (b < base) {  // the base's rates, [linear; angular] in its frame
        s.setZero();
        s[c < 3 ? c + 3 : c - 3] = S(1);
      } else {
        s = joint_axis(model, ws.kinematics, b - base);
      }
      u += s * v[c];
      a_b += s * a[c];
    }
    ws.v[b] = v_parent + u;                     // (D1)
    ws.a[b] = a_b + motion_cross(v_parent, u);  // (D2)
    for (int c = first; c < end; ++c) {         // (D5)
      const Vec6<S>& s = ws.axis[c];
      ws.dv_dq[c] = motion_cross(v_parent, s);
      ws.da_dq[c] = motion_cross(a_parent, s) + motion_cross(v_parent, ws.dv_dq[c]);
      ws.da_dv[c] = motion_cross(Vec6<S>(v_parent + ws.v[b]), s);
    }
    const BodyInertia<S> I =
        b < base ? model.base_inertia() : link_inertia(model, ws.kinematics, b - base);
    const Vec6<S> h = I * ws.v[b];
    ws.F[b] = I * ws.a[b] + force_cross(ws.v[b], h);  // (D3)
    ws.Ic[b] = I;
    ws.B[b] = InertiaVariation<S>::of_body(I, ws.v[b], h);  // (D4)
  }
}

// Inwards, body after body once its subtree's sums are whole: tau, Eq. (D3), and the entries of
// d tau / d q and d tau / d v of its columns against its own and its ancestors', Eqs. (D6)-(D9).
template <typename S>
void derivatives_backward_pass(DerivativesWorkspace<S>& ws) {
  using namespace derivatives_detail;
  ws.dtau_dq.setZero();  // zero where two rates lie on different branches
  ws.dtau_dv.setZero();
  ws.dtau_da.setZero();
  for (int b = ws.bodies() - 1; b >= 0; --b) {
    const int first = ws.first_column[b], end = ws.first_column[b + 1];
    const BodyInertia<S>& Ic = ws.Ic[b];
    const InertiaVariation<S>& B = ws.B[b];
    // Calls f(k) for every column of the strict ancestors of b.
    auto for_each_ancestor_column = [&](auto&& f) {
      for (int p = ws.parent_body[b]; p >= 0; p = ws.parent_body[p])
        for (int k = ws.first_column[p]; k < ws.first_column[p + 1]; ++k)
          f(k);
    };
    for (int c = first; c < end; ++c) {
      const Vec6<S>& s = ws.axis[c];
      ws.tau[c] = s.dot(ws.F[b]);  // (D3)
      // Columns c of body b: d F_b / d q_c, d F_b / d v_c and d F_b / d a_c, Eqs. (D6), (D8)
      // and the composite-body inertia matrix.
      Vec6<S> gq = Ic * ws.da_dq[c] + B * ws.dv_dq[c];
      const Vec6<S> gv = Ic * ws.da_dv[c] + B * s;
      const Vec6<S> Ic_s = Ic * s;
      for (int r = first; r < end; ++r) {
        ws.dtau_dq(r, c) = ws.axis[r].dot(gq);
        ws.dtau_dv(r, c) = ws.axis[r].dot(gv);
        ws.dtau_da(r, c) = ws.axis[r].dot(Ic_s);
      }
      gq += force_cross(s, ws.F[b]);  // the ancestors' axes do not turn with q_c
      for_each_ancestor_column([&](int r) {
        ws.dtau_dq(r, c) = ws.axis[r].dot(gq);
        ws.dtau_dv(r, c) = ws.axis[r].dot(gv);
        ws.dtau_da(r, c) = ws.dtau_da(c, r) = ws.axis[r].dot(Ic_s);
      });
      // Rows c of body b against the ancestors' columns, Eqs. (D7), (D9); B^T s has no linear
      // half (inertia_variation.hpp).
      const Vec3<S> Bt_s = B.transpose_times(s);
      for_each_ancestor_column([&](int k) {
        ws.dtau_dq(c, k) = Ic_s.dot(ws.da_dq[k]) + Bt_s.dot(angular(ws.dv_dq[k]));
        ws.dtau_dv(c, k) = Ic_s.dot(ws.da_dv[k]) + Bt_s.dot(angular(ws.axis[k]));
      });
    }
    const int parent = ws.parent_body[b];
    if (parent < 0) continue;
    ws.Ic[parent] += Ic;  // (D4)
    ws.B[parent] += B;
    ws.F[parent] += ws.F[b];
  }
}

// The drives' viscous friction G^2 B qd_i of every joint (docs/robot-file.md), added to the joints'
// diagonal of d tau / d v. The Coulomb term |G| Tc(qd) is constant on each side of qd = 0, so it
// adds nothing there.
template <typename S>
void add_friction_derivatives(const Model<S>& model, MatX<S>& dtau_dv) {
  const int offset = model.nv() - model.dof();
  for (int i = 0; i < model.dof(); ++i)
    dtau_dv(offset + i, offset + i) += model.joint(i).viscous;
}

namespace unchecked {
template <typename S>
void inverse_dynamics_derivatives(const Model<S>& model, DerivativesWorkspace<S>& ws,
                                  ConstVectorRef<S> q, ConstVectorRef<S> v, ConstVectorRef<S> a,
                                  bool friction) {
  derivatives_forward_pass(model, ws, q, v, a);
  derivatives_backward_pass(ws);
  if (model.has_rotors()) {
    ws.tau.tail(model.dof()).array() +=
        model.rotor_inertia().array() * joint_rates(model, a).array();
    ws.dtau_da.diagonal().tail(model.dof()) += model.rotor_inertia();
  }
  if (friction) add_friction_derivatives(model, ws.dtau_dv);
}
}  // namespace unchecked

// d tau / d q, d tau / d v and d tau / d a of tau(q, v, a) at one state, into ws.dtau_dq,
// ws.dtau_dv and ws.dtau_da (nv x nv), and tau itself into ws.tau, with the terms inverse_dynamics
// has (the drives' rotors) and, when `friction` is set, the drives' friction's
// (add_friction_derivatives). d tau / d a is the inertia matrix, from the same composite bodies.
// With a floating base, column j of d tau / d q is the derivative along integrate(q, e u_j)
// (docs/derivatives.md): the base moved by the SE(3) exponential of its six rates, in its own
// frame, as Pinocchio's computeRNEADerivatives takes it.
template <typename S>
void inverse_dynamics_derivatives(const Model<S>& model, DerivativesWorkspace<S>& ws,
                                  ConstVectorRef<S> q, ConstVectorRef<S> v, ConstVectorRef<S> a,
                                  bool friction = false) {
  require_workspace(model, ws, "inverse_dynamics_derivatives");
  require_coordinates(model, "inverse_dynamics_derivatives", "q", q);
  require_rates(model, "inverse_dynamics_derivatives", "v", v);
  require_rates(model, "inverse_dynamics_derivatives", "a", a);
  unchecked::inverse_dynamics_derivatives(model, ws, q, v, a, friction);
}

}  // namespace denoc
