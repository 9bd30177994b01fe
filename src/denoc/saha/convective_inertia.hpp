// The generalized matrix of convective inertia terms C(q, qd) of Eq. (20), Saha (1999) Section 4.2,
// O(n^2) from composite-body sums (Eqs. 25-29), never by differentiating:
//   C = N^T (M Ndot + Mdot N),   Mdot_i = [w_i x I_i  0; 0  0]  (Eq. 8),
// so that C qd = h - g (the bias forces less gravity) and dI/dt - 2 C is skew-symmetric, because
// 2 Mdot_i - dM_i/dt = [w_i x I_i + I_i w_i x  0; 0  0] is. The rotor inertias of the drives
// add nothing: their term in I is constant. Friction is not in C. docs/coriolis.md compares C
// with the Christoffel-symbol form.
//
// Every twist is referred here to one point, the base origin O, in the base frame, as
// gim_in_base_frame refers Eq. (24). With X_k the shift of a twist from O to C_k
// (t_k = X_k t^O), the column of N for joint j is X_k S_j on link k >= j, where S_j = p_j^O is
// joint j's twist at O, fixed in link j, so dS_j/dt = V_j x S_j (V_j = sum_{k<=j} S_k qd_k).
// Then, the sums over k >= max(i, j) being the composite bodies of Eqs. (23b) and (28),
//   c_ij = S_i^T (M~_m^O dS_j/dt + Q~_m S_j),   m = max(i, j),
//   M~_m^O = sum_{k>=m} X_k^T M_k X_k                     (M~_m of Eq. 23b at O)
//   Q~_m   = sum_{k>=m} X_k^T Mdot_k X_k + X_k^T M_k dX_k/dt   (M~'_m and H~ of Eq. 28 at O)
//          = [ sum (w_k x I_k - m_k [c_k x][v_k x])   0 ]
//            [ -[P~_m x]                              0 ],
// c_k and v_k the mass centre C_k and its velocity, P~_m = sum m_k v_k the composite's momentum.
// Only Q~'s first three columns are non-zero, so an entry costs nine multiply-adds below the
// diagonal and six above it.
// On a tree (Shah, Saha and Dutt 2013; docs/trees.md) link k is moved by joint j only when j is
// on the path from the base to k, so the sums over k >= m become sums over the subtree of m, and
// c_ij = 0 unless one of i, j supports the other: the subtree of max(i, j) is then the links both
// move. V_j is the parent's twist plus S_j qd_j, and the composites are summed into the parent's
// entries (docs/coriolis.md, "Trees").
#pragma once

#include "denoc/model/joint_frames.hpp"
#include "denoc/model/kinematics.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/saha/base_motion.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// On a tree: link j's twist V_j = [w; v_O] at O, kept in ws.convective.link_twists for its
// children; the parent's (the base's, V_0, for parent -1) is whence joint j starts.
template <typename S>
void read_parent_twist(const Workspace<S>& ws, int parent, const Vec6<S>& V_0, Vec3<S>& w,
                       Vec3<S>& v_O) {
  if (parent < 0) {
    w = angular(V_0), v_O = linear(V_0);
    return;
  }
  const auto twist = ws.convective.link_twists.col(parent);
  w = twist.template head<3>();
  v_O = twist.template tail<3>();
}

// A link's own share of Q~ from its mass properties M about its mass centre c, in base axes,
// and its twist [w; v_O] at O: w x I (Eq. 8) less m [c x][v_C x] = m (v_C c^T - (c . v_C) 1),
// the angular rows of Q (3 x 3, column-major), then its momentum m v_C (12 entries in `out`).
template <typename S, typename Out>
void write_link_terms(const BodyInertia<S>& M, const Vec3<S>& c, const Vec3<S>& w,
                      const Vec3<S>& v_O, Out&& out) {
  const Vec3<S> v_C = v_O + cross(w, c);  // the velocity of the mass centre
  Mat3<S> A;
  for (int k = 0; k < 3; ++k)
    A.col(k) = cross(w, Vec3<S>(M.rotational.col(k)));
  A.noalias() -= M.mass * (v_C * c.transpose());
  A.diagonal().array() += M.mass * c.dot(v_C);
  out.template head<9>() = Eigen::Map<const Eigen::Matrix<S, 9, 1>>(A.data());
  out.template tail<3>() = M.mass * v_C;
}

