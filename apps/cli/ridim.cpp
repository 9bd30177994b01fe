#include "cli/ridim.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/count_operations.hpp"
#include "cli/run_checks.hpp"
#include "denoc/denoc.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/describe.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/export.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/number.hpp"
#include "denoc/io/output.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"
#include "denoc/saha/reactions.hpp"
#include "denoc/simulation/sampled_forces.hpp"

namespace denoc {

const std::vector<std::pair<std::string, Quantity>>& quantity_names() {
  static const std::vector<std::pair<std::string, Quantity>> names = {
      {"torques", Quantity::torques},
      {"mass-matrix", Quantity::mass_matrix},
      {"inverse-mass-matrix", Quantity::inverse_mass_matrix},
      {"bias", Quantity::bias},
      {"gravity", Quantity::gravity},
      {"pose", Quantity::pose},
      {"jacobian", Quantity::jacobian},
      {"reactions", Quantity::reactions},
      {"coriolis", Quantity::coriolis},
      {"udu", Quantity::udu}};
  return names;
}

std::vector<Route> algorithms_for(Quantity quantity) {
  if (quantity == Quantity::inverse_mass_matrix) {
    // udu first: the fastest of the three on the Stanford arm (README, Performance).
    return inverse_inertia_routes();
  }
  if (quantity == Quantity::pose || quantity == Quantity::jacobian ||
      quantity == Quantity::reactions) {
    return {Route::denoc};  // from the DeNOC joint frames and backward recursion
  }
  if (quantity == Quantity::coriolis) return {Route::denoc};  // Saha (1999) Eqs. (25)-(29)
  if (quantity == Quantity::udu) return {Route::udu};         // the factors that route solves with
  return inverse_dynamics_routes();
}

namespace {

std::string name_of(Quantity quantity) {
  for (const auto& [name, value] : quantity_names())
    if (value == quantity) return name;
  return "?";
}

// The routes that carry no floating base (docs/floating-base.md): InputError naming them.
void check_floating_base(Route chosen) {
  if (chosen == Route::gibbs_appell || chosen == Route::fixman)
    throw InputError("--algorithm " + route_name(chosen) +
                     ": the route carries no floating base (its recursions start from a fixed "
                     "one); the robot's base is floating (docs/floating-base.md)");
}

// The chosen route, or the quantity's default; InputError naming both when it does not apply
// (docs/command-line.md) or cannot treat this robot.
Route choose_algorithm(const RidimOptions& options, const Model<double>& model) {
  const std::vector<Route> allowed = algorithms_for(options.quantity);
  const Route chosen = options.algorithm.value_or(allowed.front());
  if (std::find(allowed.begin(), allowed.end(), chosen) == allowed.end()) {
    std::string names;
    for (Route a : allowed)
      names += (names.empty() ? "" : ", ") + route_name(a);
    throw InputError("--algorithm " + route_name(chosen) + " does not compute --quantity " +
                     name_of(options.quantity) + "; the routes for it are " + names);
  }
  if (model.floating()) check_floating_base(chosen);
  if (chosen == Route::fixman && !fixman_supports(model)) {
    throw InputError(options.robot + ": --algorithm fixman: " + fixman_unsupported_reason(model));
  }
  return chosen;
}
// The frame of --frame, or none for the tool frame; InputError when the quantity or the wrench
// needs a frame and the robot, a tree, has no one tool (docs/trees.md).
std::optional<BodyFrame<double>> choose_frame(const RidimOptions& options, const RobotFile& robot) {
  if (!options.frame.empty()) return find_frame(robot, options.frame);
  if (robot.model.is_chain()) return std::nullopt;
  const bool pose = options.quantity == Quantity::pose || options.quantity == Quantity::jacobian;
  if (pose || !options.wrench.empty()) {
    throw InputError(robot.path + ": the robot is a tree, so " +
                     (pose ? "--quantity " + name_of(options.quantity) : std::string("--wrench")) +
                     " needs --frame LINK: the link whose frame it refers to");
  }
  return std::nullopt;
}

constexpr long kProgressStride = 256;  // rows between looks at the clock (a row is ~1 us)

// The base's generalized forces, first with a floating base (docs/floating-base.md).
const std::vector<std::string>& base_force_names() {
  static const std::vector<std::string> names = {"base_fx", "base_fy", "base_fz",
                                                 "base_nx", "base_ny", "base_nz"};
  return names;
}

// The columns of `quantity` for n joints; with a floating base the vectors start with the base's
// six forces and the matrices are (6 + n) x (6 + n) (docs/floating-base.md).
std::vector<std::string> output_header(Quantity quantity, int n, bool floating) {
  std::vector<std::string> names{"t"};
  const int nv = floating ? n + 6 : n;
  auto numbered = [&](const std::string& prefix) {
    if (floating) {
      for (const std::string& base : base_force_names())
        names.push_back(quantity == Quantity::torques ? base : prefix + "_" + base);
    }
    for (int i = 1; i <= n; ++i)
      names.push_back(prefix + std::to_string(i));
  };
  auto matrix = [&](const std::string& prefix) {
    for (int i = 1; i <= nv; ++i) {
      for (int j = 1; j <= nv; ++j) {
        names.push_back(prefix + "_" + std::to_string(i) + "_" + std::to_string(j));
      }
    }
  };
  switch (quantity) {
    case Quantity::torques:
      numbered("tau");
      break;
    case Quantity::mass_matrix:
      matrix("M");
      break;
    case Quantity::inverse_mass_matrix:
      matrix("Minv");
      break;
    case Quantity::bias:
      numbered("h");
      break;
    case Quantity::gravity:
      numbered("g");
      break;
    case Quantity::pose:
      for (const char* x : {"x", "y", "z"})
        names.push_back(x);
      for (int i = 1; i <= 3; ++i) {
        for (int j = 1; j <= 3; ++j)
          names.push_back("R_" + std::to_string(i) + "_" + std::to_string(j));
      }
      break;
    case Quantity::jacobian:
      for (int i = 1; i <= 6; ++i) {
        for (int j = 1; j <= nv; ++j)
          names.push_back("J_" + std::to_string(i) + "_" + std::to_string(j));
      }
      break;
    case Quantity::reactions:
      for (int i = 1; i <= n; ++i) {
        for (const char* part : {"f", "n"}) {
          for (const char* axis : {"_x", "_y", "_z"})
            names.push_back(part + std::to_string(i) + axis);
        }
      }
      break;
    case Quantity::coriolis:
      matrix("C");
      break;
    case Quantity::udu:
      matrix("U");
      for (int i = 1; i <= nv; ++i)
        names.push_back("D_" + std::to_string(i));
      break;
  }
  return names;
}

// Computes the chosen quantity at one sample and writes its row.
class SampleWriter {
 public:
  SampleWriter(const RobotFile& robot, Quantity quantity, Route algorithm, CsvWriter& csv,
               bool friction = true, JointForces* wrench = nullptr,
               bool wrench_in_tool_frame = false, std::optional<BodyFrame<double>> frame = {})
      : model_(robot.model),
        dynamics_(robot.model),
        ws_(dynamics_.denoc()),
        quantity_(quantity),
        algorithm_(algorithm),
        csv_(csv),
        friction_(friction && robot.model.has_friction()),
        friction_forces_(VecX<double>::Zero(robot.dof())),
        wrench_(wrench),
        wrench_in_tool_frame_(wrench_in_tool_frame),
        frame_(frame.value_or(robot.model.tool_frame())),
        pose_(12),
        check_positive_definite_(robot) {}

