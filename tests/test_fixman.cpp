// The extended Fixman solve of Lee, Wang and Chirikjian (2007) (src/denoc/lee/) against the
// DeNOC routes: M^-1 b, M^-1 and the forward dynamics on seeded random chains of 1 to 40 joints
// (both DH conventions, mixed revolute and prismatic joints, full inertia tensors, gravity in an
// odd direction), float against double, the shipped robots; and its parts: Eq. (28) against
// central differences of the coordinates of step II, and the premise of Eq. (6) that the soft
// block of H^-1 is the chain's mass matrix.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/random_chains.hpp"
#include "support/worst_residual.hpp"

namespace {

using denoc::DhConvention;
using denoc::FixmanWorkspace;
using denoc::JointType;
using denoc::MatX;
using denoc::Model;
using denoc::Pose34;
using denoc::Vec3;
using denoc::Vec6;
using denoc::VecX;
using denoc::Workspace;
using denoc_test::Chain;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

template <typename Derived>
double max_abs(const Eigen::MatrixBase<Derived>& x) {
  return x.size() == 0 ? 0.0 : static_cast<double>(x.cwiseAbs().maxCoeff());
}

// |a - b|_max / max(|a|_max, |b|_max).
template <typename A, typename B>
double relative(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  const double scale = std::max(max_abs(a), max_abs(b));
  return scale > 0 ? max_abs(a - b) / scale : max_abs(a - b);
}

using Worst = denoc_test::WorstResidual;

struct Case {
  std::string name;
  Chain chain;
  VecX<double> q, qd, tau, b;
};

// Every length from 1 to 40, each convention: a mixed chain, and at a few lengths an
// all-revolute and an all-prismatic one.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> out;
    Generator gen(20261123u);
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      const std::string conv = convention == DhConvention::standard ? "standard" : "modified";
      for (int n = 1; n <= 40; ++n) {
        std::vector<std::pair<JointMix, std::string>> mixes = {{JointMix::mixed, "mixed"}};
        if (n % 7 == 1) {
          mixes.emplace_back(JointMix::revolute, "revolute");
          mixes.emplace_back(JointMix::prismatic, "prismatic");
        }
        for (const auto& [mix, mix_name] : mixes) {
          const std::string name = conv + " n=" + std::to_string(n) + " " + mix_name;
          const Chain chain = gen.chain(convention, n, mix, name);
          out.push_back({name, chain, gen.positions(chain), gen.vector(n, 2.0), gen.vector(n, 20.0),
                         gen.vector(n, 1.0)});
        }
      }
    }
    return out;
  }();
  return all;
}

// x = M^-1 b against the Cholesky factor of the composite-body GIM (Saha 1999, Eq. 24), and the
// residual M x - b.
TEST(Fixman, SolveAgreesWithMassMatrix) {
  Worst agreement("fixman_solve vs LLT(M) solve, rel", 1e-10);
  // A backward-stable solve leaves a residual of order n eps |M| |x|: 1e-12 is about 110 n eps
  // at n = 40. The worst case here measures 9.5e-14 with g++ and 1.9e-13 with clang (-O1, the
  // sanitizer build), which round differently; a wrong solve leaves O(1).
  Worst residual("|M x - b| / (|M| |x|)", 1e-12);
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    ASSERT_TRUE(denoc::fixman_supports(model)) << denoc::fixman_unsupported_reason(model);
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const VecX<double> x_ref = M.llt().solve(c.b);
    const VecX<double> x = denoc::fixman_solve(model, fx, c.q, c.b);
    agreement.check(relative(x, x_ref), c.name);
    residual.check(max_abs(M * x - c.b) / (max_abs(M) * max_abs(x)), c.name);
  }
}

// M^-1 by columns: M^-1 M = 1, and equal to the inverse through the GIM's Cholesky factor.
TEST(Fixman, InverseInertiaIsTheInverse) {
  Worst identity("fixman_inverse_inertia * M - 1, abs", 1e-10);
  Worst agreement("vs inverse_generalized_inertia, rel", 1e-10);
  Worst symmetry("M^-1 symmetric, rel", 1e-12);
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    const int n = c.chain.dof();
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const MatX<double> M_inv_gim = denoc::inverse_generalized_inertia(model, ws, c.q);
    const MatX<double> M_inv = denoc::fixman_inverse_inertia(model, fx, c.q);
    identity.check(max_abs(M_inv * M - MatX<double>::Identity(n, n)), c.name);
    agreement.check(relative(M_inv, M_inv_gim), c.name);
    symmetry.check(relative(M_inv, MatX<double>(M_inv.transpose())), c.name);
  }
}

