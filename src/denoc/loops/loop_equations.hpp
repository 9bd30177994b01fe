// The loop equations of the cut joints (docs/loops.md, Eqs. (L1)-(L5)), from the bodies' poses and
// motion of the one engine (motion/body_motion.hpp), never typed by the user.
//
// With frame_a at (R_a, p_a) and frame_b at (R_b, p_b) in the base frame, d = p_a - p_b, the
// relative motion of frame_a seen from body b, in frame_b's axes, is
//   v_rel = R_b^T (v_a - v_b - w_b x d),   w_rel = R_b^T (w_a - w_b)             (L2)
// and a cut joint keeps some of its components at zero (cut_joint.hpp). The position equations are
// the same components of
//   e_v = R_b^T d,   e_w from R = R_b^T R_a                                        (L1)
// (e_w = (-R_12, R_02), z_a along z_b, for a revolute joint; vee(R - R^T) / 2 for a prismatic
// one), whose time derivatives are (L2) exactly for e_v and on the loop for e_w. The
// Jacobian J of (L2) has, for joint i with axis z_i through o_i, the column of the point p_a,
//   sigma_i [z_i x (p_a - o_i); z_i]   (revolute)   or   sigma_i [z_i; 0]   (prismatic),   (L3)
// in frame_b's axes, with sigma_i = 1 if joint i moves body a only, -1 if it moves body b only,
// and 0 otherwise (a joint that moves both moves them together). The velocity product
// gamma = (dJ/dt) qd is the time derivative of (L2) at qdd = 0:
//   dv_rel = R_b^T (a_a - a_b - dw_b x d - w_b x (v_a - v_b) - w_b x u),  u = R_b v_rel    (L4)
//   dw_rel = R_b^T (dw_a - dw_b - w_b x (w_a - w_b))                                      (L5)
// so that the loops' accelerations obey J qdd + gamma = 0.
#pragma once

#include <vector>

#include "denoc/loops/cut_joint.hpp"
#include "denoc/motion/body_motion.hpp"

namespace denoc {

template <typename S>
struct LoopWorkspace {
  LoopWorkspace(const Model<S>& model, const Loops<S>& loops)
      : motion(model),
        J(MatX<S>::Zero(loops.equations(), model.dof())),
        residual(VecX<S>::Zero(loops.equations())),
        gamma(VecX<S>::Zero(loops.equations())),
        zeros(VecX<S>::Zero(model.dof())),
        frame_a(loops.cuts.size()),
        frame_b(loops.cuts.size()) {}

