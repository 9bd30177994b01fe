// rfdsim: forward dynamics and simulation of a serial chain (docs/csv.md and docs/command-line.md).
// The executable in apps/rfdsim only parses the command line into RfdsimOptions and calls
// run_rfdsim.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/progress.hpp"
#include "denoc/io/overrides.hpp"
#include "denoc/simulation/simulation.hpp"

namespace denoc {

// A value of --q0 or --qd0 as written: a number and the unit its suffix names. Without a suffix
// it is in SI units (rad or m, per second for --qd0), as the command line always took it; `deg`
// gives degrees (deg/s for --qd0) for a revolute joint, the unit a robot file's angle_unit
// usually is.
struct JointValue {
  enum class Unit { si, deg, rad };
  double value = 0;
  Unit unit = Unit::si;
};

// Parses "90", "90deg", "1.5rad" (the number as a CSV field, docs/errors.md), and for a rate
// (`rate`) also "30deg/s" and "2rad/s"; false if `text` is none of these.
bool parse_joint_value(std::string_view text, bool rate, JointValue& value);

struct RfdsimOptions {
  std::string robot;  // robot YAML
  bool free_fall = false;
  std::string torques;  // t,tau1..taun CSV, "-" for standard input (when not free_fall)
  double t_end = 10;    // s
  double dt = 0.01;     // s, between output rows
  std::optional<std::vector<JointValue>> q0, qd0;  // override the robot file's `initial`
  IntegratorSettings integrator;
  Route algorithm = Route::udu;
  std::vector<Override> overrides;  // --set, applied to the robot file before it is checked
  ProgressMode progress = ProgressMode::automatic;  // on standard error (--progress, --quiet)
  std::string output;                               // CSV path, empty or "-" for standard output
  FrictionSettings friction;  // --coulomb, --coulomb-velocity (docs/robot-file.md)
  std::string wrench;         // --wrench FILE: t,fx,fy,fz,nx,ny,nz on the tool (docs/robot-file.md)
  bool wrench_in_tool_frame = false;  // --wrench-frame tool (default: base)
  std::string frame;                  // --frame LINK: where --wrench acts (empty: the tool frame)
  std::vector<std::string> contacts;  // --contact FRAME: points on the ground (docs/legged.md)
  GroundSettings ground;              // --ground k,c,mu[,v_s]
  std::string base_link,
      tip_link;  // URDF: the chain's ends (docs/urdf.md); empty = root / only leaf
  std::string inertia_checks = "strict";  // URDF: --inertia-checks strict|warn (docs/robot-file.md)
  bool floating_base = false;             // URDF: --floating-base (docs/floating-base.md)
  // --count-operations: instead of a simulation, the operations of one forward-dynamics
  // evaluation at the initial state with no joint forces (engine/count_quantity.hpp)
  bool count_operations = false;
};

// The names accepted by --algorithm (--method and --coulomb: simulation.hpp).
const std::vector<std::pair<std::string, Route>>& algorithm_names();

// Runs rfdsim. A revolute joint's --q0 value beyond 2 pi without a suffix is taken as radians
// with a warning on standard error (degrees were probably meant). Throws InputError for bad input
// (nothing is written before the robot file, the options and the torque file's header and first row
// are accepted) and RunError when the integration fails; in both cases the rows already computed
// stay in the output. `stats` holds the integrator's counts however the run ends.
void run_rfdsim(const RfdsimOptions& options, std::istream& standard_input,
                std::ostream& standard_output, IntegrationStats& stats);

// One line for --stats: steps, rejections, right-hand-side evaluations, wall time, and the events
// located (stick-slip, touch-down and lift-off).
std::string format_stats(const IntegrationStats& stats);

// --ground's value "k,c,mu[,v_s]" (numbers >= 0, v_s > 0, docs/legged.md); InputError naming it
// otherwise, the settings not given at their defaults.
GroundSettings parse_ground(const std::string& text);

}  // namespace denoc
