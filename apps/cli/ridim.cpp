#include "cli/ridim.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/wording.hpp"
#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/count_quantity.hpp"
#include "denoc/engine/run_checks.hpp"
#include "denoc/io/block_reader.hpp"
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

namespace {

// Rows read, computed and written together: 1024, or fewer for a long chain, so that a block
// holds at most about 256 KB (BlockReader keeps four).
int rows_per_block(int columns) {
  return std::clamp(32768 / columns, LaneDynamics::width, 1024);
}

// t, then the columns of `quantity` (docs/csv.md).
std::vector<std::string> output_header(Quantity quantity, int n, bool floating) {
  std::vector<std::string> names{"t"};
  const std::vector<std::string> columns = quantity_columns(quantity, n, floating);
  names.insert(names.end(), columns.begin(), columns.end());
  return names;
}

// Computes the chosen quantity at each sample (SampleQuantities) and writes its row; a failure's
// message names the time.
class SampleWriter {
 public:
  SampleWriter(const RobotFile& robot, const RidimOptions& options, CsvWriter& csv,
               JointForces* wrench)
      : quantities_(robot, options.quantity, *options.algorithm,
                    {options.friction, options.wrench_in_tool_frame, options.body_frame}),
        csv_(csv),
        wrench_(wrench),
        nq_(robot.model.nq()),
        nv_(robot.model.nv()),
        row_(quantities_.size()),
        rows_(quantities_.size(), LaneDynamics::width) {}

  // One sample; `line` is its input line for messages (0: none).
  void write(double t, ConstVectorRef<double> q, ConstVectorRef<double> qd,
             ConstVectorRef<double> qdd, long line = 0) {
    if (wrench_) wrench_->at(t, wrench_value_);
    try {
      quantities_.evaluate(q, qd, qdd, row_, wrench_ ? &wrench_value_ : nullptr);
    } catch (const RunError& e) {
      throw RunError("at t = " + shortest(t) + ": " + e.message());
    }
    csv_.set_source_line(line);
    csv_.row(t, row_);
  }

  // `count` samples, sample k the row t, q, qd, qdd at first + k * stride and its input line
  // lines[k] (lines may be null): several per call where packs compute the quantity, else one by
  // one.
  void write_rows(int count, const double* first, std::ptrdiff_t stride, const long* lines) {
    const int per_call = wrench_ ? 1 : quantities_.samples_per_call();
    for (int begin = 0; begin < count; begin += per_call) {
      const int samples = std::min(per_call, count - begin);
      const double* q = first + begin * stride + 1;  // each row is t, q, qd, qdd
      if (per_call > 1 &&
          evaluated(samples,
                    lane_pointers(0, samples, {q, stride}, {q + nq_, stride},
                                  {q + nq_ + nv_, stride}, {rows_.data(), rows_.rows()}))) {
        for (int k = 0; k < samples; ++k) {
          csv_.set_source_line(lines ? lines[begin + k] : 0);
          csv_.row(first[(begin + k) * stride], rows_.col(k));
        }
        continue;
      }
      // One by one: without packs, or to write the rows before a failure and name its time.
      for (int k = 0; k < samples; ++k)
        write_one(first + (begin + k) * stride, lines ? lines[begin + k] : 0);
    }
  }

 private:
  // The samples of one call into rows_; false if one failed (RunError, which names no time).
  bool evaluated(int samples, const LanePointers& p) {
    try {
      quantities_.evaluate_samples(samples, p);
      return true;
    } catch (const RunError&) {
      return false;
    }
  }

  void write_one(const double* row, long line) {
    using Map = Eigen::Map<const VecX<double>>;
    write(row[0], Map(row + 1, nq_), Map(row + 1 + nq_, nv_), Map(row + 1 + nq_ + nv_, nv_), line);
  }

