// Per-sample storage of the algorithms, sized once from the model and reused for every
// sample so that no algorithm allocates (the model itself is never written).
// Vectors indexed by joint hold one entry per link, index i-1 for link i.
#pragma once

#include <vector>

#include "denoc/lee/fixman_workspace.hpp"
#include "denoc/model/cholesky.hpp"
#include "denoc/model/model.hpp"

namespace denoc {

// ---- Gibbs-Appell (Mata et al. 2002; src/denoc/mata/gibbs_appell.hpp) ------------------------
// Its own storage, apart from the DeNOC vectors above, so that both routes can run on one
// workspace and be compared. Symbols are the paper's; index i-1 holds link i, as above.
template <typename S>
struct GibbsAppellWorkspace {
  explicit GibbsAppellWorkspace(const Model<S>& model);

  // Off-line quantities (Eq. 11, Section 4.2 Step 1), taken from the model when the workspace
  // is built: the workspace belongs to that model, as its sizes already do.
  std::vector<Vec3<S>> s_placed;  // ^{i-1}s_{i-1,i} at q_i = 0: origin of J_i from that of J_{i-1}
  std::vector<Vec3<S>> r;         // ^i r_{i,i}: origin of J_i to the mass centre C_i
  std::vector<Vec3<S>> m_r;       // m_i ^i r_{i,i}
  std::vector<Mat3<S>> J;         // Euler's tensor J_i = tr(I_i)/2 1 - I_i, Eq. (11)
  std::vector<Mat3<S>> H;         // H_i = I_i - m_i r~_ii r~_ii: link i about the origin of J_i
  VecX<S> M;                      // composite mass M_i = m_i + ... + m_n, Step 1
  VecX<S> revolute;               // 1 for a revolute joint, 0 for a prismatic one

  // Joint frames of the current q.
  VecX<S> sin_q, cos_q;
  std::vector<Mat3<S>> R;  // ^{i-1}R_i, rotation of J_i relative to J_{i-1}
  std::vector<Vec3<S>> s;  // ^{i-1}s_{i-1,i}, with q_i for a prismatic joint

  // Inverse dynamics, Section 4.1.
  std::vector<Vec3<S>> f;  // ^i f_i = m_i ^i rdd_i, Eq. (9), gravity through the base
  std::vector<Vec3<S>> t;  // ^i t_i, Eq. (10): moment about C_i
  VecX<S> tau;             // tau_j, Eq. (14)
  VecX<S> zeros;           // qd or qdd in the bias and gravity vectors

  // Generalized inertia matrix, Section 4.2.
  std::vector<Vec3<S>> n_unit, f_unit;  // moment about the origin of J_j and force of bodies
                                        // j..n for qdd_j = 1: the bracket of Step 7 times z_j
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> z_s;  // rows: ^j z_k, ^j s_{k,j} (Steps 2-3)
  MatX<S> D;                                                 // D of Eqs. (17)-(19), Steps 6-7
  MatX<S> L;                                                 // D = L L^T (Cholesky), lower triangle
  bool factored = false;                                     // whether D was positive definite
  CholeskyScratch<S> cholesky_scratch;                       // packing buffers of D = L L^T
  VecX<S> rhs;                                               // tau - C + G of Eq. (17)
  VecX<S> qdd;                                               // forward dynamics
};

template <typename S>
GibbsAppellWorkspace<S>::GibbsAppellWorkspace(const Model<S>& model) {
  const int n = model.dof();
  const auto size = static_cast<std::size_t>(n);
  s_placed.resize(size);
  r.resize(size);
  m_r.resize(size);
  J.resize(size);
  H.resize(size);
  M = VecX<S>::Zero(n);
  revolute = VecX<S>::Zero(n);
  for (int i = n - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint(i);
    // r_placed runs from C_{i-1} (the base origin for i = 1) to the origin of J_i, in R_i's axes.
    const Vec3<S> parent_com = i > 0 ? model.joint(i - 1).d : Vec3<S>::Zero();
    s_placed[i] = joint.R * joint.r_placed + parent_com;
    r[i] = joint.d;
    const S m = joint.M.mass;
    const Mat3<S>& I = joint.M.rotational;
    m_r[i] = m * r[i];
    J[i] = (I.trace() / 2) * Mat3<S>::Identity() - I;
    // -r~ r~ = |r|^2 1 - r r^T
    H[i] = I + m * (r[i].squaredNorm() * Mat3<S>::Identity() - r[i] * r[i].transpose());
    M[i] = m + (i + 1 < n ? M[i + 1] : S(0));
    revolute[i] = joint.type == JointType::revolute ? S(1) : S(0);
  }
  sin_q = VecX<S>::Zero(n);
  cos_q = VecX<S>::Zero(n);
  R.assign(size, Mat3<S>::Identity());
  s.assign(size, Vec3<S>::Zero());
  f.assign(size, Vec3<S>::Zero());
  t.assign(size, Vec3<S>::Zero());
  tau = VecX<S>::Zero(n);
  zeros = VecX<S>::Zero(n);
  n_unit.assign(size, Vec3<S>::Zero());
  f_unit.assign(size, Vec3<S>::Zero());
  z_s = Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>::Zero(6, n);
  D = MatX<S>::Zero(n, n);
  L = MatX<S>::Zero(n, n);
  cholesky_scratch = CholeskyScratch<S>(n);
  rhs = VecX<S>::Zero(n);
  qdd = VecX<S>::Zero(n);
}
// ---- end of Gibbs-Appell --------------------------------------------------------------------

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
  std::vector<BodyInertia<S>> M_tilde;  // composite-body mass M~_i, Eq. (23b), about C_i, in J_i
  std::vector<BodyInertia<S>> M_O;      // M_i about the base origin, in the base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic> p_O;  // p_i referred to the base origin, base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> wrenches;  // M~_i p_i, carried inwards
  MatX<S> gim;                // I of Eq. (20), entries from Eq. (24)
  MatX<S> gim_factor;         // L of I = L L^T, in its lower triangle
  bool gim_factored = false;  // whether I was positive definite
  MatX<S> gim_inverse;        // I^-1 from that factor
  VecX<S> gim_column;         // one column of it on the way
  // Packing buffers of the blocked factorisation of I (model/cholesky.hpp), sized once.
  CholeskyScratch<S> gim_cholesky;

