#include "cli/rfdsim.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/wording.hpp"
#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/count_quantity.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/engine/run_checks.hpp"
#include "denoc/io/base_quaternion.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/output.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/simulation/sampled_forces.hpp"

namespace denoc {

const std::vector<std::pair<std::string, Route>>& algorithm_names() {
  static const std::vector<std::pair<std::string, Route>> names = [] {
    std::vector<std::pair<std::string, Route>> forward;
    for (Route route : forward_dynamics_routes())
      forward.emplace_back(route_name(route), route);
    return forward;
  }();
  return names;
}

bool parse_joint_value(std::string_view text, bool rate, JointValue& value) {
  value.unit = JointValue::Unit::si;
  const auto strip = [&text](std::string_view suffix) {
    if (text.size() < suffix.size() || text.substr(text.size() - suffix.size()) != suffix)
      return false;
    text.remove_suffix(suffix.size());
    return true;
  };
  if ((rate && strip("deg/s")) || strip("deg")) {
    value.unit = JointValue::Unit::deg;
  } else if ((rate && strip("rad/s")) || strip("rad")) {
    value.unit = JointValue::Unit::rad;
  }
  return parse_double(text, value.value);
}

std::string format_stats(const IntegrationStats& stats) {
  char line[256];
  std::snprintf(line, sizeof line,
                "steps %ld, rejected %ld, right-hand-side evaluations %ld, wall time %.3f s",
                stats.steps, stats.rejected, stats.rhs_evaluations, stats.wall_seconds);
  std::string text = line;
  if (stats.events >= 0) text += ", events " + std::to_string(stats.events);
  return text;
}

GroundSettings parse_ground(const std::string& text) {
  const std::string expected = "k,c,mu[,v_s] (N/m, N s/m, the friction coefficient, m/s)";
  GroundSettings ground;
  double* values[4] = {&ground.stiffness, &ground.damping, &ground.friction, &ground.slip_velocity};
  std::size_t start = 0;
  int count = 0;
  for (; count < 4 && start <= text.size(); ++count) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view field(text.data() + start, comma - start);
    double& value = *values[count];
    if (!parse_double(field, value) || !std::isfinite(value) || value < 0 ||
        (count == 3 && value == 0))
      throw InputError("--ground " + text + ": value " + std::to_string(count + 1) + " (" +
                       std::string(field) + ") is not a number " + (count == 3 ? ">" : ">=") +
                       " 0; expected " + expected);
    start = comma + 1;
  }
  if (count < 3 || start <= text.size())
    throw InputError("--ground " + text + ": expected three or four numbers " + expected);
  return ground;
}

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

void check_options(const RfdsimOptions& o) {
  require(o.count_operations || o.free_fall != !o.torques.empty(),
          "give exactly one of --free-fall or --torques FILE");
  require(std::isfinite(o.t_end) && o.t_end >= 0, "--t-end: must be a time >= 0");
  require(std::isfinite(o.dt) && o.dt > 0, "--dt: must be positive");
  const IntegratorSettings& s = o.integrator;
  require(std::isfinite(s.rtol) && s.rtol > 0, "--rtol: must be positive");
  require(std::isfinite(s.atol) && s.atol > 0, "--atol: must be positive");
  require(std::isfinite(s.step) && s.step >= 0, "--step: must be positive");
  require(std::isfinite(s.min_step) && s.min_step >= 0, "--min-step: must be >= 0");
  require(std::isfinite(o.friction.velocity_scale) && o.friction.velocity_scale > 0,
          "--coulomb-velocity: must be positive");
  require(o.friction.coulomb != CoulombModel::stick_slip || s.method == Method::dopri5,
          "--coulomb stick-slip: locates its events on dopri5's dense output; use --method dopri5");
  // docs/errors.md: bounded work, decided before anything runs (and no float-to-integer overflow).
  require(OutputTimes::count(o.t_end, o.dt) <= 1e9,
          "--t-end " + shortest(o.t_end) + " with --dt " + shortest(o.dt) +
              ": more than 10^9 output rows; raise --dt or lower --t-end");
  if (s.method == Method::rk4 && s.step > 0) {
    require(o.t_end / s.step <= 1e12, "--step " + shortest(s.step) + " with --t-end " +
                                          shortest(o.t_end) +
                                          ": more than 10^12 rk4 steps; raise --step");
  }
}

