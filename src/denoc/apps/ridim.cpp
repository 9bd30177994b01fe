#include "denoc/apps/ridim.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/output.hpp"
#include "denoc/io/robot_file.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"

namespace denoc {

const std::vector<std::pair<std::string, Quantity>>& quantity_names() {
  static const std::vector<std::pair<std::string, Quantity>> names = {
      {"torques", Quantity::torques},
      {"mass-matrix", Quantity::mass_matrix},
      {"inverse-mass-matrix", Quantity::inverse_mass_matrix},
      {"bias", Quantity::bias},
      {"gravity", Quantity::gravity}};
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
  }
  return names;
}

// Computes the chosen quantity at one sample and writes its row.
class SampleWriter {
 public:
  SampleWriter(const Model<double>& model, Quantity quantity, CsvWriter& csv)
      : model_(model), ws_(model), quantity_(quantity), csv_(csv) {}

  void write(double t, ConstVectorRef<double> q, ConstVectorRef<double> qd,
             ConstVectorRef<double> qdd) {
    switch (quantity_) {
      case Quantity::torques:
        csv_.row(t, inverse_dynamics(model_, ws_, q, qd, qdd));
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
        csv_.row(t, bias_forces(model_, ws_, q, qd));
        break;
      case Quantity::gravity:
        csv_.row(t, gravity_forces(model_, ws_, q));
        break;
    }
  }

 private:
  const Model<double>& model_;
  Workspace<double> ws_;
  Quantity quantity_;
  CsvWriter& csv_;
};

void run_generated(const RobotFile& robot, const RidimOptions& options,
                   std::ostream& standard_output) {
  if (!robot.trajectory) {
    throw InputError(robot.path +
                     ": trajectory: missing; give a trajectory CSV (or - for standard input) "
                     "or add a trajectory block to the robot file");
  }
  const CycloidalTrajectory<double>& traj = *robot.trajectory;
  const int n = robot.dof();
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.header(output_header(options.quantity, n));
  SampleWriter writer(robot.model, options.quantity, csv);
  VecX<double> state(3 * n);
  for (long k = 0; k < traj.samples; ++k) {
    const double t = traj.sample_time(k);
    traj.evaluate(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
    writer.write(t, state.segment(0, n), state.segment(n, n), state.segment(2 * n, n));
  }
  csv.finish();
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
  reader.read_header(column_names({"q", "qd", "qdd"}, n));
  reader.require_increasing_time();
  VecX<double> row(1 + 3 * n);
  if (!reader.next_row(row)) reader.fail_no_samples();

  // The output is opened only now that the header and the first row have been accepted.
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.set_source(&reader);
  csv.header(output_header(options.quantity, n));
  SampleWriter writer(robot.model, options.quantity, csv);
  do {
    writer.write(row[0], row.segment(1, n), row.segment(1 + n, n), row.segment(1 + 2 * n, n));
  } while (reader.next_row(row));
  csv.finish();
}

}  // namespace

void run_ridim(const RidimOptions& options, std::istream& standard_input,
               std::ostream& standard_output) {
  check_output_is_not_an_input(options.output, {{"the robot file", options.robot},
                                                {"the trajectory file", options.trajectory}});
  const RobotFile robot = load_robot_file(options.robot);
  if (options.trajectory.empty()) {
    run_generated(robot, options, standard_output);
  } else {
    run_csv(robot, options, standard_input, standard_output);
  }
}

}  // namespace denoc
