// The Gibbs-Appell algorithms of V. Mata, S. Provenzano, F. Valero, J. I. Cuadrado,
// "Serial-robot dynamics algorithms for moderately large numbers of joints", Mech. Mach. Theory
// 37 (2002): the inverse dynamics from the derivatives of the Gibbs function, O(n) (§2, §4.1),
// the generalized inertia matrix D as its Hessian with respect to the joint accelerations,
// O(n^2) (§3, §4.2), and the forward dynamics by bias vector, D and Cholesky (end of §4, Table 3).
//
// The paper writes revolute joints in modified DH. docs/gibbs-appell.md maps its quantities onto
// the chain of model.hpp (J_i is the paper's frame i: ^{i-1}R_i = R_i Rz(q_i), and
// ^{i-1}s_{i-1,i} is the constant placement origin o_i) and derives the prismatic case, which
// the paper only sketches (Eq. 7e): a prismatic joint adds 2 w_i x z qd_i + z qdd_i to the
// acceleration of its origin, its force is tau_i = z^T (f_i + phi_i), and in D it is a force
// (M_j z_j) where a revolute joint is a moment.
//
// Vectors carry the frame on the left in the paper (^j x); here every vector of link i is in
// J_i unless its name says otherwise. Gravity enters as the base's acceleration -g (Step 1).
// Storage: GibbsAppellWorkspace (gibbs_appell_workspace.hpp), apart from the other routes'.
// On a tree (docs/gibbs-appell.md, "Trees") j - 1 becomes the parent lambda(j) outwards, the
// inward sums and the composite bodies sum over the children of j, and D has entries only where
// one joint supports the other.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "denoc/kernels/cholesky.hpp"
#include "denoc/kernels/sin_cos.hpp"
#include "denoc/mata/gibbs_appell_workspace.hpp"
#include "denoc/model/topology.hpp"
#include "denoc/model/workspace.hpp"