  // Forward dynamics, Section 5.2 and Appendix B (forward_dynamics.hpp).
  VecX<S> phi;                      // phi = tau - C qd - gravity terms, Eq. (33)
  std::vector<Vec6<S>> psi;         // psi_i = M^_i p_i / m^_i, Eqs. (47)-(48)
  std::vector<Vec6<S>> psi_parent;  // psi_{i-1,i} = B_{i,i-1}^T psi_i, Eq. (47), in J_{i-1}
  VecX<S> m_hat;                    // m^_i = p_i^T M^_i p_i, Eq. (47): the diagonal of D, Eq. (54)
  VecX<S> tau_hat;                  // U^-1 phi, Eq. (34), then D^-1 of it (tau~ of step 2)
  VecX<S> qdd;                      // joint accelerations, Eq. (36)
  MatX<S> U;                        // unit upper triangular factor of I = U D U^T, Eqs. (46), (53)

  // Gibbs-Appell, Mata et al. (2002): its own storage, defined above.
  GibbsAppellWorkspace<S> ga;
  // Extended Fixman solve, Lee, Wang and Chirikjian (2007) (lee/fixman.hpp): its own storage.
  FixmanWorkspace<S> fixman;
  // Inverse inertia matrix from the U D U^T factors, O(n^2) (inverse_inertia.hpp).
  Eigen::Matrix<S, 18, Eigen::Dynamic> udu_axes;  // per joint in base axes: p_i, ell_i, c_i, I_i
  Eigen::Matrix<S, 25, Eigen::Dynamic> udu_O;     // per joint at the base origin, for the sweeps
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> inverse_inertia_rows;  // eta^k, then mu^k
  MatX<S> inverse_inertia;                                                    // I^-1
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
      M_O(static_cast<std::size_t>(model.dof())),
      p_O(6, model.dof()),
      wrenches(6, model.dof()),
      gim(MatX<S>::Zero(model.dof(), model.dof())),
      gim_factor(MatX<S>::Zero(model.dof(), model.dof())),
      gim_inverse(MatX<S>::Zero(model.dof(), model.dof())),
      gim_column(VecX<S>::Zero(model.dof())),
      gim_cholesky(model.dof()),
      phi(VecX<S>::Zero(model.dof())),
      psi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      psi_parent(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      m_hat(VecX<S>::Zero(model.dof())),
      tau_hat(VecX<S>::Zero(model.dof())),
      qdd(VecX<S>::Zero(model.dof())),
      U(MatX<S>::Identity(model.dof(), model.dof())),
      ga(model),
      fixman(model.dof()),
      udu_axes(18, model.dof()),
      udu_O(25, model.dof()),
      inverse_inertia_rows(6, model.dof()),
      inverse_inertia(MatX<S>::Zero(model.dof(), model.dof())),
      R_base(static_cast<std::size_t>(model.dof()), Mat3<S>::Identity()),
      o_base(static_cast<std::size_t>(model.dof()), Vec3<S>::Zero()),
      jacobian(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())),
      reactions(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())) {}

}  // namespace denoc