// "joint 2 (j2)" for a URDF, "joint 2 (moving link shoulder)" for a robot YAML that names it.
std::string joint_label(const RobotFile& robot, int i) {
  const auto k = static_cast<std::size_t>(i);
  std::string label = "joint " + std::to_string(i + 1);
  if (k < robot.joint_names.size() && !robot.joint_names[k].empty())
    return label + " (" + robot.joint_names[k] + ")";
  if (k < robot.link_names.size() && !robot.link_names[k].empty())
    return label + " (moving link " + robot.link_names[k] + ")";
  return label;
}

// One value of --q0 (or --qd0: `rate`) in SI units. A prismatic joint has no angle: a suffix is
// an error naming the joint. A revolute position beyond a turn without a suffix is most likely
// in degrees (as the robot file's `initial` usually is): taken as given, and `beyond_a_turn` set
// for the warning. Rates get none: a joint turning faster than 2 pi rad/s is ordinary.
double joint_value_in_si(const JointValue& given, const RobotFile& robot, int i, bool rate,
                         const std::string& option, bool& beyond_a_turn) {
  const bool revolute =
      robot.model.links()[static_cast<std::size_t>(i)].type == JointType::revolute;
  const std::string joint = option + ": " + joint_label(robot, i);
  if (!revolute) {
    require(given.unit == JointValue::Unit::si,
            joint + " is prismatic: its " + (rate ? "rate is in m/s" : "position is in m") +
                "; write " + shortest(given.value) + " without deg or rad");
    return given.value;
  }
  if (given.unit == JointValue::Unit::deg) return given.value * (M_PI / 180);
  beyond_a_turn = !rate && given.unit == JointValue::Unit::si && std::abs(given.value) > 2 * M_PI;
  return given.value;
}

// A floating base's quaternion among the --q0 values, normalised; InputError when its norm differs
// from 1 by more than 1e-6 (docs/floating-base.md).
void normalise_q0_quaternion(Eigen::Ref<VecX<double>> q) {
  const auto fact = normalise_base_quaternion(q.segment<4>(3));
  require(!fact, "--q0: values 4-7: " + fact.value_or(""));
}

// q0 or qd0: the command line's values, else the robot file's, else zero (with a floating base,
// the base at the world origin, unturned and still). The base's values come first, in SI units
// (m, m/s, rad/s), without a suffix. Warnings go to `warnings`.
VecX<double> initial(const std::optional<std::vector<JointValue>>& given, const RobotFile& robot,
                     bool rate, std::vector<std::string>& warnings) {
  if (!given) return robot.initial_state(rate);
  const int n = robot.dof();
  const int size = rate ? robot.model.nv() : robot.model.nq(), base = size - n;
  VecX<double> values(size);
  const std::string option = rate ? "--qd0" : "--q0";
  std::string blocks = std::to_string(size) + " values";
  if (base > 0)
    blocks += " (" + std::to_string(base) + " for the floating base, then " + std::to_string(n) +
              " for the joints)";
  require(static_cast<int>(given->size()) == size,
          option + ": expected " + blocks + ", found " + std::to_string(given->size()));
  std::string beyond;  // "joint 2 (shoulder): 90, ...": the angles beyond a turn, in one warning
  std::string example;
  for (int k = 0; k < size; ++k) {
    const JointValue& v = (*given)[static_cast<std::size_t>(k)];
    require(std::isfinite(v.value),
            option + ": value " + std::to_string(k + 1) + " is not a finite number");
    if (k < base) {
      require(v.unit == JointValue::Unit::si,
              option + ": value " + std::to_string(k + 1) +
                  " is the floating base's, in SI units: write it without deg or rad");
      values[k] = v.value;
      continue;
    }
    bool beyond_a_turn = false;
    values[k] = joint_value_in_si(v, robot, k - base, rate, option, beyond_a_turn);
    if (beyond_a_turn) {
      beyond +=
          (beyond.empty() ? "" : ", ") + joint_label(robot, k - base) + ": " + shortest(v.value);
      if (example.empty()) example = shortest(v.value);
    }
  }
  if (!beyond.empty()) {
    warnings.push_back(option + ": taken as rad, more than a turn: " + beyond + "; write " +
                       example + "deg and so on if degrees were meant");
  }
  if (robot.model.floating() && !rate) normalise_q0_quaternion(values);
  return values;
}

// t, the state and its rates (with a floating base each block starts with the base's columns,
// docs/floating-base.md), the joint forces, the energies.
// With loops (docs/loops.md), the actuated joints' forces only, and the closure error last.
std::vector<std::string> output_header(const RobotFile& robot, bool contact) {
  const Model<double>& model = robot.model;
  std::vector<std::string> names =
      state_columns({"q", "qd", "qdd"}, model.dof(), model.floating()).names;
  for (int i = 0; i < model.dof(); ++i) {
    const auto& actuated = robot.loops.actuated;
    if (!robot.has_loops() || std::count(actuated.begin(), actuated.end(), i) > 0)
      names.push_back("tau" + std::to_string(i + 1));
  }
  names.push_back("kinetic");
  names.push_back("potential");
  if (contact) names.push_back("contact");  // docs/legged.md: the ground's springs
  names.push_back("work");                  // docs/csv.md: integral of the power put in
  names.push_back("dissipated");            // and of the power friction takes out
  if (robot.has_loops()) names.push_back("closure");
  return names;
}

