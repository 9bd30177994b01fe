// The reproductions of scripts/reproduce, computed quickly without plotting: what the papers
// claim of them, or what the suite finds instead (said in each test).
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <sstream>

#include "denoc/io/csv.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/sampled_forces.hpp"
#include "reproduce/lee_puma.hpp"
#include "reproduce/papers.hpp"
#include "reproduce/polypeptide.hpp"
#include "reproduce/puma_line.hpp"

namespace {

using namespace denoc;
using namespace denoc::reproduce;

constexpr std::size_t kUdu = 0, kCholesky = 1, kGibbsAppell = 2, kFixman = 3;

// A rigid body's inertia about its centre, any one: I = tr(S) 1 - S from second moments
// S = R diag(s) R^T, s > 0, with s and a rotation R drawn from `uniform` (positive numbers).
Mat3<double> random_rigid_inertia(std::mt19937& random,
                                  std::uniform_real_distribution<double>& uniform) {
  const Vec3<double> s(uniform(random), uniform(random), uniform(random));
  const Mat3<double> R =
      Eigen::Quaterniond(uniform(random), uniform(random), uniform(random), uniform(random))
          .normalized()
          .toRotationMatrix();
  return R * (s.sum() * Mat3<double>::Identity() - Mat3<double>(s.asDiagonal())) * R.transpose();
}

// Mata et al. (2002) Table 5 claim the CRBA loses most in single precision (largest and mean
// error in qdd_2: ABA 0.4976 / 0.01324, CRBA 1.2922 / 0.2751, GA 0.5340 / 0.008761 rad/s^2).
// The suite finds U D U^T < Gibbs-Appell < Cholesky in both the largest and the mean error, for
// both joints, with the extended Fixman solve as lossy as Cholesky: the CRBA-worst ordering
// holds, but the Gibbs-Appell mean does not fall below the U D U^T one as in the paper (our
// means are ~0.18-0.20 for both, the paper's 0.013 and 0.009).
TEST(ReproduceMataTable5, SinglePrecisionOrdering) {
  const Table5Summary s = table5_summary(table5_steps());
  for (std::size_t j = 0; j < 2; ++j) {
    std::cout << "[table5] joint " << j + 1 << " max / mean: udu " << s.max[kUdu][j] << " / "
              << s.mean[kUdu][j] << ", cholesky " << s.max[kCholesky][j] << " / "
              << s.mean[kCholesky][j] << ", gibbs-appell " << s.max[kGibbsAppell][j] << " / "
              << s.mean[kGibbsAppell][j] << ", fixman " << s.max[kFixman][j] << " / "
              << s.mean[kFixman][j] << "\n";
    EXPECT_LT(s.max[kUdu][j], s.max[kGibbsAppell][j]);
    EXPECT_LT(s.max[kGibbsAppell][j], s.max[kCholesky][j]);
    EXPECT_LT(s.mean[kUdu][j], s.mean[kGibbsAppell][j]);
    EXPECT_LT(s.mean[kGibbsAppell][j], s.mean[kCholesky][j]);
    EXPECT_LT(2 * s.max[kUdu][j], s.max[kFixman][j]);
    // Same order of magnitude as the paper's largest errors (0.50 to 1.29 rad/s^2).
    EXPECT_GT(s.max[kUdu][j], 0.1);
    EXPECT_LT(s.max[kCholesky][j], 5.0);
  }
}

// What Table 5's means could come from, tried: Gauss-Jordan elimination in float on the CRBA's
// and Gibbs-Appell's M and h (the paper's solver) changes the CRBA's errors by less than a
// quarter and leaves Gibbs-Appell's mean at twenty times the paper's 0.008761 rad/s^2; the
// arm's data rounded to float costs 3e-5 rad/s^2 alone. So neither explains the paper's small
// means: the float arithmetic does (docs/papers.md).
TEST(ReproduceMataTable5, GaussJordanAndTheFloatDataDoNotGiveThePapersMeans) {
  const Table5Summary s = table5_summary(table5_steps());
  const std::vector<Table5Variant> variants = table5_variants();
  ASSERT_EQ(variants.size(), 3u);
  const Table5Variant &crba = variants[0], &ga = variants[1], &data = variants[2];
  for (std::size_t j = 0; j < 2; ++j) {
    std::cout << "[table5] joint " << j + 1 << " max / mean: cholesky Gauss-Jordan " << crba.max[j]
              << " / " << crba.mean[j] << ", gibbs-appell Gauss-Jordan " << ga.max[j] << " / "
              << ga.mean[j] << ", float data " << data.max[j] << " / " << data.mean[j] << "\n";
    EXPECT_NEAR(crba.mean[j], s.mean[kCholesky][j], 0.25 * s.mean[kCholesky][j]);
    EXPECT_GT(ga.mean[j], 10 * 0.008761);
    EXPECT_LT(data.max[j], 1e-4);
  }
}

// In double precision the four routes are four different computations of one qdd.
TEST(ReproduceMataTable5, DoublePrecisionRoutesAgree) {
  const std::vector<Table5Step> steps = table5_steps();
  double worst_condition = 0;
  for (const Table5Step& s : steps) {
    worst_condition = std::max(worst_condition, s.condition);
    for (std::size_t r = 1; r < 4; ++r)
      for (std::size_t j = 0; j < 2; ++j) {
        const double scale = std::abs(s.dp[kUdu][0]) + std::abs(s.dp[kUdu][1]);
        EXPECT_NEAR(s.dp[r][j], s.dp[kUdu][j], 1e-10 * scale)
            << route_name(kRoutes[r]) << " at " << s.angle_deg << " deg, joint " << j + 1;
      }
  }
  EXPECT_GT(worst_condition, 1e4);  // badly conditioned indeed (Fig. 2: of order 10^4)
}

// Saha (1999) §6.1, Fig. 6: released from rest stretched along +X, joint 1 first swings
// negative (downwards), by every route (planar3's links are slender rods with I_xx = 0, which the
// extended Fixman method borders: docs/fixman.md).
TEST(ReproduceSaha, Planar3FreeFallStartsWithJointOneNegative) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/planar3.yaml");
  Dynamics<double> dynamics(robot.model);
  const VecX<double> q = robot.initial_q.value(), zero = VecX<double>::Zero(3);
  const VecX<double> qdd_udu = forward_dynamics(Route::udu, dynamics, q, zero, zero);
  for (Route r : forward_dynamics_routes()) {
    const VecX<double> qdd = forward_dynamics(r, dynamics, q, zero, zero);
    EXPECT_LT(qdd[0], -1.0) << route_name(r);
    EXPECT_LT((qdd - qdd_udu).cwiseAbs().maxCoeff(), 1e-12 * qdd_udu.cwiseAbs().maxCoeff())
        << route_name(r);
  }
}

