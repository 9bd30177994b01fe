// Per-sample storage of the DeNOC algorithms (Saha 1997, 1999): the shared joint frames and tool
// kinematics (model/workspace.hpp) and the recursions' own vectors, sized once from the model and
// reused for every sample so that no algorithm allocates (the model itself is never written).
// The n x n matrices (the inertia matrix, its factor and inverse, U, the U D U^T inverse) are
// sized by the first call that forms them (size_square), so that the O(n) routes stay O(n) in
// memory too. Vectors indexed by joint hold one entry per link, index i-1 for link i.
#pragma once

#include <vector>

#include <Eigen/Cholesky>

#include "denoc/kernels/cholesky.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

// What the base contributes with a floating base (docs/floating-base.md), all at the base origin
// in the base frame J_0, six-vectors [angular; linear] as everywhere in the recursions; the
// (6 + n)-sized results in the order of the rates, [v; omega] of the base first.
template <typename S>
struct FloatingBaseWorkspace {
  Vec6<S> t = Vec6<S>::Zero();        // t_0 = [omega; v] of the base origin
  Vec6<S> xi = Vec6<S>::Zero();       // xi_0 = [d omega; a - R^T g]: a the origin's acceleration
  Mat6<S> articulated;                // M^_0: the base body and the articulated children (Eq. 50)
  Eigen::LLT<Mat6<S>> pivot;          // its factor: the base's 6x6 pivot of the elimination
  Vec6<S> bias = Vec6<S>::Zero();     // zeta_0: the wrench the base needs at zero acceleration
  Vec6<S> accel = Vec6<S>::Zero();    // the base's [d omega; dv] of the forward dynamics
  Vec6<S> applied = Vec6<S>::Zero();  // a wrench [n; f] applied to the base (zero but for M^-1)
  VecX<S> tau, qdd;                   // 6 + n generalized forces and accelerations
  VecX<S> column, zeros;              // 6 + n scratch, and 6 + n zeros
  MatX<S> gim, factor, inverse;       // (6 + n)^2, sized at first use
  MatX<S> coriolis, U;                // C and U of I = U D U^T, (6 + n)^2 at first use
  VecX<S> d;                          // the diagonal of that D, 6 + n
};

template <typename S>
struct Workspace : KinematicsWorkspace<S> {
  explicit Workspace(const Model<S>& model);

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
  MatX<S> gim;                // I of Eq. (20), entries from Eq. (24); n x n at first use
  MatX<S> gim_factor;         // L of I = L L^T, in its lower triangle; n x n at first use
  bool gim_factored = false;  // whether I was positive definite
  MatX<S> gim_inverse;        // I^-1 from that factor; n x n at first use
  VecX<S> gim_column;         // one column of it on the way
  // Packing buffers of the blocked factorisation of I (kernels/cholesky.hpp), sized at first use.
  CholeskyScratch<S> gim_cholesky;

  // Forward dynamics, Section 5.2 and Appendix B (forward_dynamics.hpp).
  VecX<S> phi;                      // phi = tau - C qd - gravity terms, Eq. (33)
  std::vector<Vec6<S>> psi;         // psi_i = M^_i p_i / m^_i, Eqs. (47)-(48)
  std::vector<Vec6<S>> psi_parent;  // psi_{i-1,i} = B_{i,i-1}^T psi_i, Eq. (47), in J_{i-1}
  VecX<S> m_hat;                    // m^_i = p_i^T M^_i p_i, Eq. (47): the diagonal of D, Eq. (54)
  VecX<S> tau_hat;                  // U^-1 phi, Eq. (34), then D^-1 of it (tau~ of step 2)
  VecX<S> qdd;                      // joint accelerations, Eq. (36)
  MatX<S> U;  // unit upper triangular factor of I = U D U^T, Eqs. (46), (53); n x n at first use

  // Inverse inertia matrix from the U D U^T factors, O(n^2) (inverse_inertia.hpp).
  Eigen::Matrix<S, 18, Eigen::Dynamic> udu_axes;  // per joint in base axes: p_i, ell_i, c_i, I_i
  Eigen::Matrix<S, 25, Eigen::Dynamic> udu_O;     // per joint at the base origin, for the sweeps
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> inverse_inertia_rows;  // eta^k, then mu^k
  MatX<S> inverse_inertia;  // I^-1; n x n at first use
  // Joint reaction wrenches (reactions.hpp): column i = [f; n] of joint i in K_i.
  Eigen::Matrix<S, 6, Eigen::Dynamic> reactions;

