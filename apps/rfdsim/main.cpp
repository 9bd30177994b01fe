// rfdsim ROBOT.yaml (--free-fall | --torques TAU.csv) [options]
// Forward dynamics and simulation of serial manipulators (the successor of Saha's RFDSIM).
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/rfdsim.hpp"
#include "cli/run_main.hpp"
#include "denoc/version.hpp"

namespace {

// Each value of --q0 (or of --qd0: `rate`), before it is kept as text: a finite decimal number
// (docs/errors.md), optionally with a unit suffix.
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

// The command line as typed, before it becomes RfdsimOptions.
struct Texts {
  std::vector<std::string> q0, qd0;
  std::string method = "dopri5", algorithm = "udu", coulomb = "regularised", wrench_frame = "base";
  std::string ground;
  bool stats = false;
};

// --free-fall or --torques FILE: the joint forces.
void add_force_options(CLI::App& app, denoc::RfdsimOptions& options) {
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
}

// --t-end, --dt and the initial state (--q0, --qd0).
void add_time_options(CLI::App& app, denoc::RfdsimOptions& options, Texts& texts) {
  app.add_option("--t-end", options.t_end, "Simulated time, s")
      ->default_val(options.t_end)
      ->check(denoc::finite_number());
  app.add_option("--dt", options.dt, "Time between output rows, s")
      ->default_val(options.dt)
      ->check(denoc::finite_number());
  app.add_option("--q0", texts.q0,
                 "Initial joint positions, base to tip (default: the robot file's initial.q):\n"
                 "rad or m, or degrees with a deg suffix on a revolute joint's value\n"
                 "(--q0 0,90deg,0.1); a value beyond 2 pi rad without one is warned about")
      ->delimiter(',')
      ->check(joint_value(false))
      ->option_text("V1,V2,...");
  app.add_option("--qd0", texts.qd0,
                 "Initial joint rates (default: the robot file's initial.qd): rad/s or m/s,\n"
                 "or deg/s with a deg suffix on a revolute joint's value (30deg or 30deg/s)")
      ->delimiter(',')
      ->check(joint_value(true))
      ->option_text("V1,V2,...");
}

// The integrator: tolerances, method and steps.
void add_integrator_options(CLI::App& app, denoc::RfdsimOptions& options, Texts& texts) {
  app.add_option("--rtol", options.integrator.rtol, "Relative error tolerance per step")
      ->default_val(options.integrator.rtol)
      ->check(denoc::finite_number());
  app.add_option("--atol", options.integrator.atol, "Absolute error tolerance per step")
      ->default_val(options.integrator.atol)
      ->check(denoc::finite_number());
  denoc::add_name_option(app, "--method", texts.method, denoc::method_names(),
                         "dopri5 (default: Dormand-Prince 5(4), dense output), cash-karp54 or\n"
                         "fehlberg78 (adaptive), rk4 (classical Runge-Kutta, fixed --step)")
      ->default_val(texts.method);
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
}

// How the equations of motion are solved (--algorithm) and Coulomb friction is simulated.
void add_dynamics_options(CLI::App& app, denoc::RfdsimOptions& options, Texts& texts) {
  denoc::add_name_option(
      app, "--algorithm", texts.algorithm, denoc::algorithm_names(),
      "udu (default)  O(n): I = U D U^T without forming I, Saha (1999, 1997)\n"
      "cholesky       form I (composite bodies) and factor it, O(n^3)\n"
      "gibbs-appell   Mata et al. (2002): Gibbs-Appell bias and inertia matrix\n"
      "               (its Hessian, O(n^2)), then Cholesky, O(n^3)\n"
      "fixman         Lee, Wang and Chirikjian (2007): I qdd = phi by the extended\n"
      "               Fixman theorem, O(n); a chain whose links all have mass,\n"
      "               without rotor inertias")
      ->default_val(texts.algorithm);
  denoc::add_name_option(app, "--coulomb", texts.coulomb, denoc::coulomb_model_names(),
                         "How the drives' Coulomb friction is simulated: regularised (default: Tc\n"
                         "tanh(|qd|/v), smooth; a stuck joint creeps at v atanh(|load|/Tc)) or\n"
                         "stick-slip (exact: joints lock and break away at located events; dopri5)")
      ->option_text("MODEL");
  app.add_option("--coulomb-velocity", options.friction.velocity_scale,
                 "The velocity scale v of the regularised model, rad/s or m/s")
      ->default_val(options.friction.velocity_scale)
      ->check(denoc::finite_number());
}

// Ground contact (docs/legged.md): the points that touch the ground and its law.
void add_contact_options(CLI::App& app, denoc::RfdsimOptions& options, Texts& texts) {
  app.add_option("--contact", options.contacts,
                 "A frame (as --frame takes: a link, a foot on a fixed joint) whose origin\n"
                 "meets the ground, the plane z = 0 of the world (repeatable); adds the\n"
                 "column contact (the ground's springs' energy) after potential")
      ->option_text("FRAME")
      ->allow_extra_args(false);
  app.add_option("--ground", texts.ground,
                 "The ground's stiffness k (N/m), damping c (N s/m), friction coefficient mu\n"
                 "and slip velocity v_s (m/s): normal force k d + c d' at a depth d, never\n"
                 "pulling, and Coulomb friction mu N tanh(|v|/v_s) (default: 1e5,1e3,0.8,0.01)")
      ->option_text("K,C,MU[,V]");
}

// The options' values from their texts, once parsed.
void finish_options(const Texts& texts, denoc::RfdsimOptions& options) {
  if (!options.free_fall && options.torques.empty() && !options.count_operations)
    throw denoc::UsageError("give one of --free-fall or --torques TAU.csv");
  options.q0 = joint_values(texts.q0, false);
  options.qd0 = joint_values(texts.qd0, true);
  options.integrator.method =
      denoc::named_value(denoc::method_names(), texts.method, options.integrator.method);
  options.algorithm =
      denoc::named_value(denoc::algorithm_names(), texts.algorithm, options.algorithm);
  options.friction.coulomb =
      denoc::named_value(denoc::coulomb_model_names(), texts.coulomb, options.friction.coulomb);
  options.wrench_in_tool_frame = texts.wrench_frame == "tool";
  if (!texts.ground.empty()) options.ground = denoc::parse_ground(texts.ground);
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  denoc::RfdsimOptions options;
  Texts texts;
  denoc::BatchFlags batch;
  CLI::App app{
      "rfdsim: forward dynamics and simulation of a serial manipulator: the O(n) UDU^T forward\n"
      "dynamics of Saha (1999), integrated by Runge-Kutta methods (Boost.Odeint).\n"
      "Output: CSV t,q1..qn,qd1..qdn,qdd1..qddn,tau1..taun,kinetic,potential,work,dissipated in\n"
      "SI units at t = 0, dt, 2 dt, ..., t-end, to standard output unless -o is given.",
      "rfdsim"};  // the name --help shows, wherever the binary lies
  denoc::add_robot_options(app, options);
  add_force_options(app, options);
  add_time_options(app, options, texts);
  add_integrator_options(app, options, texts);
  add_dynamics_options(app, options, texts);
  denoc::add_wrench_options(app, options.wrench, texts.wrench_frame);
  denoc::add_frame_option(app, options.frame);
  add_contact_options(app, options, texts);
  denoc::add_output_option(
      app, options.output,
      "Write the CSV to FILE instead of standard output; - is standard output");
  app.add_flag("--stats", texts.stats,
               "Print steps, rejected steps, right-hand-side evaluations and wall time on\n"
               "standard error (and the events located: stick-slip, touch-down, lift-off)");
  auto* count = app.add_flag(
      "--count-operations", options.count_operations,
      "Instead of simulating, count the multiplications, additions, divisions, square\n"
      "roots and sines/cosines of one forward-dynamics evaluation by --algorithm at the\n"
      "initial state (no joint forces; --free-fall/--torques not needed): one CSV\n"
      "header and one row (docs/operation-counts.md)");
  // The counts are of the route alone: what would be silently left out is refused.
  count->excludes("--stats")->excludes("--wrench")->excludes("--wrench-frame")->excludes("--frame");
  count->excludes("--contact")->excludes("--ground");
  app.set_version_flag("--version", "rfdsim " DENOC_VERSION);
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

  denoc::IntegrationStats run_stats;
  return denoc::run_main(
      "rfdsim", app, argc, argv,
      [&] {
        finish_options(texts, options);
        denoc::apply_batch_options(batch, options);
        denoc::run_rfdsim(options, std::cin, std::cout, run_stats);
      },
      [&] {
        if (texts.stats) std::cerr << "rfdsim: " << denoc::format_stats(run_stats) << '\n';
      });
}
