// ridim: joint forces, the inertia matrix and friends along a trajectory (spec §2-§4). The
// executable in apps/ridim only parses the command line into RidimOptions and calls run_ridim.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace denoc {

enum class Quantity { torques, mass_matrix, inverse_mass_matrix, bias, gravity };

struct RidimOptions {
  std::string robot;       // robot YAML
  std::string trajectory;  // CSV path, "-" for standard input, empty for the robot's block
  std::string output;      // CSV path, empty for standard output
  Quantity quantity = Quantity::torques;
  std::string base_link, tip_link;  // URDF: the chain's ends (spec §8); empty = root / only leaf
  // --export PATH [--dh standard|modified]: write the model as loaded and compute nothing
  // (README, "Export"); export_dh empty = the robot file's own convention (standard for URDF).
  std::string export_path;
  std::string export_dh;
  bool describe = false;  // --describe: print what was understood of the robot file (README)
};

// The names accepted by --quantity, and the Quantity each selects.
const std::vector<std::pair<std::string, Quantity>>& quantity_names();

// Runs ridim; throws InputError for bad input (nothing is written before the robot file and
// the trajectory header are accepted; rows written before a bad row stay in the output).
void run_ridim(const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output);

}  // namespace denoc
