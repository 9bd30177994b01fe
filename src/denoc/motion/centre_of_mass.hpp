// The centre of mass of the robot, its Jacobian, and the centroidal momentum with its matrix
// (Orin, Goswami and Lee, "Centroidal dynamics of a humanoid robot", Autonomous Robots 35, 2013:
// h_G = A_G v, their Eqs. (6) and (10)), all in the world frame (docs/legged.md).
//
// The bodies counted are those that move: every link, and the floating base's body when the base
// floats; a fixed base and what is fixed to it are left out (as Pinocchio's centerOfMass). The
// drives' rotors are not bodies here: their inertia G^2 Jm is seen at the joint only.
//
// A_G is built from the composite body of each subtree about the centre of mass G (Saha's (1999)
// M~_i of Eq. 23b, here about G in the world's axes): the subtree of joint i moves rigidly with a
// unit rate of joint i, whose twist at G is [z_i; z_i x (G - o_i)] (revolute) or [0; z_i]
// (prismatic), and its momentum about G is that composite times the twist. The centroidal
// momentum itself is summed body by body from body_velocities, independently of A_G.
#pragma once

#include <vector>

#include "denoc/model/body_inertia.hpp"
#include "denoc/motion/body_motion.hpp"

namespace denoc {

template <typename S>
struct CentroidalWorkspace {
  explicit CentroidalWorkspace(const Model<S>& model)
      : motion(model),
        subtree(static_cast<std::size_t>(model.dof())),
        subtree_mass(static_cast<std::size_t>(model.dof()), S(0)),
        subtree_moment(static_cast<std::size_t>(model.dof()), Vec3<S>::Zero()),
        com_jacobian(Eigen::Matrix<S, 3, Eigen::Dynamic>::Zero(3, model.nv())),
        matrix(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.nv())) {}

  BodyMotionWorkspace<S> motion;
  S mass = S(0);                           // of the bodies that move
  Vec3<S> com = Vec3<S>::Zero();           // G, world frame
  Vec3<S> com_velocity = Vec3<S>::Zero();  // dG/dt
  std::vector<BodyInertia<S>> subtree;     // link i and its descendants about G, world axes
  std::vector<S> subtree_mass;             // of link i and its descendants
  std::vector<Vec3<S>> subtree_moment;     // their sum m_k C_k, world frame
  BodyInertia<S> total;                    // every body that moves, about G
  Eigen::Matrix<S, 3, Eigen::Dynamic> com_jacobian;  // dG/dt = J_G v
  Eigen::Matrix<S, 6, Eigen::Dynamic> matrix;        // A_G, rows linear then angular
  Vec6<S> momentum = Vec6<S>::Zero();                // h_G = [l; k_G]
};

// The mass centre C_i of link i, and that of the floating base's body, in the world frame, after
// body_poses.
template <typename S>
Vec3<S> link_mass_centre(const Model<S>& model, const BodyMotionWorkspace<S>& ws, int i) {
  return ws.o[i] + ws.R[i] * model.joint(i).d;
}
template <typename S>
Vec3<S> base_mass_centre(const Model<S>& model, const BodyMotionWorkspace<S>& ws) {
  return ws.base * model.base_body().com;
}

// G = sum m_i C_i / m at q, with m (ws.mass) the mass of the bodies that move.
template <typename S>
const Vec3<S>& centre_of_mass(const Model<S>& model, CentroidalWorkspace<S>& ws,
                              ConstVectorRef<S> q) {
  body_poses(model, ws.motion, q);
  S mass(0);
  Vec3<S> moment = Vec3<S>::Zero();
  for (int i = 0; i < model.dof(); ++i) {
    const S m = model.joint(i).M.mass;
    mass += m;
    moment += m * link_mass_centre(model, ws.motion, i);
  }
  if (model.floating()) {
    mass += model.base_body().mass;
    moment += model.base_body().mass * base_mass_centre(model, ws.motion);
  }
  ws.mass = mass;
  ws.com = moment / mass;
  return ws.com;
}

