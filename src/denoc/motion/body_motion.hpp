// The motion of every body in the world frame (the base frame with a fixed base), for the
// quantities of a frame and of the whole robot (docs/legged.md): the pose of each J_i, the angular
// velocity w_i of link i and the velocity v_i of the origin o_i of J_i, and their time derivatives
// dw_i and a_i (a_i the classical acceleration of the point o_i, gravity not in it).
//
// One pass from the root outwards, the floating base being the root body that moves with its six
// rates (base_motion.hpp: v and w in the base frame, their derivatives number by number). With z_i
// the axis of joint i and r = o_i - o_lambda(i), Saha's (1999) twist propagation (Eqs. 12-15)
// written at the joint origins and its time derivative (Eq. 32 without gravity):
//   revolute:   w_i = w_p + z_i qd_i                 v_i = v_p + w_p x r
//               dw_i = dw_p + z_i qdd_i + w_p x z_i qd_i
//               a_i = a_p + dw_p x r + w_p x (w_p x r)
//   prismatic:  w_i = w_p                            v_i = v_p + w_p x r + z_i qd_i
//               dw_i = dw_p
//               a_i = a_p + dw_p x r + w_p x (w_p x r) + z_i qdd_i + 2 w_p x z_i qd_i
// (o_i lies on the axis of a revolute joint and moves with link i along a prismatic one).
#pragma once

#include <vector>

#include "denoc/model/kinematics.hpp"
#include "denoc/saha/base_motion.hpp"

namespace denoc {

template <typename S>
struct BodyMotionWorkspace {
  explicit BodyMotionWorkspace(const Model<S>& model)
      : kinematics(model.dof()),
        R(static_cast<std::size_t>(model.dof()), Mat3<S>::Identity()),
        o(static_cast<std::size_t>(model.dof()), Vec3<S>::Zero()),
        w(o),
        v(o),
        dw(o),
        a(o) {}

