// Pose and geometric Jacobian of the tool frame or of any frame fixed to a link (docs/csv.md),
// from the same joint frames the dynamics use (joint_frames.hpp): J_i = J_lambda(i) E_i, and the
// mass centres C_i joined by ell_i, so that the origin of J_i is C_i - d_i. The tool frame is the
// model's tool() in J_n (the last link's frame when the robot file has no tool). With a floating
// base the pose and the Jacobian are in the world frame, the base's rates the Jacobian's first
// six columns (model/base_coordinates.hpp).
#pragma once

#include "denoc/model/base_coordinates.hpp"
#include "denoc/model/joint_frames.hpp"

namespace denoc {

// The outward pass to the base frame, from the base outwards: the orientation R_i of every J_i
// and the mass centre c_i of every link,
//   R_i = R_{i-1} E_i,   c_i = c_{i-1} + R_i ell_i   (C_0 at the base origin),
// with lambda(i) for i - 1 on a tree. The joint poses, the base-frame form of the inertia matrix
// and C start from it (the inverse inertia matrix's first pass keeps its own). Needs the joint
// frames of the current q.
template <typename S>
void link_frames_in_base(const Model<S>& model, KinematicsWorkspace<S>& ws) {
  for (int i = 0; i < model.dof(); ++i) {
    const int parent = model.parent(i);
    if (parent < 0) {
      ws.R_base[i] = ws.E[i];
      ws.c_base[i] = ws.E[i] * ws.ell[i];
      continue;
    }
    ws.R_base[i] = ws.R_base[parent] * ws.E[i];
    ws.c_base[i] = ws.c_base[parent] + ws.R_base[i] * ws.ell[i];
  }
}

// Orientation and origin of every J_i in the base frame: R_i and c_i (link_frames_in_base), and
// o_i = c_i - R_i d_i. Then the tool frame, R_n tool.R and o_n + R_n tool.p, into ws.tool_pose.
// Needs the joint frames of the current q.
template <typename S>
void joint_poses(const Model<S>& model, KinematicsWorkspace<S>& ws) {
  require_workspace(model, ws, "joint_poses");
  link_frames_in_base(model, ws);
  for (int i = 0; i < model.dof(); ++i)
    ws.o_base[i] = ws.c_base[i] - ws.R_base[i] * model.joint(i).d;
  const int n = model.dof();
  if (n == 0) return;  // a floating body alone: no tool frame to place
  ws.tool_pose.R = ws.R_base[n - 1] * model.tool().R;
  ws.tool_pose.p = ws.o_base[n - 1] + ws.R_base[n - 1] * model.tool().p;
}

// A frame fixed to a link (model.hpp) in the base frame, from the poses joint_poses left in ws:
// R_k X.R and o_k + R_k X.p. Into ws.tool_pose, which holds the pose of the frame last asked for.
template <typename S>
const Transform<S>& frame_pose_from_poses(KinematicsWorkspace<S>& ws, const BodyFrame<S>& frame) {
  if (frame.link < 0) {
    ws.tool_pose = frame.placement;
  } else {
    const Mat3<S>& R = ws.R_base[frame.link];
    ws.tool_pose.R = R * frame.placement.R;
    ws.tool_pose.p = ws.o_base[frame.link] + R * frame.placement.p;
  }
  return ws.tool_pose;
}

namespace unchecked {
// The pose of `frame` in the base frame at the joints' q. Returns ws.tool_pose.
template <typename S>
const Transform<S>& frame_pose(const Model<S>& model, KinematicsWorkspace<S>& ws,
                               const BodyFrame<S>& frame, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  joint_poses(model, ws);
  return frame_pose_from_poses(ws, frame);
}
}  // namespace unchecked

// The pose of `frame` at q: in the base frame, or in the world frame with a floating base (the
// base's pose times the pose in the base frame). Returns ws.tool_pose.
template <typename S>
const Transform<S>& frame_pose(const Model<S>& model, KinematicsWorkspace<S>& ws,
                               const BodyFrame<S>& frame, ConstVectorRef<S> q) {
  require_workspace(model, ws, "frame_pose");
  require_frame(model, frame, "frame_pose");
  require_coordinates(model, "frame_pose", "q", q);
  const Transform<S>& in_base =
      unchecked::frame_pose(model, ws, frame, joint_coordinates(model, q));
  if (!model.floating()) return in_base;
  ws.base_pose = base_pose<S>(q);
  ws.tool_pose = ws.base_pose * in_base;
  return ws.tool_pose;
}

// The tool frame at q. Returns ws.tool_pose.
template <typename S>
const Transform<S>& tool_pose(const Model<S>& model, KinematicsWorkspace<S>& ws,
                              ConstVectorRef<S> q) {
  return frame_pose(model, ws, model.tool_frame(), q);
}

namespace unchecked {
// The geometric Jacobian of the origin p of `frame` in the base frame, rows [v; omega] (Corke's
// jacob0): column i is [z_i x (p - o_i); z_i] for a revolute joint and [z_i; 0] for a prismatic
// one, z_i the axis of joint i (z of J_i), for the joints on the path from the base to the frame's
// link; zero for the others (on a tree, the other branches). At the joints' q; returns
// ws.jacobian (6 x n).
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& frame_jacobian(const Model<S>& model,
                                                          KinematicsWorkspace<S>& ws,
                                                          const BodyFrame<S>& frame,
                                                          ConstVectorRef<S> q) {
  const Vec3<S> p = unchecked::frame_pose(model, ws, frame, q).p;
  for (int i = 0; i < model.dof(); ++i) {
    if (frame.link < 0 || !model.supports(i, frame.link)) {
      ws.jacobian.col(i).setZero();
      continue;
    }
    const Vec3<S> z = ws.R_base[i].col(2);
    if (model.joint(i).type == JointType::revolute) {
      ws.jacobian.col(i).template head<3>() = cross(z, Vec3<S>(p - ws.o_base[i]));
      ws.jacobian.col(i).template tail<3>() = z;
    } else {
      ws.jacobian.col(i).template head<3>() = z;
      ws.jacobian.col(i).template tail<3>().setZero();
    }
  }
  return ws.jacobian;
}

// With a floating base, in the world frame, 6 x (6 + n): with R the base's orientation and r the
// origin in the base frame, the base's v moves it by R v, its w by R (w x r) = -R [r x] w and
// turns it by R w; the joints' columns are R times those in the base frame. Returns
// ws.world_jacobian.
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& world_frame_jacobian(const Model<S>& model,
                                                                KinematicsWorkspace<S>& ws,
                                                                const BodyFrame<S>& frame,
                                                                ConstVectorRef<S> q) {
  const int n = model.dof();
  const auto& J = unchecked::frame_jacobian(model, ws, frame, joint_coordinates(model, q));
  const Vec3<S> r = ws.tool_pose.p;
  const Mat3<S> R = base_pose<S>(q).R;
  auto& out = ws.world_jacobian;
  out.setZero(6, n + 6);
  out.template block<3, 3>(0, 0) = R;
  out.template block<3, 3>(0, 3) = -R * cross_matrix(r);
  out.template block<3, 3>(3, 3) = R;
  out.rightCols(n).template topRows<3>().noalias() = R * J.template topRows<3>();
  out.rightCols(n).template bottomRows<3>().noalias() = R * J.template bottomRows<3>();
  return out;
}
}  // namespace unchecked

// The geometric Jacobian of the origin of `frame` at q: in the base frame (6 x n), or in the
// world frame with a floating base (6 x (6 + n)).
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& frame_jacobian(const Model<S>& model,
                                                          KinematicsWorkspace<S>& ws,
                                                          const BodyFrame<S>& frame,
                                                          ConstVectorRef<S> q) {
  require_workspace(model, ws, "frame_jacobian");
  require_frame(model, frame, "frame_jacobian");
  require_coordinates(model, "frame_jacobian", "q", q);
  if (model.floating()) return unchecked::world_frame_jacobian(model, ws, frame, q);
  return unchecked::frame_jacobian(model, ws, frame, q);
}

// The same for the tool frame.
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& tool_jacobian(const Model<S>& model,
                                                         KinematicsWorkspace<S>& ws,
                                                         ConstVectorRef<S> q) {
  return frame_jacobian(model, ws, model.tool_frame(), q);
}

}  // namespace denoc
