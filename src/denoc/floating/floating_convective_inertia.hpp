// The matrix of convective inertia terms C(q, v) with a floating base (docs/floating-base.md):
// Saha (1999) Eq. (20), C = N^T (M Ndot + Mdot N), with the base's six rates as six more columns
// of N. convective_inertia.hpp refers every twist to the base origin O in the base axes; with a
// floating base the frame used is the inertial one that coincides with the base's at this
// instant, so that the joints' columns S_j and the links' frames are those of a fixed base, and
// only the twists change: every link's V_j starts from the base's V_0 = [w_0; v_0]. The base's
// rates are body-fixed screws at O, S = [0; e_k] for v_k and [e_k; 0] for w_k, so that, as for a
// joint, dS/dt = V_0 x S. The base supports every link, so with m = max(i, j) in Eq. (29)
//   base-base     c_kl = S_k^T (M~_all dS_l/dt + Q~_all S_l), the composite of the whole system
//                 (the base body's own terms plus every root joint's subtree);
//   joint i, base c_il = (M~_i S_i)^T dS_l/dt + (Q~_i^T S_i)^T S_l;
//   base, joint j c_kj = S_k^T (M~_j dS_j/dt + Q~_j S_j),
// the joints' factors of convective_composites. C v = h - g and dI/dt - 2 C is skew-symmetric,
// as with a fixed base, since N^T M N with any N(q) keeps both.
#pragma once

#include "denoc/floating/base_motion.hpp"
#include "denoc/floating/floating_dynamics.hpp"
#include "denoc/saha/convective_inertia.hpp"

namespace denoc {

// [dS_l/dt; a_l] for the base's rate l (0..5 in the order [v; w]), as ws.coriolis_axes holds
// them for the joints: a 9 x 6 matrix.
template <typename S>
Eigen::Matrix<S, 9, 6> base_rate_axes(const Vec6<S>& V_0) {
  const Vec3<S> w = angular(V_0), v = linear(V_0);
  Eigen::Matrix<S, 9, 6> axes = Eigen::Matrix<S, 9, 6>::Zero();
  for (int k = 0; k < 3; ++k) {
    const Vec3<S> e = Vec3<S>::Unit(k);
    axes.col(k).template segment<3>(3) = cross(w, e);      // S = [0; e]: dS = [0; w x e]
    axes.col(3 + k).template segment<3>(0) = cross(w, e);  // S = [e; 0]: dS = [w x e; v x e]
    axes.col(3 + k).template segment<3>(3) = cross(v, e);
    axes.col(3 + k).template segment<3>(6) = e;
  }
  return axes;
}

// C(q, v), (6 + n) x (6 + n), rates ordered [v; w; qd]. Returns ws.base.coriolis.
template <typename S>
const MatX<S>& floating_convective_inertia(const Model<S>& model, Workspace<S>& ws,
                                           ConstVectorRef<S> q, ConstVectorRef<S> v) {
  require_floating_call(model, ws, "floating_convective_inertia", q, v);
  const int n = model.dof();
  size_convective_inertia(ws, n);
  size_square(ws.base.coriolis, n + 6);
  update_joint_frames(model, ws, joint_coordinates(model, q));
  Vec6<S> V_0;
  linear(V_0) = v.template head<3>();
  angular(V_0) = v.template segment<3>(3);
  const Vec3<S> w_0 = angular(V_0), v_0 = linear(V_0);
  convective_inertia_on_tree(model, ws, joint_rates(model, v), V_0);  // the joints' block

  // The whole system's composite at O: the base body's own terms, then every root's subtree.
  BodyInertia<S> M_all = model.base_inertia();
  Eigen::Matrix<S, 12, 1> Q_all;
  const RigidBody<S>& base = model.base_body();
  write_link_terms(BodyInertia<S>::about_mass_centre(base.mass, base.inertia), base.com, w_0, v_0,
                   Q_all);
  for_each_root_joint(model, [&](int r) {
    M_all += ws.M_O[r];
    Q_all += ws.coriolis_links.col(r);
  });
  const Eigen::Map<const Mat3<S>> A_all(Q_all.data());
  const Vec3<S> P_all = Q_all.template tail<3>();

  const Eigen::Matrix<S, 9, 6> axes = base_rate_axes(V_0);
  MatX<S>& C = ws.base.coriolis;
  for (int l = 0; l < 6; ++l) {
    const Vec3<S> a = axes.col(l).template segment<3>(6);
    Vec6<S> column =
        M_all.momentum(axes.col(l).template head<3>(), axes.col(l).template segment<3>(3));
    angular(column) += A_all * a;
    linear(column) -= cross(P_all, a);
    write_linear_first(column, C.col(l).template head<6>());
  }
  C.bottomLeftCorner(n, 6).noalias() = ws.coriolis_rows.transpose() * axes;
  for (int j = 0; j < n; ++j)
    write_linear_first(Vec6<S>(ws.coriolis_columns.col(j)), C.col(6 + j).template head<6>());
  C.bottomRightCorner(n, n) = ws.coriolis;
  return C;
}

}  // namespace denoc