// qdd from the Fixman solve against the U D U^T route (Saha 1999, §5.2), and inverting the
// inverse dynamics.
TEST(Fixman, ForwardDynamicsAgreesWithUdu) {
  Worst agreement("forward_dynamics_fixman vs udu, rel", 1e-10);
  Worst inverse("tau(q, qd, qdd_fixman) - tau, rel", 1e-11);
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    const VecX<double> qdd_udu = denoc::forward_dynamics(model, ws, c.q, c.qd, c.tau);
    const VecX<double>& result = denoc::forward_dynamics_fixman(model, ws, fx, c.q, c.qd, c.tau);
    EXPECT_EQ(&result, &fx.qdd);
    const VecX<double> qdd = result;
    agreement.check(relative(qdd, qdd_udu), c.name);
    // A backward error: relative to the natural sizes of the terms of tau = M qdd + h (h and
    // |M| |qdd| are far larger than tau on long fast chains, and M qdd cancels within itself).
    const VecX<double> h = denoc::bias_forces(model, ws, c.q, c.qd);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const double scale = std::max({max_abs(c.tau), max_abs(h), max_abs(M) * max_abs(qdd)});
    const VecX<double> tau = denoc::inverse_dynamics(model, ws, c.q, c.qd, qdd);
    inverse.check(max_abs(tau - c.tau) / scale, c.name);
  }
}

// One factorisation serves many right-hand sides (fixman_factor, then fixman_apply), and its
// results do not disturb the DeNOC routes' storage.
TEST(Fixman, FactorOnceApplyMany) {
  Generator gen(5);
  const Chain chain = gen.chain(DhConvention::modified, 9, JointMix::mixed, "n=9");
  const Model<double> model = chain.model();
  Workspace<double> ws(model);
  FixmanWorkspace<double> fx(model);
  const VecX<double> q = gen.positions(chain);
  const MatX<double> M = denoc::generalized_inertia(model, ws, q);
  ASSERT_TRUE(denoc::fixman_factor(model, fx, q));
  for (int k = 0; k < 4; ++k) {
    const VecX<double> b = gen.vector(9, 3.0);
    const VecX<double> x = denoc::fixman_apply(model, fx, b);
    EXPECT_LE(relative(M * x, b), 1e-12);
  }
  EXPECT_EQ(ws.inertia.I, M);  // the DeNOC GIM is still there
}

// Float against double: the model cast to float, the inputs rounded to float and fed to both.
TEST(Fixman, FloatAgreesWithDouble) {
  Worst solve("fixman_solve float vs double, rel", 2e-3);
  Worst dynamics("forward_dynamics_fixman float vs double", 2e-3);
  for (const Case& c : cases()) {
    if (c.chain.dof() > 12) continue;  // float carries cond(M) eps; longer chains lose more
    const Model<double> model = c.chain.model();
    const Model<float> model_f = model.cast<float>();
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    Workspace<float> ws_f(model_f);
    FixmanWorkspace<float> fx_f(model_f);
    const VecX<float> q_f = c.q.cast<float>(), qd_f = c.qd.cast<float>(),
                      tau_f = c.tau.cast<float>(), b_f = c.b.cast<float>();
    const VecX<double> q = q_f.cast<double>(), qd = qd_f.cast<double>(), tau = tau_f.cast<double>(),
                       b = b_f.cast<double>();
    const VecX<double> x = denoc::fixman_solve(model, fx, q, b);
    const VecX<double> x_f = denoc::fixman_solve(model_f, fx_f, q_f, b_f).cast<double>();
    solve.check(relative(x_f, x), c.name);
    const VecX<double> qdd = denoc::forward_dynamics_fixman(model, ws, fx, q, qd, tau);
    const VecX<double> qdd_f =
        denoc::forward_dynamics_fixman(model_f, ws_f, fx_f, q_f, qd_f, tau_f).cast<double>();
    dynamics.check(relative(qdd_f, qdd), c.name);
  }
}