// Lee et al. (2007) §4.3: the mass-centre frames of robots/polyalanine7.yaml at beta_1 = 0,
// beta_i = pi/3. T_1^c..T_3^c match the paper's to its printed precision (5e-4; the C_alpha
// unit's centre to 1.5e-3); T_4^c..T_7^c only with gamma_4 = -169.5 and gamma_7 = 69.5 deg
// instead of Table II's 289.5 and 70.5 (to 2.5e-3: the C_alpha centre's 1.5e-3 carried along).
TEST(ReproduceLeePolypeptide, MassCentreFrames) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  ASSERT_EQ(robot.dof(), 7);
  const PolypeptideResult r = polypeptide_at_lee_configuration(robot);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_LT(tc_difference(r.Tc[k], lee_Tc()[k]), 1.5e-3) << "T_" << k + 1 << "^c";
  EXPECT_GT(tc_difference(r.Tc[3], lee_Tc()[3]), 0.5);  // Table II's gamma_4 is not the paper's

  std::vector<DhLink<double>> dh = robot.dh;
  dh[3].alpha = -169.5 * kPi / 180;
  dh[6].alpha = 69.5 * kPi / 180;
  const PolypeptideResult v = polypeptide_at(dh, lee_configuration(7));
  for (std::size_t k = 0; k < 7; ++k)
    EXPECT_LT(tc_difference(v.Tc[k], lee_Tc()[k]), 2.5e-3) << "T_" << k + 1 << "^c, variant";
}

// The polypeptide inertia matrix of the file's atoms on Table II's chain, which is not the
// Appendix's M_poly: that one was computed on another chain with other masses and inertias
// (PrintedSeventhColumnFitsThePrintedFramesChainOnly and
// AppendixReproducedWithMethylMassAndNoProducts below). Pinned: what the file's atoms give (the
// same digits came from a point-mass computation in Python; InertiaMatrixEqualsTheAtoms below does
// it here), the Fixman inverse times M the identity, and the distance from the Appendix.
TEST(ReproduceLeePolypeptide, InertiaMatrixPinned) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  const PolypeptideResult r = polypeptide_at_lee_configuration(robot);
  EXPECT_NEAR(r.M(0, 0), 1787.619, 1e-3);
  EXPECT_NEAR(r.M(0, 1), -627.838, 1e-3);
  EXPECT_NEAR(r.M(2, 5), 196.775, 1e-3);
  EXPECT_NEAR(r.M(3, 3), 270.405, 1e-3);
  EXPECT_NEAR(r.M(6, 6), 32.150, 1e-3);
  // M^-1 by the extended Fixman method: the C' + O and N + H units are two atoms each, with no
  // inertia about the line through them, which the route borders (docs/fixman.md).
  EXPECT_TRUE((r.M * r.Minv).isApprox(MatX<double>::Identity(7, 7), 1e-12));
  EXPECT_TRUE(r.Minv.isApprox(MatX<double>(r.M.inverse()), 1e-12));
  const double relative = (r.M - lee_M()).norm() / lee_M().norm();
  std::cout << "[polypeptide] ||M - M_Appendix|| / ||M_Appendix|| = " << relative << "\n";
  EXPECT_GT(relative, 0.5);
}

