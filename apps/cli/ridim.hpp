// ridim: joint forces, the inertia matrix and friends along a trajectory (docs/csv.md and
// docs/command-line.md). The executable in apps/ridim only parses the command line into
// RidimOptions and calls run_ridim.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/progress.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/engine/routes.hpp"
#include "denoc/io/overrides.hpp"
#include "denoc/model/model.hpp"

namespace denoc {

struct RidimOptions {
  std::string robot;       // robot YAML
  std::string trajectory;  // CSV path, "-" for standard input, empty for the robot's block
  std::string output;      // CSV path, empty or "-" for standard output
  Quantity quantity = Quantity::torques;
  std::optional<Route> algorithm;   // empty: the quantity's default (algorithms_for)
  std::vector<Override> overrides;  // --set, applied to the robot file before it is checked
  ProgressMode progress = ProgressMode::automatic;  // on standard error (--progress, --quiet)
  bool friction = true;  // false: --no-friction, the drives' B and Tc left out (docs/robot-file.md)
  std::string wrench;    // --wrench FILE: t,fx,fy,fz,nx,ny,nz on the tool (docs/robot-file.md)
  bool wrench_in_tool_frame = false;  // --wrench-frame tool (default: base)
  std::string
      frame;  // --frame LINK: where the frame's quantities and --wrench refer (empty: the tool)
  std::optional<BodyFrame<double>> body_frame;  // that frame, resolved by run_ridim
  std::string base_link,
      tip_link;  // URDF: the chain's ends (docs/urdf.md); empty = root / only leaf
  std::string inertia_checks = "strict";  // URDF: --inertia-checks strict|warn (docs/robot-file.md)
  bool floating_base = false;             // URDF: --floating-base (docs/floating-base.md)
  // --export PATH [--dh standard|modified]: write the model as loaded and compute nothing
  // (docs/robot-file.md, "Export"); export_dh empty = the robot file's own convention (standard for
  // URDF).
  std::string export_path;
  std::string export_dh;
  // --describe: print what was understood of the robot file (docs/robot-file.md), to `output` if
  // given
  bool describe = false;
  // --count-operations: instead of the rows, the operations of one evaluation at the first sample
  // (engine/count_quantity.hpp)
  bool count_operations = false;
};

// Runs ridim; throws InputError for bad input (nothing is written before the robot file and
// the trajectory header are accepted; rows written before a bad row stay in the output).
void run_ridim(const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output);

}  // namespace denoc
