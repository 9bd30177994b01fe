// Lee, Wang, Chirikjian (2007) §4.2 and Appendix: the PUMA 560's mass matrix and its inverse at
// gamma_k = pi/3 (Table I), against the parameter sets in robots/, and the arm the paper's own
// frames T_k^c describe. Shared by the denoc_reproduce tool and tests/test_reproduce.cpp.
//
// What the frames show: T_1^c..T_6^c are, to their printed three decimals, the products
// Rx(beta_1) Tx(b_1) Rz(gamma_1) Tz(c_1) ... Rx(beta_k) Tx(b_k) Rz(gamma_k) Tz(c_k) of Table I's
// rows, i.e. Table I (a standard-DH table of the Puma, as in Paul and Zhang 1986) multiplied in
// the modified (Craig) order. That puts axis 2 parallel to axis 1, 0.4318 m from it: another
// arm than the Puma. The mass centres the frames imply (in each link frame) are
// (0, 0.080, 0), (0.216, 0, -0.026), (0, -0.216, 0), (0, 0, -0.0195), 0, (0, 0, 0.010) m; the
// masses and inertias "adapted from Ref. [29]" are not printed.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include "denoc/denoc.hpp"

namespace denoc::reproduce {

// The Appendix's M_puma and M_puma^-1 (row-major, four decimals as printed).
inline MatX<double> lee_puma_M() {
  MatX<double> M(6, 6);
  M << 7.0719, 3.6036, 0.3138, -0.0723, -0.0004, -0.0002,  //
      3.6036, 2.8533, 0.3379, 0.0722, -0.0004, -0.0006,    //
      0.3138, 0.3379, 0.3259, 0.1446, 0.0002, -0.0005,     //
      -0.0723, 0.0722, 0.1446, 0.2883, 0.0003, -0.0003,    //
      -0.0004, -0.0004, 0.0002, 0.0003, 0.0007, 0.0002,    //
      -0.0002, -0.0006, -0.0005, -0.0003, 0.0002, 0.0004;
  return M;
}

inline MatX<double> lee_puma_Minv() {
  MatX<double> Mi(6, 6);
  Mi << 0.4130, -0.5346, 0.0655, 0.2043, -0.0775, -0.3333,  //
      -0.5346, 1.0959, -0.5659, -0.1247, 0.4489, 0.3780,    //
      0.0655, -0.5659, 4.537, -2.1106, -2.288, 4.0852,      //
      0.2043, -0.1247, -2.1106, 4.6143, -2.0481, 1.6933,    //
      -0.0775, 0.4489, -2.288, -2.0481, 1810.6, -908.69,    //
      -0.3333, 0.3780, 4.0852, 1.6933, -908.69, 2682.8;
  return Mi;
}

// The paper's T_k^c at gamma_k = pi/3 (rotation, then the origin), three decimals.
inline std::array<Eigen::Matrix<double, 3, 4>, 6> lee_puma_Tc() {
  std::array<Eigen::Matrix<double, 3, 4>, 6> T;
  T[0] << 0.500, -0.866, 0, -0.069, 0, 0, -1, 0, 0.866, 0.5, 0, 0.04;
  T[1] << -0.5, -0.866, 0, 0.108, 0, 0, -1, 0.026, 0.866, -0.5, 0, 0.561;
  T[2] << -0.25, 0.433, -0.866, 0.004, 0.866, 0.5, 0, -0.108, 0.433, -0.75, -0.5, 0.490;
  T[3] << -0.875, -0.217, -0.433, -0.081, 0.433, -0.75, -0.5, -0.206, -0.217, -0.625, 0.75, 0.637;
  T[4] << -0.063, 0.974, -0.217, -0.089, 0.650, -0.125, -0.75, -0.216, -0.758, -0.188, -0.625,
      0.652;
  T[5] << 0.813, 0.541, -0.217, -0.091, 0.217, -0.625, -0.75, -0.223, -0.541, 0.563, -0.625, 0.645;
  return T;
}

// Table I: beta_i (deg), b_i, c_i (m).
constexpr std::array<std::array<double, 3>, 6> kLeeTableI = {
    {{90, 0, 0}, {0, 0.4318, 0}, {-90, 0.0191, 0.1254}, {90, 0, 0.4318}, {-90, 0, 0}, {0, 0, 0}}};

// The arm of the paper's frames: Table I as modified DH rows (alpha_{i-1} = beta_i,
// a_{i-1} = b_i, d_i = c_i), each mass centre where T_k^c puts it (R_k^T (p_k^c - o_k) in link
// frame k at gamma = pi/3), and the masses and inertias of `inertial` (e.g. the AKB file's).
inline Model<double> lee_puma_geometry(const std::vector<DhLink<double>>& inertial) {
  const double deg = std::acos(-1.0) / 180, g = std::acos(-1.0) / 3;
  const auto Tc = lee_puma_Tc();
  std::vector<DhLink<double>> rows(6);
  Transform<double> T;
  for (std::size_t i = 0; i < 6; ++i) {
    rows[i] = inertial[i];
    rows[i].alpha = kLeeTableI[i][0] * deg;
    rows[i].a = kLeeTableI[i][1];
    rows[i].b = kLeeTableI[i][2];
    rows[i].theta = 0;
    T = T * Transform<double>::rot_x(rows[i].alpha) * Transform<double>::trans_x(rows[i].a) *
        Transform<double>::rot_z(g) * Transform<double>::trans_z(rows[i].b);
    rows[i].com = T.R.transpose() * (Vec3<double>(Tc[i].col(3)) - T.p);
  }
  return Model<double>(links_from_dh(DhConvention::modified, rows), Vec3<double>(0, 0, -9.81));
}

struct LeePumaComparison {
  MatX<double> M, Minv;
  double max_abs_M = 0;  // largest |M - M_paper| entry
  double rel_M = 0;      // ||M - M_paper||_F / ||M_paper||_F
  double rel_Minv = 0;   // the same for the inverses
};

inline LeePumaComparison compare_with_lee_puma(const Model<double>& model) {
  Workspace<double> ws(model);
  const VecX<double> q = VecX<double>::Constant(6, std::acos(-1.0) / 3);
  LeePumaComparison c;
  c.M = generalized_inertia(model, ws, q);
  c.Minv = inverse_generalized_inertia(model, ws, q);
  const MatX<double> P = lee_puma_M(), Pi = lee_puma_Minv();
  c.max_abs_M = (c.M - P).cwiseAbs().maxCoeff();
  c.rel_M = (c.M - P).norm() / P.norm();
  c.rel_Minv = (c.Minv - Pi).norm() / Pi.norm();
  return c;
}

}  // namespace denoc::reproduce