  BodyMotionWorkspace<S> motion;
  MatX<S> J;                                   // m x n, Eq. (L3)
  VecX<S> residual;                            // m, Eq. (L1)
  VecX<S> gamma;                               // m, (dJ/dt) qd, Eqs. (L4)-(L5)
  VecX<S> zeros;                               // qdd = 0, for gamma
  std::vector<Transform<S>> frame_a, frame_b;  // each cut's frames in the base frame
};

template <typename S>
void require_loop_workspace(const Model<S>& model, const Loops<S>& loops,
                            const LoopWorkspace<S>& ws, const char* function) {
  if (ws.J.rows() != loops.equations() || ws.J.cols() != model.dof() ||
      ws.frame_a.size() != loops.cuts.size())
    wrong_workspace(function);
  if (model.floating())
    throw std::invalid_argument(std::string(function) +
                                ": loops are closed on a fixed base only (docs/loops.md)");
}

namespace detail {
template <typename S>
Transform<S> frame_in_base(const BodyMotionWorkspace<S>& motion, const BodyFrame<S>& frame) {
  const LinkMotion<S> link = link_motion(motion, frame.link);
  return {link.R * frame.placement.R, link.o + link.R * frame.placement.p};
}

// The position error of one cut, Eq. (L1), as [e_v; e_w] (its unconstrained entries unused).
template <typename S>
Vec6<S> cut_error(CutJointType type, const Transform<S>& a, const Transform<S>& b) {
  Vec6<S> e;
  e.template head<3>() = b.R.transpose() * (a.p - b.p);
  const Mat3<S> R = b.R.transpose() * a.R;
  if (type == CutJointType::revolute) {  // z_a in frame_b: (R_02, R_12, R_22) -> (0, 0, 1)
    e[3] = -R(1, 2);                     // d/dt (R e_z) = w_rel x R e_z = (w_y, -w_x, 0) on it
    e[4] = R(0, 2);
    e[5] = 0;
  } else {  // vee(R - R^T) / 2, whose rate is w_rel at R = 1
    e[3] = (R(2, 1) - R(1, 2)) / 2;
    e[4] = (R(0, 2) - R(2, 0)) / 2;
    e[5] = (R(1, 0) - R(0, 1)) / 2;
  }
  return e;
}
}  // namespace detail

// The frames of every cut and the residual of Eq. (L1) at q. Fills ws.frame_a, ws.frame_b,
// ws.residual and the poses in ws.motion.
template <typename S>
const VecX<S>& loop_residual(const Model<S>& model, const Loops<S>& loops, LoopWorkspace<S>& ws,
                             ConstVectorRef<S> q) {
  require_loop_workspace(model, loops, ws, "loop_residual");
  body_poses(model, ws.motion, q);
  int row = 0;
  for (std::size_t k = 0; k < loops.cuts.size(); ++k) {
    const CutJoint<S>& cut = loops.cuts[k];
    ws.frame_a[k] = detail::frame_in_base(ws.motion, cut.a);
    ws.frame_b[k] = detail::frame_in_base(ws.motion, cut.b);
    const Vec6<S> e = detail::cut_error(cut.type, ws.frame_a[k], ws.frame_b[k]);
    const CutJointRows rows = constrained_components(cut.type);
    for (int r = 0; r < rows.count; ++r)
      ws.residual[row++] = e[rows.components[static_cast<std::size_t>(r)]];
  }
  return ws.residual;
}

// The loop Jacobian of Eq. (L3), after loop_residual at the same q. Returns ws.J.
template <typename S>
const MatX<S>& loop_jacobian(const Model<S>& model, const Loops<S>& loops, LoopWorkspace<S>& ws) {
  require_loop_workspace(model, loops, ws, "loop_jacobian");
  const BodyMotionWorkspace<S>& motion = ws.motion;
  int row = 0;
  for (std::size_t k = 0; k < loops.cuts.size(); ++k) {
    const CutJoint<S>& cut = loops.cuts[k];
    const Mat3<S> Rt = ws.frame_b[k].R.transpose();
    const Vec3<S>& p = ws.frame_a[k].p;
    const CutJointRows rows = constrained_components(cut.type);
    for (int i = 0; i < model.dof(); ++i) {
      const bool moves_a = cut.a.link >= 0 && model.supports(i, cut.a.link);
      const bool moves_b = cut.b.link >= 0 && model.supports(i, cut.b.link);
      const S sigma = S(int(moves_a) - int(moves_b));
      Vec6<S> column = Vec6<S>::Zero();
      if (sigma != S(0)) {
        const Vec3<S> z = motion.R[static_cast<std::size_t>(i)].col(2);
        if (model.joint(i).type == JointType::revolute) {
          column.template head<3>() =
              sigma * (Rt * cross(z, Vec3<S>(p - motion.o[static_cast<std::size_t>(i)])));
          column.template tail<3>() = sigma * (Rt * z);
        } else {
          column.template head<3>() = sigma * (Rt * z);
        }
      }
      for (int r = 0; r < rows.count; ++r)
        ws.J(row + r, i) = column[rows.components[static_cast<std::size_t>(r)]];
    }
    row += rows.count;
  }
  return ws.J;
}

// gamma = (dJ/dt) qd of Eqs. (L4)-(L5), after loop_residual at the same q. Returns ws.gamma.
template <typename S>
const VecX<S>& loop_velocity_product(const Model<S>& model, const Loops<S>& loops,
                                     LoopWorkspace<S>& ws, ConstVectorRef<S> qd) {
  require_loop_workspace(model, loops, ws, "loop_velocity_product");
  body_velocities(model, ws.motion, qd);
  body_accelerations(model, ws.motion, qd, ws.zeros);
  int row = 0;
  for (std::size_t k = 0; k < loops.cuts.size(); ++k) {
    const CutJoint<S>& cut = loops.cuts[k];
    const Vec6<S> va = frame_velocity(ws.motion, cut.a), vb = frame_velocity(ws.motion, cut.b);
    const Vec6<S> aa = frame_acceleration(ws.motion, cut.a);
    const Vec6<S> ab = frame_acceleration(ws.motion, cut.b);
    const Vec3<S> w_b = vb.template tail<3>(), dw_b = ab.template tail<3>();
    const Vec3<S> d = ws.frame_a[k].p - ws.frame_b[k].p;
    const Vec3<S> dv = va.template head<3>() - vb.template head<3>();
    const Vec3<S> u = dv - cross(w_b, d);
    const Vec3<S> dw = va.template tail<3>() - w_b;
    const Mat3<S> Rt = ws.frame_b[k].R.transpose();
    Vec6<S> g;
    g.template head<3>() = Rt * Vec3<S>(aa.template head<3>() - ab.template head<3>() -
                                        cross(dw_b, d) - cross(w_b, dv) - cross(w_b, u));
    g.template tail<3>() = Rt * Vec3<S>(aa.template tail<3>() - dw_b - cross(w_b, dw));
    const CutJointRows rows = constrained_components(cut.type);
    for (int r = 0; r < rows.count; ++r)
      ws.gamma[row++] = g[rows.components[static_cast<std::size_t>(r)]];
  }
  return ws.gamma;
}

}  // namespace denoc
