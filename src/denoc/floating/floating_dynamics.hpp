// The DeNOC routes with a floating base (docs/floating-base.md): the base is link 0 of Saha
// (1999), moving with the twist t_0 at its origin, and its six rates come before the joints'.
// Each route is the fixed-base one with the base at the root of its recursions:
//   inverse dynamics   the forward recursion (12), (32) starts from t_0 and xi_0
//                      (base_motion.hpp); the base's wrench is its own Newton-Euler wrench plus
//                      B_{c,0}^T gamma_c of every joint c on the base, Eq. (7) at i = 0
//   inertia matrix     the joints' block is Eq. (24); the base's block is the composite body
//                      of everything, M~_0 of Eq. (23b), and its coupling with joint j is the
//                      wrench M~_j p_j carried to the base, B_{j,0}^T M~_j p_j (Eq. 24 with
//                      p_0 = 1, the base's six rates)
//   O(n) dynamics      the reverse elimination of Eqs. (47)-(50) runs on to the base, whose
//                      pivot is the 6x6 articulated mass M^_0 = M_0 + sum_c B^T (M^_c -
//                      psi^_c psi_c^T) B (Featherstone's floating-base articulated-body method)
//   Cholesky route     the (6 + n) matrix factored as L^T D L with the parent array of the rates
//                      (Model::rate_parents: the six base rates a chain, the joints below them)
// Six-vectors inside the recursions are [angular; linear]; the base's rates and forces are
// [linear; angular], as Pinocchio's free-flyer (write_linear_first).
#pragma once

#include <limits>

#include "denoc/floating/base_motion.hpp"
#include "denoc/model/kinematics.hpp"
#include "denoc/saha/energy.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/reactions.hpp"

namespace denoc {

// The checks of a floating-base route (model/arguments.hpp): the model's kind, the workspace,
// the coordinates q (7 + n) and, when given, the rates v (6 + n).
template <typename S>
void require_floating_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                           ConstVectorRef<S> q) {
  require_floating_base(model, function);
  require_workspace(model, ws, function);
  require_coordinates(model, function, "q", q);
}
template <typename S>
void require_floating_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                           ConstVectorRef<S> q, ConstVectorRef<S> v) {
  require_floating_call(model, ws, function, q);
  require_rates(model, function, "v", v);
}

// gamma_0 = M_0 xi_0 + Mdot_0 t_0 + sum_c B_{c,0}^T gamma_c, Eq. (7) at the base: the wrench
// [n; f] on the base about its origin, in the base frame, after the backward recursion.
template <typename S>
Vec6<S> base_wrench(const Model<S>& model, const Workspace<S>& ws) {
  Vec6<S> gamma = base_body_wrench(model.base_inertia(), ws.base.t, ws.base.xi);
  for_each_root_joint(model,
                      [&](int c) { gamma += transfer_wrench(ws.E[c], ws.ell[c], ws.gamma[c]); });
  return gamma;
}

// tau = [f_0; n_0; tau_1 .. tau_n] for the coordinates q (7 + n), rates v and their derivatives
// a (6 + n each): the wrench on the base, in the base frame about its origin, then the joint
// forces of Eq. (30) (with the drives' rotors, as inverse_dynamics). Returns ws.base.tau.
template <typename S>
const VecX<S>& floating_inverse_dynamics(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> v,
                                         ConstVectorRef<S> a) {
  require_floating_call(model, ws, "floating_inverse_dynamics", q, v);
  require_rates(model, "floating_inverse_dynamics", "a", a);
  set_base_motion(model, ws, q, v, a);
  unchecked::inverse_dynamics(model, ws, joint_coordinates(model, q), joint_rates(model, v),
                              joint_rates(model, a));
  write_linear_first(base_wrench(model, ws), ws.base.tau.template head<6>());
  ws.base.tau.tail(model.dof()) = ws.tau;
  return ws.base.tau;
}

// h(q, v) = tau(q, v, 0), and g(q) = tau(q, 0, 0): 6 + n entries each.
template <typename S>
const VecX<S>& floating_bias_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                    ConstVectorRef<S> v) {
  return floating_inverse_dynamics(model, ws, q, v, ws.base.zeros);
}
template <typename S>
const VecX<S>& floating_gravity_forces(const Model<S>& model, Workspace<S>& ws,
                                       ConstVectorRef<S> q) {
  return floating_inverse_dynamics(model, ws, q, ws.base.zeros, ws.base.zeros);
}