// The joint columns at O and the links' own terms, from the base outwards: S_j into
// ws.convective.p_O, [dS_j/dt; a_j] (a_j = angular(S_j)) into ws.convective.axes, and link j's w_j
// x I_j - m_j [c_j x][v_j x] (3 x 3, column-major) and momentum m_j v_j into ws.convective.links;
// M_j at O into ws.convective.M_O. V_0 is the base's twist at O (zero on a fixed base). R_j and
// c_j come from the base-frame pass (link_frames_in_base). On a tree, V of the parent is read
// back from ws.convective.link_twists, where each joint leaves its own.
template <typename S, typename Topology>
void convective_link_terms(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> qd,
                           const Vec6<S>& V_0, Topology topology) {
  link_frames_in_base(model, ws);
  Vec3<S> w = angular(V_0), v_O = linear(V_0);  // V_j = [w; v_O], the link's twist at O
  for (int j = 0; j < model.dof(); ++j) {
    if constexpr (!Topology::chain) read_parent_twist(ws, topology.parent(j), V_0, w, v_O);
    const Mat3<S>& R = ws.R_base[j];
    const Vec3<S>& c = ws.c_base[j];
    const Joint<S>& joint = model.joint(j);
    const Vec3<S> a = R * angular(joint.p);
    const Vec3<S> b = R * linear(joint.p) + cross(c, a);
    ws.convective.p_O.col(j).template head<3>() = a;
    ws.convective.p_O.col(j).template tail<3>() = b;
    w += a * qd[j];
    v_O += b * qd[j];
    auto axes = ws.convective.axes.col(j);
    axes.template segment<3>(0) = cross(w, a);  // dS_j/dt = V_j x S_j
    axes.template segment<3>(3) = cross(w, b) + cross(v_O, a);
    axes.template segment<3>(6) = a;
    const BodyInertia<S> M = joint.M.rotated(R);  // about C_j, in base axes
    ws.convective.M_O[j] = M.shifted(c);
    write_link_terms(M, c, w, v_O, ws.convective.links.col(j));
    if constexpr (!Topology::chain) {
      ws.convective.link_twists.col(j).template head<3>() = w;
      ws.convective.link_twists.col(j).template tail<3>() = v_O;
    }
  }
}

// On a tree: joint i's composite terms (ws.convective.M_O[i] and ws.convective.links' column,
// complete once i is reached) added into its parent's entries.
template <typename S>
void add_to_parent(Workspace<S>& ws, int parent, int i) {
  if (parent < 0) return;
  ws.convective.M_O[parent] += ws.convective.M_O[i];
  ws.convective.links.col(parent) += ws.convective.links.col(i);
}

// The composite sums from the tip inwards (Eqs. 23b, 28 at O) and the two factors of each
// joint's entries: [M~_i S_i; Q~_i^T S_i (its angular half)] into ws.convective.rows for
// c_ij = (M~_i S_i)^T dS_j/dt + (Q~_i^T S_i)^T S_j (i >= j), and
// M~_j dS_j/dt + Q~_j S_j into ws.convective.columns for c_ij = S_i^T (...) (i < j).
// On a tree the sums are over the subtree: link i's own terms in ws.convective.M_O[i] and
// ws.convective.links, to which its children have already added theirs, make i's composite, which
// is then added into its parent's (at O in base axes, a sum needs no transfer).
template <typename S, typename Topology>
void convective_composites(const Model<S>& model, Workspace<S>& ws, Topology topology) {
  BodyInertia<S> M_tilde;  // M~_i^O, summed in a local as in gim_in_base_frame
  Mat3<S> A_tilde = Mat3<S>::Zero();
  Vec3<S> P_tilde = Vec3<S>::Zero();
  for (int i = model.dof() - 1; i >= 0; --i) {
    if constexpr (!Topology::chain) {
      M_tilde = BodyInertia<S>();
      A_tilde.setZero(), P_tilde.setZero();
    }
    M_tilde += ws.convective.M_O[i];
    A_tilde += Eigen::Map<const Mat3<S>>(ws.convective.links.col(i).data());
    P_tilde += ws.convective.links.col(i).template tail<3>();
    if constexpr (!Topology::chain) add_to_parent(ws, topology.parent(i), i);
    const Vec3<S> a = ws.convective.p_O.col(i).template head<3>(),
                  b = ws.convective.p_O.col(i).template tail<3>();
    const auto axes = ws.convective.axes.col(i);
    auto rows = ws.convective.rows.col(i);
    rows.template head<6>() = M_tilde.momentum(a, b);
    rows.template tail<3>().noalias() = A_tilde.transpose() * a;
    rows.template tail<3>() += cross(P_tilde, b);  // (-[P x])^T b
    auto column = ws.convective.columns.col(i);
    column = M_tilde.momentum(axes.template segment<3>(0), axes.template segment<3>(3));
    column.template head<3>() += A_tilde * a;
    column.template tail<3>() -= cross(P_tilde, a);
  }
}