// One row per output time (output_row), the inertia matrix checked first where asked.
class RowWriter {
 public:
  RowWriter(ChainDynamics& system, CsvWriter& csv, const RobotFile& robot)
      : system_(system),
        csv_(csv),
        row_(output_row_size(system)),
        check_positive_definite_(robot) {}

  void operator()(double t, const State& x) {
    check_positive_definite_(t, Eigen::Map<const VecX<double>>(x.data(), system_.model().nq()));
    output_row(system_, t, x, row_);
    csv_.row(t, row_);
  }

 private:
  ChainDynamics& system_;
  CsvWriter& csv_;
  VecX<double> row_;
  PositiveDefiniteCheck check_positive_definite_;
};

// Where --wrench acts: the --frame given, else the tool frame; a tree, or a chain with several
// ends, has no tool frame, so there --wrench needs --frame (docs/trees.md).
std::optional<BodyFrame<double>> wrench_frame(const RfdsimOptions& options,
                                              const RobotFile& robot) {
  return frame_or_tool(robot, options.frame, !options.wrench.empty(), mention(Parameter::wrench));
}

// The frames of --contact (io/frames.hpp): InputError naming one the robot does not have.
std::vector<BodyFrame<double>> contact_points(const RfdsimOptions& options,
                                              const RobotFile& robot) {
  std::vector<BodyFrame<double>> points;
  for (const std::string& name : options.contacts)
    points.push_back(find_frame(robot, name));
  return points;
}

// The robot file with --set applied, its warnings printed, and the options checked against it.
RobotFile load_checked_robot(const RfdsimOptions& options) {
  check_output_is_not_an_input(options.output, {{"the robot file", options.robot},
                                                {"the torque file", options.torques},
                                                {"the wrench file", options.wrench}});
  const RobotFile robot =
      load_robot_file(options.robot, options.overrides,
                      {options.base_link, options.tip_link, options.inertia_checks == "warn",
                       options.floating_base});
  for (const std::string& warning : robot.warnings)
    std::cerr << "rfdsim: warning: " << on_command_line(warning) << '\n';
  check_forward_route(options.algorithm, robot);
  check_options(options);
  if (robot.has_loops()) {  // docs/loops.md
    require(options.friction.coulomb != CoulombModel::stick_slip,
            robot.path +
                ": --coulomb stick-slip locks joints of the spanning tree, which the "
                "loops already constrain; use --coulomb regularised with loops");
    require(!options.count_operations,
            robot.path +
                ": --count-operations counts the spanning tree's algorithms; a robot "
                "with loops is not counted");
  }
  wrench_frame(options, robot);    // a bad --frame is refused before any output is opened
  contact_points(options, robot);  // and a bad --contact
  return robot;
}

// With loops (docs/loops.md): --q0 (a guess) assembled with the actuated joints held, and --qd0
// made to obey the loops with the actuated rates held; InputError when a loop does not close.
void close_initial_state(const RobotFile& robot, State& x) {
  const int n = robot.dof();
  Eigen::Map<VecX<double>> q(x.data(), n), qd(x.data() + n, n);
  ClosedLoopWorkspace<double> ws(robot.model, robot.loops);
  const ClosedState state = close_state(robot.model, robot.loops, ws, q, qd);
  const ClosureError& closure = state.closure;
  require(closure.error <= kClosureTolerance,
          "--q0: " + closure_failure(robot.loops, closure) +
              ", the actuated joints held; give a --q0 nearer a closed configuration");
  require(state.independent,
          "--q0: the actuated joints do not fix the passive ones at this configuration (a "
          "singular configuration of the loops)");
}

// x(0): q, qd (--q0, --qd0 or the robot file's initial), work and dissipated energy 0.
State initial_state(const RfdsimOptions& options, const RobotFile& robot) {
  const int nq = robot.model.nq(), nv = robot.model.nv();
  State x(static_cast<std::size_t>(nq + nv + 2), 0.0);  // q, qd, work, dissipated
  std::vector<std::string> warnings;
  Eigen::Map<VecX<double>>(x.data(), nq) = initial(options.q0, robot, false, warnings);
  Eigen::Map<VecX<double>>(x.data() + nq, nv) = initial(options.qd0, robot, true, warnings);
  for (const std::string& warning : warnings)
    std::cerr << "rfdsim: warning: " << on_command_line(warning) << '\n';
  if (robot.has_loops() && (options.q0 || options.qd0)) close_initial_state(robot, x);
  return x;
}

