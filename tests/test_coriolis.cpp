// Saha's (1999) matrix of convective inertia terms C (saha/convective_inertia.hpp) and the U D U^T
// factors as the command line gives them: C qd = h - g, dI/dt - 2 C skew-symmetric, C linear in
// qd, C equal to N^T (M Ndot + Mdot N) formed from the 6n x 6n matrices of Eqs. (16)-(26), rotors
// adding nothing, float against double; the Christoffel-symbol form beside it (docs/coriolis.md);
// U D U^T = I.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "support/coriolis_forms.hpp"
#include "support/random_chains.hpp"

namespace coriolis_test {

using denoc::Mat3;
using denoc::Mat6;
using denoc::MatX;
using denoc::Model;
using denoc::Vec3;
using denoc::VecX;
using denoc::Workspace;
using denoc_test::christoffel_form;
using denoc_test::inertia_at;
using denoc_test::inertia_rate;
using denoc_test::rotational_difference;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

struct Case {
  std::string name;
  Model<double> model;
  VecX<double> q, qd;
};

// Random chains with both DH conventions, mixed, revolute-only and prismatic-only joints, full
// inertia tensors; every other one with drives (rotors and friction).
std::vector<Case> cases(const std::vector<int>& sizes) {
  Generator random(20261125u);
  std::vector<Case> out;
  int k = 0;
  for (denoc::DhConvention convention :
       {denoc::DhConvention::standard, denoc::DhConvention::modified}) {
    for (JointMix mix : {JointMix::mixed, JointMix::revolute, JointMix::prismatic}) {
      for (int n : sizes) {
        const std::string name = "chain " + std::to_string(k) + " (n = " + std::to_string(n) + ")";
        const denoc_test::Chain chain = random.chain(convention, n, mix, name);
        std::vector<denoc::LinkSpec<double>> links = denoc::links_from_dh(convention, chain.dh);
        if (k % 2 == 1) {
          for (denoc::LinkSpec<double>& link : links) {
            link.drive.Jm = random.uniform(1e-5, 1e-3);
            link.drive.G = random.uniform(-80, 80);
            link.drive.B = random.uniform(0, 1e-3);
            link.drive.Tc_pos = random.uniform(0, 0.2);
          }
        }
        out.push_back({name, Model<double>(links, chain.gravity), random.positions(chain),
                       random.vector(n, 2.0)});
        ++k;
      }
    }
  }
  return out;
}

double scale_of(const MatX<double>& m) {
  return std::max(1.0, m.cwiseAbs().maxCoeff());
}

MatX<double> saha_c(const Model<double>& model, const VecX<double>& q, const VecX<double>& qd) {
  Workspace<double> ws(model);
  return denoc::convective_inertia(model, ws, q, qd);
}

VecX<double> bias_less_gravity(const Model<double>& model, const VecX<double>& q,
                               const VecX<double>& qd) {
  Workspace<double> ws(model);
  const VecX<double> h = denoc::bias_forces(model, ws, q, qd);
  return h - denoc::gravity_forces(model, ws, q);
}

TEST(ConvectiveInertia, TimesJointRatesIsBiasLessGravity) {
  for (const Case& c : cases({1, 2, 3, 7, 23, 40})) {
    const VecX<double> expected = bias_less_gravity(c.model, c.q, c.qd);
    const VecX<double> Cqd = saha_c(c.model, c.q, c.qd) * c.qd;
    EXPECT_LT((Cqd - expected).norm(), 1e-12 * std::max(1.0, expected.norm())) << c.name;
  }
}

TEST(ConvectiveInertia, InertiaRateLessTwiceCIsSkewSymmetric) {
  for (const Case& c : cases({1, 2, 3, 7, 12})) {
    const MatX<double> K = inertia_rate(c.model, c.q, c.qd) - 2 * saha_c(c.model, c.q, c.qd);
    EXPECT_LT((K + K.transpose()).cwiseAbs().maxCoeff(), 1e-7 * scale_of(K)) << c.name;
  }
}

TEST(ConvectiveInertia, LinearInJointRates) {
  Generator random(5u);
  for (const Case& c : cases({2, 7, 23})) {
    const VecX<double> other = random.vector(c.model.dof(), 3.0);
    const MatX<double> combined = saha_c(c.model, c.q, 0.7 * c.qd - 1.9 * other);
    const MatX<double> expected =
        0.7 * saha_c(c.model, c.q, c.qd) - 1.9 * saha_c(c.model, c.q, other);
    EXPECT_LT((combined - expected).cwiseAbs().maxCoeff(), 1e-12 * scale_of(expected)) << c.name;
    EXPECT_EQ(saha_c(c.model, c.q, VecX<double>::Zero(c.model.dof())).cwiseAbs().maxCoeff(), 0.0)
        << c.name;
  }
}

// The 6n x 6n matrices of Eqs. (16)-(26), every twist [w_i; v_i] of a mass centre C_i in the
// base frame: N = N_l N_d, Ndot = Ndot_l N_d + N_l Omega N_d, M = diag(I_i, m_i 1) and
// Mdot = diag(w_i x I_i, 0) (Eq. 8). Returns N^T (M Ndot + Mdot N); `inertia` gets N^T M N.
MatX<double> six_n_product(const Model<double>& model, const VecX<double>& q,
                           const VecX<double>& qd, MatX<double>& inertia) {
  const int n = model.dof();
  Workspace<double> ws(model);
  denoc::tool_pose(model, ws, q);                                  // R_i and the origins of J_i
  denoc::forward_recursion(model, ws, qd, VecX<double>::Zero(n));  // t_i in J_i
  std::vector<Vec3<double>> c(n), w(n), v(n);
  MatX<double> N_l = MatX<double>::Zero(6 * n, 6 * n), N_l_rate = N_l, Omega = N_l, M = N_l,
               M_rate = N_l, N_d = MatX<double>::Zero(6 * n, n);
  for (int i = 0; i < n; ++i) {
    const Mat3<double>& R = ws.R_base[i];
    c[i] = ws.o_base[i] + R * model.joint(i).d;
    w[i] = R * denoc::angular(ws.id.t[i]);
    v[i] = R * denoc::linear(ws.id.t[i]);
    N_d.block<3, 1>(6 * i, i) = R * denoc::angular(model.joint(i).p);
    N_d.block<3, 1>(6 * i + 3, i) = R * denoc::linear(model.joint(i).p);
    const Mat3<double> I = R * model.joint(i).M.rotational * R.transpose();
    M.block<3, 3>(6 * i, 6 * i) = I;
    M.block<3, 3>(6 * i + 3, 6 * i + 3) = model.joint(i).M.mass * Mat3<double>::Identity();
    M_rate.block<3, 3>(6 * i, 6 * i) = denoc::cross_matrix(w[i]) * I;
    Omega.block<3, 3>(6 * i, 6 * i) = denoc::cross_matrix(w[i]);
    Omega.block<3, 3>(6 * i + 3, 6 * i + 3) = denoc::cross_matrix(w[i]);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {  // B_ij = [1 0; c_ij x 1, 1], c_ij from C_i to C_j (Eq. 13)
      N_l.block<6, 6>(6 * i, 6 * j) = Mat6<double>::Identity();
      N_l.block<3, 3>(6 * i + 3, 6 * j) = denoc::cross_matrix(Vec3<double>(c[j] - c[i]));
      N_l_rate.block<3, 3>(6 * i + 3, 6 * j) = denoc::cross_matrix(Vec3<double>(v[j] - v[i]));
    }
  }
  const MatX<double> N = N_l * N_d;
  const MatX<double> N_rate = N_l_rate * N_d + N_l * Omega * N_d;  // Eq. (26): Ndot_d = Omega N_d
  inertia = N.transpose() * M * N;
  return N.transpose() * (M * N_rate + M_rate * N);
}

TEST(ConvectiveInertia, EqualsTheSixNByNProduct) {
  for (const Case& c : cases({1, 2, 3, 5})) {
    MatX<double> inertia;
    const MatX<double> expected = six_n_product(c.model, c.q, c.qd, inertia);
    // The reference's own check: its N^T M N is the inertia matrix, less the rotors' diagonal.
    const MatX<double> gim = inertia_at(c.model, c.q);
    MatX<double> rotors = c.model.rotor_inertia().asDiagonal();
    EXPECT_LT((inertia + rotors - gim).cwiseAbs().maxCoeff(), 1e-12 * scale_of(gim)) << c.name;
    const MatX<double> C = saha_c(c.model, c.q, c.qd);
    EXPECT_LT((C - expected).cwiseAbs().maxCoeff(), 1e-12 * scale_of(expected)) << c.name;
  }
}

// The rotors' G^2 Jm enter I as a constant diagonal, so C is the same with and without them;
// friction is not in C. Through the route dispatch, as the command line calls it.
TEST(ConvectiveInertia, DrivesAddNothing) {
  Generator random(11u);
  for (const Case& c : cases({2, 7})) {
    std::vector<denoc::LinkSpec<double>> driven = c.model.links();
    for (denoc::LinkSpec<double>& link : driven) {
      link.drive.Jm = random.uniform(1e-4, 1e-3);
      link.drive.G = random.uniform(20, 100);
      link.drive.B = 0.01;
      link.drive.Tc_pos = 0.3;
      link.drive.Tc_neg = -0.2;
    }
    const Model<double> with_drives(driven, c.model.gravity());
    denoc::Dynamics<double> dynamics(with_drives);
    const MatX<double> C = denoc::convective_inertia(denoc::Route::denoc, dynamics, c.q, c.qd);
    std::vector<denoc::LinkSpec<double>> bare = c.model.links();
    for (denoc::LinkSpec<double>& link : bare)
      link.drive = denoc::Drive<double>();
    EXPECT_EQ(C, saha_c(Model<double>(bare, c.model.gravity()), c.q, c.qd)) << c.name;
    const VecX<double> expected = bias_less_gravity(with_drives, c.q, c.qd);
    EXPECT_LT((C * c.qd - expected).norm(), 1e-12 * std::max(1.0, expected.norm())) << c.name;
    const MatX<double> K = inertia_rate(with_drives, c.q, c.qd) - 2 * C;
    EXPECT_LT((K + K.transpose()).cwiseAbs().maxCoeff(), 1e-7 * scale_of(K)) << c.name;
  }
}

TEST(ConvectiveInertia, OnlyTheDenocRouteComputesIt) {
  const Case c = cases({3}).front();
  denoc::Dynamics<double> dynamics(c.model);
  for (denoc::Route route : {denoc::Route::gibbs_appell, denoc::Route::udu, denoc::Route::fixman,
                             denoc::Route::cholesky}) {
    EXPECT_THROW(denoc::convective_inertia(route, dynamics, c.q, c.qd), std::invalid_argument);
  }
}

TEST(ConvectiveInertia, FloatCloseToDouble) {
  for (const Case& c : cases({2, 7, 23})) {
    const Model<float> model = c.model.cast<float>();
    Workspace<float> ws(model);
    const VecX<float> q = c.q.cast<float>(), qd = c.qd.cast<float>();
    const MatX<double> single = denoc::convective_inertia(model, ws, q, qd).cast<double>();
    const MatX<double> C = saha_c(c.model, c.q, c.qd);
    EXPECT_LT((single - C).cwiseAbs().maxCoeff(), 2e-4 * scale_of(C)) << c.name;
  }
}

// Saha's C and the Christoffel-symbol form C_ch both satisfy C qd = h - g and make dI/dt - 2 C
// skew-symmetric, so their difference is skew-symmetric with qd in its null space. It is not
// zero: Eq. (8) puts the whole gyroscopic term w_k x I_k into C, where C_ch splits it
// symmetrically between the two joint rates; the difference is rotational_difference exactly.
// It vanishes on planar chains (every w_k along the parallel joint axes) and on point masses.
TEST(ConvectiveInertia, ChristoffelFormDiffersByTheLinksRotationalTermsOnly) {
  double largest_difference = 0;
  for (const Case& c : cases({2, 3, 7})) {
    const MatX<double> C = saha_c(c.model, c.q, c.qd);
    const MatX<double> C_ch = christoffel_form(c.model, c.q, c.qd);
    const double scale = scale_of(C);
    const VecX<double> expected = bias_less_gravity(c.model, c.q, c.qd);
    EXPECT_LT((C_ch * c.qd - expected).norm(), 1e-7 * std::max(1.0, expected.norm())) << c.name;
    const MatX<double> K = inertia_rate(c.model, c.q, c.qd) - 2 * C_ch;
    EXPECT_LT((K + K.transpose()).cwiseAbs().maxCoeff(), 1e-7 * scale) << c.name;
    const MatX<double> D = C - C_ch;
    EXPECT_LT((D + D.transpose()).cwiseAbs().maxCoeff(), 1e-7 * scale) << c.name;
    EXPECT_LT((D * c.qd).norm(), 1e-7 * scale) << c.name;
    EXPECT_LT((D - rotational_difference(c.model, c.q, c.qd)).cwiseAbs().maxCoeff(), 1e-7 * scale)
        << c.name;
    largest_difference = std::max(largest_difference, D.cwiseAbs().maxCoeff() / scale);
  }
  EXPECT_GT(largest_difference, 1e-2);
}

TEST(ConvectiveInertia, EqualsTheChristoffelFormOnPlanarChainsAndPointMasses) {
  Generator random(17u);
  for (int variant = 0; variant < 2; ++variant) {
    denoc_test::Chain chain =
        random.chain(denoc::DhConvention::standard, 5, JointMix::mixed, "chain");
    for (denoc::DhLink<double>& link : chain.dh) {
      if (variant == 0) link.alpha = 0;  // every joint axis along the base z axis
      if (variant == 1) link.inertia.setZero();
    }
    const Model<double> model = chain.model();
    const VecX<double> q = random.positions(chain), qd = random.vector(5, 2.0);
    const MatX<double> C = saha_c(model, q, qd);
    EXPECT_LT((C - christoffel_form(model, q, qd)).cwiseAbs().maxCoeff(), 1e-7 * scale_of(C))
        << (variant == 0 ? "planar" : "point masses");
  }
}

TEST(UduFactors, ReproduceTheInertiaMatrix) {
  for (const Case& c : cases({1, 2, 7, 23})) {
    denoc::Dynamics<double> dynamics(c.model);
    const MatX<double> I = denoc::generalized_inertia(denoc::Route::denoc, dynamics, c.q);
    const denoc::UduFactors<double> factors = denoc::udu_factors(denoc::Route::udu, dynamics, c.q);
    const MatX<double>& U = factors.U;
    const VecX<double>& D = factors.d;
    EXPECT_TRUE(U.isUpperTriangular(0.0)) << c.name;
    EXPECT_EQ(U.diagonal(), VecX<double>::Ones(c.model.dof())) << c.name;
    EXPECT_GT(D.minCoeff(), 0) << c.name;
    EXPECT_LT((U * D.asDiagonal() * U.transpose() - I).cwiseAbs().maxCoeff(), 1e-12 * scale_of(I))
        << c.name;
  }
  const Case c = cases({3}).front();
  denoc::Dynamics<double> dynamics(c.model);
  EXPECT_THROW(denoc::udu_factors(denoc::Route::denoc, dynamics, c.q), std::invalid_argument);
}

}  // namespace coriolis_test
