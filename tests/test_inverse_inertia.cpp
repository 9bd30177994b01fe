// The O(n^2) inverse inertia matrix from the U D U^T factors (inverse_inertia_udu) against
// independent routes: the O(n^3) inverse through the Cholesky factor of the formed GIM, the
// GIM itself (X I = 1), and the O(n) forward dynamics in local frames (column k of I^-1 is the
// acceleration that tau = g + e_k produces from rest). Seeded random chains (random_chains.hpp):
// n = 1 to 40 and 100, 300, both DH conventions, mixed joints, full inertia tensors, gravity in
// an odd direction; and the shipped robots.
//
// Residuals are normwise: |A - B|_F / |B|_F. Each test prints its largest residual:
//   [inverse] <name>  max <r>  (tol <t>, <N> cases, worst: <case>)
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/random_chains.hpp"
#include "support/worst_residual.hpp"

namespace inverse_inertia_test {

using denoc::DhConvention;
using denoc::MatX;
using denoc::Model;
using denoc::VecX;
using denoc::Workspace;
using denoc_test::Chain;
using denoc_test::random_chains::Generator;
using denoc_test::random_chains::JointMix;

struct Case {
  std::string name;
  Chain chain;
  VecX<double> q;
};

// n = 1..40 in both conventions (mixed joints, every fifth length all revolute and every seventh
// all prismatic), and 100 and 300 mixed: two states each.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> out;
    Generator gen(20261123u);
    std::vector<int> lengths;
    for (int n = 1; n <= 40; ++n)
      lengths.push_back(n);
    lengths.push_back(100);
    lengths.push_back(300);
    for (DhConvention convention : {DhConvention::standard, DhConvention::modified}) {
      for (int n : lengths) {
        const JointMix mix = n % 5 == 0   ? JointMix::revolute
                             : n % 7 == 0 ? JointMix::prismatic
                                          : JointMix::mixed;
        const std::string name =
            std::string(convention == DhConvention::standard ? "standard" : "modified") +
            " n=" + std::to_string(n) +
            (mix == JointMix::mixed      ? " mixed"
             : mix == JointMix::revolute ? " revolute"
                                         : " prismatic");
        const Chain chain = gen.chain(convention, n, mix, name);
        for (int s = 0; s < 2; ++s)
          out.push_back({name + " state " + std::to_string(s), chain, gen.positions(chain)});
      }
    }
    return out;
  }();
  return all;
}

double normwise(const MatX<double>& a, const MatX<double>& b) {
  return (a - b).norm() / b.norm();
}

using Worst = denoc_test::WorstResidual;

// 1e-10, or eps cond(I) where that is larger: two correct inverses differ by up to about eps
// cond(I) (normwise), and the 300-joint chains reach cond(I) = 5e7, where the two routes differ by
// 1.3e-10 (the U D U^T one is the closer of the two to an extended-precision inverse of I).
double tolerance(const MatX<double>& M) {
  const VecX<double> lambda =
      Eigen::SelfAdjointEigenSolver<MatX<double>>(M, Eigen::EigenvaluesOnly).eigenvalues();
  return std::max(1e-10,
                  std::numeric_limits<double>::epsilon() * lambda.maxCoeff() / lambda.minCoeff());
}

TEST(InverseInertia, AgreesWithTheCholeskyRoute) {
  Worst short_chains("udu vs cholesky, n <= 100"), long_chains("udu vs cholesky, n = 300");
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const MatX<double> cholesky = denoc::inverse_generalized_inertia(model, ws, c.q);
    ASSERT_TRUE(ws.inertia.factored) << c.name;
    const double tol = tolerance(ws.inertia.I);
    (model.dof() <= 100 ? short_chains : long_chains)
        .check(normwise(denoc::inverse_inertia_udu(model, ws, c.q), cholesky), tol, c.name);
  }
}

TEST(InverseInertia, TimesTheInertiaMatrixIsTheIdentity) {
  Worst left("Minv*M=1"), right("M*Minv=1");
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const MatX<double> M = denoc::generalized_inertia(model, ws, c.q);
    const MatX<double> X = denoc::inverse_inertia_udu(model, ws, c.q);
    const MatX<double> one = MatX<double>::Identity(model.dof(), model.dof());
    const double tol = tolerance(M);
    left.check(normwise(X * M, one), tol, c.name);
    right.check(normwise(M * X, one), tol, c.name);
  }
}

// Exactly symmetric, and every column the O(n) forward dynamics (local frames, one right-hand
// side at a time) of tau = g(q) + e_k from rest: I qdd = tau - g = e_k.
TEST(InverseInertia, SymmetricAndColumnsAreForwardDynamics) {
  Worst columns("Minv e_k=FD(q,0,g+e_k)", 1e-10);
  for (const Case& c : cases()) {
    const Model<double> model = c.chain.model();
    Workspace<double> ws(model);
    const int n = model.dof();
    const MatX<double> X = denoc::inverse_inertia_udu(model, ws, c.q);
    EXPECT_EQ(X, X.transpose()) << c.name;
    const VecX<double> g = denoc::gravity_forces(model, ws, c.q);
    const VecX<double> zero = VecX<double>::Zero(n);
    MatX<double> by_columns(n, n);
    for (int k = 0; k < n; ++k) {
      const VecX<double> tau = g + VecX<double>::Unit(n, k);
      by_columns.col(k) = denoc::forward_dynamics(model, ws, c.q, zero, tau);
    }
    columns.check(normwise(X, by_columns), c.name);
  }
}

// Single precision against double on the same (rounded) model and state, up to 40 joints: the
// normwise difference within 10 eps_float cond_F(I), cond_F(I) = |I|_F |I^-1|_F (measured: 0.65
// eps_float cond_F at most).
TEST(InverseInertia, FloatAgreesWithDouble) {
  Worst udu("float vs double / (eps_float cond_F)", 10);
  for (const Case& c : cases()) {
    if (c.chain.dof() > 40) continue;
    const Model<float> model_f = c.chain.model().cast<float>();
    const Model<double> model = model_f.cast<double>();
    Workspace<float> ws_f(model_f);
    Workspace<double> ws(model);
    const VecX<float> q_f = c.q.cast<float>();
    const VecX<double> q = q_f.cast<double>();
    const MatX<double> X = denoc::inverse_inertia_udu(model, ws, q);
    const double cond = denoc::generalized_inertia(model, ws, q).norm() * X.norm();
    const double error = normwise(denoc::inverse_inertia_udu(model_f, ws_f, q_f).cast<double>(), X);
    udu.check(error / (std::numeric_limits<float>::epsilon() * cond), c.name);
  }
}

TEST(InverseInertia, ShippedRobots) {
  Worst agreement("robots: udu vs cholesky", 1e-12);
  for (const char* file : {"stanford.yaml", "planar3.yaml"}) {
    const denoc::RobotFile robot = denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR "/") + file);
    Workspace<double> ws(robot.model);
    Generator gen(7);
    const Chain as_chain{file, robot.convention, robot.dh, robot.model.gravity()};
    for (int s = 0; s < 5; ++s) {
      const VecX<double> q = gen.positions(as_chain);
      const MatX<double> cholesky = denoc::inverse_generalized_inertia(robot.model, ws, q);
      agreement.check(normwise(denoc::inverse_inertia_udu(robot.model, ws, q), cholesky),
                      std::string(file) + " state " + std::to_string(s));
    }
  }
}

}  // namespace inverse_inertia_test