// --free-fall, or --torques from standard input or from `torque_file` (opened here).
// With loops (docs/loops.md) the file gives t,tau<j>... of the actuated joints only.
std::unique_ptr<JointForces> open_joint_forces(const RfdsimOptions& options, const RobotFile& robot,
                                               std::istream& standard_input,
                                               std::ifstream& torque_file) {
  if (options.free_fall) return std::make_unique<ZeroForces>();
  std::istream* in = &standard_input;
  std::string name = "<stdin>";
  if (options.torques != "-") {
    torque_file.open(options.torques, std::ios::binary);
    require(static_cast<bool>(torque_file),
            options.torques + ": cannot open torque file: " + std::strerror(errno));
    in = &torque_file;
    name = options.torques;
  }
  if (!robot.has_loops()) return std::make_unique<SampledForces>(*in, name, robot.dof());
  std::vector<std::string> header{"t"};
  for (const std::string& column : actuated_columns(robot.loops, {"tau"}))
    header.push_back(column);
  return std::make_unique<SampledForces>(*in, name, header);
}

// --wrench read from `wrench_file` (opened here), or none.
std::unique_ptr<SampledForces> open_wrench(const RfdsimOptions& options,
                                           std::ifstream& wrench_file) {
  if (options.wrench.empty()) return nullptr;
  wrench_file.open(options.wrench, std::ios::binary);
  require(static_cast<bool>(wrench_file),
          options.wrench + ": cannot open wrench file: " + std::strerror(errno));
  return std::make_unique<SampledForces>(wrench_file, options.wrench, kWrenchHeader);
}

// --count-operations: one forward-dynamics evaluation at x(0) with no joint forces, counted.
void write_count(const RfdsimOptions& options, const RobotFile& robot, const State& x,
                 std::ostream& standard_output) {
  const int n = robot.dof(), nq = robot.model.nq(), nv = robot.model.nv();
  const Eigen::Map<const VecX<double>> q(x.data(), nq), qd(x.data() + nq, nv);
  const std::string table =
      count_table("forward-dynamics", options.algorithm, n,
                  count_forward_dynamics(options.algorithm, robot.model, q, qd));
  Output output(options.output, standard_output);
  output.write(table.data(), table.size());
  output.close();
}

}  // namespace

void run_rfdsim(const RfdsimOptions& options, std::istream& standard_input,
                std::ostream& standard_output, IntegrationStats& stats) {
  const RobotFile robot = load_checked_robot(options);
  State x = initial_state(options, robot);
  if (options.count_operations) {  // the joint forces are not read: none are applied
    write_count(options, robot, x, standard_output);
    return;
  }
  std::ifstream torque_file, wrench_file;
  const std::unique_ptr<JointForces> forces =
      open_joint_forces(options, robot, standard_input, torque_file);
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);
  std::unique_ptr<ActuatedForces> actuated;  // with loops: n forces from the actuated joints'
  if (robot.has_loops()) actuated = std::make_unique<ActuatedForces>(*forces, robot.loops.actuated);
  InputsWithWrenches inputs(
      actuated ? static_cast<JointForces&>(*actuated) : *forces,
      wrench ? std::vector<JointForces*>{wrench.get()} : std::vector<JointForces*>{});

  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.header(output_header(robot, !options.contacts.empty()));
  csv.format_in_background();  // the rows formatted off the integration thread (docs/rfdsim.md)
  ChainDynamics system(robot.model, options.algorithm, inputs);
  system.set_friction(options.friction);
  if (robot.has_loops()) system.set_loops(robot.loops);
  if (!options.contacts.empty())
    system.set_ground_contact(contact_points(options, robot), options.ground);
  if (wrench) {
    system.add_wrench(*wrench, wrench_frame(options, robot).value_or(robot.model.tool_frame()),
                      options.wrench_in_tool_frame);
  }
  RowWriter writer(system, csv, robot);
  Progress progress(options.progress, std::cerr, standard_error_is_terminal(), "rfdsim", "s",
                    options.t_end);
  double reached = 0;
  integrate(
      system, x, OutputTimes(options.t_end, options.dt), options.integrator,
      [&](double t, const State& state) {
        writer(t, state);
        progress.update(reached = t);
      },
      stats);
  csv.finish();
  progress.finish(reached);
}

}  // namespace denoc