// C on a tree, Eq. (29) with the subtree sums: column j is non-zero below the diagonal on the
// subtree of j only (rows j .. subtree_end(j) - 1, contiguous) and above it on the path from the
// base to j only; every other entry is set to zero at each call.
template <typename S>
void convective_inertia_on_tree(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> qd,
                                const Vec6<S>& V_0) {
  const int n = model.dof();
  const TreeTopology topology{model.parents().data()};
  size_columns(ws.convective.link_twists, n);
  convective_link_terms(model, ws, qd, V_0, topology);
  convective_composites(model, ws, topology);
  for (int j = 0; j < n; ++j) {
    const int end = model.subtree_end(j);
    auto column = ws.convective.C.col(j);
    column.segment(j, end - j).noalias() =
        ws.convective.rows.middleCols(j, end - j).transpose() * ws.convective.axes.col(j);
    column.tail(n - end).setZero();
    column.head(j).setZero();
    for (int i = model.parent(j); i >= 0; i = model.parent(i))
      column[i] = ws.convective.p_O.col(i).dot(ws.convective.columns.col(j));
  }
}

// The storage of C and its factors for n joints, sized at the first call.
template <typename S>
void size_convective_inertia(Workspace<S>& ws, int n) {
  size_square(ws.convective.C, n);
  size_columns(ws.convective.axes, n);
  size_columns(ws.convective.links, n);
  size_columns(ws.convective.rows, n);
  size_columns(ws.convective.columns, n);
}

// With a floating base (docs/floating-base.md):
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
// [dS_l/dt; a_l] for the base's rate l (0..5 in the order [v; w]), as ws.convective.axes holds
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

namespace unchecked {
// C(q, v), (6 + n) x (6 + n), rates ordered [v; w; qd]. Returns ws.convective.C_floating.
template <typename S>
const MatX<S>& floating_convective_inertia(const Model<S>& model, Workspace<S>& ws,
                                           ConstVectorRef<S> q, ConstVectorRef<S> v) {
  const int n = model.dof();
  size_convective_inertia(ws, n);
  size_square(ws.convective.C_floating, n + 6);
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
    M_all += ws.convective.M_O[r];
    Q_all += ws.convective.links.col(r);
  });
  const Eigen::Map<const Mat3<S>> A_all(Q_all.data());
  const Vec3<S> P_all = Q_all.template tail<3>();

  const Eigen::Matrix<S, 9, 6> axes = base_rate_axes(V_0);
  MatX<S>& C = ws.convective.C_floating;
  for (int l = 0; l < 6; ++l) {
    const Vec3<S> a = axes.col(l).template segment<3>(6);
    Vec6<S> column =
        M_all.momentum(axes.col(l).template head<3>(), axes.col(l).template segment<3>(3));
    angular(column) += A_all * a;
    linear(column) -= cross(P_all, a);
    write_linear_first(column, C.col(l).template head<6>());
  }
  C.bottomLeftCorner(n, 6).noalias() = ws.convective.rows.transpose() * axes;
  for (int j = 0; j < n; ++j)
    write_linear_first(Vec6<S>(ws.convective.columns.col(j)), C.col(6 + j).template head<6>());
  C.bottomRightCorner(n, n) = ws.convective.C;
  return C;
}
}  // namespace unchecked

// C(q, qd) of Eq. (20), O(n^2). Returns ws.convective.C (n x n, sized at the first call), or with
// a floating base ws.convective.C_floating ((6 + n) x (6 + n)).
template <typename S>
const MatX<S>& convective_inertia(const Model<S>& model, Workspace<S>& ws, ConstVectorRef<S> q,
                                  ConstVectorRef<S> qd) {
  require_call(model, ws, "convective_inertia", q, qd);
  if (model.floating()) return unchecked::floating_convective_inertia(model, ws, q, qd);
  const int n = model.dof();
  size_convective_inertia(ws, n);
  update_joint_frames(model, ws, q);
  if (model.is_chain()) {
    convective_link_terms(model, ws, qd, Vec6<S>(Vec6<S>::Zero()), ChainTopology{});
    convective_composites(model, ws, ChainTopology{});
    for (int j = 0; j < n; ++j) {
      // Eq. (29): the column's entries at and below the diagonal, then those above it.
      ws.convective.C.col(j).tail(n - j).noalias() =
          ws.convective.rows.rightCols(n - j).transpose() * ws.convective.axes.col(j);
      ws.convective.C.col(j).head(j).noalias() =
          ws.convective.p_O.leftCols(j).transpose() * ws.convective.columns.col(j);
    }
  } else {
    convective_inertia_on_tree(model, ws, qd, Vec6<S>(Vec6<S>::Zero()));
  }
  return ws.convective.C;
}

}  // namespace denoc
