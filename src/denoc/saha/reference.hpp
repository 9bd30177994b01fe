// The DeNOC recursions of Saha (1999) read one statement per equation, on 6-vectors and 6 x 6
// matrices, as energy.hpp reads Eq. (12). The fast recursions (inverse_dynamics.hpp,
// forward_dynamics.hpp, generalized_inertia.hpp) expand the same equations over 3-vectors and
// 3 x 3 blocks, zeros of p_i skipped; the tests hold them to these. Not for speed: the results are
// returned by value.
#pragma once

#include <vector>

#include "denoc/model/joint_frames.hpp"

namespace denoc::reference {

// B_{i,i-1} of Eq. (13) in J_i: [E^T 0; -ell~ E^T E^T], so that B t_{i-1} carries the twist of
// C_{i-1} to C_i (c_{i,i-1} = -ell) and re-expresses it (propagate_twist in spatial.hpp).
template <typename S>
Mat6<S> twist_propagation(const Mat3<S>& E, const Vec3<S>& ell) {
  Mat6<S> B = Mat6<S>::Zero();
  B.template topLeftCorner<3, 3>() = E.transpose();
  B.template bottomRightCorner<3, 3>() = E.transpose();
  B.template bottomLeftCorner<3, 3>() = -cross_matrix(ell) * E.transpose();
  return B;
}

// Omega_i = diag(w~, w~) of Eq. (32): the angular velocity's cross product on both halves.
template <typename S>
Mat6<S> angular_rate_matrix(const Vec3<S>& w) {
  Mat6<S> Omega = Mat6<S>::Zero();
  Omega.template topLeftCorner<3, 3>() = cross_matrix(w);
  Omega.template bottomRightCorner<3, 3>() = cross_matrix(w);
  return Omega;
}

template <typename S>
struct InverseDynamics {
  std::vector<Vec6<S>> t, xi, gamma;  // twists, twist rates and wrenches of each link, in J_i
  VecX<S> tau;                        // the joint forces
};

// t_i and xi_i from the base outwards, Eqs. (12) and (32), with the base at rest accelerating
// at -g (rho of Eq. 32). Needs the joint frames of the current q (update_joint_frames).
template <typename S>
void twists(const Model<S>& model, const KinematicsWorkspace<S>& frames, ConstVectorRef<S> qd,
            ConstVectorRef<S> qdd, InverseDynamics<S>& out) {
  Vec6<S> t_parent = Vec6<S>::Zero(), xi_parent = Vec6<S>::Zero();
  linear(xi_parent) = -model.gravity();  // rho
  for (int i = 0; i < model.dof(); ++i) {
    const Mat3<S>& E = frames.E[i];
    const Vec3<S>& ell = frames.ell[i];
    const Vec6<S>& p = model.joint(i).p;
    const Mat6<S> B = twist_propagation(E, ell);
    out.t[i] = B * t_parent + p * qd[i];  // (12)
    // Bdot_{i,i-1} = [0 0; -ell_dot~ E^T 0], ell_dot = d(ell)/dt seen from J_i.
    const Vec3<S> ell_dot = cross(Vec3<S>(angular(Vec6<S>(B * t_parent))), ell) + linear(p) * qd[i];
    Mat6<S> B_dot = Mat6<S>::Zero();
    B_dot.template bottomLeftCorner<3, 3>() = -cross_matrix(ell_dot) * E.transpose();
    const Mat6<S> Omega = angular_rate_matrix(Vec3<S>(angular(out.t[i])));
    out.xi[i] = B * xi_parent + B_dot * t_parent + p * qdd[i] + Omega * p * qd[i];  // (32)
    t_parent = out.t[i];
    xi_parent = out.xi[i];
  }
}

// tau of Eq. (30) by Eqs. (12), (32), (7) and (30), the rotors' G^2 Jm qdd_i added as
// inverse_dynamics adds them. Updates `frames` to q.
template <typename S>
InverseDynamics<S> inverse_dynamics(const Model<S>& model, KinematicsWorkspace<S>& frames,
                                    ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                    ConstVectorRef<S> qdd) {
  const int n = model.dof();
  const auto size = static_cast<std::size_t>(n);
  InverseDynamics<S> out{std::vector<Vec6<S>>(size), std::vector<Vec6<S>>(size),
                         std::vector<Vec6<S>>(size), VecX<S>(n)};
  update_joint_frames(model, frames, q);
  twists(model, frames, qd, qdd, out);
  Vec6<S> gamma_child = Vec6<S>::Zero();
  for (int i = n - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    const Mat6<S> M = joint.M.matrix();
    const Mat6<S> Omega = angular_rate_matrix(Vec3<S>(angular(out.t[i])));
    const Mat6<S> M_dot = Omega * M - M * Omega;  // the inertia turning with the link
    const Mat6<S> B_child =
        i + 1 < n ? twist_propagation(frames.E[i + 1], frames.ell[i + 1]) : Mat6<S>::Zero();
    out.gamma[i] = M * out.xi[i] + M_dot * out.t[i] + B_child.transpose() * gamma_child;  // (7)
    out.tau[i] = joint.p.dot(out.gamma[i]) + joint.rotor_inertia * qdd[i];                // (30)
    gamma_child = out.gamma[i];
  }
  return out;
}

template <typename S>
struct ArticulatedBodies {
  std::vector<Mat6<S>> M_hat;  // M^_i of Eq. (50)
  std::vector<Vec6<S>> psi;    // psi_i of Eq. (48)
  VecX<S> m_hat;               // m^_i of Eq. (47), the diagonal of D
};

// Eqs. (47)-(50) from the tip inwards, the rotors' G^2 Jm in m^_i as articulated_body_masses
// puts them. Needs the joint frames of the current q.
template <typename S>
ArticulatedBodies<S> articulated_bodies(const Model<S>& model,
                                        const KinematicsWorkspace<S>& frames) {
  const int n = model.dof();
  const auto size = static_cast<std::size_t>(n);
  ArticulatedBodies<S> out{std::vector<Mat6<S>>(size), std::vector<Vec6<S>>(size), VecX<S>(n)};
  for (int i = n - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    out.M_hat[i] = joint.M.matrix();
    if (i + 1 < n) {
      const Mat6<S> B = twist_propagation(frames.E[i + 1], frames.ell[i + 1]);
      const Vec6<S> psi_hat_child = out.M_hat[i + 1] * model.joint(i + 1).p;
      out.M_hat[i] +=
          B.transpose() * (out.M_hat[i + 1] - psi_hat_child * out.psi[i + 1].transpose()) * B;
    }                                                           // (50)
    const Vec6<S> psi_hat = out.M_hat[i] * joint.p;             // (47)
    out.m_hat[i] = joint.p.dot(psi_hat) + joint.rotor_inertia;  // (47)
    out.psi[i] = psi_hat / out.m_hat[i];                        // (48)
  }
  return out;
}

// The composite bodies M~_i of Eq. (23b) from the tip inwards, M~_i = M_i + B_{i+1,i}^T M~_{i+1}
// B_{i+1,i}, and I(q) of Eq. (24) column by column: I_ij = p_i^T M~_i B_ij p_j for i >= j, with
// B_ij = B_{i,i-1} .. B_{j+1,j} applied to p_j one joint at a time (Eq. 6), mirrored above the
// diagonal; the rotors' G^2 Jm on the diagonal as generalized_inertia puts them. Needs the joint
// frames of the current q.
template <typename S>
MatX<S> composite_inertia(const Model<S>& model, const KinematicsWorkspace<S>& frames) {
  const int n = model.dof();
  std::vector<Mat6<S>> M_tilde(static_cast<std::size_t>(n));
  for (int i = n - 1; i >= 0; --i) {
    M_tilde[i] = model.joint(i).M.matrix();
    if (i + 1 < n) {
      const Mat6<S> B = twist_propagation(frames.E[i + 1], frames.ell[i + 1]);
      M_tilde[i] += B.transpose() * M_tilde[i + 1] * B;  // (23b)
    }
  }
  MatX<S> I(n, n);
  for (int j = 0; j < n; ++j) {
    Vec6<S> carried = model.joint(j).p;  // B_ij p_j, for i = j first
    for (int i = j; i < n; ++i) {
      if (i > j) carried = twist_propagation(frames.E[i], frames.ell[i]) * carried;  // (6)
      I(i, j) = I(j, i) = model.joint(i).p.dot(M_tilde[i] * carried);                // (24)
    }
    I(j, j) += model.joint(j).rotor_inertia;
  }
  return I;
}

}  // namespace denoc::reference