// dG/dt = sum m_i (v_i + w_i x (C_i - o_i)) / m at (q, qd), body by body.
template <typename S>
const Vec3<S>& centre_of_mass_velocity(const Model<S>& model, CentroidalWorkspace<S>& ws,
                                       ConstVectorRef<S> q, ConstVectorRef<S> qd) {
  centre_of_mass(model, ws, q);
  BodyMotionWorkspace<S>& b = ws.motion;
  body_velocities(model, b, qd);
  Vec3<S> momentum = Vec3<S>::Zero();
  for (int i = 0; i < model.dof(); ++i) {
    const Vec3<S> s = b.R[i] * model.joint(i).d;
    momentum += model.joint(i).M.mass * Vec3<S>(b.v[i] + cross(b.w[i], s));
  }
  if (model.floating()) {
    const Vec3<S> s = b.base.R * model.base_body().com;
    momentum += model.base_body().mass * Vec3<S>(b.base_v + cross(b.base_w, s));
  }
  ws.com_velocity = momentum / ws.mass;
  return ws.com_velocity;
}

namespace detail {

// A body of mass m, inertia I about its mass centre C in axes R, seen from G in the world's axes.
template <typename S>
BodyInertia<S> about_com(S m, const Mat3<S>& I, const Mat3<S>& R, const Vec3<S>& C,
                         const Vec3<S>& G) {
  return BodyInertia<S>::about_mass_centre(m, Mat3<S>(R * I * R.transpose())).shifted(C - G);
}

// The twist at G of a unit rate of joint i, [w; v_G].
template <typename S>
std::pair<Vec3<S>, Vec3<S>> unit_joint_twist(const Model<S>& model, const BodyMotionWorkspace<S>& b,
                                             int i, const Vec3<S>& G) {
  const Vec3<S> z = b.R[i].col(2);
  if (model.joint(i).type == JointType::revolute) return {z, cross(z, Vec3<S>(G - b.o[i]))};
  return {Vec3<S>::Zero(), z};
}

}  // namespace detail

// ws.subtree and ws.total about G at q (after which G and the poses are those of q): each link
// about G, then the descendants added backwards (a child's index is above its parent's).
template <typename S>
void composite_inertias_about_com(const Model<S>& model, CentroidalWorkspace<S>& ws,
                                  ConstVectorRef<S> q) {
  const Vec3<S> G = centre_of_mass(model, ws, q);
  const BodyMotionWorkspace<S>& b = ws.motion;
  for (int i = 0; i < model.dof(); ++i) {
    const BodyInertia<S>& M = model.joint(i).M;  // about C_i, in J_i
    ws.subtree[i] =
        detail::about_com(M.mass, M.rotational, b.R[i], link_mass_centre(model, b, i), G);
  }
  ws.total = BodyInertia<S>{};
  if (model.floating()) {
    const RigidBody<S>& base = model.base_body();
    ws.total = detail::about_com(base.mass, base.inertia, b.base.R, base_mass_centre(model, b), G);
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const int p = model.parent(i);
    (p >= 0 ? ws.subtree[p] : ws.total) += ws.subtree[i];
  }
}

// Each subtree's mass and first moment sum m_k C_k about the world origin at q, summed backwards
// (a child's index is above its parent's); G and m from the roots' sums and the base's body.
template <typename S>
void subtree_mass_centres(const Model<S>& model, CentroidalWorkspace<S>& ws, ConstVectorRef<S> q) {
  body_poses(model, ws.motion, q);
  for (int i = 0; i < model.dof(); ++i) {
    const S m = model.joint(i).M.mass;
    ws.subtree_mass[i] = m;
    ws.subtree_moment[i] = m * link_mass_centre(model, ws.motion, i);
  }
  S mass(0);
  Vec3<S> moment = Vec3<S>::Zero();
  if (model.floating()) {
    mass = model.base_body().mass;
    moment = mass * base_mass_centre(model, ws.motion);
  }
  for (int i = model.dof() - 1; i >= 0; --i) {
    const int p = model.parent(i);
    (p >= 0 ? ws.subtree_mass[p] : mass) += ws.subtree_mass[i];
    (p >= 0 ? ws.subtree_moment[p] : moment) += ws.subtree_moment[i];
  }
  ws.mass = mass;
  ws.com = moment / mass;
}