namespace denoc {

namespace gibbs_appell {

// ^{i-1}R_i = R_i Rz(q_i) (revolute) or R_i (prismatic), and ^{i-1}s_{i-1,i} = o_i (revolute) or
// o_i + q_i R_i z (prismatic): the paper's modified-DH transform with the joint's motion last.
template <typename S>
void joint_frames(const Model<S>& model, GibbsAppellWorkspace<S>& ga, ConstVectorRef<S> q) {
  sin_cos(q.data(), model.dof(), ga.sin_q.data(), ga.cos_q.data());
  for (int i = 0; i < model.dof(); ++i) {
    const Mat3<S>& Rp = model.joint(i).R;
    Mat3<S>& R = ga.R[i];
    if (model.joint(i).type == JointType::revolute) {
      const S sq = ga.sin_q[i], cq = ga.cos_q[i];
      R.col(0) = cq * Rp.col(0) + sq * Rp.col(1);
      R.col(1) = cq * Rp.col(1) - sq * Rp.col(0);
      R.col(2) = Rp.col(2);
      ga.s[i] = ga.s_placed[i];
    } else {
      R = Rp;
      ga.s[i] = ga.s_placed[i] + q[i] * Rp.col(2);
    }
  }
}

// [a]^2 = a a^T - |a|^2 1, symmetric: six products.
template <typename S>
inline Mat3<S> cross_squared(const Vec3<S>& a) {
  const S xx = a.x() * a.x(), yy = a.y() * a.y(), zz = a.z() * a.z();
  const S xy = a.x() * a.y(), xz = a.x() * a.z(), yz = a.y() * a.z();
  const S norm2 = xx + yy + zz;
  Mat3<S> out;
  out << xx - norm2, xy, xz, xy, yy - norm2, yz, xz, yz, zz - norm2;
  return out;
}

// The angular acceleration tensor Omega = dw~ + w~^2 of Step 1: w~^2's six products, and dw~
// added where it is not zero (6 M, 11 A; the paper's 6 M, 9 A).
template <typename S>
inline Mat3<S> angular_acceleration_tensor(const Vec3<S>& w, const Vec3<S>& dw) {
  Mat3<S> Omega = cross_squared(w);
  Omega(0, 1) -= dw.z(), Omega(0, 2) += dw.y(), Omega(1, 2) -= dw.x();
  Omega(1, 0) += dw.z(), Omega(2, 0) -= dw.y(), Omega(2, 1) += dw.x();
  return Omega;
}

// On a tree the recursion starts joint i from its parent's stored values (the base's at the base).
template <typename S, typename Topology>
void start_from_parent(const Model<S>& model, const GibbsAppellWorkspace<S>& ga, int i,
                       Topology topology, Vec3<S>& w, Vec3<S>& dw, Vec3<S>& sdd, Mat3<S>& Omega) {
  const int parent = topology.parent(i);
  if (parent >= 0) {
    w = ga.w[parent], dw = ga.dw[parent], sdd = ga.sdd[parent], Omega = ga.Omega[parent];
  } else {
    w.setZero(), dw.setZero(), sdd = -model.gravity(), Omega.setZero();
  }
}

// §4.1 Steps 1-2, from the base outwards (paper's garbled dots restored: w is the angular
// velocity, dw its rate):
//   ^i w_i   = ^iR_{i-1} ^{i-1}w_{i-1} + z qd_i
//   ^i dw_i  = ^iR_{i-1} ^{i-1}dw_{i-1} + z qdd_i + (^iR_{i-1} ^{i-1}w_{i-1}) x z qd_i
//   Omega_i  = dw~_i + w~_i^2                                         angular acceleration tensor
//   (12) ^i sdd_i = ^iR_{i-1} [^{i-1}sdd_{i-1} + Omega_{i-1} ^{i-1}s_{i-1,i}]     origin of frame i
//              (+ 2 w_i x z qd_i + z qdd_i for a prismatic joint, which leaves w and dw alone)
//   ^i rdd_i = ^i sdd_i + Omega_i ^i r_{i,i}                             mass centre
//   f_i = m_i rdd_i (9),   t~_i = Omega_i J_i - (Omega_i J_i)^T (10)
// with ^0 sdd_0 = -g (Step 1: gravity as the base's acceleration; Eq. (9)'s + g is then dropped).
// On a tree i - 1 is the parent lambda(i), whose w, dw, sdd and Omega are read back.
template <typename S, typename Topology>
void outward_recursion(const Model<S>& model, GibbsAppellWorkspace<S>& ga, ConstVectorRef<S> qd,
                       ConstVectorRef<S> qdd, Topology topology) {
  Vec3<S> w = Vec3<S>::Zero(), dw = Vec3<S>::Zero(), sdd = -model.gravity();
  Mat3<S> Omega = Mat3<S>::Zero();  // Omega_0: the base does not turn
  for (int i = 0; i < model.dof(); ++i) {
    if constexpr (!Topology::chain) start_from_parent(model, ga, i, topology, w, dw, sdd, Omega);
    const Mat3<S>& R = ga.R[i];  // ^{i-1}R_i; its transpose is ^iR_{i-1}
    sdd = R.transpose() * (sdd + Omega * ga.s[i]);
    const Vec3<S> w_parent = R.transpose() * w;
    dw = R.transpose() * dw;
    // With z = [0 0 1], z a adds a to the third entry and w x z qd = [w_y qd, -w_x qd, 0]: the
    // paper's counts take these products as free (0 M, 1 A for w; 2 M, 3 A for dw's terms).
    w = w_parent;
    if (ga.revolute[i] != S(0)) {
      w.z() += qd[i];
      dw.x() += w_parent.y() * qd[i], dw.y() -= w_parent.x() * qd[i], dw.z() += qdd[i];
    } else {  // Coriolis and sliding, 2 w x z qd + z qdd (docs, Eq. 7e)
      const S two_qd = 2 * qd[i];
      sdd.x() += two_qd * w.y(), sdd.y() -= two_qd * w.x(), sdd.z() += qdd[i];
    }
    Omega = angular_acceleration_tensor(w, dw);  // Eq. (12)
    const Vec3<S> rdd = sdd + Omega * ga.r[i];
    ga.f[i] = model.joint(i).M.mass * rdd;  // Eq. (9)
    // Eq. (10): t~ = A - A^T with A = Omega J; only A's off-diagonal entries are needed.
    const Mat3<S>& J = ga.J[i];
    const S a01 = Omega.row(0).dot(J.col(1)), a10 = Omega.row(1).dot(J.col(0));
    const S a02 = Omega.row(0).dot(J.col(2)), a20 = Omega.row(2).dot(J.col(0));
    const S a12 = Omega.row(1).dot(J.col(2)), a21 = Omega.row(2).dot(J.col(1));
    ga.t[i] = Vec3<S>(a21 - a12, a02 - a20, a10 - a01);
    if constexpr (!Topology::chain)
      ga.w[i] = w, ga.dw[i] = dw, ga.sdd[i] = sdd, ga.Omega[i] = Omega;
  }
}

// §4.1 Step 3, from the tip inwards, Eqs. (14)-(16):
//   ^j phi_j = ^jR_{j+1} (^{j+1}f_{j+1} + ^{j+1}phi_{j+1})           force of bodies j+1..n (16)
//   ^j chi_j = r~_{j,j} f_j + s~_{j,j+1} phi_j + t_j + ^jR_{j+1} ^{j+1}chi_{j+1}   (15)
//   tau_j    = z^T chi_j  (revolute, (14));   tau_j = z^T (f_j + phi_j)  (prismatic: Eq. 5 with
//              d rdd_i / d qdd_j = z_j and d dw_i / d qdd_j = 0 for every i >= j)
// chi_j is the moment about the origin of frame j of the forces of bodies j..n.
//
// On a tree phi_j and chi_j's last terms sum over the children c of j: each child, complete
// before its parent, adds F_c = ^jR_c (f_c + phi_c) and s_{j,c} x F_c + ^jR_c chi_c into j's.
template <typename S, typename Topology>
void inward_recursion(const Model<S>& model, GibbsAppellWorkspace<S>& ga, Topology topology) {
  Vec3<S> phi = Vec3<S>::Zero(), chi = Vec3<S>::Zero();  // phi_n = 0, chi_{n+1} = 0
  if constexpr (!Topology::chain) {
    std::fill(ga.children_force.begin(), ga.children_force.end(), Vec3<S>::Zero());
    std::fill(ga.children_moment.begin(), ga.children_moment.end(), Vec3<S>::Zero());
  }
  for (int j = model.dof() - 1; j >= 0; --j) {
    Vec3<S> moment = cross(ga.r[j], ga.f[j]) + ga.t[j];
    if constexpr (!Topology::chain) {
      phi = ga.children_force[j];
      moment += ga.children_moment[j];
    } else if (j + 1 < model.dof()) {
      const Mat3<S>& R = ga.R[j + 1];               // ^jR_{j+1}
      phi = R * (ga.f[j + 1] + phi);                // Eq. (16)
      moment += cross(ga.s[j + 1], phi) + R * chi;  // Eq. (15)
    }
    chi = moment;
    ga.tau[j] = ga.revolute[j] != S(0) ? chi.z() : ga.f[j].z() + phi.z();  // Eq. (14)
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(j);
      if (parent < 0) continue;
      const Mat3<S>& R = ga.R[j];  // ^{lambda(j)}R_j
      const Vec3<S> F = R * (ga.f[j] + phi);
      ga.children_force[parent] += F;                             // Eq. (16), summed
      ga.children_moment[parent] += cross(ga.s[j], F) + R * chi;  // Eq. (15), summed
    }
  }
}

// §4.2 Steps 1, 4, 5 and 6, from the tip inwards:
//   gamma_j = m_j r_{j,j} + M_{j+1} s_{j,j+1},  E_j = H_j - M_{j+1} s~_{j,j+1}^2        (Step 1)
//   ^j phi_{j+1} = ^jR_{j+1} ^{j+1}phi_{j+1},  phi_j = gamma_j + ^j phi_{j+1}            (Step 4)
//   Psi_j = E_j - s~ phi~_{j+1} - (s~ phi~_{j+1})^T + ^jR_{j+1} Psi_{j+1} ^{j+1}R_j     (Step 5)
// phi_j = sum_{i>=j} m_i r_{j,i} is the first moment of bodies j..n about the origin of frame j
// and Psi_j = sum_{i>=j} (I_i - m_i r~_{j,i}^2) their inertia about it. Step 1 is done here, not
// off-line: with a prismatic joint j+1, s_{j,j+1} depends on q_{j+1}.
// Then the quantities of Step 7 for joint j, a wrench about the origin of frame j:
//   revolute:  n_j = Psi_j z (so D_jj = z^T Psi_j z, Step 6),  f_j = z x phi_j = -phi~_j z
//   prismatic: n_j = phi_j x z,                                f_j = M_j z      (D_jj = M_j)
// On a tree, child j's terms of its parent's phi and Psi (Steps 1, 4, 5 with j + 1 -> j and
// j -> lambda(j)), added into the parent's entries:
//   M_j s + ^lambda R_j phi_j,   -M_j s~^2 - s~ phi~' - (s~ phi~')^T + ^lambda R_j Psi_j ^j
//   R_lambda
// with s = ^lambda s_{lambda,j} and phi' = ^lambda R_j phi_j.
template <typename S>
void add_to_parent_composite(const GibbsAppellWorkspace<S>& ga, int j, const Vec3<S>& phi,
                             const Mat3<S>& Psi, Vec3<S>& parent_phi, Mat3<S>& parent_Psi) {
  const Mat3<S>& R = ga.R[j];
  const Vec3<S>& s = ga.s[j];
  const Vec3<S> phi_next = R * phi;
  parent_phi += ga.M[j] * s + phi_next;
  Mat3<S> E = rotate_symmetric(R, Psi) - ga.M[j] * cross_squared(s);
  E.noalias() -= phi_next * s.transpose() + s * phi_next.transpose();
  E.diagonal().array() += 2 * s.dot(phi_next);
  parent_Psi += E;
}

// On a tree phi_j and Psi_j are link j's own terms plus what its children added (Step 4, 5).
template <typename S>
void gather_children_composite(const GibbsAppellWorkspace<S>& ga, int j, Vec3<S>& phi,
                               Mat3<S>& Psi) {
  phi = ga.m_r[j] + ga.children_force[j];
  Psi = ga.H[j] + ga.children_inertia[j];
}

template <typename S, typename Topology>
void composite_bodies(const Model<S>& model, GibbsAppellWorkspace<S>& ga, Topology topology) {
  const int n = model.dof();
  const Vec3<S> z = Vec3<S>::UnitZ();
  Vec3<S> phi = Vec3<S>::Zero();
  Mat3<S> Psi = Mat3<S>::Zero();
  if constexpr (!Topology::chain) {
    std::fill(ga.children_force.begin(), ga.children_force.end(), Vec3<S>::Zero());
    std::fill(ga.children_inertia.begin(), ga.children_inertia.end(), Mat3<S>::Zero());
  }
  for (int j = n - 1; j >= 0; --j) {
    if constexpr (!Topology::chain) {
      gather_children_composite(ga, j, phi, Psi);
    } else if (j + 1 < n) {
      const Mat3<S>& R = ga.R[j + 1];
      const Vec3<S>& s = ga.s[j + 1];  // ^j s_{j,j+1}
      const S M_next = ga.M[j + 1];
      const Vec3<S> phi_next = R * phi;         // Step 4
      phi = ga.m_r[j] + M_next * s + phi_next;  // gamma_j + ^j phi_{j+1}
      // s~ phi~ = phi s^T - (s . phi) 1, so s~ phi~ + (s~ phi~)^T = phi s^T + s phi^T - 2 s.phi 1
      Mat3<S> E = ga.H[j] - M_next * cross_squared(s);  // Step 1
      E.noalias() -= phi_next * s.transpose() + s * phi_next.transpose();
      E.diagonal().array() += 2 * s.dot(phi_next);
      Psi = E + rotate_symmetric(R, Psi);  // Step 5
    } else {
      phi = ga.m_r[j];  // phi_n = gamma_n = m_n r_{n,n}
      Psi = ga.H[j];    // Psi_n = H_n
    }
    if (ga.revolute[j] != S(0)) {
      ga.n_unit[j] = Psi.col(2);
      ga.f_unit[j] = cross(z, phi);
    } else {
      ga.n_unit[j] = cross(phi, z);
      ga.f_unit[j] = ga.M[j] * z;
    }
    ga.D(j, j) = ga.revolute[j] * ga.n_unit[j].z() + (1 - ga.revolute[j]) * ga.f_unit[j].z();
    if constexpr (!Topology::chain) {
      const int parent = topology.parent(j);
      if (parent >= 0)
        add_to_parent_composite(ga, j, phi, Psi, ga.children_force[parent],
                                ga.children_inertia[parent]);
    }
  }
}

// §4.2 Steps 2, 3 and 7 for one row j of D, over all k < j at once. Columns k of z_s hold
// ^{j-1}z_k and ^{j-1}s_{k,j-1} on entry (column j-1 is set to z and 0 here) and leave with
//   ^j z_k       = ^jR_{j-1} ^{j-1}z_k                                        (Step 3)
//   ^j s_{k,j}   = ^jR_{j-1} (^{j-1}s_{k,j-1} + ^{j-1}s_{j-1,j})               (Step 2)
// and then
//   D_jk = ^j z_k^T [Psi_j - s~_{k,j} phi~_j] z_j = ^j z_k^T (n_j + ^j s_{k,j} x f_j)  (Step 7)
// for a revolute joint k; for a prismatic one (d dw / d qdd_k = 0, d rdd / d qdd_k = z_k)
//   D_jk = ^j z_k^T f_j.
// Step 2 is summed outwards here (the paper sums ^j s_{k,k+1} + ^j s_{k+1,j}): the same vector
// with O(n) storage. Written out over plain rows (distinct: __restrict) so that the compiler
// does several k at once; D_jk goes to D(k, j), the column being contiguous. For a revolute
// joint j, f_j = z x phi_j has no third entry, and its products are left out, as the paper's
// count of Step 7 leaves them (the same values: they were products by zero).
template <bool kRevoluteRow, typename S>
void inertia_row(const Mat3<S>& R, const Vec3<S>& s, const Vec3<S>& n_j, const Vec3<S>& f_j, int j,
                 const S* __restrict revolute, S* __restrict zx, S* __restrict zy, S* __restrict zz,
                 S* __restrict sx, S* __restrict sy, S* __restrict sz, S* __restrict D_col) {
  zx[j - 1] = 0, zy[j - 1] = 0, zz[j - 1] = 1;  // ^{j-1}z_{j-1}
  sx[j - 1] = 0, sy[j - 1] = 0, sz[j - 1] = 0;  // ^{j-1}s_{j-1,j-1}
  // ^jR_{j-1} = R^T: row r of it is column r of R.
  const S r00 = R(0, 0), r10 = R(1, 0), r20 = R(2, 0), r01 = R(0, 1), r11 = R(1, 1), r21 = R(2, 1),
          r02 = R(0, 2), r12 = R(1, 2), r22 = R(2, 2);
  const S px = s.x(), py = s.y(), pz = s.z();
  const S nx = n_j.x(), ny = n_j.y(), nz = n_j.z(), fx = f_j.x(), fy = f_j.y();
  [[maybe_unused]] const S fz = f_j.z();
  for (int k = 0; k < j; ++k) {
    const S ax = zx[k], ay = zy[k], az = zz[k];
    const S bx = sx[k] + px, by = sy[k] + py, bz = sz[k] + pz;
    const S Zx = r00 * ax + r10 * ay + r20 * az;  // Step 3
    const S Zy = r01 * ax + r11 * ay + r21 * az;
    const S Zz = r02 * ax + r12 * ay + r22 * az;
    const S Sx = r00 * bx + r10 * by + r20 * bz;  // Step 2
    const S Sy = r01 * bx + r11 * by + r21 * bz;
    const S Sz = r02 * bx + r12 * by + r22 * bz;
    zx[k] = Zx, zy[k] = Zy, zz[k] = Zz;
    sx[k] = Sx, sy[k] = Sy, sz[k] = Sz;
    // ^j z_k . f_j and ^j z_k . (n_j + s_{k,j} x f_j)
    S force, moment;
    if constexpr (kRevoluteRow) {
      force = Zx * fx + Zy * fy;
      moment = Zx * (nx - Sz * fy) + Zy * (ny + Sz * fx) + Zz * (nz + Sx * fy - Sy * fx);
    } else {
      force = Zx * fx + Zy * fy + Zz * fz;
      moment = Zx * (nx + Sy * fz - Sz * fy) + Zy * (ny + Sz * fx - Sx * fz) +
               Zz * (nz + Sx * fy - Sy * fx);
    }
    D_col[k] = force + revolute[k] * (moment - force);  // Step 7
  }
}

// On a tree, row j of D only on j's path (Step 7 with the ancestors k of j alone; D_jk = 0 for
// joints on different branches): the wrench [n_j; f_j] about the origin of frame j is carried
// inwards along the path, to the origin of each ancestor k in frame k,
//   f <- ^kR_c f,   n <- ^kR_c n + ^k s_{k,c} x f   (c the child of k on the path),
// so that D_jk = z^T n (revolute k) or z^T f (prismatic k): the bracket of Step 7 with ^k z_k = z,
// the same scalar as the chain's ^j z_k^T (n_j + ^j s_{k,j} x f_j). O(d) per row. D(k, j), k < j,
// as the chain fills it; the entries off the paths are never written and keep the zeros of D's
// first sizing.
template <typename S, typename Topology>
void inertia_rows_on_paths(const Model<S>& model, GibbsAppellWorkspace<S>& ga, Topology topology) {
  for (int j = 1; j < model.dof(); ++j) {
    Vec3<S> n = ga.n_unit[j], f = ga.f_unit[j];
    for (int c = j, k = topology.parent(j); k >= 0; c = k, k = topology.parent(k)) {
      const Mat3<S>& R = ga.R[c];  // ^kR_c
      f = R * f;
      n = R * n + cross(ga.s[c], f);
      ga.D(k, j) = ga.revolute[k] != S(0) ? n.z() : f.z();
    }
  }
}

// D from the tip-inwards quantities, row by row from the base (rows need frames j-1 -> j).
template <typename S, typename Topology>
void inertia_matrix(const Model<S>& model, GibbsAppellWorkspace<S>& ga, Topology topology) {
  size_square(ga.D, model.dof());         // at the first call
  composite_bodies(model, ga, topology);  // Steps 1, 4, 5, 6
  if constexpr (Topology::chain) {
    auto& zs = ga.z_s;
    for (int j = 1; j < model.dof(); ++j) {
      const auto row = [&](auto revolute_row) {
        inertia_row<decltype(revolute_row)::value>(
            ga.R[j], ga.s[j], ga.n_unit[j], ga.f_unit[j], j, ga.revolute.data(), zs.row(0).data(),
            zs.row(1).data(), zs.row(2).data(), zs.row(3).data(), zs.row(4).data(),
            zs.row(5).data(), ga.D.col(j).data());
      };
      if (ga.revolute[j] != S(0)) {
        row(std::true_type{});
      } else {
        row(std::false_type{});
      }
    }
  } else {
    inertia_rows_on_paths(model, ga, topology);  // Steps 2, 3, 7 along each path
  }
  ga.D.template triangularView<Eigen::StrictlyLower>() = ga.D.transpose();
  // The drives' rotor inertias G^2 Jm (docs/robot-file.md): the Gibbs function of each rotor
  // spinning with its joint, 1/2 G^2 Jm qdd_i^2, adds them to the diagonal of its Hessian.
  if (model.has_rotors()) ga.D.diagonal() += model.rotor_inertia();
}

// D = L L^T into ga.L (cholesky.hpp); false unless D is positive definite.
template <typename S>
bool cholesky(GibbsAppellWorkspace<S>& ga) {
  ga.L = ga.D;  // sized like D at the first call
  ga.cholesky_scratch.size_for(ga.D.rows());
  return ga.factored = cholesky_in_place(ga.L, ga.cholesky_scratch);
}

// §4.1 on a tree.
template <typename S>
void tree_recursions(const Model<S>& model, GibbsAppellWorkspace<S>& ga, ConstVectorRef<S> qd,
                     ConstVectorRef<S> qdd) {
  const TreeTopology topology{model.parents().data()};
  outward_recursion(model, ga, qd, qdd, topology);
  inward_recursion(model, ga, topology);
}

}  // namespace gibbs_appell

