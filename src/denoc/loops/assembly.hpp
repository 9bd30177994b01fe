// The closed system on the spanning tree (docs/loops.md, Eqs. (L6)-(L9)): assembly, the rates and
// accelerations of the passive joints from the actuated ones, and the actuators' forces and the cut
// joints' wrenches from the tree's joint forces. Kinematics and linear algebra only, so that a
// robot file is closed as it is read; the forward dynamics, Eq. (L10), is closed_dynamics.hpp.
//
// The actuated joints' coordinates q_a are the independent ones; the passive q_p follow from the
// loop equations. With J = [J_a J_p] (columns of the actuated and the passive joints), the rates
// and accelerations that keep the loops closed are
//   qd = G qd_a,           G = [1; -J_p^+ J_a]                                        (L6)
//   qdd = G qdd_a + beta,  beta = [0; -J_p^+ gamma]                                   (L7)
// (rows in joint order; J_p^+ the least-squares inverse, exact here because the equations agree,
// redundant ones included). G is an orthogonal complement of J (J G = 0), so projecting the
// spanning tree's equations M qdd + h = S_a^T tau_a + J^T lambda onto it removes the cut joints'
// wrenches lambda:
//   tau_a = G^T tau_tree,   tau_tree = M qdd + h (the tree's inverse dynamics)        (L8)
//   J^T lambda = tau_tree - S_a^T tau_a   (lambda of least norm when J has redundant rows)   (L9)
// Rank is decided by pivoted QR (and SVD for the mobility): a pivot below kLoopRankTolerance
// times the largest counts as zero.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "denoc/loops/loop_equations.hpp"

namespace denoc {

// Relative: singular values and QR pivots below this times the largest count as zero.
constexpr double kLoopRankTolerance = 1e-9;
// Assembly's aim, and the largest closure error (m or rad) it accepts.
constexpr double kAssemblyTarget = 1e-13;
constexpr double kClosureTolerance = 1e-10;

template <typename S>
struct ClosedLoopWorkspace {
  ClosedLoopWorkspace(const Model<S>& model, const Loops<S>& loops)
      : equations(model, loops),
        f(static_cast<int>(loops.actuated.size())),
        Ja(MatX<S>::Zero(loops.equations(), f)),
        Jp(MatX<S>::Zero(loops.equations(), model.dof() - f)),
        passive_qr(loops.equations(), model.dof() - f),
        G(MatX<S>::Zero(model.dof(), f)),
        beta(VecX<S>::Zero(model.dof())),
        reduced(MatX<S>::Zero(f, f)),
        reduced_llt(f),
        rhs(VecX<S>::Zero(model.dof())),
        q_trial(VecX<S>::Zero(model.dof())),
        step(VecX<S>::Zero(model.dof() - f)),
        qr_rhs(MatX<S>::Zero(loops.equations(), std::max(f, 1))),
        qr_work(VecX<S>::Zero(std::max(f, 1))),
        passive_of_actuated(MatX<S>::Zero(model.dof() - f, f)),
        actuated_values(VecX<S>::Zero(f)),
        tau_actuated(VecX<S>::Zero(f)),
        MG(MatX<S>::Zero(model.dof(), f)),
        reduced_rhs(VecX<S>::Zero(f)) {
    std::vector<char> is_actuated(static_cast<std::size_t>(model.dof()), 0);
    for (int i : loops.actuated)
      is_actuated[static_cast<std::size_t>(i)] = 1;
    for (int i = 0; i < model.dof(); ++i)
      if (!is_actuated[static_cast<std::size_t>(i)]) passive.push_back(i);
  }