// §4.3's second case, beta_3 = beta_6 = 180 deg held as hard variables: the chain with those two
// joints locked (model/reduced_model.hpp). Its M is the 7-joint chain's M at the same beta with
// the two rows and columns removed, and the extended Fixman method inverts it on the five soft
// variables. The paper prints no matrix for this case.
TEST(ReproduceLeePolypeptide, FixedOmegaTorsionsLeaveFiveSoftVariables) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  const FixedTorsionResult r = polypeptide_fixed_torsions(robot.dh);
  ASSERT_EQ(r.M.rows(), 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      EXPECT_NEAR(r.M(i, j), r.M_all(r.soft[std::size_t(i)], r.soft[std::size_t(j)]), 1e-10)
          << i << "," << j;
  EXPECT_TRUE((r.M * r.Minv).isApprox(MatX<double>::Identity(5, 5), 1e-12));
  // Not the 7 x 7 inverse's rows and columns: holding two joints changes the other five's M^-1.
  const MatX<double> all_inverse = r.M_all.inverse();
  EXPECT_GT(std::abs(r.Minv(0, 0) - all_inverse(0, 0)), 1e-3 * std::abs(r.Minv(0, 0)));
}

// The file's units against their atoms: M = sum over atoms of m J^T J (point masses, each
// atom's velocity from the joint axes), independent of the file's com and inertia entries and
// of the suite's recursions. The atoms are placed as the file's comments say, in Lee's frame of
// each unit, then through P into the DH frame.
TEST(ReproduceLeePolypeptide, InertiaMatrixEqualsTheAtoms) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  const double C = 12.0107, N = 14.00674, H = 1.00794, O = 15.9994, deg = kPi / 180;
  using Atoms = std::vector<std::pair<double, Eigen::Vector3d>>;
  auto incoming = [&](double gamma) {  // unit vector towards the previous atom, Lee's axes
    return Eigen::Vector3d(-std::cos(gamma * deg), std::sin(gamma * deg), 0);
  };
  const Eigen::Vector3d x(1, 0, 0), z(0, 0, 1);
  const Eigen::Vector3d u_in = -(x + incoming(70.5)) / 2;  // the C_alpha tetrahedron
  const Eigen::Vector3d up = z * std::sqrt(1 - u_in.squaredNorm());
  const Eigen::Vector3d bisector = (x + incoming(58.3)).normalized();
  const Atoms c_alpha = {
      {C, Eigen::Vector3d::Zero()}, {C + 3 * H, 1.525 * (u_in + up)}, {H, 1.09 * (u_in - up)}};
  const Atoms carbonyl = {
      {C, Eigen::Vector3d::Zero()},
      {O, 1.231 * Eigen::Vector3d(std::cos(123.3 * deg), std::sin(123.3 * deg), 0)}};
  const Atoms amide = {{N, Eigen::Vector3d::Zero()}, {H, -1.0 * bisector}};
  const Atoms* units[7] = {&c_alpha, &carbonyl, &amide, &c_alpha, &carbonyl, &amide, &c_alpha};

  const VecX<double> q = lee_configuration(7);
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  std::vector<Eigen::Vector3d> axis, origin;  // joint i: z_{i-1} through o_{i-1}
  MatX<double> M = MatX<double>::Zero(7, 7);
  for (int k = 0; k < 7; ++k) {
    axis.push_back(T.block<3, 1>(0, 2));
    origin.push_back(T.block<3, 1>(0, 3));
    T = T * dh_standard(robot.dh[static_cast<std::size_t>(k)], q[k]);
    for (const auto& [m, lee] : *units[k]) {
      const Eigen::Vector3d local(lee.z(), -lee.y(), lee.x());  // P: Lee's axes -> DH axes
      const Eigen::Vector3d p = T.block<3, 3>(0, 0) * local + T.block<3, 1>(0, 3);
      Eigen::Matrix<double, 3, 7> J = Eigen::Matrix<double, 3, 7>::Zero();
      for (int i = 0; i <= k; ++i)
        J.col(i) = axis[static_cast<std::size_t>(i)].cross(p - origin[static_cast<std::size_t>(i)]);
      M += m * J.transpose() * J;
    }
  }
  Workspace<double> ws(robot.model);
  const MatX<double>& gim = generalized_inertia(robot.model, ws, q);
  EXPECT_LT((gim - M).norm(), 1e-9 * M.norm()) << "suite\n" << gim << "\natoms\n" << M;
}

