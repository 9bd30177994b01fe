// Forms of the matrix of convective inertia terms that the tests and denoc_bench --check hold
// Saha's C (saha/convective_inertia.hpp) against (docs/coriolis.md): dI/dt and the
// Christoffel-symbol form by central differences of the inertia matrix, and the exact difference
// between Saha's C and the Christoffel form.
#pragma once

#include <vector>

#include "denoc/denoc.hpp"

namespace denoc_test {

inline denoc::MatX<double> inertia_at(const denoc::Model<double>& model,
                                      const denoc::VecX<double>& q) {
  denoc::Workspace<double> ws(model);
  return denoc::generalized_inertia(model, ws, q);
}

// dI/dt along qd by central differences of I.
inline denoc::MatX<double> inertia_rate(const denoc::Model<double>& model,
                                        const denoc::VecX<double>& q,
                                        const denoc::VecX<double>& qd) {
  const double h = 1e-6;
  return (inertia_at(model, q + h * qd) - inertia_at(model, q - h * qd)) / (2 * h);
}

// c_ij = sum_k 1/2 (dI_ij/dq_k + dI_ik/dq_j - dI_jk/dq_i) qd_k, the partial derivatives by
// central differences of I.
inline denoc::MatX<double> christoffel_form(const denoc::Model<double>& model,
                                            const denoc::VecX<double>& q,
                                            const denoc::VecX<double>& qd) {
  const int n = model.dof();
  const double h = 1e-6;
  std::vector<denoc::MatX<double>> dI;
  for (int k = 0; k < n; ++k) {
    const denoc::VecX<double> step = h * denoc::VecX<double>::Unit(n, k);
    dI.push_back((inertia_at(model, q + step) - inertia_at(model, q - step)) / (2 * h));
  }
  denoc::MatX<double> C = denoc::MatX<double>::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C(i, j) += 0.5 * (dI[k](i, j) + dI[j](i, k) - dI[i](j, k)) * qd[k];
  return C;
}

// Saha's C less the Christoffel form, from the links' rotational inertias alone: with w_k and
// I_k link k's angular velocity and inertia tensor about C_k and a_j the axis of joint j (0 for a
// prismatic joint), all in the base frame,
//   (C - C_ch)_ij = sum_{k >= max(i, j)} a_i^T G_k a_j,
//   G_k = 1/2 (w_k x I_k + I_k w_k x + (I_k w_k) x);
// on a tree the sum is over the links k that both joints i and j move (i and j on the path from
// the base to k), which on a chain are the k >= max(i, j).
inline denoc::MatX<double> rotational_difference(const denoc::Model<double>& model,
                                                 const denoc::VecX<double>& q,
                                                 const denoc::VecX<double>& qd) {
  using denoc::cross_matrix;
  using denoc::Mat3;
  using denoc::Vec3;
  const int n = model.dof();
  denoc::Workspace<double> ws(model);
  denoc::tool_pose(model, ws, q);
  denoc::forward_recursion(model, ws, qd, denoc::VecX<double>::Zero(n));
  Eigen::Matrix<double, 3, Eigen::Dynamic> a(3, n);
  for (int j = 0; j < n; ++j)
    a.col(j) = ws.R_base[j] * denoc::angular(model.joint(j).p);
  denoc::MatX<double> D = denoc::MatX<double>::Zero(n, n);
  for (int k = 0; k < n; ++k) {
    const Mat3<double>& R = ws.R_base[k];
    const Vec3<double> w = R * denoc::angular(ws.id.t[k]);
    const Mat3<double> I = R * model.joint(k).M.rotational * R.transpose();
    const Mat3<double> G =
        0.5 * (cross_matrix(w) * I + I * cross_matrix(w) + cross_matrix(Vec3<double>(I * w)));
    for (int i = k; i >= 0; i = model.parent(i))
      for (int j = k; j >= 0; j = model.parent(j))
        D(i, j) += a.col(i).dot(G * a.col(j));
  }
  return D;
}

}  // namespace denoc_test
