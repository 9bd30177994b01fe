// The configuration-dependent geometry that every recursion shares: for each joint the rotation
// E_i of J_i relative to J_{i-1} and the vector ell_i from C_{i-1} to C_i, which together are
// the twist-propagation matrix B_{i,i-1} of Eq. (13) with c_{i,i-1} = -(r_{i-1} + d_i) = -ell_i.
#pragma once

#include "denoc/kernels/sin_cos.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

// E_i and ell_i of every joint at the joints' q (n entries, also with a floating base). Each
// recursion calls it first, so that its checks are made again there: two comparisons.
template <typename S>
void update_joint_frames(const Model<S>& model, KinematicsWorkspace<S>& ws, ConstVectorRef<S> q) {
  require_workspace(model, ws, "update_joint_frames");
  require_joint_values(model, "update_joint_frames", "q", q);
  // The angles of all joints at once (those of prismatic joints are computed and not used).
  sin_cos(q.data(), model.dof(), ws.sin_q.data(), ws.cos_q.data());
  for (int i = 0; i < model.dof(); ++i) {
    const Joint<S>& joint = model.joint(i);
    Mat3<S>& E = ws.E[i];
    const Vec3<S>& r = joint.r_placed;  // r_{i-1} in the axes of R_i
    if (joint.type == JointType::revolute) {
      // E = R Rz(q): only the first two columns turn. ell = r_{i-1} + d_i (Eq. 11b) seen from
      // J_i, where r_{i-1} is Rz(q)^T r.
      const S s = ws.sin_q[i], c = ws.cos_q[i];
      E.col(0) = c * joint.R.col(0) + s * joint.R.col(1);
      E.col(1) = c * joint.R.col(1) - s * joint.R.col(0);
      E.col(2) = joint.R.col(2);
      ws.ell[i] = Vec3<S>(c * r.x() + s * r.y(), c * r.y() - s * r.x(), r.z()) + joint.d;
    } else {
      // E = R; the joint slides the origin of J_i along its z axis.
      E = joint.R;
      ws.ell[i] = Vec3<S>(r.x(), r.y(), r.z() + q[i]) + joint.d;
    }
  }
}

}  // namespace denoc