// Which chain the Appendix's M_poly was computed on. Its seventh column is S_i^T I_7 S_7 (i = 1..7,
// I_7 the last unit's spatial inertia), so sum_i lambda_i M_i7 = 0 for the lambda with
// sum_i lambda_i S_i = 0, whatever the units' masses and inertias (checked on random ones). With
// max |lambda_i| = 1, the printed column satisfies the identity of the chain of the printed frames
// (gamma_4 = -169.5 deg) to 4e-5 amu A^2, inside its rounding (5e-5 sum |lambda_i| = 1.5e-4), and
// misses Table II's chain (gamma_4 = 289.5 deg) by 17.1: no mass distribution on Table II's chain
// gives the printed matrix.
TEST(ReproduceLeePolypeptide, PrintedSeventhColumnFitsThePrintedFramesChainOnly) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  const VecX<double> q = lee_configuration(7);
  const std::vector<DhLink<double>> table = robot.dh, printed = lee_printed_frames_chain(robot.dh);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(0.1, 2.0), offset(-1.0, 1.0);
  for (const std::vector<DhLink<double>>* chain : {&table, &printed}) {
    const VecX<double> lambda = twist_null_vector(joint_twists(*chain, q));
    EXPECT_LT((joint_twists(*chain, q) * lambda).norm(), 1e-12);
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<DhLink<double>> inertial = *chain;
      for (DhLink<double>& link : inertial) {  // any masses, centres and inertias
        link.mass = 20 * uniform(random);
        link.com = Vec3<double>(offset(random), offset(random), offset(random));
        link.inertia = random_rigid_inertia(random, uniform);
      }
      const Model<double> model(links_from_dh(DhConvention::standard, inertial),
                                Vec3<double>::Zero());
      Workspace<double> ws(model);
      const MatX<double>& M = generalized_inertia(model, ws, q);
      EXPECT_LT(std::abs(lambda.dot(M.col(6))), 1e-12 * M.norm()) << "trial " << trial;
      EXPECT_GT(M.col(6).norm(), 1.0);  // not zero by being empty
    }
  }
  const Eigen::Matrix<double, 7, 1> column = lee_M().col(6);
  const VecX<double> lambda_printed = twist_null_vector(joint_twists(printed, q));
  const VecX<double> lambda_table = twist_null_vector(joint_twists(table, q));
  const double rounding_printed = 5e-5 * lambda_printed.cwiseAbs().sum();
  const double rounding_table = 5e-5 * lambda_table.cwiseAbs().sum();
  std::cout << "[polypeptide] sum lambda_i M_i7 of the printed M: printed frames' chain "
            << lambda_printed.dot(column) << " (rounding " << rounding_printed << "), Table II's "
            << lambda_table.dot(column) << " (rounding " << rounding_table << ")\n";
  EXPECT_LT(std::abs(lambda_printed.dot(column)), rounding_printed);
  EXPECT_GT(std::abs(lambda_table.dot(column)), 1e4 * rounding_table);
}

// The Appendix reproduced: on the chain of the printed frames, units of mass C + 3 H (C_alpha
// units), C + O and N + H with no products of inertia in Lee's axes give the printed M_poly to its
// rounding (every entry within 5e-5), and their M^-1 (extended Fixman) the printed M_poly^-1 to its
// rounding too: the printed inverse is the printed M's, to four decimals (M_poly M_poly^-1 is I_7
// only to 0.04, the rounding of M^-1). Both departures from §4.3's description are needed: the
// file's atoms with the C_alpha units' mass set to C + 3 H and their products of inertia dropped
// come within 0.32 of every printed entry, the file as it is 295 off, either change alone 11 or
// 295.
TEST(ReproduceLeePolypeptide, AppendixReproducedWithMethylMassAndNoProducts) {
  const RobotFile robot = load_robot_file(DENOC_ROBOTS_DIR "/polyalanine7.yaml");
  const PolypeptideResult r = polypeptide_at(lee_appendix_chain(robot.dh), lee_configuration(7));
  const double dM = (r.M - lee_M()).cwiseAbs().maxCoeff();
  const double dMinv = (r.Minv - lee_Minv()).cwiseAbs().maxCoeff();
  std::cout << "[polypeptide] parameter set of the Appendix: largest |M - M_Appendix| " << dM
            << ", |M^-1 - M^-1_Appendix| " << dMinv << "\n";
  EXPECT_LT(dM, 5e-5);
  EXPECT_LT(dMinv, 5e-5);
  EXPECT_TRUE((r.M * r.Minv).isApprox(MatX<double>::Identity(7, 7), 1e-12));
  for (const LeeUnit& u : lee_appendix_units()) {  // rigid bodies: second moments >= 0
    EXPECT_GT(u.mass, 0);
    const Vec3<double> second = Vec3<double>::Constant(u.moments.sum() / 2) - u.moments;
    EXPECT_GT(second.minCoeff(), -1e-12);
  }
  for (int k = 0; k < 7; ++k)  // the centres where the printed T_k^c put them
    EXPECT_LT(
        tc_difference(r.Tc[static_cast<std::size_t>(k)], lee_Tc()[static_cast<std::size_t>(k)]),
        1e-3)
        << "T_" << k + 1 << "^c";

  const Eigen::Matrix<double, 7, 7> printed_inverse = lee_M().inverse();
  EXPECT_LT((printed_inverse - lee_Minv()).cwiseAbs().maxCoeff(), 5e-5);
  const double identity =
      (lee_M() * lee_Minv() - Eigen::Matrix<double, 7, 7>::Identity()).cwiseAbs().maxCoeff();
  EXPECT_GT(identity, 0.01);
  EXPECT_LT(identity, 0.05);

  // The file's own units, changed in one, the other or both ways, on the same chain.
  const double methyl = 12.0107 + 3 * 1.00794;
  auto largest_difference = [&](bool methyl_mass, bool no_products) {
    std::vector<DhLink<double>> dh = lee_printed_frames_chain(robot.dh);
    for (std::size_t k = 0; k < dh.size(); ++k) {
      if (methyl_mass && k % 3 == 0) dh[k].mass = methyl;
      // Lee's axes are the DH axes permuted with a sign (P): the same products vanish in both.
      if (no_products) dh[k].inertia = Mat3<double>(dh[k].inertia.diagonal().asDiagonal());
    }
    return (polypeptide_at(dh, lee_configuration(7)).M - lee_M()).cwiseAbs().maxCoeff();
  };
  EXPECT_GT(largest_difference(false, false), 250);
  EXPECT_GT(largest_difference(true, false), 10);
  EXPECT_GT(largest_difference(false, true), 250);
  EXPECT_LT(largest_difference(true, true), 0.35);
}

