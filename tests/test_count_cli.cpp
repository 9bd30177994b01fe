// --count-operations end to end (docs/operation-counts.md): ridim with every quantity and each of
// its routes, rfdsim with every route, one header and one row holding the library's counts at
// the first sample or the initial state; the combinations the counts would silently ignore, and
// those that compute nothing, exit 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/rfdsim.hpp"
#include "cli/ridim.hpp"
#include "denoc/engine/count_quantity.hpp"
#include "denoc/io/frames.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/cli_support.hpp"

namespace {

using cli::fields_of;
using cli::lines_of;
using cli::Result;
using denoc::OperationCounts;
using denoc::VecX;

const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";
const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";
const std::string kHeader =
    "quantity,algorithm,n,multiplications,additions,divisions,square_roots,sines_cosines";

class CountCli : public cli::CliTest {
 protected:
  Result ridim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RIDIM_EXE, args, input);
  }
  Result rfdsim(const std::string& args) { return run(DENOC_RFDSIM_EXE, args); }
};

// The app's output as {quantity, algorithm, n, counts}; fails the test unless it is the header
// and one row of eight fields.
struct Row {
  std::string quantity, algorithm;
  int n = 0;
  OperationCounts counts;
};
Row row_of(const Result& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> lines = lines_of(r.out);
  EXPECT_EQ(lines.size(), 2u) << r.out;
  if (lines.size() != 2) return {};
  EXPECT_EQ(lines[0], kHeader);
  const std::vector<std::string> f = fields_of(lines[1]);
  EXPECT_EQ(f.size(), 8u) << lines[1];
  if (f.size() != 8) return {};
  for (std::size_t k = 2; k < 8; ++k)
    EXPECT_EQ(f[k].find_first_not_of("0123456789"), std::string::npos) << lines[1];
  return {f[0], f[1], std::stoi(f[2]),
          OperationCounts{std::stoll(f[3]), std::stoll(f[4]), std::stoll(f[5]), std::stoll(f[6]),
                          std::stoll(f[7])}};
}

// Every quantity by each of its routes, at the first sample of the robot file's trajectory: the
// library's counts of that evaluation.
TEST_F(CountCli, RidimCountsEveryQuantityByEachRouteAtTheFirstSample) {
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  const int n = robot.dof();
  VecX<double> q(n), qd(n), qdd(n);
  robot.trajectory->evaluate(robot.trajectory->sample_time(0), q, qd, qdd);
  for (const auto& [name, quantity] : denoc::quantity_names()) {
    if (denoc::needs_loops(quantity)) continue;  // docs/loops.md: not counted
    for (denoc::Route route : denoc::algorithms_for(quantity)) {
      const std::string algorithm = denoc::route_name(route);
      const Row row = row_of(ridim(kStanford + " --count-operations --quantity " + name +
                                   " --algorithm " + algorithm));
      EXPECT_EQ(row.quantity, name);
      EXPECT_EQ(row.algorithm, algorithm);
      EXPECT_EQ(row.n, 6);
      EXPECT_EQ(row.counts, denoc::count_ridim_quantity(quantity, route, robot.model, q, qd, qdd))
          << name << " " << algorithm;
      EXPECT_GT(row.counts.multiplications, 0) << name << " " << algorithm;
      // Every route takes the sine and cosine of each of the 6 joints at least once.
      EXPECT_GE(row.counts.sines_cosines, 12) << name << " " << algorithm;
    }
  }
}

// --frame is counted as ridim computes it: the Jacobian of the shoulder's frame has columns for
// the first two joints only, so fewer products than the tool frame's, and the library counts the
// same with that frame.
TEST_F(CountCli, RidimCountsTheFrameChosen) {
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  const int n = robot.dof();
  VecX<double> q(n), qd(n), qdd(n);
  robot.trajectory->evaluate(robot.trajectory->sample_time(0), q, qd, qdd);
  const std::string jacobian = kStanford + " --count-operations --quantity jacobian";
  const Row tool = row_of(ridim(jacobian));
  const Row shoulder = row_of(ridim(jacobian + " --frame shoulder"));
  EXPECT_LT(shoulder.counts.multiplications, tool.counts.multiplications);
  EXPECT_EQ(shoulder.counts,
            denoc::count_ridim_quantity(denoc::Quantity::jacobian, denoc::Route::denoc, robot.model,
                                        q, qd, qdd, denoc::find_frame(robot, "shoulder")));
}