// Step II and Eq. (28): off the constraint (all six coordinates nonzero), the coordinates read
// back from the transform of Eq. (26), and the Lie derivatives of Eq. (28) along each unit twist,
// T~ = T E~_i (Eq. 16), equal central differences of those coordinates along exp(eps E~_i).
TEST(Fixman, LieDerivativesOfScrewCoordinates) {
  Generator gen(28);
  Worst round_trip("q(T(q)) - q, abs", 1e-13);
  Worst derivative("Eq. (28) vs central differences, rel", 1e-8);
  for (int trial = 0; trial < 50; ++trial) {
    Vec6<double> q;
    q << gen.uniform(-1.4, 1.4), gen.uniform(-3, 3), gen.uniform(-3, 3), gen.uniform(-1, 1),
        gen.uniform(-1, 1), gen.uniform(-1, 1);
    const Pose34<double> T = denoc::screw_transform(q);
    const std::string where = "trial " + std::to_string(trial);
    round_trip.check(max_abs(denoc::screw_coordinates(T) - q), where);
    for (int i = 0; i < 6; ++i) {
      const Vec6<double> unit_twist = Vec6<double>::Unit(i);  // e~_i = [w; v]
      const Vec3<double> w = unit_twist.head<3>(), v = unit_twist.tail<3>();
      Pose34<double> Td;  // T E~_i
      Td.R = T.R * denoc::cross_matrix(w);
      Td.p = T.R * v;
      const Vec6<double> analytic = denoc::screw_coordinate_derivatives(T, Td);
      const double h = 1e-6;
      auto moved = [&](double eps) {  // T exp(eps E~_i): a pure rotation or translation
        Pose34<double> step;
        step.R =
            Eigen::AngleAxisd(eps * w.norm(), i < 3 ? w : Vec3<double>::UnitZ()).toRotationMatrix();
        step.p = eps * v;
        return denoc::screw_coordinates(denoc::compose(T, step));
      };
      const Vec6<double> numeric = (moved(h) - moved(-h)) / (2 * h);
      derivative.check(relative(analytic, numeric), where + " direction " + std::to_string(i));
    }
  }
}

// The premise of Eq. (6): H = J_+^-1 I^-1 J_+^-T is the inverse of the free bodies' mass matrix
// G, whose soft block G11 is the chain's M. H is assembled densely from its blocks (small n
// only), inverted, and its soft rows and columns compared with the composite-body GIM.
TEST(Fixman, SoftBlockOfUnconstrainedMassMatrixIsM) {
  Worst soft("G11 = (H^-1)_ss vs GIM, rel", 1e-10);
  Generator gen(6);
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n : {1, 2, 4, 7}) {
      const Chain chain = gen.chain(convention, n, JointMix::mixed, "n=" + std::to_string(n));
      const Model<double> model = chain.model();
      Workspace<double> ws(model);
      FixmanWorkspace<double> fx(model);
      const VecX<double> q = gen.positions(chain);
      ASSERT_TRUE(denoc::fixman_factor(model, fx, q));
      MatX<double> H = MatX<double>::Zero(6 * n, 6 * n);
      for (int k = 0; k < n; ++k) {
        H.block<6, 6>(6 * k, 6 * k) = fx.H_diag[k];
        if (k + 1 < n) {
          H.block<6, 6>(6 * k, 6 * k + 6) = fx.H_upper[k];
          H.block<6, 6>(6 * k + 6, 6 * k) = fx.H_upper[k].transpose();
        }
      }
      const MatX<double> G = H.inverse();
      MatX<double> G11(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          G11(i, j) = G(6 * i, 6 * j);  // row 0 of each joint is its soft coordinate
      const MatX<double> M = denoc::generalized_inertia(model, ws, q);
      soft.check(relative(G11, M),
                 chain.name + (convention == DhConvention::standard ? " std" : " mod"));
    }
  }
}

// Links whose inertia about the mass centre is singular or nearly so (docs/fixman.md, "Point
// masses and thin rods"): twelve rods whose axial moment is a fraction `ratio` of the others.
// Above 1e-2 the free body is inverted whole and the solve loses about 100 eps / ratio (Eq. 20);
// from there down to a rod with no axial moment at all the axis is a null axis of the bordered
// solve, which loses nothing to the ratio.
TEST(Fixman, NearlySingularLinkInertia) {
  auto rods = [](double ratio) {
    std::vector<denoc::DhLink<double>> rows;
    for (int i = 0; i < 12; ++i) {
      denoc::DhLink<double> r;
      r.type = i % 3 == 2 ? JointType::prismatic : JointType::revolute;
      r.a = 0.4, r.b = 0.1, r.alpha = i % 2 ? 1.2 : -0.7, r.mass = 2;
      r.com = Vec3<double>(-0.2, 0.01, 0.02);
      const double across = 2 * 0.4 * 0.4 / 12;
      r.inertia = Vec3<double>(ratio * across, across, across).asDiagonal();
      rows.push_back(r);
    }
    return Model<double>(denoc::links_from_dh(DhConvention::standard, rows));
  };
  const VecX<double> q = VecX<double>::LinSpaced(12, -1, 1.3),
                     b = VecX<double>::LinSpaced(12, 1, -2);
  const double eps = std::numeric_limits<double>::epsilon();
  for (double ratio : {0.3, 0.03, 3e-3, 1e-6, 1e-8, 1e-14, 0.0}) {
    const Model<double> model = rods(ratio);
    EXPECT_TRUE(denoc::fixman_supports(model)) << ratio;
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    EXPECT_EQ(fx.bordered, ratio < 1e-2) << ratio;
    const VecX<double> x_ref = denoc::generalized_inertia(model, ws, q).llt().solve(b);
    const VecX<double> x = denoc::fixman_solve(model, fx, q, b);
    std::printf("[fixman] inertia ratio %.0e: solve rel error %.1e\n", ratio, relative(x, x_ref));
    const double bound = fx.bordered ? 1e-13 : 1e3 * eps / ratio;
    EXPECT_LE(relative(x, x_ref), bound) << ratio;
  }
}