// The base's 6x6 block of the inertia matrix from the composite body M~_0 about the base origin,
// acting on [v; w]: the momentum is m v - h x w and h x v + I_O w.
template <typename S, typename Block>
void write_base_block(const BodyInertia<S>& M, Block&& out) {
  out.template topLeftCorner<3, 3>() = M.mass * Mat3<S>::Identity();
  out.template topRightCorner<3, 3>() = -cross_matrix(M.first_moment);
  out.template bottomLeftCorner<3, 3>() = cross_matrix(M.first_moment);
  out.template bottomRightCorner<3, 3>() = M.rotational;
}

// The (6 + n) x (6 + n) inertia matrix, rates ordered [v; w; qd]: the joints' block and their
// coupling with the base in one pass over the paths (gim_on_tree with the base), then the base's
// block from the composite of everything. Returns ws.base.gim.
template <typename S>
const MatX<S>& floating_inertia(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_inertia", q);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  MatX<S>& M = ws.base.gim;
  gim_on_tree(model, ws, M, 6);  // Eq. (24), and B_{j,0}^T M~_j p_j for the coupling
  if (model.has_rotors()) M.diagonal().tail(model.dof()) += model.rotor_inertia();
  BodyInertia<S> composite = model.base_inertia();  // M~_0, Eq. (23b) at the base
  for_each_root_joint(model,
                      [&](int c) { composite += ws.M_tilde[c].transferred(ws.E[c], ws.ell[c]); });
  write_base_block(composite, M.template topLeftCorner<6, 6>());
  return M;
}

// M^_0 = M_0 + the sum the joints on the base left in ws.base.articulated (Eq. 50 at the base).
template <typename S>
Mat6<S> base_articulated_mass(const Model<S>& model, const Workspace<S>& ws) {
  Mat6<S> M = ws.base.articulated;  // [A K; . C], K^T still to place
  M.template bottomLeftCorner<3, 3>() = M.template topRightCorner<3, 3>().transpose();
  M += model.base_inertia().matrix();
  return M;
}

// M^_0 factored: the base's pivot. False unless it is positive definite.
template <typename S>
bool factor_base_pivot(const Model<S>& model, Workspace<S>& ws) {
  ws.base.pivot.compute(base_articulated_mass(model, ws));
  return ws.base.pivot.info() == Eigen::Success;
}

// The base's accelerations [dw; dv] from M^_0 a_0 = f_0 - zeta_0: zeta_0 the base body's own
// wrench at zero acceleration plus what its joints left in ws.base.bias (Eq. 35 at the base),
// f_0 the wrench applied to the base (ws.base.applied).
template <typename S>
void solve_base_pivot(const Model<S>& model, Workspace<S>& ws) {
  const Vec6<S> zeta = ws.base.bias + base_body_wrench(model.base_inertia(), ws.base.t, ws.base.xi);
  ws.base.accel = ws.base.pivot.solve(Vec6<S>(ws.base.applied - zeta));
}

// [dv; dw; qdd] from ws.base.accel and ws.qdd into ws.base.qdd.
template <typename S>
void gather_floating_accelerations(const Model<S>& model, Workspace<S>& ws) {
  write_linear_first(ws.base.accel, ws.base.qdd.template head<6>());
  ws.base.qdd.tail(model.dof()) = ws.qdd;
}

// The elimination after the articulated masses: tau^ = U^-1 phi to the base, the base's pivot,
// then qdd from the base outwards (Eqs. 34-37 with the base first). The joint forces `tau`.
template <typename S, typename Topology>
void floating_solve(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau,
                    Topology topology) {
  solve_unit_upper(model, ws, tau, topology);  // down to the base, zeta_0 in ws.base.bias
  ws.tau_hat.array() /= ws.m_hat.array();
  solve_base_pivot(model, ws);
  solve_unit_lower(model, ws, topology);  // from mu_0 = the base's accelerations
}