  LoopWorkspace<S> equations;
  int f;  // actuated joints
  std::vector<int> passive;
  MatX<S> Ja, Jp;
  Eigen::ColPivHouseholderQR<MatX<S>> passive_qr;  // of J_p
  MatX<S> G;                                       // n x f, Eq. (L6)
  VecX<S> beta;                                    // n, Eq. (L7)
  MatX<S> reduced;                                 // G^T M G (closed_dynamics.hpp)
  Eigen::LLT<MatX<S>> reduced_llt;
  VecX<S> rhs, q_trial, step;
  // Scratch, sized once, so that no call allocates: a least-squares solve's right-hand sides and
  // Householder workspace, -J_p^+ J_a, the actuated joints' values and forces, M G and G^T rhs.
  MatX<S> qr_rhs;
  VecX<S> qr_work;
  MatX<S> passive_of_actuated;
  VecX<S> actuated_values, tau_actuated;
  MatX<S> MG;
  VecX<S> reduced_rhs;
};

// The closure error: the largest |entry| of Eq. (L1), m or rad, and the cut where it is.
struct ClosureError {
  double error = 0;
  int cut = -1;
};

template <typename S>
ClosureError closure_error(const Loops<S>& loops, const VecX<S>& residual) {
  ClosureError worst;
  int row = 0;
  for (std::size_t k = 0; k < loops.cuts.size(); ++k) {
    const int count = constrained_components(loops.cuts[k].type).count;
    for (int r = 0; r < count; ++r, ++row) {
      using std::abs;
      const double e = static_cast<double>(abs(residual[row]));
      if (!(e <= worst.error)) worst = {e, static_cast<int>(k)};  // NaN too
    }
  }
  return worst;
}

template <typename S>
ClosureError closure_error(const Model<S>& model, const Loops<S>& loops, LoopWorkspace<S>& ws,
                           ConstVectorRef<S> q) {
  return closure_error(loops, loop_residual(model, loops, ws, q));
}

// The rank of the loop equations at q (SVD of J, relative tolerance kLoopRankTolerance) and the
// mobility n - rank: the degrees of freedom the loops leave.
template <typename S>
int loop_rank(const Model<S>& model, const Loops<S>& loops, LoopWorkspace<S>& ws,
              ConstVectorRef<S> q) {
  loop_residual(model, loops, ws, q);
  const Eigen::JacobiSVD<MatX<S>> svd(loop_jacobian(model, loops, ws));
  const VecX<S>& sigma = svd.singularValues();
  if (sigma.size() == 0 || sigma[0] == S(0)) return 0;
  int rank = 0;
  for (Eigen::Index k = 0; k < sigma.size(); ++k)
    rank += sigma[k] > S(kLoopRankTolerance) * sigma[0] ? 1 : 0;
  return rank;
}

template <typename S>
int mobility(const Model<S>& model, const Loops<S>& loops, LoopWorkspace<S>& ws,
             ConstVectorRef<S> q) {
  return model.dof() - loop_rank(model, loops, ws, q);
}

namespace detail {
// x = J_p^+ b (k columns) by the pivoted QR of J_p, least squares (exact for equations that agree):
// Q^T applied to b in ws.qr_rhs, the triangle of the nonzero pivots solved, the columns' order
// undone. As Eigen's ColPivHouseholderQR::solve, on the workspace's storage.
template <typename S, typename Rhs, typename Out>
void solve_passive(ClosedLoopWorkspace<S>& ws, const Eigen::MatrixBase<Rhs>& b, Out&& x) {
  const Eigen::Index k = b.cols(), r = ws.passive_qr.nonzeroPivots();
  auto c = ws.qr_rhs.leftCols(k);
  c = b;
  auto work = ws.qr_work.head(k);
  ws.passive_qr.householderQ().setLength(r).adjoint().applyThisOnTheLeft(c, work);
  ws.passive_qr.matrixQR().topLeftCorner(r, r).template triangularView<Eigen::Upper>().solveInPlace(
      c.topRows(r));
  const auto& order = ws.passive_qr.colsPermutation().indices();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    if (i < r) {
      x.row(order[i]) = c.row(i);
    } else {
      x.row(order[i]).setZero();
    }
  }
}

// J_a and J_p from ws.equations.J, and J_p factored; false if J_p's columns are dependent (the
// actuated joints do not fix the passive ones here).
template <typename S>
bool factor_passive_columns(const Loops<S>& loops, ClosedLoopWorkspace<S>& ws) {
  const MatX<S>& J = ws.equations.J;
  for (int k = 0; k < ws.f; ++k)
    ws.Ja.col(k) = J.col(loops.actuated[static_cast<std::size_t>(k)]);
  for (std::size_t k = 0; k < ws.passive.size(); ++k)
    ws.Jp.col(static_cast<Eigen::Index>(k)) = J.col(ws.passive[k]);
  ws.passive_qr.setThreshold(S(kLoopRankTolerance));
  ws.passive_qr.compute(ws.Jp);
  return ws.passive_qr.rank() == ws.Jp.cols();
}
}  // namespace detail