  // The matrix of convective inertia terms, Section 4.2 (convective_inertia.hpp), all sized at
  // first use. Per joint, at the base origin in base axes: dS_j/dt and the axis of S_j (p_O), the
  // link's own terms, and the two factors of the entries.
  MatX<S> coriolis;                                      // C of Eq. (20); n x n
  Eigen::Matrix<S, 9, Eigen::Dynamic> coriolis_axes;     // [dS_j/dt; angular(S_j)]
  Eigen::Matrix<S, 12, Eigen::Dynamic> coriolis_links;   // w x I - m [c x][v x], and m v
  Eigen::Matrix<S, 9, Eigen::Dynamic> coriolis_rows;     // [M~_i S_i; Q~_i^T S_i], below diagonal
  Eigen::Matrix<S, 6, Eigen::Dynamic> coriolis_columns;  // M~_j dS_j/dt + Q~_j S_j, above it

  // Trees: the U D U^T recursions (forward_dynamics.hpp, inverse_inertia.hpp). On a chain a value
  // is carried from one joint to the next; on a tree each joint keeps what its children sum into
  // it, or what its children read (docs/trees.md). Empty for a chain.
  // Sum over the children c of i of B_ci^T (M^_c - psi^_c psi_c^T) B_ci, Eq. (50): in J_i for the
  // forward dynamics (its A, K, C blocks; K^T not kept), in base axes about C_i for the inverse.
  std::vector<Mat6<S>> children_mass;
  std::vector<Vec6<S>> children_wrench;  // sum over children c of B_ci^T zeta_c + psi_ic tau^_c
  std::vector<Vec6<S>> joint_twist;      // mu_i of Eq. (37), read by the children of i
  // Trees: what a joint leaves for its children where a chain carries it in registers, sized at
  // first use on a tree only. C (convective_inertia.hpp): per link R_j (by columns), C_j, and
  // its twist [w; v_O] at the base origin, all in the base frame.
  Eigen::Matrix<S, 18, Eigen::Dynamic> tree_link_frames;

  // A floating base (base_motion.hpp): the base's state and share, and the 6 + n results.
  FloatingBaseWorkspace<S> base;
};

// The workspace was built for `model`: its number of joints and rates, and the per-joint sums a
// tree's recursions keep (arguments.hpp).
template <typename S>
void require_workspace(const Model<S>& model, const Workspace<S>& ws, const char* function) {
  const std::size_t tree_sums = runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof());
  if (ws.tau.size() != model.dof() || ws.base.tau.size() != model.nv() ||
      ws.children_mass.size() != tree_sums)
    wrong_workspace(function);
}

// The checks of a DeNOC function that takes either base: the workspace, the coordinates q and,
// when given, the rates v (arguments.hpp).
template <typename S>
void require_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                  ConstVectorRef<S> q) {
  require_workspace(model, ws, function);
  require_coordinates(model, function, "q", q);
}
template <typename S>
void require_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                  ConstVectorRef<S> q, ConstVectorRef<S> v, const char* rates = "qd") {
  require_call(model, ws, function, q);
  require_rates(model, function, rates, v);
}

// A matrix of a fixed number of rows and one column per joint, sized at first use (as
// size_square): later calls only compare sizes.
template <typename Matrix>
inline void size_columns(Matrix& matrix, Eigen::Index n) {
  if (matrix.cols() != n) matrix.setZero(Matrix::RowsAtCompileTime, n);
}

template <typename S>
Workspace<S>::Workspace(const Model<S>& model)
    : KinematicsWorkspace<S>(model.dof()),
      t(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      xi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      gamma(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      tau(VecX<S>::Zero(model.dof())),
      zeros(VecX<S>::Zero(model.dof())),
      M_tilde(static_cast<std::size_t>(model.dof())),
      M_O(static_cast<std::size_t>(model.dof())),
      p_O(6, model.dof()),
      wrenches(6, model.dof()),
      gim_column(VecX<S>::Zero(model.dof())),
      phi(VecX<S>::Zero(model.dof())),
      psi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      psi_parent(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      m_hat(VecX<S>::Zero(model.dof())),
      tau_hat(VecX<S>::Zero(model.dof())),
      qdd(VecX<S>::Zero(model.dof())),
      udu_axes(18, model.dof()),
      udu_O(25, model.dof()),
      inverse_inertia_rows(6, model.dof()),
      reactions(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())),
      children_mass(runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof()),
                    Mat6<S>::Zero()),
      children_wrench(runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof()),
                      Vec6<S>::Zero()),
      joint_twist(runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof()),
                  Vec6<S>::Zero()) {
  base.tau = VecX<S>::Zero(model.nv());
  base.qdd = VecX<S>::Zero(model.nv());
  base.column = VecX<S>::Zero(model.nv());
  base.zeros = VecX<S>::Zero(model.nv());
  base.articulated.setZero();
}

}  // namespace denoc