// The generalized forces of the forward dynamics: the joints' n (the base free), or all 6 + n,
// the base's [f; n] first (in the base frame, about its origin: an external wrench's J^T w).
// The base's into ws.base.applied ([n; f], zero for n); returns the joints'.
template <typename S>
auto take_applied_forces(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> tau) {
  if (tau.size() != model.dof() && tau.size() != model.nv())
    throw std::invalid_argument("the forward dynamics of a floating base: tau has " +
                                std::to_string(tau.size()) + " entries, and the model " +
                                std::to_string(model.dof()) + " joints and " +
                                std::to_string(model.nv()) + " rates");
  ws.base.applied.setZero();
  if (tau.size() == model.nv()) {
    linear(ws.base.applied) = tau.template head<3>();
    angular(ws.base.applied) = tau.template segment<3>(3);
  }
  return tau.tail(model.dof());
}

// The accelerations [dv; dw; qdd] (6 + n) that the forces `tau` (take_applied_forces) produce
// at (q, v), in O(n). Returns ws.base.qdd; NaN if M^_0 is not positive definite.
template <typename S>
const VecX<S>& floating_forward_dynamics(const Model<S>& model, Workspace<S>& ws,
                                         ConstVectorRef<S> q, ConstVectorRef<S> v,
                                         ConstVectorRef<S> tau) {
  require_floating_call(model, ws, "floating_forward_dynamics", q, v);
  set_base_motion(model, ws, q, v, VecX<S>());
  const auto joint_forces = take_applied_forces(model, ws, tau);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  bool factored = false;
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, joint_rates(model, v), ws.zeros, topology);
    articulated_body_masses(model, ws, topology);  // Eqs. (47)-(50), M^_0's sum included
    if (!(factored = factor_base_pivot(model, ws))) return;
    floating_solve(model, ws, joint_forces, topology);
  });
  if (!factored) {
    ws.base.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.base.qdd;
  }
  gather_floating_accelerations(model, ws);
  return ws.base.qdd;
}

// A symmetric 6x6 matrix A = U D U^T, U unit upper triangular: its last row and column
// eliminated first, as Eqs. (47)-(50) eliminate the joints from the tips inwards. A is overwritten.
template <typename S, typename UBlock, typename DBlock>
void factor_udu_6x6(Mat6<S>& A, UBlock&& U, DBlock&& d) {
  U.setIdentity();
  for (int k = 5; k >= 0; --k) {
    d[k] = A(k, k);
    U.col(k).head(k) = A.col(k).head(k) / d[k];
    A.topLeftCorner(k, k).noalias() -= d[k] * U.col(k).head(k) * U.col(k).head(k).transpose();
  }
}

// The factors of I = U D U^T with a floating base (Saha 1999, Eqs. 46-54 run on to the base),
// rates [v; w; qd]: the joints' rows and D as on a fixed base (udu_factors); the base's rows of
// joint k's column, S_0^T B_{r,0}^T psi_k^0, psi_k carried along k's path to the base through its
// root r and read by the base's six unit rates S_0; and the base's 6x6 pivot M^_0 in the order
// [v; w], factored once more as U_0 D_0 U_0^T so that D is diagonal. U into ws.base.U, the
// diagonal of D into ws.base.d. D is positive where I is positive definite.
template <typename S>
void floating_udu_factors(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_udu_factors", q);
  const int n = model.dof();
  unchecked::udu_factors(model, ws,
                         joint_coordinates(model, q));  // also leaves M^_0's sum in ws.base
  MatX<S>& U = ws.base.U;
  U.setIdentity(n + 6, n + 6);  // sized at the first call
  ws.base.d.resize(n + 6);
  U.bottomRightCorner(n, n) = ws.U;
  ws.base.d.tail(n) = ws.m_hat;
  for (int k = 0; k < n; ++k) {
    Vec6<S> psi = ws.psi[k];
    for (int j = k; j >= 0; j = model.parent(j))
      psi = transfer_wrench(ws.E[j], ws.ell[j], psi);  // B_{j,lambda(j)}^T, to the base
    write_linear_first(psi, U.col(6 + k).template head<6>());
  }
  const Mat6<S> M = base_articulated_mass(model, ws);  // [angular; linear]
  Mat6<S> pivot;                                       // in the order [v; w]
  pivot << M.template bottomRightCorner<3, 3>(), M.template bottomLeftCorner<3, 3>(),
      M.template topRightCorner<3, 3>(), M.template topLeftCorner<3, 3>();
  factor_udu_6x6(pivot, U.template topLeftCorner<6, 6>(), ws.base.d.template head<6>());
}

