// Lee, Wang and Chirikjian (2007) §4.3 and Appendix: the 7-link polyalanine chain
// (robots/polyalanine7.yaml) at their configuration beta_1 = 0, beta_i = pi/3, its inertia
// matrix, its inverse by the extended Fixman method and the mass-centre frames T_k^c in Lee's
// axes, beside the numbers the paper prints.
#pragma once

#include <array>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/model/reduced_model.hpp"

namespace denoc::reproduce {

struct PolypeptideResult {
  MatX<double> M, Minv;  // Minv by the extended Fixman method (the units of two atoms, with no
                         // inertia about the line through them, bordered: docs/fixman.md)
  std::vector<Eigen::Matrix4d> Tc;  // T_k^c, k = 1..n, in Lee et al.'s axes
};

// Lee's frame k is the DH frame k with its axes renamed x -> z, y -> -y, z -> x (the file's
// comments): T_Lee = P T P with P = P^T = P^-1.
inline Eigen::Matrix4d lee_axes(const Eigen::Matrix4d& T) {
  Eigen::Matrix4d P = Eigen::Matrix4d::Zero();
  P(0, 2) = P(2, 0) = P(3, 3) = 1;
  P(1, 1) = -1;
  return P * T * P;
}

// Standard DH: A_i = Rot_z(theta_i + q_i) Trans_z(d_i) Trans_x(a_i) Rot_x(alpha_i).
inline Eigen::Matrix4d dh_standard(const DhLink<double>& l, double q) {
  const double th = l.theta + q, ct = std::cos(th), st = std::sin(th);
  const double ca = std::cos(l.alpha), sa = std::sin(l.alpha);
  Eigen::Matrix4d A;
  A << ct, -st * ca, st * sa, l.a * ct, st, ct * ca, -ct * sa, l.a * st, 0, sa, ca, l.b, 0, 0, 0, 1;
  return A;
}

inline VecX<double> lee_configuration(int n) {
  VecX<double> q = VecX<double>::Constant(n, 3.14159265358979323846 / 3);
  q[0] = 0;
  return q;
}

// M by the composite-body GIM (Saha's Eq. 24), M^-1 by the extended Fixman solve, and T_k^c =
// T_k Q_k with Q_k the translation to the mass centre (Lee's §4.3: "Q_k is given by pure
// translation").
inline PolypeptideResult polypeptide_at(const std::vector<DhLink<double>>& dh,
                                        const VecX<double>& q) {
  PolypeptideResult r;
  const Model<double> model(links_from_dh(DhConvention::standard, dh), Vec3<double>::Zero());
  Workspace<double> ws(model);
  FixmanWorkspace<double> fx(model);
  r.M = generalized_inertia(model, ws, q);
  r.Minv = fixman_inverse_inertia(model, fx, q);
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  for (int k = 0; k < model.dof(); ++k) {
    const DhLink<double>& l = dh[static_cast<std::size_t>(k)];
    T = T * dh_standard(l, q[k]);
    Eigen::Matrix4d Q = Eigen::Matrix4d::Identity();
    Q.block<3, 1>(0, 3) = l.com;
    r.Tc.push_back(lee_axes(T * Q));
  }
  return r;
}

inline PolypeptideResult polypeptide_at_lee_configuration(const RobotFile& robot) {
  return polypeptide_at(robot.dh, lee_configuration(robot.dof()));
}

// §4.3's second case: the omega torsions beta_3 and beta_6 held at 180 deg (hard variables), the
// other five soft, at beta_1 = 0 and pi/3 for the rest. The chain with those two joints locked
// (model/reduced_model.hpp): M by the composite-body GIM, M^-1 by the extended Fixman method on
// the five moving joints; and the 7-joint chain's M at the same beta, whose rows and columns of
// the soft variables M must be.
struct FixedTorsionResult {
  MatX<double> M, Minv;  // 5 x 5, the soft variables beta_1, beta_2, beta_4, beta_5, beta_7
  MatX<double> M_all;    // 7 x 7 at the same beta
  std::vector<int> soft = {0, 1, 3, 4, 6};
};

inline FixedTorsionResult polypeptide_fixed_torsions(const std::vector<DhLink<double>>& dh) {
  constexpr double pi = 3.14159265358979323846;
  FixedTorsionResult r;
  const Model<double> all(links_from_dh(DhConvention::standard, dh), Vec3<double>::Zero());
  VecX<double> beta = lee_configuration(all.dof());
  beta[2] = beta[5] = pi;
  Workspace<double> ws_all(all);
  r.M_all = generalized_inertia(all, ws_all, beta);
  const Model<double> soft = reduced_model(all, {{2, pi}, {5, pi}});
  VecX<double> s(static_cast<Eigen::Index>(r.soft.size()));
  for (std::size_t k = 0; k < r.soft.size(); ++k)
    s[static_cast<Eigen::Index>(k)] = beta[r.soft[k]];
  Workspace<double> ws(soft);
  FixmanWorkspace<double> fx(soft);
  r.M = generalized_inertia(soft, ws, s);
  r.Minv = fixman_inverse_inertia(soft, fx, s);
  return r;
}

// The paper's numbers. T_k^c, rows of the upper 3x4 block (§4.3).
inline const std::array<std::array<double, 12>, 7>& lee_Tc() {
  static const std::array<std::array<double, 12>, 7> t = {{
      {0.334, -0.943, 0, 0.285, 0.943, 0.334, 0, -0.403, 0, 0, 1, 0.634},
      {0.570, 0.091, 0.816, 0.343, 0.266, 0.920, -0.289, 1.875, -0.777, 0.382, 0.5, 0.525},
      {0.940, -0.090, 0.329, 1.241, 0.318, -0.117, -0.941, 1.788, 0.123, 0.989, -0.081, -1.095},
      {-0.968, -0.065, 0.242, 3.093, -0.154, 0.917, -0.369, 1.696, -0.198, -0.395, -0.897, -1.207},
      {-0.268, 0.947, 0.177, 1.821, 0.056, 0.199, -0.978, 2.116, -0.962, -0.253, -0.107, -0.933},
      {-0.674, 0.101, -0.732, 0.821, 0.666, -0.345, -0.662, 2.094, -0.319, -0.933, 0.165, -2.368},
      {-0.782, 0.428, -0.453, -0.415, -0.465, -0.885, -0.032, 3.535, -0.415, 0.186, 0.891, -2.292},
  }};
  return t;
}

// The Appendix's M_poly (amu A^2).
inline Eigen::Matrix<double, 7, 7> lee_M() {
  Eigen::Matrix<double, 7, 7> m;
  m << 870.7768, 54.2187, 161.5036, 234.8087, -176.7587, 16.9382, -1.8702,    //
      54.2187, 434.7277, 58.8923, 157.5614, -93.0816, -41.1893, -10.7686,     //
      161.5036, 58.8923, 189.6189, 103.2236, -79.4282, 53.5038, 20.2896,      //
      234.8087, 157.5614, 103.2236, 163.9448, -113.3383, -13.8750, -10.3724,  //
      -176.7587, -93.0816, -79.4282, -113.3383, 95.9587, 13.0774, 11.6638,    //
      16.9382, -41.1893, 53.5038, -13.8750, 13.0774, 63.0571, 29.1266,        //
      -1.8702, -10.7686, 20.2896, -10.3724, 11.6638, 29.1266, 23.1711;
  return m;
}

// The Appendix's M_poly^-1, printed to four decimals.
inline Eigen::Matrix<double, 7, 7> lee_Minv() {
  Eigen::Matrix<double, 7, 7> m;
  m << 0.0025, 0.0014, 0.0016, -0.0047, 0.0022, -0.0021, -0.0012,  //
      0.0014, 0.0049, 0.0010, -0.0089, -0.0021, 0.0026, -0.0047,   //
      0.0016, 0.0010, 0.0194, -0.0078, 0.0137, -0.0202, -0.0015,   //
      -0.0047, -0.0089, -0.0078, 0.0536, 0.0389, 0.0064, -0.0013,  //
      0.0022, -0.0021, 0.0137, 0.0389, 0.0735, -0.0127, -0.0164,   //
      -0.0021, 0.0026, -0.0202, 0.0064, -0.0127, 0.0629, -0.0510,  //
      -0.0012, -0.0047, -0.0015, -0.0013, -0.0164, -0.0510, 0.1140;
  return m;
}

// The chain of the paper's T_4^c..T_7^c: gamma_4 = -169.5 and gamma_7 = 69.5 deg (the DH
// alpha_4, alpha_7) in place of Table II's 289.5 and 70.5.
inline std::vector<DhLink<double>> lee_printed_frames_chain(std::vector<DhLink<double>> dh) {
  constexpr double deg = 3.14159265358979323846 / 180;
  dh[3].alpha = -169.5 * deg;
  dh[6].alpha = 69.5 * deg;
  return dh;
}

// The unit twists S_i = (z_{i-1}; o_{i-1} x z_{i-1}) of the joints at q, in the DH base frame
// (joint i turns about z_{i-1} through o_{i-1}): a 6 x n matrix.
inline MatX<double> joint_twists(const std::vector<DhLink<double>>& dh, const VecX<double>& q) {
  MatX<double> S(6, q.size());
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  for (Eigen::Index k = 0; k < q.size(); ++k) {
    const Eigen::Vector3d z = T.block<3, 1>(0, 2), o = T.block<3, 1>(0, 3);
    S.col(k) << z, o.cross(z);
    T = T * dh_standard(dh[static_cast<std::size_t>(k)], q[k]);
  }
  return S;
}

// Seven twists in six dimensions are dependent: sum_i lambda_i S_i = 0. lambda spans the null
// space of the 6 x 7 twist matrix (one-dimensional when the twists span R^6), scaled to
// max |lambda_i| = 1. For i <= 7, M_i7 = S_i^T I_7 S_7 with I_7 the last unit's spatial inertia
// alone, so sum_i lambda_i M_i7 = (sum_i lambda_i S_i)^T I_7 S_7 = 0 whatever the units' masses,
// centres and inertias: a property of the chain's axes alone.
inline VecX<double> twist_null_vector(const MatX<double>& S) {
  const Eigen::JacobiSVD<MatX<double>> svd(S, Eigen::ComputeFullV);
  VecX<double> lambda = svd.matrixV().col(S.cols() - 1);
  return lambda / lambda.cwiseAbs().maxCoeff();
}

// A parameter set that gives the Appendix's M_poly to its printed rounding: the chain of the
// printed frames (lee_printed_frames_chain), each unit's mass, centre and principal moments of
// inertia in Lee's axes of its frame (x along the outgoing bond, z normal to the two backbone
// bonds), with no products of inertia in those axes. Masses: C + 3 H for the C_alpha units (the
// methyl group's mass, not C_alpha + H_alpha + CH3), C + O and N + H for the others; the two
// planar units are laminae in their plane (I_zz = I_xx + I_yy, centre at z = 0). The centres and
// moments were fitted to the printed M by least squares (14 numbers for its 28 entries); the
// centres lie within 5e-4 A, the printed T_k^c's rounding, of the centres the paper prints.
struct LeeUnit {
  double mass;
  Eigen::Vector3d centre;   // A, Lee's axes
  Eigen::Vector3d moments;  // I_xx, I_yy, I_zz about the centre, amu A^2, Lee's axes
};

inline std::array<LeeUnit, 3> lee_appendix_units() {
  const double C = 12.0107, N = 14.00674, H = 1.00794, O = 15.9994;
  const double co_xx = 7.2626954, co_yy = 3.1332729, nh_xx = 0.7286558, nh_yy = 0.2266623;
  return {{{C + 3 * H, {-0.2845995, -0.4026008, 0.6338998}, {16.1439099, 14.4210657, 5.1658475}},
           {C + O, {-0.3860006, 0.5877020, 0}, {co_xx, co_yy, co_xx + co_yy}},
           {N + H, {-0.0330017, -0.0591000, 0}, {nh_xx, nh_yy, nh_xx + nh_yy}}}};
}

// The 7-link chain with the units above (C_alpha, C'+O, N+H repeated), through P into the DH
// frames: com = (c_z, -c_y, c_x) and the principal moments reordered (I_zz, I_yy, I_xx).
inline std::vector<DhLink<double>> lee_appendix_chain(const std::vector<DhLink<double>>& dh) {
  std::vector<DhLink<double>> chain = lee_printed_frames_chain(dh);
  const std::array<LeeUnit, 3> units = lee_appendix_units();
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const LeeUnit& u = units[k % 3];
    chain[k].mass = u.mass;
    chain[k].com = Vec3<double>(u.centre.z(), -u.centre.y(), u.centre.x());
    chain[k].inertia = Vec3<double>(u.moments.z(), u.moments.y(), u.moments.x()).asDiagonal();
  }
  return chain;
}

// Largest |T_k^c - paper| over the entries of frame k.
inline double tc_difference(const Eigen::Matrix4d& T, const std::array<double, 12>& paper) {
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      worst = std::max(worst, std::abs(T(i, j) - paper[static_cast<std::size_t>(4 * i + j)]));
  return worst;
}

}  // namespace denoc::reproduce