  SampleQuantities quantities_;
  CsvWriter& csv_;
  JointForces* wrench_;
  Eigen::Index nq_, nv_;
  Vec6<double> wrench_value_ = Vec6<double>::Zero();
  VecX<double> row_;
  MatX<double> rows_;  // a call's rows, one per column
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
  csv.format_in_background();  // the text on a thread of its own (docs/ridim.md)
  SampleWriter writer(robot, options, csv, wrench.get());
  Progress progress(options.progress, std::cerr, standard_error_is_terminal(), "ridim", "rows",
                    static_cast<double>(traj.samples));  // updated once per block
  // Rows t, q, qd, qdd of a block of samples, column by column.
  const int per_block = rows_per_block(1 + 3 * n);
  MatX<double> block(1 + 3 * n, per_block);
  for (long begin = 0; begin < traj.samples; begin += per_block) {
    const long count = std::min<long>(per_block, traj.samples - begin);
    for (long k = 0; k < count; ++k) {
      auto row = block.col(k);
      row[0] = traj.sample_time(begin + k);
      traj.evaluate(row[0], row.segment(1, n), row.segment(1 + n, n), row.segment(1 + 2 * n, n));
    }
    writer.write_rows(static_cast<int>(count), block.data(), block.rows(), nullptr);
    progress.update(static_cast<double>(begin + count));
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
  try {
    if (model.floating()) {
      reader.read_header(columns.names, columns.blocks);  // naming the block that is short
    } else {
      reader.read_header(columns.names);
    }
  } catch (const InputError& e) {
    // The columns of the other kind of base: the option forgotten, or given where not meant.
    const bool other =
        reader.header() == state_columns({"q", "qd", "qdd"}, model.dof(), !model.floating()).names;
    if (!other) throw;
    throw InputError(e.message() + "; the header is a " +
                     (model.floating() ? "fixed" : "floating") + " base's (docs/floating-base.md)" +
                     (model.floating()
                          ? ", and the robot's base is floating"
                          : ": a URDF's base floats with " + mention(Parameter::floating_base)));
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
  const int n = robot.dof();
  const VecX<double> first = first_row(reader, robot.model);
  const long first_line = reader.line_number();
  std::ifstream wrench_file;
  const std::unique_ptr<SampledForces> wrench = open_wrench(options, wrench_file);

  // The output is opened only now that the header and the first row have been accepted.
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.set_source(reader.name());
  csv.header(output_header(options.quantity, n, robot.model.floating()));
  csv.format_in_background();  // the text on a thread of its own (docs/ridim.md)
  SampleWriter writer(robot, options, csv, wrench.get());
  Progress progress(options.progress, std::cerr, standard_error_is_terminal(), "ridim", "rows",
                    0);  // updated once per block
  std::error_code no_size;
  const auto bytes = from_stdin ? 0 : std::filesystem::file_size(options.trajectory, no_size);
  BlockReader::Fraction fraction_read;
  double fraction = 0;          // of the blocks computed so far
  if (!no_size && bytes > 0) {  // a regular file: the fraction read gives the time left
    fraction_read = [&file_in, bytes] { return static_cast<double>(file_in.tellg()) / bytes; };
    progress.set_fraction_source([&fraction] { return fraction; });
  }
  // The rows are read and parsed on a second thread while this one computes and writes them
  // (docs/ridim.md), the first row again from `first`.
  bool first_taken = false;
  BlockReader blocks(
      static_cast<int>(first.size()), rows_per_block(static_cast<int>(first.size())),
      [&](double* row, long& line) {
        Eigen::Map<VecX<double>> values(row, first.size());
        if (!first_taken) {
          first_taken = true;
          values = first;
          line = first_line;
          return true;
        }
        if (!next_state(reader, robot.model, values)) return false;
        line = reader.line_number();
        return true;
      },
      fraction_read);
  double rows = 0;
  while (const RowBlock* block = blocks.next()) {
    writer.write_rows(block->rows, block->values.data(), block->stride, block->lines.data());
    rows += block->rows;
    fraction = block->fraction;
    progress.update(rows);
    if (block->error) std::rethrow_exception(block->error);
  }
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
                           state.segment(nq, nv), state.tail(nv), options.body_frame);
  const std::string table =
      count_table(quantity_name(options.quantity), *options.algorithm, n, counts);
  Output output(options.output, standard_output);
  output.write(table.data(), table.size());
  output.close();
}

// A robot with loops (docs/loops.md): the trajectory CSV gives the actuated joints only,
// t,q<j>...,qd<j>...,qdd<j>...; each row is assembled from the previous row's solution and the
// quantity written row by row.
void run_closed(const RobotFile& robot, const RidimOptions& options, std::istream& standard_input,
                std::ostream& standard_output) {
  const auto refuse = [&robot](bool given, const std::string& what) {
    if (given)
      throw InputError(robot.path + ": " + what + " does not apply to a robot with loops " +
                       "(docs/loops.md)");
  };
  refuse(options.count_operations, "--count-operations");
  refuse(!options.wrench.empty(), "--wrench");
  if (options.trajectory.empty()) {
    throw InputError(robot.path +
                     ": the robot has loops, so ridim needs a trajectory CSV of the actuated "
                     "joints, t,q<j>...,qd<j>...,qdd<j>... (or - for standard input)");
  }
  std::ifstream file_in;
  CsvReader reader = open_trajectory(options, standard_input, file_in);
  std::vector<std::string> header{"t"};
  for (const std::string& column : actuated_columns(robot.loops, {"q", "qd", "qdd"}))
    header.push_back(column);
  reader.read_header(header);
  reader.require_increasing_time();
  const int f = static_cast<int>(robot.loops.actuated.size());
  VecX<double> values(1 + 3 * f);
  if (!reader.next_row(values)) reader.fail_no_samples();
  ClosedLoopSamples samples(robot, options.quantity, *options.algorithm,
                            {options.friction, false, options.body_frame});
  if (options.quantity == Quantity::constraint_forces && samples.redundant()) {
    std::cerr << "ridim: note: " << robot.path
              << ": the loop equations are redundant, so the constraint forces written are "
                 "those of least norm (docs/loops.md)\n";
  }
  Output output(options.output, standard_output);
  CsvWriter csv(output);
  csv.set_source(reader.name());
  header = {"t"};
  header.insert(header.end(), samples.columns().begin(), samples.columns().end());
  csv.header(header);
  VecX<double> row(samples.size());
  do {
    const double t = values[0];
    try {
      samples.evaluate(values.segment(1, f), values.segment(1 + f, f), values.segment(1 + 2 * f, f),
                       row);
    } catch (const RunError& e) {
      throw RunError(reader.name() + ":" + std::to_string(reader.line_number()) +
                     ": at t = " + shortest(t) + ": " + e.message());
    }
    csv.set_source_line(reader.line_number());
    csv.row(t, row);
  } while (reader.next_row(values));
  csv.finish();
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
    std::cerr << "ridim: warning: " << on_command_line(warning) << '\n';
  if (!options.export_dh.empty() && options.export_path.empty())
    throw InputError("--dh: applies only with --export");
  if (options.describe) {  // to -o when given, checked like every output
    std::ostringstream text;
    describe_robot(text, robot);
    const std::string described = on_command_line(text.str());
    Output output(options.output, standard_output);
    output.write(described.data(), described.size());
    output.close();
  }
  if (!options.export_path.empty()) {
    std::optional<DhConvention> convention;
    if (options.export_dh == "standard") convention = DhConvention::standard;
    if (options.export_dh == "modified") convention = DhConvention::modified;
    for (const std::string& note : export_robot(robot, options.export_path, convention))
      std::cerr << "ridim: warning: " << options.export_path << ": " << on_command_line(note)
                << '\n';
    return;
  }
  if (options.describe) return;
  if (needs_loops(options.quantity) && !robot.has_loops()) {
    throw InputError(robot.path + ": " +
                     mention(Parameter::quantity, quantity_name(options.quantity)) +
                     " is of a robot with loops (docs/loops.md); this one has none");
  }
  RidimOptions resolved = options;
  resolved.algorithm = choose_route(options.quantity, options.algorithm, robot);  // before output
  resolved.body_frame =
      choose_frame(options.quantity, options.frame, !options.wrench.empty(), robot);
  if (robot.has_loops()) {
    run_closed(robot, resolved, standard_input, standard_output);
    return;
  }
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