// A random chain whose links are, at random, point masses (no inertia about the mass centre),
// thin rods along a random axis (none about it), or full bodies.
Chain with_degenerate_links(Chain chain, Generator& gen) {
  for (denoc::DhLink<double>& link : chain.dh) {
    const double pick = gen.uniform(0, 1);
    if (pick < 0.4) {
      link.inertia.setZero();
    } else if (pick < 0.8) {
      const Vec3<double> axis = Vec3<double>(gen.normal(), gen.normal(), gen.normal()).normalized();
      const double length = gen.uniform(0.1, 0.9);
      link.inertia = link.mass * length * length / 12 *
                     (denoc::Mat3<double>::Identity() - axis * axis.transpose());
    }
  }
  return chain;
}

// Point masses and thin rods (Lee et al. §2, docs/fixman.md): the bordered solve against the
// Cholesky factor of the composite-body GIM, M^-1 against the inverse GIM and the forward dynamics
// against U D U^T, on random chains of 1 to 30 joints of every kind, both DH conventions, and on
// chains of point masses only.
TEST(Fixman, PointMassesAndThinRods) {
  Worst solve("bordered fixman_solve vs LLT(M), rel", 1e-10);
  Worst residual("|M x - b| / (|M| |x|)", 1e-12);
  Worst inverse("fixman_inverse_inertia * M - 1, abs", 1e-9);
  Worst dynamics("forward_dynamics_fixman vs udu, rel", 1e-10);
  Generator gen(20261125u);
  for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
    for (int n = 1; n <= 30; ++n) {
      for (bool points_only : {false, true}) {
        const std::string name = std::string(points_only ? "points " : "mixed ") +
                                 (convention == DhConvention::standard ? "std" : "mod") +
                                 " n=" + std::to_string(n);
        Chain chain = with_degenerate_links(gen.chain(convention, n, JointMix::mixed, name), gen);
        if (points_only)
          for (denoc::DhLink<double>& link : chain.dh)
            link.inertia.setZero();
        const Model<double> model = chain.model();
        ASSERT_TRUE(denoc::fixman_supports(model)) << denoc::fixman_unsupported_reason(model);
        Workspace<double> ws(model);
        FixmanWorkspace<double> fx(model);
        const VecX<double> q = gen.positions(chain), qd = gen.vector(n, 2.0),
                           tau = gen.vector(n, 20.0), b = gen.vector(n, 1.0);
        const MatX<double> M = denoc::generalized_inertia(model, ws, q);
        const VecX<double> x = denoc::fixman_solve(model, fx, q, b);
        solve.check(relative(x, VecX<double>(M.llt().solve(b))), name);
        residual.check(max_abs(M * x - b) / (max_abs(M) * max_abs(x)), name);
        const MatX<double> M_inv = denoc::fixman_inverse_inertia(model, fx, q);
        inverse.check(max_abs(M_inv * M - MatX<double>::Identity(n, n)), name);
        const VecX<double> qdd_udu = denoc::forward_dynamics(model, ws, q, qd, tau);
        dynamics.check(relative(denoc::forward_dynamics_fixman(model, ws, fx, q, qd, tau), qdd_udu),
                       name);
      }
    }
  }
}