// The (6 + n) inertia matrix factored as L^T D L with the parent array of the rates
// (tree_ltdl). False unless it is positive definite.
template <typename S>
bool factor_floating_inertia(const Model<S>& model, Workspace<S>& ws) {
  size_square(ws.base.factor, model.nv());
  return tree_ltdl(ws.base.gim, ws.base.factor, ws.base.column, model.rate_parents().data(),
                   model.rate_subtree_ends().data());
}

// The same accelerations by forming the inertia matrix and factoring it (the cholesky route).
template <typename S>
const VecX<S>& floating_forward_dynamics_cholesky(const Model<S>& model, Workspace<S>& ws,
                                                  ConstVectorRef<S> q, ConstVectorRef<S> v,
                                                  ConstVectorRef<S> tau) {
  VecX<S>& qdd = ws.base.qdd;
  qdd = -floating_bias_forces(model, ws, q, v);
  qdd.tail(model.dof()) += take_applied_forces(model, ws, tau);
  if (tau.size() == model.nv()) qdd.template head<6>() += tau.template head<6>();
  floating_inertia(model, ws, q);
  if (!factor_floating_inertia(model, ws)) {
    qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return qdd;
  }
  tree_ltdl_solve(ws.base.factor, model.rate_parents().data(), qdd);
  return qdd;
}

// The inverse of the (6 + n) inertia matrix by the U D U^T factors (the udu route): column k is
// the accelerations that a unit force on rate k produces with no motion and no gravity, one O(n)
// solve each after one elimination of the masses, O(n^2) in all. Returns ws.base.inverse.
template <typename S>
const MatX<S>& floating_inverse_inertia_udu(const Model<S>& model, Workspace<S>& ws,
                                            ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_inverse_inertia_udu", q);
  const int n = model.dof();
  size_square(ws.base.inverse, n + 6);
  set_base_at_rest(ws);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  with_topology(model, [&](auto topology) {
    forward_recursion(model, ws, ws.zeros, ws.zeros, topology);  // t_i = xi_i = 0
    articulated_body_masses(model, ws, topology);
    if (!factor_base_pivot(model, ws)) {
      ws.base.inverse.setConstant(std::numeric_limits<S>::quiet_NaN());
      return;
    }
    auto unit = ws.base.column.tail(n);
    for (int k = 0; k < n + 6; ++k) {
      ws.base.applied.setZero();
      unit.setZero();
      if (k < 3)
        ws.base.applied[3 + k] = 1;  // a force on the base: the linear half
      else if (k < 6)
        ws.base.applied[k - 3] = 1;  // a moment: the angular half
      else
        unit[k - 6] = 1;
      floating_solve(model, ws, unit, topology);
      gather_floating_accelerations(model, ws);
      ws.base.inverse.col(k) = ws.base.qdd;
    }
  });
  ws.base.applied.setZero();
  return ws.base.inverse;
}

// The same inverse through the L^T D L factor of the formed matrix (the cholesky route).
template <typename S>
const MatX<S>& floating_inverse_inertia_cholesky(const Model<S>& model, Workspace<S>& ws,
                                                 ConstVectorRef<S> q) {
  floating_inertia(model, ws, q);
  size_square(ws.base.inverse, model.nv());
  if (!factor_floating_inertia(model, ws)) {
    ws.base.inverse.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ws.base.inverse;
  }
  tree_ltdl_inverse(ws.base.factor, model.rate_parents().data(), ws.base.column, ws.base.inverse);
  return ws.base.inverse;
}

// T and V with a floating base: the base body's and the links' (kinetic_energy and
// potential_energy take the base's motion and pose from ws).
template <typename S>
S floating_kinetic_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                          ConstVectorRef<S> v) {
  require_floating_call(model, ws, "floating_kinetic_energy", q, v);
  set_base_motion(model, ws, q, v, ws.base.zeros);
  return unchecked::kinetic_energy(model, ws, joint_coordinates(model, q), joint_rates(model, v));
}
template <typename S>
S floating_potential_energy(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_potential_energy", q);
  ws.base_pose = base_pose<S>(q);
  return unchecked::potential_energy(model, ws, joint_coordinates(model, q));
}

