// The forward dynamics of the closed system (docs/loops.md, Eq. (L10)): the spanning tree's
// equations projected onto the actuated joints' motion by G of Eq. (L6),
//   (G^T M G) qdd_a = G^T (Q - M beta - h),  Q the joints' applied forces,
// M from the composite bodies and M beta + h from one DeNOC inverse dynamics at qdd = beta; the
// f x f system solved by Cholesky.
#pragma once

#include "denoc/loops/assembly.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// The accelerations of Eq. (L10) under the joints' applied forces Q (n), after
// closed_configuration at q: qdd = G qdd_a + beta, M and h from the spanning tree's DeNOC
// recursions in `tree`. False if G^T M G is not positive definite.
template <typename S>
bool closed_forward_dynamics(const Model<S>& model, const Loops<S>& loops,
                             ClosedLoopWorkspace<S>& ws, Workspace<S>& tree, ConstVectorRef<S> q,
                             ConstVectorRef<S> qd, ConstVectorRef<S> Q, VectorRef<S> qdd) {
  const VecX<S>& beta = closed_bias_accelerations(model, loops, ws, qd);
  ws.rhs = Q - inverse_dynamics(model, tree, q, qd, beta);  // Q - M beta - h
  const MatX<S>& M = generalized_inertia(model, tree, q);
  ws.MG.noalias() = M * ws.G;
  ws.reduced.noalias() = ws.G.transpose() * ws.MG;
  ws.reduced_llt.compute(ws.reduced);
  if (ws.reduced_llt.info() != Eigen::Success) return false;
  ws.reduced_rhs.noalias() = ws.G.transpose() * ws.rhs;
  ws.reduced_llt.solveInPlace(ws.reduced_rhs);  // qdd_a
  qdd = beta;
  qdd.noalias() += ws.G * ws.reduced_rhs;
  return true;
}

}  // namespace denoc