  void write(double t, ConstVectorRef<double> q, ConstVectorRef<double> qd,
             ConstVectorRef<double> qdd) {
    check_positive_definite_(t, q);
    // With a floating base q has 7 + n entries, qd and qdd 6 + n, and the dynamics' dispatch
    // takes them (docs/floating-base.md).
    const bool gibbs_appell = algorithm_ == Route::gibbs_appell;
    switch (quantity_) {
      case Quantity::torques:
        if (model_.floating()) {
          inverse_dynamics(algorithm_, dynamics_, q, qd, qdd);
          with_wrench(t, q, false);
          csv_.row(t, floating_forces(ws_.base.tau, qd));
          break;
        }
        take_tau(inverse_dynamics(algorithm_, dynamics_, q, qd, qdd));
        with_wrench(t, q, gibbs_appell);
        csv_.row(t, with_friction(qd));
        break;
      case Quantity::mass_matrix:
        csv_.matrix_row(t, generalized_inertia(algorithm_, dynamics_, q));
        break;
      case Quantity::inverse_mass_matrix:
        csv_.matrix_row(t, inverse_mass_matrix(t, q));
        break;
      case Quantity::bias:
        if (model_.floating()) {
          bias_forces(algorithm_, dynamics_, q, qd);
          with_wrench(t, q, false);
          csv_.row(t, floating_forces(ws_.base.tau, qd));
          break;
        }
        take_tau(bias_forces(algorithm_, dynamics_, q, qd));
        with_wrench(t, q, gibbs_appell);
        csv_.row(t, with_friction(qd));
        break;
      case Quantity::gravity:
        csv_.row(t, gravity_forces(algorithm_, dynamics_, q));
        break;
      case Quantity::pose:
        csv_.row(t, pose_row(frame_pose(dynamics_, frame_, q)));
        break;
      case Quantity::jacobian:
        csv_.matrix_row(t, frame_jacobian(dynamics_, frame_, q));
        break;
      case Quantity::reactions: {
        inverse_dynamics(Route::denoc, dynamics_, q, qd, qdd);
        with_wrench(t, q, false);
        const auto& reactions = joint_reactions(model_, ws_, q.tail(model_.dof()));
        csv_.row(t, Eigen::Map<const VecX<double>>(reactions.data(), reactions.size()));
        break;
      }
      case Quantity::coriolis:
        csv_.matrix_row(t, convective_inertia(algorithm_, dynamics_, q, qd));
        break;
      case Quantity::udu:
        csv_.row(t, udu_row(q));
        break;
    }
  }

