// The floating base as link 0 of Saha (1999) (docs/floating-base.md), its coordinates and
// rates as model/base_coordinates.hpp orders them. The DeNOC recursions need the twist and the
// twist rate of the base at its origin, Eqs. (12) and (32) with the base as link 0 (C_0 at the
// base origin):
//   t_0  = [w; v]
//   xi_0 = [dw; dv + w x v - R^T g]
// since the acceleration of the origin, d(R v)/dt = R (dv + w x v), is R^T of that in J_0,
// and gravity enters as rho of Eq. (32), -g turned into the base frame.
#pragma once

#include "denoc/model/base_coordinates.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// ws.base_pose, ws.id.t_0 and ws.id.xi_0 for the base coordinates of q, its rates v and their
// derivatives a (zero when `a` is empty: the forward dynamics, which solves for them).
template <typename S>
void set_base_motion(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                     ConstVectorRef<S> v, ConstVectorRef<S> a) {
  ws.base_pose = base_pose<S>(q);
  const Vec3<S> lin = v.template head<3>(), w = v.template segment<3>(3);
  angular(ws.id.t_0) = w;
  linear(ws.id.t_0) = lin;
  Vec3<S> dw = Vec3<S>::Zero(), dv = Vec3<S>::Zero();
  if (a.size() > 0) dv = a.template head<3>(), dw = a.template segment<3>(3);
  angular(ws.id.xi_0) = dw;
  linear(ws.id.xi_0) = dv + cross(w, lin) - ws.base_pose.R.transpose() * model.gravity();
}

// The base standing still with no gravity: the motion of the forward dynamics' unit solves
// (the columns of the inverse inertia matrix), in which t_i = xi_i = 0 for every link.
template <typename S>
void set_base_at_rest(Workspace<S>& ws) {
  ws.id.t_0.setZero();
  ws.id.xi_0.setZero();
}

// M_0 xi_0 + Mdot_0 t_0 for the base body about the base origin O (not its mass centre), with
// h = m c its first moment: the Newton-Euler equations of a rigid body about a point fixed in it,
//   n_O = I_O dw + w x (I_O w) + h x a_O,   f = m a_O + dw x h + w x (w x h),
// [dw; a_O] = xi_0 (gravity included), [w; v] = t_0. Returned as [n; f].
template <typename S>
Vec6<S> base_body_wrench(const BodyInertia<S>& M0, const Vec6<S>& t, const Vec6<S>& xi) {
  const Vec3<S> w = angular(t), dw = angular(xi), a = linear(xi);
  const Vec3<S>& h = M0.first_moment;
  const Vec3<S> Iw = M0.rotational * w;
  Vec6<S> out;
  angular(out) = M0.rotational * dw + cross(w, Iw) + cross(h, a);
  linear(out) = M0.mass * a + cross(dw, h) + cross(w, cross(w, h));
  return out;
}

// The joints that hang from the base (the roots of the tree): their wrenches reach the base.
template <typename S, typename F>
void for_each_root_joint(const Model<S>& model, F&& f) {
  for (int i = 0; i < model.dof(); i = model.subtree_end(i))
    f(i);
}

}  // namespace denoc