// Lee et al.'s Fig. 3 computation: M x = b by the four solves agree on a long polypeptide
// chain (the timing itself is scripts/reproduce's).
TEST(ReproduceLeeScaling, SolvesAgreeOnAPolypeptideChain) {
  // Table II's backbone repeated, as scripts/make-chain --polypeptide writes it.
  const double b[3] = {1.525, 1.329, 1.458}, gamma[6] = {296.2, 58.3, 289.5, 63.8, 301.7, 70.5};
  std::vector<DhLink<double>> dh(60);
  for (std::size_t i = 0; i < dh.size(); ++i) {
    dh[i].b = i == 0 ? 0 : b[(i - 1) % 3];
    dh[i].alpha = (i == 0 ? 70.5 : gamma[(i - 1) % 6]) * kPi / 180;
    dh[i].mass = 15 + 13 * static_cast<double>(i % 2);
    dh[i].inertia = Vec3<double>(2, 3, 4).asDiagonal();
  }
  const Model<double> chain(links_from_dh(DhConvention::standard, dh));
  const Model<double> model = first_links(chain, 60);
  Dynamics<double> dynamics(model);
  VecX<double> q = VecX<double>::Constant(60, kPi / 3), zero = VecX<double>::Zero(60), x(60);
  q[0] = 0;
  const VecX<double> rhs = VecX<double>::LinSpaced(60, 1, 2);
  const VecX<double> reference = solve_by(Solve::cholesky, dynamics, q, zero, rhs, x);
  const MatX<double> M = generalized_inertia(model, dynamics.denoc(), q);
  EXPECT_LT((M * reference - rhs).norm(), 1e-10 * rhs.norm());
  for (Solve s : kSolves) {
    const VecX<double> got = solve_by(s, dynamics, q, zero, rhs, x);
    EXPECT_TRUE(got.isApprox(reference, 1e-9)) << solve_name(s);
  }
}

}  // namespace

namespace {

// Mata et al. (2002) §5.2 on robots/puma560_akb.yaml (scripts/reproduce's choice), link 1
// given a mass on its axis and cross-axis inertias so that the extended Fixman route applies.
RobotFile puma_akb(bool regularised) {
  std::vector<Override> set;
  if (regularised)
    for (const char* s :
         {"links[0].mass=1", "links[0].inertia.xx=0.35", "links[0].inertia.yy=0.35"})
      set.push_back(parse_override(s));
  return load_robot_file(DENOC_ROBOTS_DIR "/puma560_akb.yaml", set);
}

}  // namespace

