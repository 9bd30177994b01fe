// A program of another project, built against the installed package: it reads the planar arm's
// robot file and checks the holding torque of joint 1 at q = 0 against the closed form.
#include <cmath>
#include <cstdio>

#include "denoc/denoc.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/version.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer planar3.yaml\n");
    return 2;
  }
  const denoc::RobotFile robot = denoc::load_robot_file(argv[1]);
  denoc::Workspace<double> ws(robot.model);
  const denoc::VecX<double> q = denoc::VecX<double>::Zero(robot.dof());
  const denoc::VecX<double>& g = denoc::gravity_forces(robot.model, ws, q);
  // Stretched along +X under gravity -Y: tau1 = g (m1 a1/2 + m2 (a1 + a2/2) + m3 (a1 + a2 + a3/2)).
  const double expected = 9.81 * (4 * 0.2 + 3 * (0.4 + 0.15) + 2 * (0.4 + 0.3 + 0.1));
  std::printf("denoc %s: tau1 = %.12g N m (closed form %.12g)\n", DENOC_VERSION, g[0], expected);
  return std::abs(g[0] - expected) < 1e-9 ? 0 : 1;
}
