// The generalized inertia matrix (GIM) I(q) of Eq. (20) from composite-body masses, Saha (1999)
// Section 4.1, O(n^2); and its inverse through its Cholesky factor.
#pragma once

#include "denoc/joint_frames.hpp"

namespace denoc {

// M~_i = M_i + B_{i+1,i}^T M~_{i+1} B_{i+1,i}, M~_n = M_n: Eq. (23b), from the tip inwards.
template <typename S>
void composite_body_masses(const Model<S>& model, Workspace<S>& ws) {
  const int n = model.dof();
  for (int i = n - 1; i >= 0; --i) {
    ws.M_tilde[i] = model.joint(i).M;
    if (i + 1 < n) ws.M_tilde[i] += ws.M_tilde[i + 1].shifted(ws.ell[i + 1]).rotated(ws.E[i + 1]);
  }
}

// i_ij = i_ji = p_i^T M~_i B_ij p_j, Eq. (24), for j <= i. Read as p_j^T (B_ij^T M~_i p_i): the
// wrench M~_i p_i is carried inwards one joint at a time, B_ij^T = B_{j+1,j}^T ... B_{i,i-1}^T
// by Eq. (14), and projected on each p_j; so the row costs O(i), not O(i) 6x6 products.
template <typename S>
void gim_by_wrench_transfers(const Model<S>& model, Workspace<S>& ws) {
  composite_body_masses(model, ws);
  for (int i = model.dof() - 1; i >= 0; --i) {
    const Vec6<S> w = ws.M_tilde[i] * model.joint(i).p;
    Vec3<S> n = angular(w), f = linear(w);  // the wrench M~_i p_i, carried inwards
    ws.gim(i, i) = model.joint(i).p.dot(w);
    for (int j = i - 1; j >= 0; --j) {
      const Mat3<S>& E = ws.E[j + 1];  // B_{j+1,j}^T [n; f]
      n = E * (n + cross(ws.ell[j + 1], f));
      f = E * f;
      const Vec6<S>& p = model.joint(j).p;
      ws.gim(i, j) = ws.gim(j, i) = angular(p).dot(n) + linear(p).dot(f);
    }
  }
}

// The same Eqs. (23b) and (24) with every vector referred to one point, the base origin O, in
// the base frame. There all twists are of the same point, so B_ij = 1 and
//   M~_i^O = M_i^O + M~_{i+1}^O,   i_ij = i_ji = (p_j^O)^T M~_i^O p_i^O  (j <= i),
// where, with R_i the orientation of J_i and c_i the mass centre C_i in the base frame,
//   p_i^O = [R_i p_w; R_i p_v + c_i x R_i p_w]   (the rate of the point at O)
//   M_i^O = M_i rotated by R_i and seen from O.
// Each entry is one independent dot product instead of a chain of transfers: more work per
// joint, far less per entry, so it wins on long chains.
template <typename S>
void gim_in_base_frame(const Model<S>& model, Workspace<S>& ws) {
  const int n = model.dof();
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> c = Vec3<S>::Zero();  // C_0 is the base origin
  for (int i = 0; i < n; ++i) {
    R = R * ws.E[i];
    c += R * ws.ell[i];
    const Vec6<S>& p = model.joint(i).p;
    const Vec3<S> axis = R * angular(p);
    ws.p_O.col(i) << axis, R * linear(p) + cross(c, axis);
    ws.M_tilde_O[i] = model.joint(i).M.rotated(R).shifted(c);
  }
  for (int i = n - 1; i >= 0; --i) {
    if (i + 1 < n) ws.M_tilde_O[i] += ws.M_tilde_O[i + 1];  // Eq. (23b)
    const Vec6<S> w = ws.M_tilde_O[i] * Vec6<S>(ws.p_O.col(i));
    ws.gim.col(i).head(i + 1).noalias() = ws.p_O.leftCols(i + 1).transpose() * w;  // Eq. (24)
    ws.gim.row(i).head(i) = ws.gim.col(i).head(i).transpose();
  }
}

// The GIM I(q) of Eq. (20). Up to kShortChain joints the wrench transfers are cheaper; beyond,
// the base-frame form (measured crossover on this project's machines: about 12-14 joints).
constexpr int kShortChain = 12;

template <typename S>
const MatX<S>& generalized_inertia(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q) {
  update_joint_frames(model, ws, q);
  if (model.dof() <= kShortChain) {
    gim_by_wrench_transfers(model, ws);
  } else {
    gim_in_base_frame(model, ws);
  }
  return ws.gim;
}

// I^-1 through the Cholesky factor I = L L^T (I is symmetric positive definite), solving
// I X = 1 column by column rather than inverting a general matrix.
template <typename S>
const MatX<S>& inverse_generalized_inertia(const Model<S>& model, Workspace<S>& ws,
                                           ConstVectorRef<S> q) {
  generalized_inertia(model, ws, q);
  ws.gim_factor.compute(ws.gim);
  ws.gim_inverse.setIdentity();
  ws.gim_factor.solveInPlace(ws.gim_inverse);
  return ws.gim_inverse;
}

}  // namespace denoc