// The environment's wrenches w = [f; n], each on its frame, at its origin, in the world frame,
// taken into the forces of floating_inverse_dynamics (which must come first): the joints' through
// apply_frame_wrench (their gamma_i and tau_i, so the reactions carry them too), the base's from
// its wrench of Eq. (7) again, and directly for a frame on the base. The forces then balance
// M a + h - sum J^T w. Returns ws.base.tau.
template <typename S>
const VecX<S>& apply_floating_frame_wrenches(const Model<S>& model, Workspace<S>& ws,
                                             ConstVectorRef<S> q, const FrameWrench<S>* wrenches,
                                             int count) {
  require_floating_call(model, ws, "apply_floating_frame_wrenches", q);
  const Mat3<S> world_to_base = base_pose<S>(q).R.transpose();
  Vec6<S> on_base =
      Vec6<S>::Zero();  // [n; f]: the wrenches on frames of the base, about its origin
  for (int k = 0; k < count; ++k) {
    const BodyFrame<S>& frame = wrenches[k].frame;
    const Vec6<S> w = tool_wrench_in_base(world_to_base, wrenches[k].w);
    if (frame.link >= 0) {
      apply_frame_wrench(model, ws, frame, w);
      continue;
    }
    const Vec3<S> f = w.template head<3>(), r = frame.placement.p;
    angular(on_base) += Vec3<S>(w.template tail<3>()) + cross(r, f);
    linear(on_base) += f;
  }
  const Vec6<S> base = base_wrench(model, ws) - on_base;  // [n; f], the joints' share carried again
  write_linear_first(base, ws.base.tau.template head<6>());
  ws.base.tau.tail(model.dof()) = ws.tau;
  return ws.base.tau;
}

// The same for one wrench on `frame`.
template <typename S>
const VecX<S>& apply_floating_frame_wrench(const Model<S>& model, Workspace<S>& ws,
                                           const BodyFrame<S>& frame, ConstVectorRef<S> q,
                                           const Vec6<S>& w_world) {
  const FrameWrench<S> wrench{frame, w_world};
  return apply_floating_frame_wrenches(model, ws, q, &wrench, 1);
}

// The pose of `frame` in the world frame. Returns ws.tool_pose.
template <typename S>
const Transform<S>& floating_frame_pose(const Model<S>& model, Workspace<S>& ws,
                                        const BodyFrame<S>& frame, ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_frame_pose", q);
  const Transform<S> in_base = frame_pose(model, ws, frame, joint_coordinates(model, q));
  ws.base_pose = base_pose<S>(q);
  ws.tool_pose = ws.base_pose * in_base;
  return ws.tool_pose;
}

// The geometric Jacobian of the frame's origin in the world frame, rows [v; omega], 6 x (6 + n):
// with R the base's orientation and r the origin in the base frame, the base's v moves it by
// R v, its w by R (w x r) = -R [r x] w and turns it by R w; the joints' columns are R times those
// of frame_jacobian. Returns ws.base.jacobian.
template <typename S>
const Eigen::Matrix<S, 6, Eigen::Dynamic>& floating_frame_jacobian(const Model<S>& model,
                                                                   Workspace<S>& ws,
                                                                   const BodyFrame<S>& frame,
                                                                   ConstVectorRef<S> q) {
  require_floating_call(model, ws, "floating_frame_jacobian", q);
  const int n = model.dof();
  const auto& J = frame_jacobian(model, ws, frame, joint_coordinates(model, q));
  const Vec3<S> r = ws.tool_pose.p;
  const Mat3<S> R = base_pose<S>(q).R;
  auto& out = ws.base.jacobian;
  out.setZero(6, n + 6);
  out.template block<3, 3>(0, 0) = R;
  out.template block<3, 3>(0, 3) = -R * cross_matrix(r);
  out.template block<3, 3>(3, 3) = R;
  out.rightCols(n).template topRows<3>().noalias() = R * J.template topRows<3>();
  out.rightCols(n).template bottomRows<3>().noalias() = R * J.template bottomRows<3>();
  return out;
}

}  // namespace denoc
