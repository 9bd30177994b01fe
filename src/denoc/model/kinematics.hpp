// Pose and geometric Jacobian of the tool frame (docs/csv.md), from the same joint frames the
// dynamics use (joint_frames.hpp): J_i = J_{i-1} E_i, and the mass centres C_i joined by ell_i,
// so that the origin of J_i is C_i - d_i. The tool frame is the model's tool() in J_n (the last
// link's frame when the robot file has no tool).
#pragma once

#include "denoc/model/joint_frames.hpp"

namespace denoc {

// Orientation and origin of every J_i in the base frame: R_i = R_{i-1} E_i,
// c_i = c_{i-1} + R_i ell_i (C_0 at the base origin), o_i = c_i - R_i d_i, with lambda(i) for
// i - 1 on a tree. Then the tool frame, R_n tool.R and o_n + R_n tool.p, into ws.tool_pose.
// Needs the joint frames of the current q.
template <typename S>
void joint_poses(const Model<S>& model, KinematicsWorkspace<S>& ws) {
  for (int i = 0; i < model.dof(); ++i) {
    const int parent = model.parent(i);
    Mat3<S> R = ws.E[i];
    Vec3<S> c = Vec3<S>::Zero();
    if (parent >= 0) {
      R = ws.R_base[parent] * ws.E[i];
      c = ws.o_base[parent] + ws.R_base[parent] * model.joint(parent).d;
    }
    c += R * ws.ell[i];
    ws.R_base[i] = R;
    ws.o_base[i] = c - R * model.joint(i).d;
  }
  const int n = model.dof();
  ws.tool_pose.R = ws.R_base[n - 1] * model.tool().R;
  ws.tool_pose.p = ws.o_base[n - 1] + ws.R_base[n - 1] * model.tool().p;
}

// The tool frame in the base frame at q. Returns ws.tool_pose.
template <typename S>
const Transform<S>& tool_pose(const Model<S>& model, KinematicsWorkspace<S>& ws,
                              ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  joint_poses(model, ws);
  return ws.tool_pose;
}

// The geometric Jacobian of the tool frame origin p in the base frame, rows [v; omega]
// (Corke's jacob0): column i is [z_i x (p - o_i); z_i] for a revolute joint and [z_i; 0] for a
// prismatic one, z_i the axis of joint i (z of J_i); on a tree, zero for the joints that do not
// support the last link, which carries the tool. Returns ws.jacobian (6 x n).
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& tool_jacobian(const Model<S>& model,
                                                         KinematicsWorkspace<S>& ws,
                                                         ConstVectorRef<S> q) {
  tool_pose(model, ws, q);
  const int tip = model.dof() - 1;
  for (int i = 0; i < model.dof(); ++i) {
    if (!model.supports(i, tip)) {
      ws.jacobian.col(i).setZero();
      continue;
    }
    const Vec3<S> z = ws.R_base[i].col(2);
    if (model.joint(i).type == JointType::revolute) {
      ws.jacobian.col(i).template head<3>() = cross(z, Vec3<S>(ws.tool_pose.p - ws.o_base[i]));
      ws.jacobian.col(i).template tail<3>() = z;
    } else {
      ws.jacobian.col(i).template head<3>() = z;
      ws.jacobian.col(i).template tail<3>().setZero();
    }
  }
  return ws.jacobian;
}

}  // namespace denoc
