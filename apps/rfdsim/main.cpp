// rfdsim ROBOT.yaml (--free-fall | --torques TAU.csv) [options]
// Forward dynamics and simulation of serial manipulators (the successor of Saha's RFDSIM).
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "denoc/apps/cli_checks.hpp"
#include "denoc/apps/rfdsim.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/output.hpp"
#include "denoc/version.hpp"

namespace {

template <typename T>
std::map<std::string, T> name_map(const std::vector<std::pair<std::string, T>>& names) {
  return {names.begin(), names.end()};
}

// Each value of --q0 (or of --qd0: `rate`), before it is kept as text: a finite decimal number
// (spec §11), optionally with a unit suffix.
CLI::Validator joint_value(bool rate) {
  return CLI::Validator(
      [rate](std::string& text) {
        denoc::JointValue value;
        if (denoc::parse_joint_value(text, rate, value)) return std::string();
        return "'" + text + "' is not a finite decimal number, optionally followed by " +
               (rate ? "deg or rad (deg/s, rad/s)" : "deg or rad");
      },
      "");
}

std::optional<std::vector<denoc::JointValue>> joint_values(const std::vector<std::string>& texts,
                                                           bool rate) {
  if (texts.empty()) return std::nullopt;
  std::vector<denoc::JointValue> values(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i)
    denoc::parse_joint_value(texts[i], rate, values[i]);  // checked by joint_value
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  denoc::RfdsimOptions options;
  std::vector<std::string> q0, qd0;
  bool stats = false;
  const auto methods = name_map(denoc::method_names());
  const auto algorithms = name_map(denoc::algorithm_names());
  std::string method = "dopri5", algorithm = "udu";

  CLI::App app{
      "rfdsim: forward dynamics and simulation of a serial manipulator: the O(n) UDU^T forward\n"
      "dynamics of Saha (1999), integrated by Runge-Kutta methods (Boost.Odeint).\n"
      "Output: CSV t,q1..qn,qd1..qdn,qdd1..qddn,tau1..taun,kinetic,potential,work,dissipated in\n"
      "SI units at t = 0, dt, 2 dt, ..., t-end, to standard output unless -o is given."};
  app.add_option("robot", options.robot,
                 "Robot file: YAML (see robots/stanford.yaml) or URDF (*.urdf)")
      ->required()
      ->type_name("FILE");
  auto* free_fall =
      app.add_flag("--free-fall", options.free_fall, "No joint forces: motion under gravity alone");
  auto* torques =
      app.add_option(
             "--torques", options.torques,
             "Joint forces, CSV t,tau1..taun in SI units (N m or N; ridim ROBOT --describe\n"
             "prints the header); - reads standard input. Linear between samples, the\n"
             "first held before its time and the last after")
          ->option_text("FILE");
  free_fall->excludes(torques);
  app.add_option("--base", options.base_link,
                 "URDF robot file: the link the chain starts from (default: the root link)")
      ->option_text("LINK");
  app.add_option("--tip", options.tip_link,
                 "URDF robot file: the link the chain ends at, whose frame is the tool frame\n"
                 "(default: the only leaf reached through a moving joint, e.g. tool0 behind\n"
                 "fixed joints). Branches off the chain through moving joints are carried,\n"
                 "locked at 0 or the nearest limit; mimic joints are independent joints (each\n"
                 "named in a warning)")
      ->option_text("LINK");
  app.add_option("--inertia-checks", options.inertia_checks,
                 "URDF robot file: strict (default) or warn, to accept links whose principal\n"
                 "moments break the triangle inequality, as a YAML's inertia_checks: warn")
      ->check(CLI::IsMember({"strict", "warn"}))
      ->option_text("strict|warn");
  app.add_option("--t-end", options.t_end, "Simulated time, s")
      ->default_val(options.t_end)
      ->check(denoc::finite_number());
  app.add_option("--dt", options.dt, "Time between output rows, s")
      ->default_val(options.dt)
      ->check(denoc::finite_number());
  app.add_option("--q0", q0,
                 "Initial joint positions, base to tip (default: the robot file's initial.q):\n"
                 "rad or m, or degrees with a deg suffix on a revolute joint's value\n"
                 "(--q0 0,90deg,0.1); a value beyond 2 pi rad without one is warned about")
      ->delimiter(',')
      ->check(joint_value(false))
      ->option_text("V1,V2,...");
  app.add_option("--qd0", qd0,
                 "Initial joint rates (default: the robot file's initial.qd): rad/s or m/s,\n"
                 "or deg/s with a deg suffix on a revolute joint's value (30deg or 30deg/s)")
      ->delimiter(',')
      ->check(joint_value(true))
      ->option_text("V1,V2,...");
  app.add_option("--rtol", options.integrator.rtol, "Relative error tolerance per step")
      ->default_val(options.integrator.rtol)
      ->check(denoc::finite_number());
  app.add_option("--atol", options.integrator.atol, "Absolute error tolerance per step")
      ->default_val(options.integrator.atol)
      ->check(denoc::finite_number());
  app.add_option("--method", method,
                 "dopri5 (default: Dormand-Prince 5(4), dense output), cash-karp54 or\n"
                 "fehlberg78 (adaptive), rk4 (classical Runge-Kutta, fixed --step)")
      ->check(CLI::IsMember(methods))
      ->default_val(method)
      ->option_text("NAME");
  app.add_option("--step", options.integrator.step,
                 "rk4: the fixed step, s (default: dt); adaptive methods: the first trial\n"
                 "step (default: dt/100)")
      ->check(denoc::finite_number())
      ->option_text("S");
  app.add_option("--min-step", options.integrator.min_step,
                 "Adaptive methods fail (exit 1) if the step falls below this, s\n"
                 "(default: only when it can no longer advance t)")
      ->check(denoc::finite_number())
      ->option_text("S");
  app.add_option("--algorithm", algorithm,
                 "udu (default)  O(n): I = U D U^T without forming I, Saha (1999, 1997)\n"
                 "cholesky       form I (composite bodies) and factor it, O(n^3)\n"
                 "gibbs-appell   Mata et al. (2002): Gibbs-Appell bias and inertia matrix\n"
                 "               (its Hessian, O(n^2)), then Cholesky, O(n^3)\n"
                 "fixman         Lee, Wang and Chirikjian (2007): I qdd = phi by the extended\n"
                 "               Fixman theorem, O(n); needs every link's inertia tensor\n"
                 "               positive definite")
      ->check(CLI::IsMember(algorithms))
      ->default_val(algorithm)
      ->option_text("NAME");
  std::string coulomb = "regularised", wrench_frame = "base";
  app.add_option("--coulomb", coulomb,
                 "How the drives' Coulomb friction is simulated: regularised (default: Tc\n"
                 "tanh(|qd|/v), smooth; a stuck joint creeps at v atanh(|load|/Tc)) or\n"
                 "stick-slip (exact: joints lock and break away at located events; dopri5)")
      ->check(CLI::IsMember({"regularised", "stick-slip"}))
      ->option_text("MODEL");
  app.add_option("--coulomb-velocity", options.friction.velocity_scale,
                 "The velocity scale v of the regularised model, rad/s or m/s")
      ->default_val(options.friction.velocity_scale)
      ->check(denoc::finite_number());
  denoc::add_wrench_options(app, options.wrench, wrench_frame);
  app.add_option("-o,--output", options.output,
                 "Write the CSV to FILE instead of standard output; - is standard output")
      ->check(denoc::non_empty_path())
      ->option_text("FILE");
  app.add_flag("--stats", stats,
               "Print steps, rejected steps, right-hand-side evaluations and wall time on\n"
               "standard error (and the stick-slip events)");
  app.set_version_flag("--version", "rfdsim " DENOC_VERSION);
  denoc::BatchFlags batch;
  denoc::add_batch_options(app, batch,
                           "links[2].mass=3.5, links[0].inertia.xx=0.1, initial.q[1]=30");
  app.footer(
      "Examples:\n"
      "  rfdsim robots/planar3.yaml --free-fall -o planar3_fall.csv\n"
      "  rfdsim robots/stanford.yaml --torques tau.csv --t-end 10 --dt 0.01 --stats\n"
      "  rfdsim robots/planar3.yaml --free-fall --q0 30deg,0,0.5 --method rk4 --step 1e-4\n"
      "  rfdsim robots/planar3.yaml --free-fall --set 'links[2].mass=5' --set 'initial.q[0]=30'\n"
      "Exit status: 0 success, 2 bad input or usage, 1 failure while integrating (the rows\n"
      "computed up to then stay in the output).");

  const auto usage_error = [](const std::string& message) {
    std::cerr << "rfdsim: " << message << "\nRun 'rfdsim --help' for usage.\n";
    return 2;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (!options.free_fall && options.torques.empty())
    return usage_error("give one of --free-fall or --torques TAU.csv");
  options.q0 = joint_values(q0, false);
  options.qd0 = joint_values(qd0, true);
  options.integrator.method = methods.at(method);
  options.algorithm = algorithms.at(algorithm);
  if (coulomb == "stick-slip") options.friction.coulomb = denoc::CoulombModel::stick_slip;
  options.wrench_in_tool_frame = wrench_frame == "tool";

  denoc::IntegrationStats run_stats;
  int status = 0;
  denoc::install_stop_signal_handlers("rfdsim");
  try {
    denoc::apply_batch_options(batch, options);
    denoc::run_rfdsim(options, std::cin, std::cout, run_stats);
  } catch (const denoc::Interrupted& e) {
    std::cerr << "rfdsim: " << e.what() << '\n';
    status = 128 + e.signal_number;
  } catch (const denoc::InputError& e) {
    std::cerr << "rfdsim: " << e.what() << '\n';
    status = 2;
  } catch (const std::exception& e) {
    std::cerr << "rfdsim: " << e.what() << '\n';
    status = 1;
  }
  std::cout.flush();
  if (stats) std::cerr << "rfdsim: " << denoc::format_stats(run_stats) << '\n';
  return status;
}
