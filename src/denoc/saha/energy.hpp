// Kinetic and potential energy of the robot, for energy checks and rfdsim's output columns. On a
// tree each link's twist and pose come from its parent's (lambda(i) for i - 1).
#pragma once

#include "denoc/model/kinematics.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

namespace unchecked {

// T = 1/2 sum_i t_i^T M_i t_i, with the twists t_i of Eq. (12), plus the rotors' 1/2 G^2 Jm qd^2.
template <typename S>
S kinetic_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                 ConstVectorRef<S> qd) {
  update_joint_frames(model, ws, q);
  S energy = 0;
  // A floating base moves with t_0 (base_motion.hpp): its body's share, and the links'
  // twists carried from it.
  const Vec6<S> t_base = model.floating() ? ws.id.t_0 : Vec6<S>::Zero();
  if (model.floating()) energy += t_base.dot(model.base_inertia() * t_base) / 2;
  for (int i = 0; i < model.dof(); ++i) {
    const Joint<S>& joint = model.joint(i);
    const int parent = model.parent(i);
    const Vec6<S> t_parent = parent >= 0 ? ws.id.t[parent] : t_base;
    ws.id.t[i] = propagate_twist(ws.E[i], ws.ell[i], t_parent) + joint.p * qd[i];
    energy += ws.id.t[i].dot(joint.M * ws.id.t[i]) / 2;
  }
  // The rotors of the drives (docs/csv.md): 1/2 G^2 Jm qd_i^2 each.
  if (model.has_rotors()) energy += model.rotor_inertia().dot(qd.cwiseAbs2()) / 2;
  return energy;
}

// V = -sum_i m_i g . c_i, c_i the mass centre in the base frame (zero at the base origin). With a
// floating base, in the world frame through ws.base_pose, the base body included.
template <typename S>
S potential_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  joint_poses(model, ws);
  const Transform<S> base = model.floating() ? ws.base_pose : Transform<S>();
  S energy = 0;
  if (model.floating())
    energy -= model.base_body().mass * model.gravity().dot(base * model.base_body().com);
  for (int i = 0; i < model.dof(); ++i) {
    const Vec3<S>& c = ws.c_base[i];  // C_i
    energy -= model.joint(i).M.mass * model.gravity().dot(base * c);
  }
  return energy;
}

}  // namespace unchecked

// T and V at (q, qd): with a floating base the base body's share too, its motion and pose from
// the first seven coordinates and six rates (base_motion.hpp).
template <typename S>
S kinetic_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                 ConstVectorRef<S> qd) {
  require_call(model, ws, "kinetic_energy", q, qd);
  if (model.floating()) set_base_motion(model, ws, q, qd, ws.id.zeros_floating);
  return unchecked::kinetic_energy(model, ws, joint_coordinates(model, q), joint_rates(model, qd));
}

template <typename S>
S potential_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_call(model, ws, "potential_energy", q);
  if (model.floating()) ws.base_pose = base_pose<S>(q);
  return unchecked::potential_energy(model, ws, joint_coordinates(model, q));
}

}  // namespace denoc