// The bordered solve in float against double, on chains of point masses and rods.
TEST(Fixman, PointMassesFloatAgreesWithDouble) {
  Worst solve("bordered fixman_solve float vs double, rel", 2e-3);
  Generator gen(77);
  for (int n = 1; n <= 12; ++n) {
    const Chain chain = with_degenerate_links(
        gen.chain(DhConvention::modified, n, JointMix::mixed, "n=" + std::to_string(n)), gen);
    const Model<double> model = chain.model();
    const Model<float> model_f = model.cast<float>();
    FixmanWorkspace<double> fx(model);
    FixmanWorkspace<float> fx_f(model_f);
    const VecX<float> q_f = gen.positions(chain).cast<float>(),
                      b_f = gen.vector(n, 1.0).cast<float>();
    const VecX<double> x = denoc::fixman_solve(model, fx, q_f.cast<double>(), b_f.cast<double>());
    solve.check(
        relative(VecX<double>(denoc::fixman_solve(model_f, fx_f, q_f, b_f).cast<double>()), x),
        chain.name);
  }
}

// What the derivation shows cannot work: a chain whose mass matrix is singular (a point mass on
// the axis of its own revolute joint, so that the joint moves no mass). The bordered factor
// finds a vanishing pivot and the routes return NaN, as the DeNOC ones fail their factor.
TEST(Fixman, SingularMassMatrixFailsTheFactor) {
  std::vector<denoc::DhLink<double>> rows(2);
  rows[0].a = 0.5, rows[0].mass = 1, rows[0].com = Vec3<double>(-0.5, 0, 0);
  rows[1].a = 0, rows[1].mass = 1, rows[1].com = Vec3<double>::Zero();  // on joint 2's axis
  const Model<double> model(denoc::links_from_dh(DhConvention::standard, rows));
  FixmanWorkspace<double> fx(model);
  ASSERT_TRUE(fx.bordered);
  const VecX<double> q = VecX<double>::Constant(2, 0.3);
  EXPECT_FALSE(denoc::fixman_factor(model, fx, q));
  EXPECT_TRUE(denoc::fixman_solve(model, fx, q, q).array().isNaN().all());
}

// A massless link (a URDF link without <inertial>) has no free-body mass to invert (Eq. 20): the
// route says so, naming the link, and its factor fails rather than giving a number.
TEST(Fixman, MasslessLinkIsRefused) {
  std::vector<denoc::DhLink<double>> rows(3);
  for (denoc::DhLink<double>& row : rows) {
    row.a = 0.3, row.alpha = 0.8, row.mass = 1, row.com = Vec3<double>(-0.15, 0, 0);
    row.inertia = Vec3<double>(0.01, 0.02, 0.02).asDiagonal();
  }
  rows[1].mass = 0, rows[1].inertia.setZero();
  const Model<double> model(denoc::links_from_dh(DhConvention::standard, rows));
  EXPECT_NE(denoc::fixman_unsupported_reason(model).find("link 2 has no mass"), std::string::npos)
      << denoc::fixman_unsupported_reason(model);
  FixmanWorkspace<double> fx(model);
  const VecX<double> q = VecX<double>::Constant(3, 0.4);
  EXPECT_FALSE(denoc::fixman_factor(model, fx, q));
  EXPECT_TRUE(denoc::fixman_solve(model, fx, q, q).array().isNaN().all());
}

// The shipped robots: the Stanford arm and the planar arm (thin rods, no inertia about their
// axes) agree with the DeNOC routes.
TEST(Fixman, ShippedRobots) {
  for (const char* file : {"/stanford.yaml", "/planar3.yaml"}) {
    const denoc::RobotFile robot = denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + file);
    const Model<double>& model = robot.model;
    ASSERT_TRUE(denoc::fixman_supports(model)) << denoc::fixman_unsupported_reason(model);
    Workspace<double> ws(model);
    FixmanWorkspace<double> fx(model);
    const int n = model.dof();
    for (int s = 0; s < 5; ++s) {
      const VecX<double> q = VecX<double>::LinSpaced(n, -1.0 + 0.3 * s, 1.2 - 0.2 * s);
      const VecX<double> qd = VecX<double>::LinSpaced(n, 0.5, -0.7);
      const VecX<double> tau = VecX<double>::LinSpaced(n, 3.0, -2.0);
      const MatX<double> M_inv = denoc::inverse_generalized_inertia(model, ws, q);
      EXPECT_LE(relative(denoc::fixman_inverse_inertia(model, fx, q), M_inv), 1e-12) << file;
      const VecX<double> qdd = denoc::forward_dynamics(model, ws, q, qd, tau);
      EXPECT_LE(relative(denoc::forward_dynamics_fixman(model, ws, fx, q, qd, tau), qdd), 1e-12)
          << file;
    }
  }
}

}  // namespace