  KinematicsWorkspace<S> kinematics;  // the joint frames, and J_i in the base frame
  // The root: the base frame in the world frame (identity with a fixed base) and its motion, in
  // the world frame, at its origin.
  Transform<S> base;
  Vec3<S> base_w = Vec3<S>::Zero(), base_v = Vec3<S>::Zero();
  Vec3<S> base_dw = Vec3<S>::Zero(), base_a = Vec3<S>::Zero();
  // Link i (index i): J_i's orientation and origin, w_i, v_i, dw_i, a_i, all in the world frame.
  std::vector<Mat3<S>> R;
  std::vector<Vec3<S>> o, w, v, dw, a;
};

// The pose of every J_i in the world frame at q (nq entries).
template <typename S>
void body_poses(const Model<S>& model, BodyMotionWorkspace<S>& ws, ConstVectorRef<S> q) {
  if (ws.R.size() != static_cast<std::size_t>(model.dof())) wrong_workspace("body_poses");
  require_coordinates(model, "body_poses", "q", q);
  update_joint_frames(model, ws.kinematics, joint_coordinates(model, q));
  joint_poses(model, ws.kinematics);
  ws.base = model.floating() ? base_pose<S>(q) : Transform<S>{};
  for (int i = 0; i < model.dof(); ++i) {
    ws.R[i] = ws.base.R * ws.kinematics.R_base[i];
    ws.o[i] = ws.base * ws.kinematics.o_base[i];
  }
}

// w_i and v_i from the rates qd (nv entries), after body_poses.
template <typename S>
void body_velocities(const Model<S>& model, BodyMotionWorkspace<S>& ws, ConstVectorRef<S> qd) {
  if (ws.R.size() != static_cast<std::size_t>(model.dof())) wrong_workspace("body_velocities");
  require_rates(model, "body_velocities", "qd", qd);
  ws.base_w.setZero();
  ws.base_v.setZero();
  if (model.floating()) {
    ws.base_v = ws.base.R * qd.template head<3>();
    ws.base_w = ws.base.R * qd.template segment<3>(3);
  }
  const auto rates = joint_rates(model, qd);  // all of qd with a fixed base
  for (int i = 0; i < model.dof(); ++i) {
    const int p = model.parent(i);
    const Vec3<S>& w_p = p >= 0 ? ws.w[p] : ws.base_w;
    const Vec3<S>& v_p = p >= 0 ? ws.v[p] : ws.base_v;
    const Vec3<S> r = ws.o[i] - (p >= 0 ? ws.o[p] : ws.base.p);
    const Vec3<S> z_qd = ws.R[i].col(2) * rates[i];
    ws.w[i] = w_p;
    ws.v[i] = v_p + cross(w_p, r);
    if (model.joint(i).type == JointType::revolute) {
      ws.w[i] += z_qd;
    } else {
      ws.v[i] += z_qd;
    }
  }
}

// dw_i and a_i from qd and their derivatives qdd (nv entries each), after body_velocities.
template <typename S>
void body_accelerations(const Model<S>& model, BodyMotionWorkspace<S>& ws, ConstVectorRef<S> qd,
                        ConstVectorRef<S> qdd) {
  if (ws.R.size() != static_cast<std::size_t>(model.dof())) wrong_workspace("body_accelerations");
  require_rates(model, "body_accelerations", "qd", qd);
  require_rates(model, "body_accelerations", "qdd", qdd);
  ws.base_dw.setZero();
  ws.base_a.setZero();
  if (model.floating()) {  // d(R w)/dt = R dw; d(R v)/dt = R (dv + w x v)
    const Vec3<S> v = qd.template head<3>(), w = qd.template segment<3>(3);
    ws.base_dw = ws.base.R * qdd.template segment<3>(3);
    ws.base_a = ws.base.R * Vec3<S>(qdd.template head<3>() + cross(w, v));
  }
  const auto rates = joint_rates(model, qd);
  const auto rate_derivatives = joint_rates(model, qdd);
  for (int i = 0; i < model.dof(); ++i) {
    const int p = model.parent(i);
    const Vec3<S>& w_p = p >= 0 ? ws.w[p] : ws.base_w;
    const Vec3<S>& dw_p = p >= 0 ? ws.dw[p] : ws.base_dw;
    const Vec3<S>& a_p = p >= 0 ? ws.a[p] : ws.base_a;
    const Vec3<S> r = ws.o[i] - (p >= 0 ? ws.o[p] : ws.base.p);
    const Vec3<S> z = ws.R[i].col(2);
    const Vec3<S> w_p_x_z_qd = cross(w_p, z) * rates[i];
    ws.dw[i] = dw_p;
    ws.a[i] = a_p + cross(dw_p, r) + cross(w_p, Vec3<S>(cross(w_p, r)));
    if (model.joint(i).type == JointType::revolute) {
      ws.dw[i] += z * rate_derivatives[i] + w_p_x_z_qd;
    } else {
      ws.a[i] += z * rate_derivatives[i] + S(2) * w_p_x_z_qd;
    }
  }
}

// The world frame's view of a frame's link: its orientation, origin and motion (the root for the
// base frame, link -1).
template <typename S>
struct LinkMotion {
  const Mat3<S>& R;
  const Vec3<S>& o;
  const Vec3<S>& w;
  const Vec3<S>& v;
  const Vec3<S>& dw;
  const Vec3<S>& a;
};

template <typename S>
LinkMotion<S> link_motion(const BodyMotionWorkspace<S>& ws, int link) {
  if (link < -1 || link >= static_cast<int>(ws.R.size()))
    throw std::invalid_argument("link_motion: no link " + std::to_string(link + 1) +
                                " (links 1 to " + std::to_string(ws.R.size()) + ", 0 the base)");
  if (link < 0) return {ws.base.R, ws.base.p, ws.base_w, ws.base_v, ws.base_dw, ws.base_a};
  const auto k = static_cast<std::size_t>(link);
  return {ws.R[k], ws.o[k], ws.w[k], ws.v[k], ws.dw[k], ws.a[k]};
}

// [v; w]: the velocity of the frame's origin and the frame's angular velocity, world frame
// (Pinocchio's LOCAL_WORLD_ALIGNED), after body_velocities: v = v_k + w_k x s, s = R_k X.p.
template <typename S>
Vec6<S> frame_velocity(const BodyMotionWorkspace<S>& ws, const BodyFrame<S>& frame) {
  const LinkMotion<S> link = link_motion(ws, frame.link);
  const Vec3<S> s = link.R * frame.placement.p;
  Vec6<S> out;
  out.template head<3>() = link.v + cross(link.w, s);
  out.template tail<3>() = link.w;
  return out;
}

// [a; dw]: their time derivatives, after body_accelerations: a = a_k + dw_k x s + w_k x (w_k x s).
template <typename S>
Vec6<S> frame_acceleration(const BodyMotionWorkspace<S>& ws, const BodyFrame<S>& frame) {
  const LinkMotion<S> link = link_motion(ws, frame.link);
  const Vec3<S> s = link.R * frame.placement.p;
  Vec6<S> out;
  out.template head<3>() = link.a + cross(link.dw, s) + cross(link.w, Vec3<S>(cross(link.w, s)));
  out.template tail<3>() = link.dw;
  return out;
}

}  // namespace denoc