// tau = D(q) qdd + C(q, qd) - G(q) of Eq. (17), gravity included through the base's
// acceleration: O(n), §4.1 (Eqs. 9-16). Returns ga.tau.
template <typename S>
const VecX<S>& gibbs_appell_inverse_dynamics(const Model<S>& model, GibbsAppellWorkspace<S>& ga,
                                             ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                             ConstVectorRef<S> qdd) {
  require_gibbs_appell_call(model, ga, "gibbs_appell_inverse_dynamics");
  require_joint_values(model, "gibbs_appell_inverse_dynamics", "q", q);
  require_joint_values(model, "gibbs_appell_inverse_dynamics", "qd", qd);
  require_joint_values(model, "gibbs_appell_inverse_dynamics", "qdd", qdd);
  gibbs_appell::joint_frames(model, ga, q);
  if (model.is_chain()) {
    gibbs_appell::outward_recursion(model, ga, qd, qdd, ChainTopology{});
    gibbs_appell::inward_recursion(model, ga, ChainTopology{});
  } else {
    gibbs_appell::tree_recursions(model, ga, qd, qdd);
  }
  // The drives' rotors (docs/robot-file.md) are not bodies of the chain: G^2 Jm qdd_i, as in D
  // below.
  if (model.has_rotors()) ga.tau.array() += model.rotor_inertia().array() * qdd.array();
  return ga.tau;
}

