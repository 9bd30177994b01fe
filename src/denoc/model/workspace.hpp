// Per-sample storage of the algorithms, sized once from the model and reused for every
// sample so that no algorithm allocates (the model itself is never written).
// Vectors indexed by joint hold one entry per link, index i-1 for link i.
#pragma once

#include <vector>

#include "denoc/model/model.hpp"

namespace denoc {

template <typename S>
struct Workspace {
  explicit Workspace(const Model<S>& model);

  // Joint frames for the current q, filled by update_joint_frames (joint_frames.hpp).
  VecX<S> sin_q, cos_q;      // sin and cos of every joint variable
  std::vector<Mat3<S>> E;    // rotation of J_i relative to J_{i-1}
  std::vector<Vec3<S>> ell;  // from C_{i-1} to C_i, in J_i (-c_{i,i-1} of Eq. 13)

  // Inverse dynamics, Section 5.1 (inverse_dynamics.hpp).
  std::vector<Vec6<S>> t;      // twist t_i (nu_i of Section 5.1), Eq. (1), in J_i
  std::vector<Vec6<S>> xi;     // twist rate xi_i, with rho of Eq. (32) from the base
  std::vector<Vec6<S>> gamma;  // wrench gamma_i = w~_i of Eq. (30), about C_i, in J_i
  VecX<S> tau;                 // joint forces, Eq. (30)
  VecX<S> zeros;               // stands in for qd or qdd in h and g

  // Generalized inertia matrix, Section 4.1 (generalized_inertia.hpp).
  std::vector<BodyInertia<S>> M_tilde;    // composite-body mass M~_i, Eq. (23b), about C_i, in J_i
  std::vector<BodyInertia<S>> M_tilde_O;  // the same about the base origin, base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic> p_O;  // p_i referred to the base origin, base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> wrenches;  // M~_i p_i, carried inwards
  MatX<S> gim;                // I of Eq. (20), entries from Eq. (24)
  MatX<S> gim_factor;         // L of I = L L^T, in its lower triangle
  bool gim_factored = false;  // whether I was positive definite
  MatX<S> gim_inverse;        // I^-1 from that factor
  VecX<S> gim_column;         // one column of it on the way

  // Forward dynamics, Section 5.2 and Appendix B (forward_dynamics.hpp).
  VecX<S> phi;                      // phi = tau - C qd - gravity terms, Eq. (33)
  std::vector<Mat6<S>> M_hat;       // articulated-body mass M^_i, Eq. (50), about C_i, in J_i
  std::vector<Vec6<S>> psi;         // psi_i = M^_i p_i / m^_i, Eqs. (47)-(48)
  std::vector<Vec6<S>> psi_parent;  // psi_{i-1,i} = B_{i,i-1}^T psi_i, Eq. (47), in J_{i-1}
  VecX<S> m_hat;                    // m^_i = p_i^T M^_i p_i, Eq. (47): the diagonal of D, Eq. (54)
  VecX<S> tau_hat;                  // U^-1 phi, Eq. (34), then D^-1 of it (tau~ of step 2)
  VecX<S> qdd;                      // joint accelerations, Eq. (36)
  MatX<S> U;                        // unit upper triangular factor of I = U D U^T, Eqs. (46), (53)

  // Tool pose and Jacobian, spec §7 (kinematics.hpp).
  std::vector<Mat3<S>> R_base;                   // orientation of J_i in the base frame
  std::vector<Vec3<S>> o_base;                   // origin of J_i (on joint i's axis), base frame
  Transform<S> tool_pose;                        // the tool frame in the base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic> jacobian;  // [v; omega] of the tool frame origin, base frame
  // Joint reaction wrenches, spec §7 (reactions.hpp): column i = [f; n] of joint i in K_i.
  Eigen::Matrix<S, 6, Eigen::Dynamic> reactions;
};

template <typename S>
Workspace<S>::Workspace(const Model<S>& model)
    : sin_q(VecX<S>::Zero(model.dof())),
      cos_q(VecX<S>::Zero(model.dof())),
      E(static_cast<std::size_t>(model.dof()), Mat3<S>::Identity()),
      ell(static_cast<std::size_t>(model.dof()), Vec3<S>::Zero()),
      t(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      xi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      gamma(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      tau(VecX<S>::Zero(model.dof())),
      zeros(VecX<S>::Zero(model.dof())),
      M_tilde(static_cast<std::size_t>(model.dof())),
      M_tilde_O(static_cast<std::size_t>(model.dof())),
      p_O(6, model.dof()),
      wrenches(6, model.dof()),
      gim(MatX<S>::Zero(model.dof(), model.dof())),
      gim_factor(MatX<S>::Zero(model.dof(), model.dof())),
      gim_inverse(MatX<S>::Zero(model.dof(), model.dof())),
      gim_column(VecX<S>::Zero(model.dof())),
      phi(VecX<S>::Zero(model.dof())),
      M_hat(static_cast<std::size_t>(model.dof()), Mat6<S>::Zero()),
      psi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      psi_parent(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      m_hat(VecX<S>::Zero(model.dof())),
      tau_hat(VecX<S>::Zero(model.dof())),
      qdd(VecX<S>::Zero(model.dof())),
      U(MatX<S>::Identity(model.dof(), model.dof())),
      R_base(static_cast<std::size_t>(model.dof()), Mat3<S>::Identity()),
      o_base(static_cast<std::size_t>(model.dof()), Vec3<S>::Zero()),
      jacobian(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())),
      reactions(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())) {}

}  // namespace denoc
