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

#include <algorithm>
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

// What the printed frames say of the wrist: the angle (rad) between the axes z_5 and z_6 of
// T_5^c and T_6^c, and the distance (m) between the two lines, each through its frame's origin
// (both mass centres lie on their joint's axis). Table I's last row (beta_6 = b_6 = c_6 = 0)
// puts joint 6 on joint 5's line, so that S_5 = S_6 and M_56 = S_5^T M~_6 S_6 = M_66 whatever
// link 6's mass and inertia (Eq. 9 has no rotors to add to M_66 alone).
struct LeePumaWrist {
  double axis_angle = 0;
  double line_distance = 0;
};

inline LeePumaWrist lee_puma_printed_wrist() {
  const auto Tc = lee_puma_Tc();
  const Vec3<double> z5 = Tc[4].col(2).normalized(), z6 = Tc[5].col(2).normalized();
  LeePumaWrist wrist;
  wrist.axis_angle = std::atan2(cross(z5, z6).norm(), z5.dot(z6));
  wrist.line_distance = cross(Vec3<double>(Tc[4].col(3) - Tc[5].col(3)), z6).norm();
  return wrist;
}

// The Appendix's fourth column against its M_22, on the arm of the printed frames, with the mass
// centres c_k of links 4-6 where T_k^c puts them. Axes 1 and 2 are parallel there (z_1 = z_2 = z,
// the lines 0.4318 m apart), so the links' rotational terms cancel from
//   M_24 - M_14 = sum_k m_k (z x (o_1 - o_2)) . (z_4 x (c_k - o_4)),   k = 4, 5, 6,
// which needs sum_k m_k d_k >= (M_24 - M_14) / |o_1 - o_2|, d_k the distance of c_k from axis 4.
// But M_22 >= sum_k m_k D_k^2, D_k the distance of c_k from axis 2 (each link's inertia adds a
// term >= 0, a rotor too), so sum_k m_k d_k <= max_k (d_k / D_k^2) M_22. `needed` and `allowed`
// are those two bounds, each taken at the printed values' rounding (M's 5e-5, the centres'
// 5e-4 m) in the direction that favours a fit; no nonnegative masses and positive semidefinite
// inertias give the printed M when allowed < needed.
struct LeePumaColumn4 {
  double axes_1_2_angle = 0;  // rad, on the arm
  double needed = 0;          // kg m: sum_k m_k d_k at least this
  double allowed = 0;         // kg m: and at most this
};

inline LeePumaColumn4 lee_puma_column4_bound() {
  const Model<double> arm = lee_puma_geometry(std::vector<DhLink<double>>(6));
  KinematicsWorkspace<double> ws(arm.dof());
  const VecX<double> q = VecX<double>::Constant(6, std::acos(-1.0) / 3);
  tool_pose(arm, ws, q);
  const auto Tc = lee_puma_Tc();
  const MatX<double> P = lee_puma_M();
  const Vec3<double> z1 = ws.R_base[0].col(2), z2 = ws.R_base[1].col(2), z4 = ws.R_base[3].col(2);
  LeePumaColumn4 bound;
  bound.axes_1_2_angle = std::atan2(cross(z1, z2).norm(), z1.dot(z2));
  const double gap = cross(z2, Vec3<double>(ws.o_base[0] - ws.o_base[1])).norm();
  bound.needed = (P(1, 3) - P(0, 3) - 2 * 5e-5) / gap;
  double ratio = 0;
  for (std::size_t k = 3; k < 6; ++k) {
    const Vec3<double> c = Tc[k].col(3);
    // Each printed coordinate within 5e-4 m: the centre within sqrt(3) 5e-4 of where it reads.
    const double slack = std::sqrt(3.0) * 5e-4;
    const double d = cross(z4, Vec3<double>(c - ws.o_base[3])).norm() + slack;
    const double D = cross(z2, Vec3<double>(c - ws.o_base[1])).norm() - slack;
    ratio = std::max(ratio, d / (D * D));
  }
  bound.allowed = ratio * (P(1, 1) + 5e-5);
  return bound;
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
