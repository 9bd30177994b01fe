// Joint reaction wrenches (docs/csv.md) and the external wrench on the tool (docs/robot-file.md),
// from the DeNOC backward recursion of Saha (1999) Section 5.1.
//
// gamma_i of Eq. (30) is the wrench that link i and everything outboard of it need, gravity
// included through rho (Eq. 32), about C_i in J_i. Nothing else acts on that subchain but the
// joint, so gamma_i is the wrench that body i-1 exerts on body i through joint i; tau_i = p_i^T
// gamma_i (Eq. 30) is its component that the joint's actuator supplies.
#pragma once

#include "denoc/model/kinematics.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

// The wrench w = [f; n] on `frame` (fixed to link k >= 0), at the frame's origin, in the base
// frame, as the joints from link k to the base carry it: its opposite (what the joints supply)
// about C_k in J_k, then B_{c,i}^T (Eq. 14) from each joint c to its parent i, handed to
// visit(i, m, f) as [m; f] about C_i in J_i, as eta is carried in Eq. (35). The one mechanism by
// which the environment's wrenches reach the joints. Needs joint_poses at the current q.
template <typename S, typename Visit>
void carry_frame_wrench(const Model<S>& model, const KinematicsWorkspace<S>& ws,
                        const BodyFrame<S>& frame, const Vec6<S>& w_base, Visit&& visit) {
  const int k = frame.link;
  const Mat3<S>& R = ws.R_base[k];
  const Vec3<S> origin = ws.o_base[k] + R * frame.placement.p;
  const Vec3<S> f_base = w_base.template head<3>();
  const Vec3<S> n_base =
      Vec3<S>(w_base.template tail<3>()) + cross(Vec3<S>(origin - ws.c_base[k]), f_base);
  Vec3<S> m = -(R.transpose() * n_base), f = -(R.transpose() * f_base);
  for (int i = k, child = -1; i >= 0; child = i, i = model.parent(i)) {
    if (child >= 0) transfer_wrench(ws.E[child], ws.ell[child], m, f);  // B_{child,i}^T
    visit(i, m, f);
  }
}

// carry_frame_wrench's visit for the torques: the joints on the path from the base to link k need
// gamma_i - B_{k,i}^T w_k and tau_i - p_i^T B_{k,i}^T w_k (Eq. 30). Needs joint_poses at the
// current q.
template <typename S>
void take_frame_wrench(const Model<S>& model, Workspace<S>& ws, const BodyFrame<S>& frame,
                       const Vec6<S>& w_base) {
  carry_frame_wrench(model, ws, frame, w_base, [&](int i, const Vec3<S>& m, const Vec3<S>& f) {
    angular(ws.id.gamma[i]) += m;
    linear(ws.id.gamma[i]) += f;
    ws.id.tau[i] += joint_force(model.joint(i).p, m, f);  // Eq. (30)
  });
}

// The wrench w = [f; n] that the environment exerts on a frame fixed to link k (model.hpp; the
// tool frame by default), at the frame's origin, in the base frame, taken into the backward
// recursion (take_frame_wrench), w_k being the same wrench about C_k in J_k
// (carry_frame_wrench); the other branches of a tree do not feel it. tau changes by -J^T w. Call
// after inverse_dynamics (or bias_forces, gravity_forces) at the same q; updates ws.id.gamma,
// ws.id.tau.
template <typename S>
void apply_frame_wrench(const Model<S>& model, Workspace<S>& ws, const BodyFrame<S>& frame,
                        const Vec6<S>& w_base) {
  require_workspace(model, ws, "apply_frame_wrench");
  require_frame(model, frame, "apply_frame_wrench");
  if (frame.link < 0) return;  // a frame on the base: the base takes the wrench
  joint_poses(model, ws);
  take_frame_wrench(model, ws, frame, w_base);
}

// The same on the tool frame.
template <typename S>
void apply_tool_wrench(const Model<S>& model, Workspace<S>& ws, const Vec6<S>& w_base) {
  apply_frame_wrench(model, ws, model.tool_frame(), w_base);
}

// A wrench [f; n] given in the tool frame (--wrench-frame tool; or the --frame given), in the base
// frame: both halves turned by the frame's orientation R (frame_pose). Half by half: g++
// -march=x86-64-v3 flags the comma initializer with a false -Warray-bounds.
template <typename S>
Vec6<S> tool_wrench_in_base(const Mat3<S>& R, const Vec6<S>& w_tool) {
  Vec6<S> w;
  w.template head<3>() = R * w_tool.template head<3>();
  w.template tail<3>() = R * w_tool.template tail<3>();
  return w;
}

// An environment's wrench in the base frame J_0 (the base body's own frame when it floats), from
// the poses joint_poses left in ws: turned by the frame's orientation R_k X.R when given in the
// frame's own axes (ws.tool_pose then holds the frame's pose), else by world_to_base (R_0^T of
// the base's pose; the identity on a fixed base, where the world frame is the base frame).
template <typename S>
Vec6<S> wrench_in_base(KinematicsWorkspace<S>& ws, const Mat3<S>& world_to_base,
                       const FrameWrench<S>& wrench) {
  if (!wrench.in_frame_axes) return tool_wrench_in_base(world_to_base, wrench.w);
  return tool_wrench_in_base(frame_pose_from_poses(ws, wrench.frame).R, wrench.w);
}

// The rotation from the world frame to the base frame: R_0^T of the floating base's pose in q, the
// identity on a fixed base.
template <typename S>
Mat3<S> world_to_base(const Model<S>& model, ConstVectorRef<S> q) {
  return model.floating() ? Mat3<S>(base_pose<S>(q).R.transpose()) : Mat3<S>::Identity();
}