// The inverse kinematics keeps the tool on the paper's line with the paper's attitude, at the
// line's velocity; its qd and qdd are the rates of its q (central differences, O(dt^2)).
TEST(ReproduceMataPumaLine, InverseKinematicsFollowsTheLine) {
  const RobotFile robot = puma_akb(false);
  const PumaLine line;
  const LineTrajectory ik = puma_line_ik(robot.model, puma_line_seed(), line, 0.01);
  ASSERT_EQ(ik.t.size(), 501u);
  EXPECT_LT(ik.max_position_error, 1e-12);
  EXPECT_LT(ik.max_orientation_error, 1e-12);
  EXPECT_LT(ik.max_velocity_error, 1e-12);
  // Independently of the IK's own residuals: the pose at the first and last samples.
  Workspace<double> ws(robot.model);
  EXPECT_LT((tool_pose(robot.model, ws, ik.q.front()).p - line.p0).norm(), 1e-12);
  EXPECT_LT((tool_pose(robot.model, ws, ik.q.back()).p - line.p1).norm(), 1e-12);
  EXPECT_LT((ws.tool_pose.R - line.R).norm(), 1e-12);
  double qd_gap = 0, qdd_gap = 0, qd_scale = 0;
  for (std::size_t k = 1; k + 1 < ik.t.size(); ++k) {
    qd_gap =
        std::max(qd_gap, ((ik.q[k + 1] - ik.q[k - 1]) / 0.02 - ik.qd[k]).cwiseAbs().maxCoeff());
    qdd_gap =
        std::max(qdd_gap, ((ik.qd[k + 1] - ik.qd[k - 1]) / 0.02 - ik.qdd[k]).cwiseAbs().maxCoeff());
    qd_scale = std::max(qd_scale, ik.qd[k].cwiseAbs().maxCoeff());
  }
  EXPECT_LT(qd_gap, 1e-5);   // rad/s; qd up to ~0.15 rad/s
  EXPECT_LT(qdd_gap, 1e-5);  // rad/s^2
  EXPECT_GT(qd_scale, 0.05);
}

// Replayed open loop by every forward-dynamics route from torques sampled every 1 ms, the arm
// stays within 1e-5 rad of the inverse kinematics for 2 s and the routes agree to 1e-9 rad; the
// motion is unstable (the error grows more than tenfold from 1 s to 2 s), which is why Table 6's
// errors measure the torques' small errors, not the routes'. The link-1 regularisation changes
// no joint force.
TEST(ReproduceMataPumaLine, EveryRouteReplaysTheLine) {
  const RobotFile plain = puma_akb(false), robot = puma_akb(true);
  const double dt = 1e-3, t_end = 2.0;
  PumaLine line;
  const LineTrajectory ik = puma_line_ik(robot.model, puma_line_seed(), line, dt);
  Workspace<double> ws(robot.model), ws_plain(plain.model);
  std::vector<VecX<double>> tau;
  for (std::size_t k = 0; k < ik.t.size(); ++k) {
    tau.push_back(inverse_dynamics(robot.model, ws, ik.q[k], ik.qd[k], ik.qdd[k]));
    const VecX<double> tau_plain =
        inverse_dynamics(plain.model, ws_plain, ik.q[k], ik.qd[k], ik.qdd[k]);
    ASSERT_LT((tau.back() - tau_plain).cwiseAbs().maxCoeff(), 1e-12) << "t = " << ik.t[k];
  }
  State x0(12);
  for (int j = 0; j < 6; ++j) {
    x0[static_cast<std::size_t>(j)] = ik.q.front()[j];
    x0[static_cast<std::size_t>(j + 6)] = ik.qd.front()[j];
  }
  // The samples as rfdsim --torques reads them: CSV text through its own reader.
  std::ostringstream csv;
  {
    CsvWriter writer(csv);
    writer.header(column_names({"tau"}, 6));
    for (std::size_t k = 0; k < ik.t.size(); ++k)
      writer.row(ik.t[k], tau[k]);
  }
  std::vector<std::vector<VecX<double>>> replay;
  for (Route alg : {Route::udu, Route::cholesky, Route::gibbs_appell, Route::fixman}) {
    std::istringstream samples(csv.str());
    SampledForces forces(samples, "torques", 6);
    ChainDynamics system(robot.model, alg, forces);
    IntegratorSettings settings;
    settings.rtol = settings.atol = 1e-10;
    IntegrationStats stats;
    std::vector<VecX<double>> q;
    integrate(
        system, x0, OutputTimes(t_end, 0.1), settings,
        [&](double, const State& x) { q.push_back(Eigen::Map<const VecX<double>>(x.data(), 6)); },
        stats);
    ASSERT_EQ(q.size(), 21u);
    double err_1s = 0, err_2s = 0;
    for (std::size_t k = 0; k < q.size(); ++k) {
      const double e = (q[k] - ik.q[k * 100]).cwiseAbs().maxCoeff();
      EXPECT_LT(e, 1e-5) << "route " << static_cast<int>(alg) << ", t = " << 0.1 * k;
      if (k == 10) err_1s = e;
      if (k == 20) err_2s = e;
    }
    EXPECT_GT(err_2s, 10 * err_1s);  // open loop, the arm leaves the line exponentially
    replay.push_back(q);
  }
  for (std::size_t r = 1; r < replay.size(); ++r)
    for (std::size_t k = 0; k < replay[0].size(); ++k)
      EXPECT_LT((replay[r][k] - replay[0][k]).cwiseAbs().maxCoeff(), 1e-9)
          << "route " << r << " against udu at t = " << 0.1 * k;
}

