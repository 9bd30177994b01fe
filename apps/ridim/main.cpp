// ridim ROBOT.yaml [TRAJ.csv | -] [-o OUT.csv] [--quantity NAME]
// Recursive inverse dynamics of serial manipulators (the successor of Saha's RIDIM).
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "denoc/apps/cli_checks.hpp"
#include "denoc/apps/ridim.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/output.hpp"

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
  app.add_option("-o,--output", options.output, "Write the CSV to this file")
      ->check(denoc::non_empty_path());
  app.add_option("-q,--quantity", quantity,
                 "What to compute at each sample: torques (default), mass-matrix,\n"
                 "inverse-mass-matrix, bias (tau with qdd = 0) or gravity (tau with qd = qdd = 0)")
      ->check(CLI::IsMember(quantity_names))
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
  for (const auto& [name, value] : denoc::quantity_names()) {
    if (name == quantity) options.quantity = value;
  }
  denoc::install_stop_signal_handlers();
  try {
    denoc::run_ridim(options, std::cin, std::cout);
  } catch (const denoc::Interrupted& e) {
    std::cerr << "ridim: " << e.what() << '\n';
    return 128 + e.signal_number;
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