 private:
  // With a floating base (docs/floating-base.md): the base's forces, then the joints' with their
  // friction. Returns floating_tau_.
  const VecX<double>& floating_forces(const VecX<double>& tau, ConstVectorRef<double> qd) {
    floating_tau_ = tau;
    if (friction_) {
      friction_forces(model_, qd.tail(model_.dof()), friction_forces_);
      floating_tau_.tail(model_.dof()) += friction_forces_;
    }
    return floating_tau_;
  }

  // x, y, z, then R row by row.
  const VecX<double>& pose_row(const Transform<double>& pose) {
    pose_.head<3>() = pose.p;
    pose_.tail<9>() = Eigen::Map<const VecX<double>>(
        Eigen::Matrix<double, 3, 3, Eigen::RowMajor>(pose.R).data(), 9);
    return pose_;
  }

  const MatX<double>& inverse_mass_matrix(double t, ConstVectorRef<double> q) {
    const MatX<double>* inverse = &inverse_inertia(algorithm_, dynamics_, q);
    if (!inverse->allFinite()) {
      throw RunError("at t = " + shortest(t) +
                     ": the inertia matrix is not positive definite, so it has no inverse");
    }
    return *inverse;
  }

  // U row by row, then the diagonal of D (docs/csv.md).
  const VecX<double>& udu_row(ConstVectorRef<double> q) {
    const UduFactors<double> factors = udu_factors(algorithm_, dynamics_, q);
    const Eigen::Index n = factors.U.rows();
    udu_row_.resize(n * n + n);  // allocates at the first sample only
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        udu_row_.data(), n, n) = factors.U;
    udu_row_.tail(n) = factors.d;
    return udu_row_;
  }

  // The external wrench of --wrench at t (docs/robot-file.md) taken into ws_.gamma and ws_.tau. It
  // is carried inwards on the DeNOC joint frames, which the Gibbs-Appell route does not set.
  // With a floating base the wrench is in the world frame, and the base's forces take it too.
  void with_wrench(double t, ConstVectorRef<double> q, bool need_frames) {
    if (!wrench_) return;
    wrench_->at(t, wrench_value_);
    if (model_.floating()) {
      if (wrench_in_tool_frame_) {
        wrench_value_ =
            tool_wrench_in_base(floating_frame_pose(model_, ws_, frame_, q).R, wrench_value_);
      }
      apply_floating_frame_wrench(model_, ws_, frame_, q, wrench_value_);
      return;
    }
    if (need_frames) update_joint_frames(model_, ws_, q);
    if (wrench_in_tool_frame_) {
      joint_poses(model_, ws_);
      wrench_value_ = tool_wrench_in_base(frame_pose(ws_, frame_).R, wrench_value_);
    }
    apply_frame_wrench(model_, ws_, frame_, wrench_value_);
  }

  // The route's joint forces into ws_.tau, where the wrench and the friction are added.
  void take_tau(const VecX<double>& tau) {
    if (&tau != &ws_.tau) ws_.tau = tau;
  }

  // ws_.tau plus the drives' friction G^2 B qd + |G| Tc(qd) (docs/robot-file.md), unless
  // --no-friction.
  const VecX<double>& with_friction(ConstVectorRef<double> qd) {
    if (friction_) {
      friction_forces(model_, qd, friction_forces_);
      ws_.tau += friction_forces_;
    }
    return ws_.tau;
  }