// Lee et al. (2007) §4.2: the paper's T_k^c are Table I multiplied in the modified-DH order
// (Rx(beta) Tx(b) Rz(gamma) Tz(c)): the suite's frames of that chain have the paper's
// orientations to its printed three decimals, and its mass centres where the paper puts them.
// Read as standard DH (the Puma's own convention, Rz Tz Tx Rx), the orientations are far off.
TEST(ReproduceLeePuma, PaperFramesAreTableIInModifiedOrder) {
  const RobotFile akb = load_robot_file(DENOC_ROBOTS_DIR "/puma560_akb.yaml");
  const Model<double> lee = lee_puma_geometry(akb.dh);
  Workspace<double> ws(lee);
  const VecX<double> q = VecX<double>::Constant(6, kPi / 3);
  tool_pose(lee, ws, q);
  const auto Tc = lee_puma_Tc();
  for (int k = 0; k < 6; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    const Vec3<double> centre = ws.o_base[kk] + ws.R_base[kk] * lee.joint(k).d;
    EXPECT_LT((ws.R_base[kk] - Tc[kk].leftCols<3>()).cwiseAbs().maxCoeff(), 1.5e-3) << k;
    EXPECT_LT((centre - Tc[kk].col(3)).cwiseAbs().maxCoeff(), 1e-12) << k;
  }
  std::vector<DhLink<double>> rows(6);
  for (std::size_t i = 0; i < 6; ++i) {
    rows[i].alpha = kLeeTableI[i][0] * kPi / 180;
    rows[i].a = kLeeTableI[i][1];
    rows[i].b = kLeeTableI[i][2];
  }
  const Model<double> standard(links_from_dh(DhConvention::standard, rows), Vec3<double>::Zero());
  Workspace<double> ws_s(standard);
  tool_pose(standard, ws_s, q);
  EXPECT_GT((ws_s.R_base[1] - Tc[1].leftCols<3>()).cwiseAbs().maxCoeff(), 0.5);
}

// Lee et al. (2007) Appendix: no parameter set in robots/ reproduces M_puma at gamma_k = pi/3
// (the paper's arm is not the Puma's kinematics, and its inertial values are not printed). The
// suite's matrices are pinned here (see docs/papers.md), and each is the
// inverse of the other.
TEST(ReproduceLeePuma, AppendixNotReproducedPinned) {
  std::vector<Override> no_drives;
  for (int i = 0; i < 6; ++i)
    no_drives.push_back(parse_override("links[" + std::to_string(i) + "].drive.Jm=0"));
  const RobotFile corke = load_robot_file(DENOC_ROBOTS_DIR "/puma560.yaml", no_drives);
  const RobotFile akb = load_robot_file(DENOC_ROBOTS_DIR "/puma560_akb.yaml");
  const Model<double> lee = lee_puma_geometry(akb.dh);
  struct Pin {
    const Model<double>* model;
    double M11, M12, M22, M33, rel_M;
  };
  for (const Pin& pin : {Pin{&corke.model, 1.862512, -0.543806, 1.451127, 0.360296, 0.868473},
                         Pin{&akb.model, 2.509852, 0.675077, 2.698064, 0.314755, 0.673202},
                         Pin{&lee, 8.298927, 2.731967, 1.887288, 0.512312, 0.231551}}) {
    const LeePumaComparison c = compare_with_lee_puma(*pin.model);
    EXPECT_NEAR(c.M(0, 0), pin.M11, 1e-6);
    EXPECT_NEAR(c.M(0, 1), pin.M12, 1e-6);
    EXPECT_NEAR(c.M(1, 1), pin.M22, 1e-6);
    EXPECT_NEAR(c.M(2, 2), pin.M33, 1e-6);
    EXPECT_NEAR(c.rel_M, pin.rel_M, 1e-6);
    EXPECT_GT(c.rel_M, 0.2);  // not the Appendix's matrix
    EXPECT_LT((c.M * c.Minv - MatX<double>::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-9);
  }
  // The Appendix's own pair agrees only to the rounding of M's wrist entries (0.0007, 0.0004).
  const MatX<double> residual = lee_puma_M() * lee_puma_Minv() - MatX<double>::Identity(6, 6);
  EXPECT_GT(residual.cwiseAbs().maxCoeff(), 0.05);
  EXPECT_LT(residual.cwiseAbs().maxCoeff(), 0.2);
}

// Why no parameter set can: on the arm of the printed frames joint 6 turns about joint 5's line
// (Table I's last row has beta = b = c = 0), so M_56 = M_66 for every mass and inertia of link 6,
// and the printed frames agree (their z_5 and z_6 coincide to the printed decimals). The Appendix
// prints M_56 = 0.0002 and M_66 = 0.0004: 2e-4 apart, where two four-decimal entries allow 1e-4.
// The paper's kinetic energy (Eq. 9) is the links' alone, with no rotor to add to M_66 only.
TEST(ReproduceLeePuma, PrintedWristEntriesContradictThePrintedFrames) {
  const RobotFile akb = load_robot_file(DENOC_ROBOTS_DIR "/puma560_akb.yaml");
  std::mt19937 random(5);
  std::uniform_real_distribution<double> uniform(0.1, 2.0);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<DhLink<double>> inertial = akb.dh;
    for (DhLink<double>& link : inertial) {  // any masses and inertias, the frames' centres
      link.mass = uniform(random);
      link.inertia = random_rigid_inertia(random, uniform);
    }
    const Model<double> arm = lee_puma_geometry(inertial);
    const MatX<double> M = compare_with_lee_puma(arm).M;
    EXPECT_NEAR(M(4, 5), M(5, 5), 1e-14 * M.norm()) << "trial " << trial;
    EXPECT_GT(M(5, 5), 0.01);  // not equal by being zero
  }
  const LeePumaWrist wrist = lee_puma_printed_wrist();
  EXPECT_LT(wrist.axis_angle, 1e-3);     // rad: the printed z_5 and z_6 are one axis
  EXPECT_LT(wrist.line_distance, 1e-3);  // m: and one line, to the printed millimetre
  const MatX<double> P = lee_puma_M();
  EXPECT_NEAR(P(5, 5) - P(4, 5), 2e-4, 1e-12);
  EXPECT_GT(P(5, 5) - P(4, 5), 1e-4 + 1e-12);  // beyond the rounding of the two entries
}

