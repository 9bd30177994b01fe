// ridim ROBOT.yaml [TRAJ.csv | -] [-o OUT.csv] [--quantity NAME]
// Recursive inverse dynamics of serial manipulators (the successor of Saha's RIDIM).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <string>

#include "cli/options.hpp"
#include "cli/ridim.hpp"
#include "cli/run_main.hpp"
#include "denoc/version.hpp"

namespace {

// --describe and --export compute nothing, so an option that says what to compute or along which
// trajectory would be ignored: refused (exit 2) rather than dropped without a word. The model
// options (--set, --base, --tip, --inertia-checks) apply, and so does -o to --describe's text.
std::string ignored_option(const CLI::App& app, const denoc::RidimOptions& options) {
  if (!options.describe && options.export_path.empty()) return "";
  const std::string nothing =
      options.describe
          ? "--describe computes nothing (it prints the robot file as understood)"
          : "--export computes nothing (it writes the model to " + options.export_path + ")";
  if (app.count("trajectory") > 0) {
    return nothing + ", so the trajectory " + options.trajectory +
           " would not be read; drop one of them";
  }
  for (const char* name :
       {"--quantity", "--algorithm", "--no-friction", "--wrench", "--wrench-frame", "--frame",
        "--progress", "--quiet", "--count-operations"}) {
    if (app.count(name) > 0)
      return nothing + ", so " + name + " would be ignored; drop one of them";
  }
  if (!options.describe && app.count("--output") > 0)
    return nothing + ", so -o has nothing to write; drop it";
  return "";
}

// --count-operations counts the algorithm alone (engine/count_quantity.hpp): an external wrench
// would not be in the counts, so it is refused rather than silently left out.
std::string ignored_by_count(const CLI::App& app, const denoc::RidimOptions& options) {
  if (!options.count_operations) return "";
  for (const char* name : {"--wrench", "--wrench-frame"}) {
    if (app.count(name) > 0) {
      return std::string("--count-operations counts the route's operations alone, so ") + name +
             " would be ignored; drop one of them";
    }
  }
  return "";
}

// --describe, --export FILE and --dh: the model itself, nothing computed.
void add_model_output_options(CLI::App& app, denoc::RidimOptions& options) {
  app.add_flag("--describe", options.describe,
               "Print what was understood of the robot file (chain, axes, masses, centres, DH\n"
               "table, warnings, the CSV headers it takes) and compute nothing");
  app.add_option("--export", options.export_path,
                 "Write the model as loaded to FILE and compute nothing: a robot YAML (.yaml,\n"
                 "DH table with com and inertia re-expressed) or a URDF (.urdf)")
      ->option_text("FILE");
  app.add_option("--dh", options.export_dh,
                 "With --export to YAML: standard or modified DH (default: the robot file's)")
      ->check(CLI::IsMember({"standard", "modified"}))
      ->option_text("CONVENTION");
}

// What to compute (--quantity), by which route (--algorithm), with or without friction.
void add_computation_options(CLI::App& app, denoc::RidimOptions& options, std::string& quantity,
                             std::string& algorithm) {
  denoc::add_name_option(
      app, "-q,--quantity", quantity, denoc::quantity_names(),
      "What to compute at each sample: torques (default), mass-matrix,\n"
      "inverse-mass-matrix, bias (tau with qdd = 0), gravity (tau with qd = qdd = 0),\n"
      "pose (of the tool frame), jacobian (of the tool frame), reactions (the\n"
      "wrench each joint carries), coriolis (Saha's matrix C of convective inertia\n"
      "terms: C qd = bias - gravity, friction left out), udu (the factors of\n"
      "mass-matrix = U D U^T); in the world frame (docs/legged.md): frame-velocity,\n"
      "frame-acceleration (of the tool frame or --frame), com (the mass, centre of\n"
      "mass and its velocity), com-jacobian, centroidal-momentum, centroidal-matrix;\n"
      "torque-derivatives (d tau/d q, d tau/d qd), acceleration-derivatives (d qdd/d q,\n"
      "d qdd/d qd at the torques that give qdd) (docs/derivatives.md); with loops\n"
      "(docs/loops.md): joint-states (every joint's q, qd, qdd), constraint-forces");
  denoc::add_name_option(
      app, "--algorithm", algorithm, denoc::route_names(),
      "The route; which apply depends on --quantity:\n"
      "torques, bias, gravity, mass-matrix:\n"
      "  denoc (default)  Saha (1999) DeNOC: O(n) recursions, the inertia matrix\n"
      "                   from composite bodies, Eqs. (23b)-(24), O(n^2)\n"
      "  gibbs-appell     Mata et al. (2002) Gibbs-Appell: O(n) inverse dynamics,\n"
      "                   the inertia matrix as the Gibbs function's Hessian, O(n^2)\n"
      "inverse-mass-matrix:\n"
      "  udu (default)    from the U D U^T factors of Saha (1997), O(n^2)\n"
      "  fixman           Lee, Wang and Chirikjian (2007), extended Fixman theorem:\n"
      "                   each column in O(n), O(n^2) in all\n"
      "  cholesky         form the matrix, factor and invert it, O(n^3)\n"
      "coriolis:\n"
      "  denoc (default)  Saha (1999) Eqs. (25)-(29), composite bodies, O(n^2)\n"
      "udu:\n"
      "  udu (default)    Saha (1997) reverse Gaussian elimination, O(n^2)\n"
      "torque-derivatives:\n"
      "  denoc (default)  recursions over the tree (Carpentier, Mansard 2018)\n"
      "acceleration-derivatives:\n"
      "  udu (default)    -M^-1 times those, M^-1 from the U D U^T factors, O(n^3)\n"
      "joint-states, constraint-forces:\n"
      "  denoc (default)  the spanning tree's DeNOC, projected (docs/loops.md)");
  app.add_flag("--count-operations", options.count_operations,
               "Instead of the rows, count the multiplications, additions, divisions, square\n"
               "roots and sines/cosines of one evaluation of --quantity by --algorithm at the\n"
               "first sample: one CSV header and one row (docs/operation-counts.md)");
  app.add_flag_function(
      "--no-friction", [&options](std::int64_t) { options.friction = false; },
      "Leave the drives' viscous and Coulomb friction (B, Tc) out; rotor inertia stays");
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  denoc::RidimOptions options;
  std::string quantity = "torques", algorithm, wrench_frame = "base";
  denoc::BatchFlags batch;
  CLI::App app{
      "ridim: joint forces along a trajectory by the DeNOC inverse dynamics of Saha (1999), or\n"
      "(--quantity) the inertia matrix, its inverse, the bias or gravity forces, the tool's pose\n"
      "or Jacobian, the joint reactions, the matrix of convective inertia terms or the\n"
      "U D U^T factors.\n"
      "Output: CSV with a header line, SI units, to standard output unless -o is given.",
      "ridim"};  // the name --help shows, wherever the binary lies
  denoc::add_robot_options(app, options);
  app.add_option("trajectory", options.trajectory,
                 "Trajectory CSV t,q1..qn,qd1..qdn,qdd1..qddn in SI units (rad or m);\n"
                 "ridim ROBOT --describe prints the header this robot needs. - reads\n"
                 "standard input; omitted: the robot file's trajectory block")
      ->type_name("FILE");
  denoc::add_output_option(app, options.output,
                           "Write the CSV (or --describe's text) to FILE instead of standard "
                           "output;\n- is standard output");
  add_model_output_options(app, options);
  add_computation_options(app, options, quantity, algorithm);
  app.set_version_flag("--version", "ridim " DENOC_VERSION);
  denoc::add_batch_options(app, batch,
                           "links[2].mass=3.5, links[0].inertia.xx=0.1, gravity[2]=-9.80665");
  denoc::add_wrench_options(app, options.wrench, wrench_frame);
  denoc::add_frame_option(app, options.frame);
  app.footer(
      "Examples:\n"
      "  ridim robots/stanford.yaml -o stanford_tau.csv\n"
      "  ridim robots/planar3.yaml traj.csv --quantity mass-matrix\n"
      "  generate_traj | ridim robots/planar3.yaml - > tau.csv\n"
      "  ridim robots/stanford.yaml --set 'links[5].mass=2' --set 'gravity[2]=-1.62'\n"
      "  ridim robots/stanford.yaml --describe\n"
      "Exit status: 0 success, 2 bad input or usage, 1 failure while computing.");

  return denoc::run_main("ridim", app, argc, argv, [&] {
    if (const std::string ignored = ignored_option(app, options); !ignored.empty())
      throw denoc::UsageError(ignored);
    if (const std::string ignored = ignored_by_count(app, options); !ignored.empty())
      throw denoc::UsageError(ignored);
    options.wrench_in_tool_frame = wrench_frame == "tool";
    options.quantity = denoc::named_value(denoc::quantity_names(), quantity, options.quantity);
    options.algorithm = denoc::named_value(denoc::route_names(), algorithm, options.algorithm);
    denoc::apply_batch_options(batch, options);
    denoc::run_ridim(options, std::cin, std::cout);
  });
}
