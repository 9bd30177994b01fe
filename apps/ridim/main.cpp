// ridim ROBOT.yaml [TRAJ.csv | -] [-o OUT.csv] [--quantity NAME]
// Recursive inverse dynamics of serial manipulators (the successor of Saha's RIDIM).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "denoc/apps/ridim.hpp"
#include "denoc/io/errors.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  denoc::RidimOptions options;
  std::string quantity = "torques";
  std::vector<std::string> quantity_names;
  for (const auto& [name, value] : denoc::quantity_names())
    quantity_names.push_back(name);

  CLI::App app{
      "ridim: joint forces (or the inertia matrix, its inverse, the bias or the gravity vector)\n"
      "along a trajectory, by the DeNOC inverse dynamics of Saha (1999).\n"
      "Output: CSV with a header line, SI units, to standard output unless -o is given."};
  app.add_option("robot", options.robot, "Robot file (YAML, see robots/stanford.yaml)")->required();
  app.add_option("trajectory", options.trajectory,
                 "Trajectory CSV t,q1..qn,qd1..qdn,qdd1..qddn in SI units; - reads standard "
                 "input; omitted: the robot file's trajectory block");
  app.add_option("-o,--output", options.output, "Write the CSV to this file");
  app.add_option("-q,--quantity", quantity,
                 "What to compute at each sample: torques (default), mass-matrix,\n"
                 "inverse-mass-matrix, bias (tau with qdd = 0), gravity (tau with qd = qdd = 0),\n"
                 "pose (of the tool frame), jacobian (of the tool frame) or reactions (the\n"
                 "wrench each joint carries)")
      ->check(CLI::IsMember(quantity_names))
      ->option_text("NAME");
  app.add_flag_function(
      "--no-friction", [&](std::int64_t) { options.friction = false; },
      "Leave the drives' viscous and Coulomb friction (B, Tc) out; rotor inertia stays");
  app.add_option("--wrench", options.wrench,
                 "CSV t,fx,fy,fz,nx,ny,nz: the wrench the environment exerts on the tool, at the\n"
                 "tool frame origin; linear between samples, held outside them")
      ->option_text("FILE");
  std::string wrench_frame = "base";
  app.add_option("--wrench-frame", wrench_frame,
                 "base (default) or tool: the frame in which --wrench's vectors are given")
      ->check(CLI::IsMember({"base", "tool"}))
      ->option_text("NAME");
  app.footer(
      "Examples:\n"
      "  ridim robots/stanford.yaml -o stanford_tau.csv\n"
      "  ridim robots/planar3.yaml traj.csv --quantity mass-matrix\n"
      "  generate_traj | ridim robots/planar3.yaml - > tau.csv\n"
      "Exit status: 0 success, 2 bad input or usage, 1 failure while computing.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ridim: " << e.what() << "\nRun 'ridim --help' for usage.\n";
    return 2;
  }
  options.wrench_in_tool_frame = wrench_frame == "tool";
  for (const auto& [name, value] : denoc::quantity_names()) {
    if (name == quantity) options.quantity = value;
  }
  try {
    denoc::run_ridim(options, std::cin, std::cout);
  } catch (const denoc::InputError& e) {
    std::cout.flush();
    std::cerr << "ridim: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "ridim: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