// And the fourth column: on the printed frames' arm, with the frames' mass centres, M_24 - M_14 =
// 0.1445 needs sum_k m_k d_k >= 0.33 kg m over links 4-6 (d_k: a centre's distance from axis 4),
// while M_22 = 2.8533 allows at most 0.18: no nonnegative masses and positive semidefinite
// inertias (rotors or not) give the printed M (docs/papers.md).
TEST(ReproduceLeePuma, PrintedFourthColumnNeedsMoreMassThanM22Allows) {
  const LeePumaColumn4 bound = lee_puma_column4_bound();
  EXPECT_LT(bound.axes_1_2_angle, 1e-12);  // the rotational terms cancel exactly
  EXPECT_NEAR(bound.needed, 0.3344, 1e-3);
  EXPECT_NEAR(bound.allowed, 0.1833, 1e-3);
  EXPECT_LT(1.7 * bound.allowed, bound.needed);
}

// With the joint forces a smooth function of t (LineTorques: inverse kinematics and dynamics at
// every time asked), the whole 5 s line replays at rtol = atol = 1e-10 within 1e-2 rad of the
// inverse kinematics by every route, in the same number of evaluations, of the paper's order
// (1089-1122 there, ~1200 here): the evaluations follow the motion, not the route.
TEST(ReproduceMataPumaLine, SmoothForcesReplayTheWholeLine) {
  const RobotFile robot = puma_akb(true);
  const PumaLine line;
  const LineTrajectory ik = puma_line_ik(robot.model, puma_line_seed(), line, 0.01);
  State x0(12);
  for (int j = 0; j < 6; ++j) {
    x0[static_cast<std::size_t>(j)] = ik.q.front()[j];
    x0[static_cast<std::size_t>(j + 6)] = ik.qd.front()[j];
  }
  long evaluations = -1;
  for (Route alg : {Route::udu, Route::cholesky, Route::gibbs_appell, Route::fixman}) {
    LineTorques forces(robot.model, ik, line);
    ChainDynamics system(robot.model, alg, forces);
    IntegratorSettings settings;
    settings.rtol = settings.atol = 1e-10;
    IntegrationStats stats;
    double worst = 0;
    std::size_t k = 0;
    integrate(
        system, x0, OutputTimes(line.T, 0.1), settings,
        [&](double, const State& x) {
          worst = std::max(
              worst,
              (Eigen::Map<const VecX<double>>(x.data(), 6) - ik.q[10 * k++]).cwiseAbs().maxCoeff());
        },
        stats);
    EXPECT_EQ(k, 51u);
    EXPECT_LT(worst, 1e-2) << static_cast<int>(alg);  // 6.4e-3 rad at t = 5 s
    EXPECT_GT(worst, 1e-7) << static_cast<int>(alg);  // the unstable motion amplifies 1e-10
    EXPECT_GT(stats.rhs_evaluations, 500);
    EXPECT_LT(stats.rhs_evaluations, 3000);
    if (evaluations < 0) evaluations = stats.rhs_evaluations;
    EXPECT_EQ(stats.rhs_evaluations, evaluations) << static_cast<int>(alg);
  }
}
