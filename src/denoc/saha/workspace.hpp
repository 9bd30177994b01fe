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

// One entry per joint, or none on a chain: what a tree's recursions keep per joint.
template <typename S>
std::size_t tree_entries(const Model<S>& model) {
  return runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof());
}

// Each algorithm's data holds only its own buffers, named for what they hold; the recursions of
// one family may read another's results (the forward dynamics reads the twists of the inverse
// dynamics' outward pass), nothing outside the family reads them. Vectors over the joints hold n
// entries; with a floating base (docs/floating-base.md) link 0 is the base, its twists at the
// base origin in the base frame J_0, six-vectors [angular; linear] as everywhere in the
// recursions, and the `_floating` results have 6 + n entries or rows, [v; omega] of the base
// first. Matrices are sized at first use (size_square).

// Inverse dynamics, Section 5.1 (inverse_dynamics.hpp); link 0 in base_motion.hpp.
template <typename S>
struct InverseDynamicsData {
  explicit InverseDynamicsData(const Model<S>& model);
  std::vector<Vec6<S>> t;          // twist t_i (nu_i of Section 5.1), Eq. (1), in J_i
  std::vector<Vec6<S>> xi;         // twist rate xi_i, with rho of Eq. (32) from the base
  std::vector<Vec6<S>> gamma;      // wrench gamma_i = w~_i of Eq. (30), about C_i, in J_i
  VecX<S> tau;                     // joint forces, Eq. (30)
  VecX<S> zeros;                   // stands in for qd or qdd in h and g
  Vec6<S> t_0 = Vec6<S>::Zero();   // t_0 = [omega; v] of the floating base's origin
  Vec6<S> xi_0 = Vec6<S>::Zero();  // xi_0 = [d omega; a - R^T g]: a the origin's acceleration
  VecX<S> tau_floating;            // [f_0; n_0; tau], 6 + n
  VecX<S> zeros_floating;          // 6 + n zeros
};

// The generalized inertia matrix, Section 4.1 (generalized_inertia.hpp), its Cholesky factor and
// inverse, and the forward dynamics through them (the cholesky route).
template <typename S>
struct CompositeInertiaData {
  explicit CompositeInertiaData(const Model<S>& model);
  std::vector<BodyInertia<S>> M_tilde;  // composite-body mass M~_i, Eq. (23b), about C_i, in J_i
  std::vector<BodyInertia<S>> M_O;      // M_i about the base origin, in the base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic> p_O;  // p_i referred to the base origin, base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> wrenches;  // M~_i p_i, carried inwards
  MatX<S> I;                    // I of Eq. (20), entries from Eq. (24)
  MatX<S> L;                    // L of I = L L^T in its lower triangle (L^T D L on a tree)
  bool factored = false;        // whether I was positive definite
  MatX<S> inverse;              // I^-1 from that factor
  VecX<S> column;               // one column of it on the way
  CholeskyScratch<S> cholesky;  // packing buffers of the blocked factorisation (cholesky.hpp)
  VecX<S> phi;                  // phi = tau - h, Eq. (33)
  VecX<S> qdd;                  // I^-1 phi
  MatX<S> I_floating, L_floating, inverse_floating;  // the same, (6 + n)^2
  VecX<S> column_floating, qdd_floating;             // 6 + n
};