// The environment's wrenches w = [f; n], each on its frame, at its origin, in the world frame
// (the base frame of a fixed base) or in the frame's own axes, taken into the forces of
// inverse_dynamics (which must come first, at the same q): the joints' through take_frame_wrench
// (their gamma_i and tau_i, so the reactions carry them too); with a floating base, the base's
// from its wrench of Eq. (7) again, and directly for a frame on the base. The forces then balance
// M a + h - sum J^T w. Returns ws.id.tau (ws.id.tau_floating with a floating base).
template <typename S>
const VecX<S>& apply_frame_wrenches(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                    const FrameWrench<S>* wrenches, int count) {
  require_call(model, ws, "apply_frame_wrenches", q);
  joint_poses(model, ws);
  const Mat3<S> to_base = world_to_base(model, q);
  Vec6<S> on_base =
      Vec6<S>::Zero();  // [n; f]: the wrenches on frames of the base, about its origin
  for (int k = 0; k < count; ++k) {
    const BodyFrame<S>& frame = wrenches[k].frame;
    require_frame(model, frame, "apply_frame_wrenches");
    const Vec6<S> w = wrench_in_base(ws, to_base, wrenches[k]);
    if (frame.link >= 0) {
      take_frame_wrench(model, ws, frame, w);
      continue;
    }
    const Vec3<S> f = w.template head<3>(), r = frame.placement.p;
    angular(on_base) += Vec3<S>(w.template tail<3>()) + cross(r, f);
    linear(on_base) += f;
  }
  if (!model.floating()) return ws.id.tau;  // a fixed base takes the wrenches on its frames
  const Vec6<S> base = base_wrench(model, ws) - on_base;  // [n; f], the joints' share carried again
  write_linear_first(base, ws.id.tau_floating.template head<6>());
  ws.id.tau_floating.tail(model.dof()) = ws.id.tau;
  return ws.id.tau_floating;
}

// J^T w summed over the environment's wrenches, each [f; n] on its frame, at its origin, in the
// world frame (the base frame of a fixed base) or in the frame's own axes: the generalized forces
// they exert, the n joints' or with a floating base all 6 + n, the base's [f; n] about its origin
// in its own frame first.
// Each wrench is carried inwards (carry_frame_wrench), J never formed: the same path by which
// apply_frame_wrenches takes them into the torques. Into `out`, of the model's rates; the joint
// frames and poses are left for q.
template <typename S>
void frame_wrench_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                         const FrameWrench<S>* wrenches, int count,
                         typename type_identity<Eigen::Ref<VecX<S>>>::type out) {
  require_call(model, ws, "frame_wrench_forces", q);
  require_rates(model, "frame_wrench_forces", "out", out);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  joint_poses(model, ws);
  out.setZero();
  const int base = model.nv() - model.dof();  // the base's six rates come first when it floats
  const Mat3<S> to_base = world_to_base(model, q);
  for (int k = 0; k < count; ++k) {
    const BodyFrame<S>& frame = wrenches[k].frame;
    require_frame(model, frame, "frame_wrench_forces");
    const Vec6<S> w = wrench_in_base(ws, to_base, wrenches[k]);
    if (frame.link >= 0) {
      carry_frame_wrench(model, ws, frame, w, [&](int i, const Vec3<S>& m, const Vec3<S>& f) {
        out[base + i] -= joint_force(model.joint(i).p, m, f);  // the joints carry -w
      });
    }
    if (!model.floating()) continue;
    const Vec3<S> origin =
        frame.link < 0 ? frame.placement.p
                       : Vec3<S>(ws.o_base[frame.link] + ws.R_base[frame.link] * frame.placement.p);
    const Vec3<S> f = w.template head<3>();
    out.template head<3>() += f;
    out.template segment<3>(3) += Vec3<S>(w.template tail<3>()) + cross(origin, f);
  }
}

// The reaction wrench of every joint (docs/csv.md) from gamma_i (after inverse_dynamics, and
// apply_tool_wrench if any): force f_i = f of gamma_i, and moment about the origin of K_i, the
// frame whose z axis is joint i's (LinkSpec::reaction_frame), both expressed in K_i. Column i
// of ws.reactions is [f_i; n_i]. With X = (R_x, p_x) placing K_i in J_i:
//   n about the origin of J_i = n_C + d_i x f   (C_i is at d_i from it)
//   n about the origin of K_i = n_J - p_x x f,  then both in K_i's axes: R_x^T f, R_x^T n.
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& joint_reactions(const Model<S>& model, Workspace<S>& ws,
                                                           ConstVectorRef<S> q) {
  require_workspace(model, ws, "joint_reactions");
  require_joint_values(model, "joint_reactions", "q", q);
  for (int i = 0; i < model.dof(); ++i) {
    const Joint<S>& joint = model.joint(i);
    const LinkSpec<S>& link = model.links()[static_cast<std::size_t>(i)];
    Transform<S> X = link.reaction_frame;
    if (link.reaction_frame_undoes_motion) {
      // K_i = J_i motion(q_i)^-1 A: motion^-1 is Rz(-q_i) or Tz(-q_i).
      if (joint.type == JointType::revolute) {
        X = Transform<S>::rot_z(-q[i]) * X;
      } else {
        X = Transform<S>::trans_z(-q[i]) * X;
      }
    }
    const Vec3<S> f = linear(ws.id.gamma[i]);
    const Vec3<S> n_joint = Vec3<S>(angular(ws.id.gamma[i])) + cross(joint.d, f);
    const Vec3<S> n_k = n_joint - cross(X.p, f);
    ws.reactions.col(i).template head<3>() = X.R.transpose() * f;
    ws.reactions.col(i).template tail<3>() = X.R.transpose() * n_k;
  }
  return ws.reactions;
}

}  // namespace denoc
