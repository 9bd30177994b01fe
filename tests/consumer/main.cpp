// A program of another project, built against the installed package (also with its own
// -march=x86-64-v3 or AddressSanitizer, tests/consumer/run.cmake). It checks, against closed forms:
//  - the planar arm's holding torque of joint 1 at q = 0, from its robot YAML;
//  - a URDF tree on a floating base, at rest: the base's weight m g is its vertical wrench, the
//    inertia matrix's base block holds the robot's mass, and the forward dynamics of those forces
//    gives back zero accelerations;
//  - that a q of the wrong length is refused by name, not read past its end.
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/version.hpp"

namespace {

bool near(double a, double b) {
  return std::abs(a - b) < 1e-9 * (1 + std::abs(b));
}

bool planar_arm(const char* path) {
  const denoc::RobotFile robot = denoc::load_robot_file(path);
  denoc::Workspace<double> ws(robot.model);
  const denoc::VecX<double> q = denoc::VecX<double>::Zero(robot.dof());
  const double tau1 = denoc::gravity_forces(robot.model, ws, q)[0];
  // Stretched along +X under gravity -Y: tau1 = g (m1 a1/2 + m2 (a1 + a2/2) + m3 (a1 + a2 + a3/2)).
  const double expected = 9.81 * (4 * 0.2 + 3 * (0.4 + 0.15) + 2 * (0.4 + 0.3 + 0.1));
  std::printf("denoc %s: tau1 = %.12g N m (closed form %.12g)\n", DENOC_VERSION, tau1, expected);
  return near(tau1, expected);
}

bool floating_tree(const char* path) {
  denoc::ChainSelection selection;
  selection.floating_base = true;
  denoc::Dynamics<double> dynamics(denoc::load_robot_file(path, {}, selection).model);
  const denoc::Model<double>& model = dynamics.model();
  denoc::VecX<double> q = denoc::VecX<double>::Zero(model.nq());
  q[6] = 1;  // the base's unit quaternion (x, y, z, w), unturned
  const denoc::VecX<double> v = denoc::VecX<double>::Zero(model.nv());
  const denoc::Route route = denoc::Route::denoc;
  const denoc::VecX<double> tau = denoc::inverse_dynamics(route, dynamics, q, v, v);
  const double weight = tau[2];  // [f; n] on the base, then the joints
  const double mass = denoc::generalized_inertia(route, dynamics, q)(0, 0);
  // The forward dynamics of those forces gives back the accelerations, zero.
  const double qdd = denoc::forward_dynamics(denoc::Route::udu, dynamics, q, v, tau).norm();
  std::printf("%s on a floating base: %d joints, m g = %.12g N (m = %.12g kg), |qdd| = %.3g\n",
              path, model.dof(), weight, mass, qdd);
  bool refused = false;
  try {
    denoc::inverse_dynamics(route, dynamics, q.head(3), v, v);
  } catch (const std::invalid_argument& e) {
    std::printf("a short q: %s\n", e.what());
    refused = true;
  }
  return near(weight, mass * 9.81) && mass > 0 && qdd < 1e-9 && refused;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer planar3.yaml solo12.urdf\n");
    return 2;
  }
  const bool planar_ok = planar_arm(argv[1]);
  const bool tree_ok = floating_tree(argv[2]);
  return planar_ok && tree_ok ? 0 : 1;
}