// The O(n) forward dynamics through I = U D U^T, Section 5.2 and Appendix B
// (forward_dynamics.hpp).
template <typename S>
struct ArticulatedData {
  explicit ArticulatedData(const Model<S>& model);
  std::vector<Vec6<S>> psi;         // psi_i = M^_i p_i / m^_i, Eqs. (47)-(48)
  std::vector<Vec6<S>> psi_parent;  // psi_{i-1,i} = B_{i,i-1}^T psi_i, Eq. (47), in J_{i-1}
  VecX<S> m_hat;                    // m^_i = p_i^T M^_i p_i, Eq. (47): the diagonal of D, Eq. (54)
  VecX<S> tau_hat;                  // U^-1 phi, Eq. (34), then D^-1 of it (tau~ of step 2)
  VecX<S> qdd;                      // joint accelerations, Eq. (36)
  MatX<S> U;                        // unit upper triangular factor of I = U D U^T, Eqs. (46), (53)
  // Trees (docs/trees.md): on a chain a value is carried from one joint to the next; on a tree
  // each joint keeps what its children sum into it, or what its children read. Empty for a chain.
  // Sum over the children c of i of B_ci^T (M^_c - psi^_c psi_c^T) B_ci, Eq. (50), in J_i (its
  // A, K, C blocks; K^T not kept).
  std::vector<Mat6<S>> children_mass;
  std::vector<Vec6<S>> children_wrench;  // sum over children c of B_ci^T zeta_c + psi_ic tau^_c
  std::vector<Vec6<S>> joint_twist;      // mu_i of Eq. (37), read by the children of i
  // A floating base: link 0's pivot and the 6 + n results.
  Mat6<S> M_hat_0 = Mat6<S>::Zero();    // M^_0: the base body and the articulated children (50)
  Eigen::LLT<Mat6<S>> pivot_0;          // its factor: the base's 6x6 pivot of the elimination
  Vec6<S> zeta_0 = Vec6<S>::Zero();     // the wrench the base needs at zero acceleration
  Vec6<S> accel_0 = Vec6<S>::Zero();    // the base's [d omega; dv]
  Vec6<S> applied_0 = Vec6<S>::Zero();  // a wrench [n; f] applied to the base
  VecX<S> qdd_floating;                 // [dv; d omega; qdd], 6 + n
  MatX<S> U_floating;                   // U of I = U D U^T, (6 + n)^2
  VecX<S> d_floating;                   // the diagonal of that D, 6 + n
};

// What the pivots of I = U D U^T need and nothing more: the joint frames and the articulated data
// of Eqs. (47)-(50) (udu_pivots in forward_dynamics.hpp), for a check that runs beside another
// route and must not disturb its workspace.
template <typename S>
struct PivotWorkspace {
  explicit PivotWorkspace(const Model<S>& model) : frames(model.dof()), articulated(model) {}
  KinematicsWorkspace<S> frames;
  ArticulatedData<S> articulated;
};

// The inverse inertia matrix from the U D U^T factors, O(n^2) (inverse_inertia.hpp).
template <typename S>
struct InverseInertiaData {
  explicit InverseInertiaData(const Model<S>& model);
  Eigen::Matrix<S, 18, Eigen::Dynamic> axes;       // per joint in base axes: p_i, ell_i, c_i, I_i
  Eigen::Matrix<S, 25, Eigen::Dynamic> at_origin;  // per joint at the base origin, for the sweeps
  Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor> rows;  // eta^k, then mu^k
  // Trees: the children's sum of Eq. (50), in base axes about C_i. Empty for a chain.
  std::vector<Mat6<S>> children_mass;
  MatX<S> matrix;           // I^-1
  MatX<S> matrix_floating;  // I^-1, (6 + n)^2
  VecX<S> column_floating;  // a unit force on one rate, 6 + n
};

// The matrix of convective inertia terms, Section 4.2 (convective_inertia.hpp). Per joint, at the
// base origin in base axes: dS_j/dt and the axis of S_j (p_O), the link's own terms, and the two
// factors of the entries.
template <typename S>
struct ConvectiveInertiaData {
  explicit ConvectiveInertiaData(const Model<S>& model);
  std::vector<BodyInertia<S>> M_O;              // M_j about the base origin, then its composite
  Eigen::Matrix<S, 6, Eigen::Dynamic> p_O;      // S_j at the base origin
  MatX<S> C;                                    // C of Eq. (20)
  Eigen::Matrix<S, 9, Eigen::Dynamic> axes;     // [dS_j/dt; angular(S_j)]
  Eigen::Matrix<S, 12, Eigen::Dynamic> links;   // w x I - m [c x][v x], and m v
  Eigen::Matrix<S, 9, Eigen::Dynamic> rows;     // [M~_i S_i; Q~_i^T S_i], below diagonal
  Eigen::Matrix<S, 6, Eigen::Dynamic> columns;  // M~_j dS_j/dt + Q~_j S_j, above it
  // Trees: per link its twist [w; v_O] at the base origin, in the base frame, where a chain
  // carries it in registers. Sized at first use on a tree only.
  Eigen::Matrix<S, 6, Eigen::Dynamic> link_twists;
  MatX<S> C_floating;  // (6 + n)^2
};