// Assembly: the passive joints of q solved, the actuated ones held, by Gauss-Newton on Eq. (L1)
// with J_p (least-squares steps through the pivoted QR, halved while they do not reduce the
// error). Returns the closure error reached; the caller decides whether it closes.
template <typename S>
ClosureError assemble(const Model<S>& model, const Loops<S>& loops, ClosedLoopWorkspace<S>& ws,
                      VectorRef<S> q) {
  LoopWorkspace<S>& eq = ws.equations;
  auto norm_at = [&](ConstVectorRef<S> x) {
    return static_cast<double>(loop_residual(model, loops, eq, x).norm());
  };
  double norm = norm_at(q);
  for (int iteration = 0; iteration < 100 && norm > kAssemblyTarget; ++iteration) {
    loop_jacobian(model, loops, eq);
    detail::factor_passive_columns(loops, ws);
    detail::solve_passive(ws, eq.residual, ws.step);
    double scale = 1;
    bool reduced = false;
    for (int halving = 0; halving < 30 && !reduced; ++halving, scale /= 2) {
      VecX<S>& trial = ws.q_trial;
      trial = q;
      for (std::size_t k = 0; k < ws.passive.size(); ++k)
        trial[ws.passive[k]] -= S(scale) * ws.step[static_cast<Eigen::Index>(k)];
      const double trial_norm = norm_at(trial);
      if (trial_norm < norm) {
        q = trial;
        norm = trial_norm;
        reduced = true;
      }
    }
    if (!reduced) break;
  }
  return closure_error(model, loops, eq, q);
}

// At an assembled q: the loop Jacobian, J_p factored and G of Eq. (L6). False if the actuated
// joints do not fix the passive ones at q (J_p's columns dependent).
template <typename S>
bool closed_configuration(const Model<S>& model, const Loops<S>& loops, ClosedLoopWorkspace<S>& ws,
                          ConstVectorRef<S> q) {
  require_loop_workspace(model, loops, ws.equations, "closed_configuration");
  loop_residual(model, loops, ws.equations, q);
  loop_jacobian(model, loops, ws.equations);
  if (!detail::factor_passive_columns(loops, ws)) return false;
  detail::solve_passive(ws, ws.Ja, ws.passive_of_actuated);  // J_p^+ J_a
  ws.G.setZero();
  for (int k = 0; k < ws.f; ++k)
    ws.G(loops.actuated[static_cast<std::size_t>(k)], k) = S(1);
  for (std::size_t k = 0; k < ws.passive.size(); ++k)
    ws.G.row(ws.passive[k]) = -ws.passive_of_actuated.row(static_cast<Eigen::Index>(k));
  return true;
}

// qd's passive entries from its actuated ones, Eq. (L6), after closed_configuration.
template <typename S>
void closed_rates(const Loops<S>& loops, ClosedLoopWorkspace<S>& ws, VectorRef<S> qd) {
  for (int k = 0; k < ws.f; ++k)
    ws.actuated_values[k] = qd[loops.actuated[static_cast<std::size_t>(k)]];
  qd.noalias() = ws.G * ws.actuated_values;
}

// A state put on the loops: q assembled with the actuated joints held, then qd's passive rates
// from the actuated ones (Eq. (L6)). The closure error reached, and whether the actuated joints fix
// the passive ones there; qd is left alone when the loops do not close.
struct ClosedState {
  ClosureError closure;
  bool independent = false;
  bool closed() const { return closure.error <= kClosureTolerance && independent; }
};