// The bias vector C - G = tau(q, qd, 0), as Walker and Orin (§3). Returns ga.tau.
template <typename S>
const VecX<S>& gibbs_appell_bias(const Model<S>& model, GibbsAppellWorkspace<S>& ga,
                                 ConstVectorRef<S> q, ConstVectorRef<S> qd) {
  return gibbs_appell_inverse_dynamics(model, ga, q, qd, ga.zeros);
}

// The gravity vector -G = tau(q, 0, 0). Returns ga.tau.
template <typename S>
const VecX<S>& gibbs_appell_gravity(const Model<S>& model, GibbsAppellWorkspace<S>& ga,
                                    ConstVectorRef<S> q) {
  return gibbs_appell_inverse_dynamics(model, ga, q, ga.zeros, ga.zeros);
}

// D_jk = d^2 G / d qdd_j d qdd_k, Eqs. (19)-(21), by the O(n^2) recursion of §4.2. Returns
// ga.D (symmetric, both triangles).
template <typename S>
const MatX<S>& gibbs_appell_inertia(const Model<S>& model, GibbsAppellWorkspace<S>& ga,
                                    ConstVectorRef<S> q) {
  require_gibbs_appell_call(model, ga, "gibbs_appell_inertia");
  require_joint_values(model, "gibbs_appell_inertia", "q", q);
  gibbs_appell::joint_frames(model, ga, q);
  with_topology(model, [&](auto topology) { gibbs_appell::inertia_matrix(model, ga, topology); });
  return ga.D;
}