template <typename S>
struct Workspace : KinematicsWorkspace<S> {
  explicit Workspace(const Model<S>& model);
  InverseDynamicsData<S> id;
  CompositeInertiaData<S> inertia;
  ArticulatedData<S> articulated;
  InverseInertiaData<S> inverse;
  ConvectiveInertiaData<S> convective;
  // Joint reaction wrenches (reactions.hpp): column i = [f; n] of joint i in K_i.
  Eigen::Matrix<S, 6, Eigen::Dynamic> reactions;
};

// The workspace was built for `model`: its number of joints and rates, and the per-joint sums a
// tree's recursions keep (arguments.hpp).
template <typename S>
void require_workspace(const Model<S>& model, const Workspace<S>& ws, const char* function) {
  if (ws.id.tau.size() != model.dof() || ws.id.tau_floating.size() != model.nv() ||
      ws.articulated.children_mass.size() != tree_entries(model))
    wrong_workspace(function);
}

template <typename S>
void require_workspace(const Model<S>& model, const PivotWorkspace<S>& ws, const char* function) {
  require_workspace(model, ws.frames, function);
  if (ws.articulated.m_hat.size() != model.dof() ||
      ws.articulated.children_mass.size() != tree_entries(model))
    wrong_workspace(function);
}

// The checks of a DeNOC function that takes either base: the workspace, the coordinates q and,
// when given, the rates v (arguments.hpp). The vectors by reference: an Eigen::Ref<const> passed by
// value is copied, with the empty vector it keeps for a temporary, freed at the end of the call;
// by reference the checks cost 66 instructions less per call of the inverse dynamics of the
// Stanford arm under clang 14 (3,715 -> 3,649; 3,494 before the checks), 60 of the forward
// dynamics (8,516 -> 8,456).
template <typename S>
void require_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                  const ConstVectorRef<S>& q) {
  require_workspace(model, ws, function);
  require_coordinates(model, function, "q", q);
}
template <typename S>
void require_call(const Model<S>& model, const Workspace<S>& ws, const char* function,
                  const ConstVectorRef<S>& q, const ConstVectorRef<S>& v,
                  const char* rates = "qd") {
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
InverseDynamicsData<S>::InverseDynamicsData(const Model<S>& model)
    : t(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      xi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      gamma(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      tau(VecX<S>::Zero(model.dof())),
      zeros(VecX<S>::Zero(model.dof())),
      tau_floating(VecX<S>::Zero(model.nv())),
      zeros_floating(VecX<S>::Zero(model.nv())) {}

template <typename S>
CompositeInertiaData<S>::CompositeInertiaData(const Model<S>& model)
    : M_tilde(static_cast<std::size_t>(model.dof())),
      M_O(static_cast<std::size_t>(model.dof())),
      p_O(6, model.dof()),
      wrenches(6, model.dof()),
      column(VecX<S>::Zero(model.dof())),
      phi(VecX<S>::Zero(model.dof())),
      qdd(VecX<S>::Zero(model.dof())),
      column_floating(VecX<S>::Zero(model.nv())),
      qdd_floating(VecX<S>::Zero(model.nv())) {}

template <typename S>
ArticulatedData<S>::ArticulatedData(const Model<S>& model)
    : psi(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      psi_parent(static_cast<std::size_t>(model.dof()), Vec6<S>::Zero()),
      m_hat(VecX<S>::Zero(model.dof())),
      tau_hat(VecX<S>::Zero(model.dof())),
      qdd(VecX<S>::Zero(model.dof())),
      children_mass(tree_entries(model), Mat6<S>::Zero()),
      children_wrench(tree_entries(model), Vec6<S>::Zero()),
      joint_twist(tree_entries(model), Vec6<S>::Zero()),
      qdd_floating(VecX<S>::Zero(model.nv())) {}

template <typename S>
InverseInertiaData<S>::InverseInertiaData(const Model<S>& model)
    : axes(18, model.dof()),
      at_origin(25, model.dof()),
      rows(6, model.dof()),
      children_mass(tree_entries(model), Mat6<S>::Zero()),
      column_floating(VecX<S>::Zero(model.nv())) {}

template <typename S>
ConvectiveInertiaData<S>::ConvectiveInertiaData(const Model<S>& model)
    : M_O(static_cast<std::size_t>(model.dof())), p_O(6, model.dof()) {}

template <typename S>
Workspace<S>::Workspace(const Model<S>& model)
    : KinematicsWorkspace<S>(model.dof()),
      id(model),
      inertia(model),
      articulated(model),
      inverse(model),
      convective(model),
      reactions(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, model.dof())) {}

}  // namespace denoc
