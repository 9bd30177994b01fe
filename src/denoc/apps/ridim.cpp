#include "denoc/apps/ridim.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
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
      {"reactions", Quantity::reactions}};
  return names;
}

namespace {

std::vector<std::string> output_header(Quantity quantity, int n) {
  std::vector<std::string> names{"t"};
  auto numbered = [&](const std::string& prefix) {
    for (int i = 1; i <= n; ++i)
      names.push_back(prefix + std::to_string(i));
  };
  auto matrix = [&](const std::string& prefix) {
    for (int i = 1; i <= n; ++i) {
      for (int j = 1; j <= n; ++j) {
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
        for (int j = 1; j <= n; ++j)
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
  }
  return names;
}

// Computes the chosen quantity at one sample and writes its row.
class SampleWriter {
 public:
  SampleWriter(const Model<double>& model, Quantity quantity, CsvWriter& csv, bool friction = true,
               JointForces* wrench = nullptr, bool wrench_in_tool_frame = false)
      : model_(model),
        ws_(model),
        quantity_(quantity),
        csv_(csv),
        friction_(friction && model.has_friction()),
        friction_forces_(VecX<double>::Zero(model.dof())),
        wrench_(wrench),
        wrench_in_tool_frame_(wrench_in_tool_frame),
        pose_(12) {}

  void write(double t, ConstVectorRef<double> q, ConstVectorRef<double> qd,
             ConstVectorRef<double> qdd) {
    switch (quantity_) {
      case Quantity::torques:
        inverse_dynamics(model_, ws_, q, qd, qdd);
        with_wrench(t);
        csv_.row(t, with_friction(qd));
        break;
      case Quantity::mass_matrix:
        csv_.matrix_row(t, generalized_inertia(model_, ws_, q));
        break;
      case Quantity::inverse_mass_matrix: {
        const MatX<double>& inverse = inverse_generalized_inertia(model_, ws_, q);
        if (!ws_.gim_factored) {
          throw RunError("at t = " + std::to_string(t) +
                         ": the inertia matrix is not positive definite, so it has no inverse");
        }
        csv_.matrix_row(t, inverse);
        break;
      }
      case Quantity::bias:
        bias_forces(model_, ws_, q, qd);
        with_wrench(t);
        csv_.row(t, with_friction(qd));
        break;
      case Quantity::gravity:
        csv_.row(t, gravity_forces(model_, ws_, q));
        break;
      case Quantity::pose: {
        const Transform<double>& pose = tool_pose(model_, ws_, q);
        pose_.head<3>() = pose.p;
        pose_.tail<9>() = Eigen::Map<const VecX<double>>(
            Eigen::Matrix<double, 3, 3, Eigen::RowMajor>(pose.R).data(), 9);
        csv_.row(t, pose_);
        break;
      }
      case Quantity::jacobian:
        csv_.matrix_row(t, tool_jacobian(model_, ws_, q));
        break;
      case Quantity::reactions: {
        inverse_dynamics(model_, ws_, q, qd, qdd);
        with_wrench(t);
        const auto& reactions = joint_reactions(model_, ws_, q);
        csv_.row(t, Eigen::Map<const VecX<double>>(reactions.data(), reactions.size()));
        break;
      }
    }
  }

 private:
  // The external wrench of --wrench at t (spec §6) taken into ws_.gamma and ws_.tau.
  void with_wrench(double t) {
    if (!wrench_) return;
    wrench_->at(t, wrench_value_);
    if (wrench_in_tool_frame_) {
      joint_poses(model_, ws_);
      const Mat3<double>& R = ws_.tool_pose.R;
      wrench_value_ << R * wrench_value_.head<3>(), R * wrench_value_.tail<3>();
    }
    apply_tool_wrench(model_, ws_, wrench_value_);
  }

  // ws_.tau plus the drives' friction G^2 B qd + |G| Tc(qd) (spec §6), unless --no-friction.
  const VecX<double>& with_friction(ConstVectorRef<double> qd) {
    if (friction_) {
      friction_forces(model_, qd, friction_forces_);
      ws_.tau += friction_forces_;
    }
    return ws_.tau;
  }

  const Model<double>& model_;
  Workspace<double> ws_;
  Quantity quantity_;
  CsvWriter& csv_;
  bool friction_;
  VecX<double> friction_forces_;
  JointForces* wrench_;
  bool wrench_in_tool_frame_;
  Vec6<double> wrench_value_ = Vec6<double>::Zero();
  VecX<double> pose_;
};

// The --wrench file, read as the samples are computed; null without one.
std::unique_ptr<SampledForces> open_wrench(const RidimOptions& options, std::ifstream& in) {
  if (options.wrench.empty()) return nullptr;
  in.open(options.wrench, std::ios::binary);
  if (!in) throw InputError(options.wrench + ": cannot open wrench file: " + std::strerror(errno));
  return std::make_unique<SampledForces>(in, options.wrench, 6);
}

// Standard output, or the -o file opened only once the input has been accepted.
std::ostream& open_output(const RidimOptions& options, std::ostream& standard_output,
                          std::unique_ptr<std::ofstream>& file) {
  if (options.output.empty() || options.output == "-") return standard_output;
  file = std::make_unique<std::ofstream>(options.output, std::ios::binary | std::ios::trunc);
  if (!*file)
    throw InputError(options.output + ": cannot open for writing: " + std::strerror(errno));
  return *file;
}

void run_generated(const RobotFile& robot, const RidimOptions& options,
                   std::ostream& standard_output) {
  if (!robot.trajectory) {
    throw InputError(robot.path +
                     ": trajectory: missing; give a trajectory CSV (or - for standard input) "
                     "or add a trajectory block to the robot file");
  }
  const CycloidalTrajectory<double>& traj = *robot.trajectory;
  const int n = robot.dof();
  std::ifstream wrench_file;
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);
  std::unique_ptr<std::ofstream> file;
  CsvWriter csv(open_output(options, standard_output, file));
  csv.header(output_header(options.quantity, n));
  SampleWriter writer(robot.model, options.quantity, csv, options.friction, wrench.get(),
                      options.wrench_in_tool_frame);
  VecX<double> state(3 * n);
  for (long k = 0; k < traj.samples; ++k) {
    const double t = traj.sample_time(k);
    traj.evaluate(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
    writer.write(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
  }
}

void run_csv(const RobotFile& robot, const RidimOptions& options, std::istream& standard_input,
             std::ostream& standard_output) {
  std::ifstream file_in;
  const bool from_stdin = options.trajectory == "-";
  if (!from_stdin) {
    file_in.open(options.trajectory, std::ios::binary);
    if (!file_in) {
      throw InputError(options.trajectory +
                       ": cannot open trajectory file: " + std::strerror(errno));
    }
  }
  CsvReader reader(from_stdin ? standard_input : file_in,
                   from_stdin ? std::string("<stdin>") : options.trajectory);
  const int n = robot.dof();
  reader.read_header(static_cast<std::size_t>(1 + 3 * n));
  std::ifstream wrench_file;
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);

  std::unique_ptr<std::ofstream> file;
  CsvWriter csv(open_output(options, standard_output, file));
  csv.header(output_header(options.quantity, n));
  SampleWriter writer(robot.model, options.quantity, csv, options.friction, wrench.get(),
                      options.wrench_in_tool_frame);
  VecX<double> row(1 + 3 * n);
  while (reader.next_row(row)) {
    writer.write(row[0], row.segment(1, n), row.segment(1 + n, n), row.segment(1 + 2 * n, n));
  }
}

}  // namespace

void run_ridim(const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output) {
  const RobotFile robot = load_robot_file(options.robot);
  if (options.trajectory.empty()) {
    run_generated(robot, options, standard_output);
  } else {
    run_csv(robot, options, standard_input, standard_output);
  }
}

}  // namespace denoc