// qdd from D qdd = tau - (C - G), Eq. (17): the bias vector by §4.1 with qdd = 0, D by §4.2,
// then Cholesky (end of §4, Table 3). On a tree D is factored by the same dense Cholesky, its zeros
// off the paths not exploited (the `cholesky` route's tree kernel does). Returns ga.qdd; NaN if D
// is not positive definite (ga.factored is then false). `tau` must not be ga.tau (it holds the bias
// on the way).
template <typename S>
const VecX<S>& forward_dynamics_gibbs_appell(const Model<S>& model, GibbsAppellWorkspace<S>& ga,
                                             ConstVectorRef<S> q, ConstVectorRef<S> qd,
                                             ConstVectorRef<S> tau) {
  require_gibbs_appell_call(model, ga, "forward_dynamics_gibbs_appell");
  require_joint_values(model, "forward_dynamics_gibbs_appell", "q", q);
  require_joint_values(model, "forward_dynamics_gibbs_appell", "qd", qd);
  require_joint_values(model, "forward_dynamics_gibbs_appell", "tau", tau);
  gibbs_appell::joint_frames(model, ga, q);  // once for both
  with_topology(model, [&](auto topology) {
    gibbs_appell::outward_recursion(model, ga, qd, ga.zeros, topology);
    gibbs_appell::inward_recursion(model, ga, topology);
    ga.rhs = tau - ga.tau;
    gibbs_appell::inertia_matrix(model, ga, topology);
  });
  if (!gibbs_appell::cholesky(ga)) {
    ga.qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
    return ga.qdd;
  }
  ga.qdd = ga.rhs;
  ga.L.template triangularView<Eigen::Lower>().solveInPlace(ga.qdd);
  ga.L.transpose().template triangularView<Eigen::Upper>().solveInPlace(ga.qdd);
  return ga.qdd;
}

}  // namespace denoc