// The defaults (torques by denoc), a trajectory CSV on standard input (its first row only) and -o.
TEST_F(CountCli, RidimDefaultsTrajectoryCsvAndOutputFile) {
  const Row defaults = row_of(ridim(kPlanar + " --count-operations"));
  EXPECT_EQ(defaults.quantity, "torques");
  EXPECT_EQ(defaults.algorithm, "denoc");
  EXPECT_EQ(defaults.n, 3);
  const std::string csv =
      "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n0,0.1,0.2,0.3,1,2,3,4,5,6\n0.01,0,0,0,0,0,0,0,0,0\n";
  const Row from_csv = row_of(ridim(kPlanar + " - --count-operations --quantity bias", csv));
  const denoc::RobotFile robot = denoc::load_robot_file(kPlanar);
  const VecX<double> q = VecX<double>::LinSpaced(3, 0.1, 0.3),
                     qd = VecX<double>::LinSpaced(3, 1, 3), qdd = VecX<double>::LinSpaced(3, 4, 6);
  EXPECT_EQ(from_csv.counts, denoc::count_ridim_quantity(denoc::Quantity::bias, denoc::Route::denoc,
                                                         robot.model, q, qd, qdd));
  const Result to_file = ridim(kPlanar + " --count-operations -o counts.csv");
  EXPECT_EQ(to_file.status, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(lines_of(read("counts.csv")).at(0), kHeader);
}

// Every forward-dynamics route at the robot file's initial state, with or without --free-fall or
// --torques (neither is read), and at --q0.
TEST_F(CountCli, RfdsimCountsOneForwardDynamicsEvaluationByEachRoute) {
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  const VecX<double> q = robot.initial_q.value_or(VecX<double>::Zero(6)),
                     qd = robot.initial_qd.value_or(VecX<double>::Zero(6));
  for (const auto& [algorithm, route] : denoc::algorithm_names()) {
    const Row row = row_of(rfdsim(kStanford + " --count-operations --algorithm " + algorithm));
    EXPECT_EQ(row.quantity, "forward-dynamics");
    EXPECT_EQ(row.algorithm, algorithm);
    EXPECT_EQ(row.n, 6);
    EXPECT_EQ(row.counts, denoc::count_forward_dynamics(route, robot.model, q, qd)) << algorithm;
    EXPECT_EQ(row_of(rfdsim(kStanford + " --free-fall --count-operations --algorithm " + algorithm))
                  .counts,
              row.counts);
    EXPECT_EQ(row_of(rfdsim(kStanford + " --torques missing.csv --count-operations --q0 " +
                            "0.1,0.2,0.3,0.4,0.5,0.6 --algorithm " + algorithm))
                  .counts,
              row.counts);
  }
}

// What the counts would leave out, or what computes nothing, is refused with exit 2 and a message
// naming both options; so is a route that does not compute the quantity or cannot treat the robot.
TEST_F(CountCli, BadCombinationsExitTwo) {
  const std::string kPlanarDrives = std::string(DENOC_ROBOTS_DIR) + "/planar3_drives.yaml";
  write("wrench.csv", "t,fx,fy,fz,nx,ny,nz\n0,0,0,0,0,0,0\n");
  const std::vector<std::pair<std::string, std::string>> ridim_cases = {
      {kStanford + " --count-operations --wrench wrench.csv", "--wrench"},
      {kStanford + " --count-operations --describe", "--count-operations"},
      {kStanford + " --count-operations --export out.yaml", "--count-operations"},
      {kStanford + " --count-operations --quantity mass-matrix --algorithm udu", "udu"},
      {kPlanarDrives + " --count-operations --quantity inverse-mass-matrix --algorithm fixman",
       "fixman"}};
  for (const auto& [args, named] : ridim_cases) {
    const Result r = ridim(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << ": " << r.err;
  }
  for (const std::string& args : {kStanford + " --count-operations --stats",
                                  kStanford + " --count-operations --wrench " + "wrench.csv",
                                  kPlanarDrives + " --count-operations --algorithm fixman"}) {
    const Result r = rfdsim(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.out, "") << args;
  }
  // planar3's thin rods are not refused: the Fixman route borders them (docs/fixman.md).
  EXPECT_EQ(rfdsim(kPlanar + " --count-operations --algorithm fixman").status, 0);
}

}  // namespace