template <typename S>
ClosedState close_state(const Model<S>& model, const Loops<S>& loops, ClosedLoopWorkspace<S>& ws,
                        VectorRef<S> q, VectorRef<S> qd) {
  ClosedState state;
  state.closure = assemble(model, loops, ws, q);
  if (!(state.closure.error <= kClosureTolerance)) return state;
  state.independent = closed_configuration(model, loops, ws, q);
  if (state.independent) closed_rates(loops, ws, qd);
  return state;
}

// beta of Eq. (L7) at the rates qd (closed), after closed_configuration. Returns ws.beta.
template <typename S>
const VecX<S>& closed_bias_accelerations(const Model<S>& model, const Loops<S>& loops,
                                         ClosedLoopWorkspace<S>& ws, ConstVectorRef<S> qd) {
  const VecX<S>& gamma = loop_velocity_product(model, loops, ws.equations, qd);
  detail::solve_passive(ws, gamma, ws.step);  // J_p^+ gamma
  ws.beta.setZero();
  for (std::size_t k = 0; k < ws.passive.size(); ++k)
    ws.beta[ws.passive[k]] = -ws.step[static_cast<Eigen::Index>(k)];
  return ws.beta;
}

// qdd's passive entries from its actuated ones, Eq. (L7), after closed_configuration.
template <typename S>
void closed_accelerations(const Model<S>& model, const Loops<S>& loops, ClosedLoopWorkspace<S>& ws,
                          ConstVectorRef<S> qd, VectorRef<S> qdd) {
  const VecX<S>& beta = closed_bias_accelerations(model, loops, ws, qd);
  for (int k = 0; k < ws.f; ++k)
    ws.actuated_values[k] = qdd[loops.actuated[static_cast<std::size_t>(k)]];
  qdd = beta;
  qdd.noalias() += ws.G * ws.actuated_values;
}

// The actuators' forces of Eq. (L8) from the spanning tree's joint forces, after
// closed_configuration. Returns ws.tau_actuated.
template <typename S>
const VecX<S>& actuator_forces(ClosedLoopWorkspace<S>& ws, ConstVectorRef<S> tau_tree) {
  ws.tau_actuated.noalias() = ws.G.transpose() * tau_tree;
  return ws.tau_actuated;
}

// The cut joints' wrenches of Eq. (L9), [f; n] on body a at frame_a's origin, in frame_a's axes,
// 6 per cut (the entries the joint leaves free are zero), after closed_configuration at q. Least
// norm when J has redundant rows.
template <typename S>
VecX<S> cut_joint_wrenches(const Loops<S>& loops, const ClosedLoopWorkspace<S>& ws,
                           const VecX<S>& tau_tree, const VecX<S>& tau_actuated) {
  VecX<S> residual = tau_tree;
  for (int k = 0; k < ws.f; ++k)
    residual[loops.actuated[static_cast<std::size_t>(k)]] -= tau_actuated[k];
  Eigen::CompleteOrthogonalDecomposition<MatX<S>> transposed;
  transposed.setThreshold(S(kLoopRankTolerance));
  transposed.compute(ws.equations.J.transpose());
  const VecX<S> lambda = transposed.solve(residual);
  VecX<S> wrenches = VecX<S>::Zero(6 * static_cast<Eigen::Index>(loops.cuts.size()));
  int row = 0;
  for (std::size_t k = 0; k < loops.cuts.size(); ++k) {
    const CutJointRows rows = constrained_components(loops.cuts[k].type);
    Vec6<S> in_b = Vec6<S>::Zero();
    for (int r = 0; r < rows.count; ++r)
      in_b[rows.components[static_cast<std::size_t>(r)]] = lambda[row++];
    // frame_b's axes to frame_a's: R_a^T R_b.
    const Mat3<S> a_from_b = ws.equations.frame_a[k].R.transpose() * ws.equations.frame_b[k].R;
    wrenches.template segment<3>(6 * static_cast<Eigen::Index>(k)) =
        a_from_b * in_b.template head<3>();
    wrenches.template segment<3>(6 * static_cast<Eigen::Index>(k) + 3) =
        a_from_b * in_b.template tail<3>();
  }
  return wrenches;
}

}  // namespace denoc
