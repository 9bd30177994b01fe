// Storage of the Gibbs-Appell algorithms of Mata et al. (2002) (gibbs_appell.hpp), apart from
// the other families' so that the routes can run side by side on one model and be compared.
// Symbols are the paper's; index i-1 holds link i. The constructor does the off-line Step 1 of
// Section 4.2 from the model: the workspace belongs to that model, as its sizes already do. D
// and its factor are n x n and sized by the first call that forms them, so that the O(n)
// inverse dynamics stays O(n) in memory.
#pragma once

#include <vector>

#include "denoc/kernels/cholesky.hpp"
#include "denoc/model/arguments.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

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
  MatX<S> D;                            // D of Eqs. (17)-(19), Steps 6-7; n x n at first use
  MatX<S> L;                            // D = L L^T (Cholesky), lower triangle; n x n at first use
  bool factored = false;                // whether D was positive definite
  CholeskyScratch<S> cholesky_scratch;  // packing buffers of D = L L^T, sized at first use
  VecX<S> rhs;                          // tau - C + G of Eq. (17)
  VecX<S> qdd;                          // forward dynamics

  // Trees (docs/gibbs-appell.md, docs/trees.md): what a joint's children read from it outwards
  // or sum into it inwards, where a chain carries the value from one joint to the next. Empty for
  // a chain.
  std::vector<Vec3<S>> w, dw, sdd;        // ^i w_i, ^i dw_i, ^i sdd_i of §4.1 Steps 1-2
  std::vector<Mat3<S>> Omega;             // Omega_i, Eq. (12)
  std::vector<Vec3<S>> children_force;    // sum over children c of ^iR_c (f_c + phi_c), or of
                                          // M_c s_{i,c} + ^iR_c phi_c (composite bodies)
  std::vector<Vec3<S>> children_moment;   // sum over children c of s_{i,c} x F_c + ^iR_c chi_c
  std::vector<Mat3<S>> children_inertia;  // the children's terms of Psi_i, Step 5
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
    const int parent = model.parent(i);
    // r_placed runs from C_{lambda(i)} (the base origin for a joint on the base) to the origin of
    // J_i, in R_i's axes.
    const Vec3<S> parent_com = parent >= 0 ? model.joint(parent).d : Vec3<S>::Zero();
    s_placed[i] = joint.R * joint.r_placed + parent_com;
    r[i] = joint.d;
    const S m = joint.M.mass;
    const Mat3<S>& I = joint.M.rotational;
    m_r[i] = m * r[i];
    J[i] = (I.trace() / 2) * Mat3<S>::Identity() - I;
    // -r~ r~ = |r|^2 1 - r r^T
    H[i] = I + m * (r[i].squaredNorm() * Mat3<S>::Identity() - r[i] * r[i].transpose());
    // M_i = m_i + the composite masses of i's children, summed into M[i] before i is reached
    // (M_i = m_i + M_{i+1} on a chain).
    M[i] = m + M[i];
    if (parent >= 0) M[parent] += M[i];
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
  rhs = VecX<S>::Zero(n);
  qdd = VecX<S>::Zero(n);
  const std::size_t tree = runs_chain_code(model) ? 0 : size;
  w.assign(tree, Vec3<S>::Zero());
  dw.assign(tree, Vec3<S>::Zero());
  sdd.assign(tree, Vec3<S>::Zero());
  Omega.assign(tree, Mat3<S>::Zero());
  children_force.assign(tree, Vec3<S>::Zero());
  children_moment.assign(tree, Vec3<S>::Zero());
  children_inertia.assign(tree, Mat3<S>::Zero());
}

// The checks of a Gibbs-Appell function (model/arguments.hpp): a fixed base, and a workspace built
// for the model (its joints, and a tree's per-joint sums).
template <typename S>
void require_gibbs_appell_call(const Model<S>& model, const GibbsAppellWorkspace<S>& ga,
                               const char* function) {
  require_fixed_base(model, function);
  const std::size_t tree = runs_chain_code(model) ? 0 : static_cast<std::size_t>(model.dof());
  if (ga.tau.size() != model.dof() || ga.w.size() != tree) wrong_workspace(function);
}

}  // namespace denoc
