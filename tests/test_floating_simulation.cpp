// Floating bases in motion (docs/floating-base.md), integrated by rfdsim's integrator: a free fall
// keeps the angular momentum about the mass centre, moves the mass centre as a point falling under
// gravity and keeps the energy; the quaternion stays of unit norm; and a lone spinning body
// follows Euler's equations, integrated here on their own by Boost.Odeint.
#include <gtest/gtest.h>

#include <boost/numeric/odeint.hpp>
#include <cmath>

#include "denoc/denoc.hpp"
#include "denoc/simulation/simulation.hpp"
#include "support/floating_bodies.hpp"
#include "support/random_trees.hpp"

namespace floating_simulation_test {

using denoc::Mat3;
using denoc::Model;
using denoc::Transform;
using denoc::Vec3;
using VecX = denoc::VecX<double>;
using denoc_test::TreeGenerator;

// The mass, the mass centre in the world frame, and the system's momentum: its linear momentum
// and its angular momentum about the mass centre, both in the world frame, from the base's rows
// of the inertia matrix (the momentum at the base origin, in the base frame).
struct Momentum {
  double mass;
  Vec3<double> centre, linear, angular;
};

Momentum momentum(const Model<double>& model, denoc::Workspace<double>& ws, const VecX& q,
                  const VecX& v) {
  const denoc::MatX<double> M = denoc::generalized_inertia(model, ws, q);
  const VecX h = M.topRows(6) * v;
  denoc::joint_poses(model, ws);
  const denoc_test::SystemMass system = denoc_test::system_mass(model, ws);
  const Transform<double> base = denoc::base_pose<double>(q);
  const Vec3<double>& c = system.centre;
  const Vec3<double> p = h.head<3>();
  return {system.mass, base * c, base.R * p,
          base.R * (Vec3<double>(h.tail<3>()) - denoc::cross(c, p))};
}

TEST(FloatingSimulation, FreeFallKeepsMomentumEnergyAndTheUnitQuaternion) {
  TreeGenerator gen(81);
  for (denoc::Route route : {denoc::Route::udu, denoc::Route::cholesky}) {
    for (const denoc_test::TreeShape& shape :
         {denoc_test::TreeShape{1, 4, 4}, denoc_test::TreeShape{3, 3, 12}}) {
      const Model<double> model = denoc_test::floating_model(gen, shape);
      const int nq = model.nq(), nv = model.nv();
      denoc::State x(static_cast<std::size_t>(nq + nv), 0.0);
      Eigen::Map<VecX> q0(x.data(), nq), v0(x.data() + nq, nv);
      q0.segment<4>(3) = gen.vector(4, 1).normalized();
      q0.tail(model.dof()) = gen.positions(model);
      v0 = gen.vector(nv, 1.5);
      denoc::Workspace<double> ws(model);
      const Momentum start = momentum(model, ws, q0, v0);
      const double e0 =
          denoc::kinetic_energy(model, ws, q0, v0) + denoc::potential_energy(model, ws, q0);
      const Vec3<double> centre_rate = start.linear / start.mass;
      denoc::ZeroForces forces;
      denoc::ChainDynamics system(model, route, forces);
      denoc::IntegratorSettings settings;
      settings.rtol = settings.atol = 1e-11;
      denoc::IntegrationStats stats;
      double worst_angular = 0, worst_centre = 0, worst_energy = 0, worst_norm = 0;
      denoc::integrate(
          system, x, denoc::OutputTimes(1.0, 0.05), settings,
          [&](double t, const denoc::State& s) {
            const Eigen::Map<const VecX> q(s.data(), nq), v(s.data() + nq, nv);
            const Momentum now = momentum(model, ws, q, v);
            const Vec3<double> falling =
                start.centre + centre_rate * t + model.gravity() * t * t / 2;
            worst_angular = std::max(worst_angular, (now.angular - start.angular).norm());
            worst_centre = std::max(worst_centre, (now.centre - falling).norm());
            const double e =
                denoc::kinetic_energy(model, ws, q, v) + denoc::potential_energy(model, ws, q);
            worst_energy = std::max(worst_energy, std::abs(e - e0));
            worst_norm = std::max(worst_norm, std::abs(q.segment<4>(3).norm() - 1));
          },
          stats);
      const double scale = std::max(1.0, start.angular.norm());
      EXPECT_LT(worst_angular, 1e-8 * scale) << denoc::route_name(route);
      EXPECT_LT(worst_centre, 1e-8) << denoc::route_name(route);
      EXPECT_LT(worst_energy, 1e-8 * std::max(1.0, std::abs(e0))) << denoc::route_name(route);
      EXPECT_LT(worst_norm, 1e-12) << denoc::route_name(route);
    }
  }
}

// A lone rigid body (no joints) spinning with no gravity: its angular velocity in its own frame
// obeys Euler's equations I_C dw/dt = -w x I_C w whatever point of it is the base origin.
TEST(FloatingSimulation, ASpinningBodyPrecessesAsEulersEquationsSay) {
  TreeGenerator gen(82);
  denoc::RigidBody<double> body;
  body.mass = 3;
  body.com = Vec3<double>(0.1, -0.05, 0.2);
  const Mat3<double> turn = gen.rotation();
  body.inertia = turn * Vec3<double>(0.2, 0.5, 0.9).asDiagonal() * turn.transpose();
  const Model<double> model({}, Vec3<double>::Zero(), Transform<double>(), denoc::Payload<double>(),
                            body);
  const Vec3<double> w0(0.3, 2.0, 0.1);  // near the intermediate axis: a strong precession
  denoc::State x(13, 0.0);
  x[6] = 1;  // identity quaternion
  // The origin's velocity for a still mass centre: v = -w x c.
  const Vec3<double> v0 = -denoc::cross(w0, body.com);
  for (int k = 0; k < 3; ++k)
    x[7 + static_cast<std::size_t>(k)] = v0[k], x[10 + static_cast<std::size_t>(k)] = w0[k];

  using Euler = std::array<double, 3>;
  Euler w = {w0.x(), w0.y(), w0.z()};
  const Mat3<double> I = body.inertia, I_inverse = I.inverse();
  auto euler = [&](const Euler& s, Euler& ds, double) {
    const Vec3<double> omega(s[0], s[1], s[2]);
    const Vec3<double> rate = -(I_inverse * denoc::cross(omega, Vec3<double>(I * omega)));
    ds = {rate.x(), rate.y(), rate.z()};
  };
  namespace odeint = boost::numeric::odeint;
  auto stepper = odeint::make_controlled(1e-12, 1e-12, odeint::runge_kutta_dopri5<Euler>());

  denoc::ZeroForces forces;
  denoc::ChainDynamics system(model, denoc::Route::udu, forces);
  denoc::IntegratorSettings settings;
  settings.rtol = settings.atol = 1e-11;
  denoc::IntegrationStats stats;
  double worst = 0, swing = 0, previous_t = 0;
  denoc::integrate(
      system, x, denoc::OutputTimes(10.0, 0.1), settings,
      [&](double t, const denoc::State& s) {
        if (t > previous_t) odeint::integrate_adaptive(stepper, euler, w, previous_t, t, 1e-3);
        previous_t = t;
        const Vec3<double> omega(s[10], s[11], s[12]), reference(w[0], w[1], w[2]);
        worst = std::max(worst, (omega - reference).norm());
        swing = std::max(swing, (omega - w0).norm());
      },
      stats);
  EXPECT_GT(swing, 1.0);  // the angular velocity does precess in the body
  EXPECT_LT(worst, 1e-7);
}

}  // namespace floating_simulation_test