// J_G (3 x nv): dG/dt = J_G v. A unit rate of joint i moves its subtree (mass m_i, first moment
// h_i = m_i c_i) rigidly, and G by m_i / m times the velocity of the subtree's centre c_i:
// z_i x (h_i - m_i o_i) / m for a revolute joint, z_i m_i / m for a prismatic one. With a
// floating base the base's rates move every body: R for v, and -[(G - p) x] R for w. Only the
// subtrees' masses and first moments enter, not their inertias (centroidal_matrix's).
template <typename S>
const Eigen::Matrix<S, 3, Eigen::Dynamic>& centre_of_mass_jacobian(const Model<S>& model,
                                                                   CentroidalWorkspace<S>& ws,
                                                                   ConstVectorRef<S> q) {
  subtree_mass_centres(model, ws, q);
  const BodyMotionWorkspace<S>& b = ws.motion;
  const Vec3<S>& G = ws.com;
  const int offset = model.floating() ? 6 : 0;
  if (model.floating()) {
    ws.com_jacobian.template leftCols<3>() = b.base.R;
    ws.com_jacobian.template middleCols<3>(3) = -cross_matrix(Vec3<S>(G - b.base.p)) * b.base.R;
  }
  for (int i = 0; i < model.dof(); ++i) {
    const S m_i = ws.subtree_mass[i];
    const Vec3<S> z = b.R[i].col(2);
    ws.com_jacobian.col(offset + i) =
        model.joint(i).type == JointType::revolute
            ? Vec3<S>(cross(z, Vec3<S>(ws.subtree_moment[i] - m_i * b.o[i])) / ws.mass)
            : Vec3<S>(z * (m_i / ws.mass));
  }
  return ws.com_jacobian;
}

// A_G (6 x nv), rows linear then angular: each column the momentum about G of what a unit rate
// moves, the composite of the joint's subtree (the whole robot for the base's rates) times the
// unit twist at G.
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& centroidal_matrix(const Model<S>& model,
                                                             CentroidalWorkspace<S>& ws,
                                                             ConstVectorRef<S> q) {
  composite_inertias_about_com(model, ws, q);
  const BodyMotionWorkspace<S>& b = ws.motion;
  const Vec3<S>& G = ws.com;
  auto put = [&](int column, const BodyInertia<S>& body, const Vec3<S>& w, const Vec3<S>& v) {
    const Vec6<S> about_G = body.momentum(w, v);  // [angular; linear]
    ws.matrix.col(column).template head<3>() = linear(about_G);
    ws.matrix.col(column).template tail<3>() = angular(about_G);
  };
  const int offset = model.floating() ? 6 : 0;
  if (model.floating()) {
    for (int k = 0; k < 3; ++k) {
      const Vec3<S> axis = b.base.R.col(k);
      put(k, ws.total, Vec3<S>::Zero(), axis);
      put(3 + k, ws.total, axis, cross(axis, Vec3<S>(G - b.base.p)));
    }
  }
  for (int i = 0; i < model.dof(); ++i) {
    const auto [w, v] = detail::unit_joint_twist(model, b, i, G);
    put(offset + i, ws.subtree[i], w, v);
  }
  return ws.matrix;
}

// h_G = [l; k_G] at (q, qd), body by body: l = sum m_i dC_i/dt, k_G = sum I_i w_i +
// (C_i - G) x m_i dC_i/dt, in the world's axes (Pinocchio's computeCentroidalMomentum).
template <typename S>
const Vec6<S>& centroidal_momentum(const Model<S>& model, CentroidalWorkspace<S>& ws,
                                   ConstVectorRef<S> q, ConstVectorRef<S> qd) {
  const Vec3<S> G = centre_of_mass(model, ws, q);
  BodyMotionWorkspace<S>& b = ws.motion;
  body_velocities(model, b, qd);
  Vec3<S> l = Vec3<S>::Zero(), k = Vec3<S>::Zero();
  auto add = [&](S m, const Mat3<S>& I, const Mat3<S>& R, const Vec3<S>& C, const Vec3<S>& o,
                 const Vec3<S>& w, const Vec3<S>& v) {
    const Vec3<S> mass_centre_momentum = m * Vec3<S>(v + cross(w, Vec3<S>(C - o)));
    l += mass_centre_momentum;
    k += R * (I * (R.transpose() * w)) + cross(Vec3<S>(C - G), mass_centre_momentum);
  };
  for (int i = 0; i < model.dof(); ++i) {
    const BodyInertia<S>& M = model.joint(i).M;
    add(M.mass, M.rotational, b.R[i], link_mass_centre(model, b, i), b.o[i], b.w[i], b.v[i]);
  }
  if (model.floating()) {
    const RigidBody<S>& base = model.base_body();
    add(base.mass, base.inertia, b.base.R, base_mass_centre(model, b), b.base.p, b.base_w,
        b.base_v);
  }
  ws.momentum.template head<3>() = l;
  ws.momentum.template tail<3>() = k;
  return ws.momentum;
}

}  // namespace denoc