  const Model<double>& model_;
  Dynamics<double> dynamics_;
  Workspace<double>& ws_;  // dynamics_.denoc(): the joint frames, wrench and reactions
  Quantity quantity_;
  Route algorithm_;
  CsvWriter& csv_;
  bool friction_;
  VecX<double> friction_forces_;
  JointForces* wrench_;
  bool wrench_in_tool_frame_;
  BodyFrame<double> frame_;  // --frame, or the tool frame
  Vec6<double> wrench_value_ = Vec6<double>::Zero();
  VecX<double> pose_;
  VecX<double> udu_row_;
  VecX<double> floating_tau_;  // with a floating base: the base's forces, then the joints'
  PositiveDefiniteCheck check_positive_definite_;
};

// The --wrench file, read as the samples are computed; null without one.
std::unique_ptr<SampledForces> open_wrench(const RidimOptions& options, std::ifstream& in) {
  if (options.wrench.empty()) return nullptr;
  in.open(options.wrench, std::ios::binary);
  if (!in) throw InputError(options.wrench + ": cannot open wrench file: " + std::strerror(errno));
  return std::make_unique<SampledForces>(in, options.wrench, kWrenchHeader);
}

// The robot file's trajectory block, when no trajectory CSV is given.
const CycloidalTrajectory<double>& robot_trajectory(const RobotFile& robot) {
  if (!robot.trajectory && robot.model.floating()) {
    throw InputError(robot.path +
                     ": the base is floating, so ridim needs a trajectory CSV (or - for standard "
                     "input) with the base's columns (docs/floating-base.md)");
  }
  if (!robot.trajectory) {
    throw InputError(robot.path +
                     ": trajectory: missing; give a trajectory CSV (or - for standard input) "
                     "or add a trajectory block to the robot file");
  }
  return *robot.trajectory;
}

void run_generated(const RobotFile& robot, const RidimOptions& options,
                   std::ostream& standard_output) {
  const CycloidalTrajectory<double>& traj = robot_trajectory(robot);
  const int n = robot.dof();
  std::ifstream wrench_file;
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.header(output_header(options.quantity, n, robot.model.floating()));
  SampleWriter writer(robot, options.quantity, *options.algorithm, csv, options.friction,
                      wrench.get(), options.wrench_in_tool_frame, options.body_frame);
  Progress progress(options.progress, std::cerr, standard_error_is_terminal(), "ridim", "rows",
                    static_cast<double>(traj.samples), kProgressStride);
  VecX<double> state(3 * n);
  for (long k = 0; k < traj.samples; ++k) {
    const double t = traj.sample_time(k);
    traj.evaluate(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
    writer.write(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
    progress.update(static_cast<double>(k + 1));
  }
  csv.finish();
  progress.finish(static_cast<double>(traj.samples));
}

// The trajectory CSV (a file opened into `file_in`, or standard input for -).
CsvReader open_trajectory(const RidimOptions& options, std::istream& standard_input,
                          std::ifstream& file_in) {
  if (options.trajectory == "-") return CsvReader(standard_input, "<stdin>");
  file_in.open(options.trajectory, std::ios::binary);
  if (!file_in)
    throw InputError(options.trajectory + ": cannot open trajectory file: " + std::strerror(errno));
  return CsvReader(file_in, options.trajectory);
}

// The next row of the trajectory into `row`; with a floating base its quaternion checked and
// normalised (docs/floating-base.md). False at the end.
bool next_state(CsvReader& reader, const Model<double>& model, Eigen::Ref<VecX<double>> row) {
  if (!reader.next_row(row)) return false;
  if (model.floating()) normalise_base_quaternion(reader, row.segment<4>(4), 8);
  return true;
}

// Its header checked and its first row, t,q,qd,qdd (with a floating base the base's columns
// first in each block); InputError if there is none.
VecX<double> first_row(CsvReader& reader, const Model<double>& model) {
  const StateColumns columns = state_columns({"q", "qd", "qdd"}, model.dof(), model.floating());
  if (model.floating()) {
    reader.read_header(columns.names, columns.blocks);  // naming the block that is short
  } else {
    reader.read_header(columns.names);
  }
  reader.require_increasing_time();
  VecX<double> row(1 + model.nq() + 2 * model.nv());
  if (!next_state(reader, model, row)) reader.fail_no_samples();
  return row;
}

void run_csv(const RobotFile& robot, const RidimOptions& options, std::istream& standard_input,
             std::ostream& standard_output) {
  std::ifstream file_in;
  const bool from_stdin = options.trajectory == "-";
  CsvReader reader = open_trajectory(options, standard_input, file_in);
  const int n = robot.dof(), nq = robot.model.nq(), nv = robot.model.nv();
  VecX<double> row = first_row(reader, robot.model);
  std::ifstream wrench_file;
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);

  // The output is opened only now that the header and the first row have been accepted.
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.set_source(&reader);
  csv.header(output_header(options.quantity, n, robot.model.floating()));
  SampleWriter writer(robot, options.quantity, *options.algorithm, csv, options.friction,
                      wrench.get(), options.wrench_in_tool_frame, options.body_frame);
  Progress progress(options.progress, std::cerr, standard_error_is_terminal(), "ridim", "rows", 0,
                    kProgressStride);
  std::error_code no_size;
  const auto bytes = from_stdin ? 0 : std::filesystem::file_size(options.trajectory, no_size);
  if (!no_size && bytes > 0) {  // a regular file: the fraction read gives the time left
    progress.set_fraction_source(
        [&file_in, bytes] { return static_cast<double>(file_in.tellg()) / bytes; });
  }
  double rows = 0;
  do {
    writer.write(row[0], row.segment(1, nq), row.segment(1 + nq, nv), row.segment(1 + nq + nv, nv));
    progress.update(++rows);
  } while (next_state(reader, robot.model, row));
  csv.finish();
  progress.finish(rows);
}

// --count-operations: the quantity counted once at the first sample, of the robot file's
// trajectory or of the CSV (whose other rows are not read), written as one header and one row.
void run_count(const RobotFile& robot, const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output) {
  const int n = robot.dof(), nq = robot.model.nq(), nv = robot.model.nv();
  VecX<double> state(nq + 2 * nv);  // q, qd, qdd (7 + n and 6 + n each with a floating base)
  if (options.trajectory.empty()) {
    const CycloidalTrajectory<double>& traj = robot_trajectory(robot);
    traj.evaluate(traj.sample_time(0), state.segment(0, n), state.segment(n, n),
                  state.segment(2 * n, n));
  } else {
    std::ifstream file_in;
    CsvReader reader = open_trajectory(options, standard_input, file_in);
    state = first_row(reader, robot.model).tail(nq + 2 * nv);
  }
  const OperationCounts counts =
      count_ridim_quantity(options.quantity, *options.algorithm, robot.model, state.head(nq),
                           state.segment(nq, nv), state.tail(nv));
  const std::string table = count_table(name_of(options.quantity), *options.algorithm, n, counts);
  Output output(options.output, standard_output);
  output.write(table.data(), table.size());
  output.close();
}

}  // namespace

void run_ridim(const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output) {
  check_output_is_not_an_input(options.output, {{"the robot file", options.robot},
                                                {"the trajectory file", options.trajectory},
                                                {"the wrench file", options.wrench}});
  check_output_is_not_an_input(options.export_path, {{"the robot file", options.robot}},
                               "--export");
  const RobotFile robot =
      load_robot_file(options.robot, options.overrides,
                      {options.base_link, options.tip_link, options.inertia_checks == "warn",
                       options.floating_base});
  for (const std::string& warning : robot.warnings)
    std::cerr << "ridim: warning: " << warning << '\n';
  if (!options.export_dh.empty() && options.export_path.empty())
    throw InputError("--dh: applies only with --export");
  if (options.describe) {  // to -o when given, checked like every output
    std::ostringstream text;
    describe_robot(text, robot);
    Output output(options.output, standard_output);
    output.write(text.str().data(), text.str().size());
    output.close();
  }
  if (!options.export_path.empty()) {
    std::optional<DhConvention> convention;
    if (options.export_dh == "standard") convention = DhConvention::standard;
    if (options.export_dh == "modified") convention = DhConvention::modified;
    for (const std::string& note : export_robot(robot, options.export_path, convention))
      std::cerr << "ridim: warning: " << options.export_path << ": " << note << '\n';
    return;
  }
  if (options.describe) return;
  RidimOptions resolved = options;
  resolved.algorithm = choose_algorithm(options, robot.model);  // before any output is opened
  resolved.body_frame = choose_frame(options, robot);
  if (options.count_operations) {
    run_count(robot, resolved, standard_input, standard_output);
    return;
  }
  if (options.trajectory.empty()) {
    run_generated(robot, resolved, standard_output);
  } else {
    run_csv(robot, resolved, standard_input, standard_output);
  }
}

}  // namespace denoc
