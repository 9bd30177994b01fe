// ridim end to end: the real executable on the shipped robots and on files made here, checked
// against the library; exit codes and messages for bad input (docs/csv.md, docs/command-line.md and
// docs/errors.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>

#include "denoc/denoc.hpp"
#include "denoc/engine/closed_loop_samples.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/cli_support.hpp"
#include "support/fixtures.hpp"

namespace {

using cli::lines_of;
using cli::numbers_of;
using cli::random_trajectory;
using cli::Result;
using cli::slurp;

class RidimCli : public cli::CliTest {
 protected:
  Result ridim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RIDIM_EXE, args, input);
  }
};

const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";
const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";

// The file named by "--export FILE ...".
std::string fields_of_args(const std::string& args) {
  const std::size_t start = args.find(' ') + 1;
  return args.substr(start, args.find(' ', start) - start);
}

TEST_F(RidimCli, StanfordBuiltInTrajectory) {
  const Result r = ridim("'" + kStanford + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1002u);  // header + 1001 samples
  EXPECT_EQ(lines[0], "t,tau1,tau2,tau3,tau4,tau5,tau6");
  EXPECT_EQ(numbers_of(lines[1])[0], 0.0);
  EXPECT_EQ(numbers_of(lines[1001])[0], 10.0);

  // Each row equals the library's torques on the cycloidal trajectory (SampleQuantities, which
  // takes packs of samples here) to the last bit, and the scalar recursion's to 1e-14 of the
  // largest torque (tests/test_lanes.cpp).
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  denoc::SampleQuantities torques(robot, denoc::Quantity::torques, denoc::Route::denoc);
  denoc::Workspace<double> ws(robot.model);
  denoc::VecX<double> q(6), qd(6), qdd(6), expected(6);
  for (int k : {0, 1, 377, 1000}) {
    const double t = robot.trajectory->sample_time(k);
    robot.trajectory->evaluate(t, q, qd, qdd);
    const auto row = numbers_of(lines[static_cast<std::size_t>(k) + 1]);
    EXPECT_EQ(row[0], t);
    torques.evaluate(q, qd, qdd, expected);
    const denoc::VecX<double>& tau = denoc::inverse_dynamics(robot.model, ws, q, qd, qdd);
    const double scale = std::max(1.0, tau.cwiseAbs().maxCoeff());
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(row[static_cast<std::size_t>(i) + 1], expected[i]);
      EXPECT_NEAR(row[static_cast<std::size_t>(i) + 1], tau[i], 1e-14 * scale);
    }
  }
}

// ridim reads, computes and writes on three threads, a block of rows at a time (docs/ridim.md):
// over many blocks the rows come out in input order with the library's values, and a bad line
// late in the file stops the run after exactly the rows before it, as one thread would.
TEST_F(RidimCli, ManyBlocksInOrderAndALateBadLine) {
  std::vector<denoc::VecX<double>> states;
  const std::string good = random_trajectory(6, 5000, states);
  std::vector<std::string> lines = lines_of(good);
  const std::size_t bad_row = 3500;  // on line 3502: the header is line 1
  lines[bad_row + 1] = "35,1,2,abc,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
  std::string bad;
  for (const std::string& line : lines)
    bad += line + "\n";
  write("good.csv", good);
  write("bad.csv", bad);

  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  denoc::SampleQuantities torques(robot, denoc::Quantity::torques, denoc::Route::denoc);
  denoc::VecX<double> expected(6);
  const Result r = ridim("'" + kStanford + "' good.csv -o good_out.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines_of(slurp(dir_ / "good_out.csv"));
  ASSERT_EQ(rows.size(), states.size() + 1);
  for (std::size_t k = 0; k < states.size(); ++k) {
    const auto row = numbers_of(rows[k + 1]);
    ASSERT_EQ(row[0], 0.01 * static_cast<double>(k)) << "row " << k;
    const denoc::VecX<double>& s = states[k];
    torques.evaluate(s.segment(0, 6), s.segment(6, 6), s.segment(12, 6), expected);
    for (int i = 0; i < 6; ++i)
      ASSERT_EQ(row[static_cast<std::size_t>(i) + 1], expected[i]) << "row " << k;
  }
  // The same rows from standard input.
  EXPECT_EQ(ridim("'" + kStanford + "' -", good).out, slurp(dir_ / "good_out.csv"));

  const Result b = ridim("'" + kStanford + "' bad.csv -o bad_out.csv");
  EXPECT_EQ(b.status, 2);
  EXPECT_NE(b.err.find("bad.csv:3502: "), std::string::npos) << b.err;
  const auto written = lines_of(slurp(dir_ / "bad_out.csv"));
  ASSERT_EQ(written.size(), bad_row + 1);  // the header and the rows before the bad line
  EXPECT_EQ(written.back(), rows[bad_row]);
}

TEST_F(RidimCli, EveryQuantityEqualsTheLibrary) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 25, states));
  const denoc::RobotFile robot = denoc::load_robot_file(kPlanar);
  const denoc::Model<double>& model = robot.model;
  denoc::Workspace<double> ws(model);
  using Q = denoc::ConstVectorRef<double>;
  // Matrices are transposed so that their column-major storage lists the row-major output order.
  struct Case {
    std::string option, header;
    std::function<denoc::MatX<double>(Q, Q, Q)> expected;
  };
  const auto torques = [&](Q q, Q qd, Q qdd) -> denoc::MatX<double> {
    return denoc::inverse_dynamics(model, ws, q, qd, qdd);
  };
  const Case cases[] = {
      {"", "t,tau1,tau2,tau3", torques},
      {"--quantity torques", "t,tau1,tau2,tau3", torques},
      {"--quantity mass-matrix", "t,M_1_1,M_1_2,M_1_3,M_2_1,M_2_2,M_2_3,M_3_1,M_3_2,M_3_3",
       [&](Q q, Q, Q) -> denoc::MatX<double> {
         return denoc::generalized_inertia(model, ws, q).transpose();
       }},
      {"--quantity inverse-mass-matrix",
       "t,Minv_1_1,Minv_1_2,Minv_1_3,Minv_2_1,Minv_2_2,Minv_2_3,Minv_3_1,Minv_3_2,Minv_3_3",
       [&](Q q, Q, Q) -> denoc::MatX<double> {
         return denoc::inverse_inertia_udu(model, ws, q).transpose();
       }},
      {"--quantity bias", "t,h1,h2,h3",
       [&](Q q, Q qd, Q) -> denoc::MatX<double> { return denoc::bias_forces(model, ws, q, qd); }},
      {"--quantity gravity", "t,g1,g2,g3",
       [&](Q q, Q, Q) -> denoc::MatX<double> { return denoc::gravity_forces(model, ws, q); }},
      {"--quantity coriolis", "t,C_1_1,C_1_2,C_1_3,C_2_1,C_2_2,C_2_3,C_3_1,C_3_2,C_3_3",
       [&](Q q, Q qd, Q) -> denoc::MatX<double> {
         return denoc::convective_inertia(model, ws, q, qd).transpose();
       }},
      {"--quantity udu", "t,U_1_1,U_1_2,U_1_3,U_2_1,U_2_2,U_2_3,U_3_1,U_3_2,U_3_3,D_1,D_2,D_3",
       [&](Q q, Q, Q) -> denoc::MatX<double> {
         denoc::udu_factors(model, ws, q);
         denoc::VecX<double> row(12);
         row << Eigen::Map<const denoc::VecX<double>>(
             denoc::MatX<double>(ws.articulated.U.transpose()).data(), 9),
             ws.articulated.m_hat;
         return row;
       }}};
  for (const Case& c : cases) {
    const std::string& option = c.option;
    const Result r = ridim("'" + kPlanar + "' traj.csv " + option);
    ASSERT_EQ(r.status, 0) << option << ": " << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), states.size() + 1) << option;
    EXPECT_EQ(lines[0], c.header);
    for (std::size_t k = 0; k < states.size(); ++k) {
      const denoc::VecX<double>& s = states[k];
      const denoc::MatX<double> expected =
          c.expected(s.segment(0, 3), s.segment(3, 3), s.segment(6, 3));
      const auto row = numbers_of(lines[k + 1]);
      ASSERT_EQ(row.size(), static_cast<std::size_t>(expected.size()) + 1);
      EXPECT_EQ(row[0], 0.01 * static_cast<double>(k));
      for (Eigen::Index i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(row[static_cast<std::size_t>(i) + 1], expected.data()[i]) << option;
      }
    }
  }
}

// One table lays out every quantity's row (engine/quantities.hpp): the columns ridim writes are as
// many as the entries the library computes, on a fixed and on a floating base, and each is named
// once.
TEST(Quantities, EachRowHasAsManyColumnsAsEntries) {
  for (const char* name : {"planar3.yaml", "stanford.yaml", "space_manipulator.yaml"}) {
    const denoc::RobotFile robot =
        denoc::load_robot_file(std::string(DENOC_ROBOTS_DIR) + "/" + name);
    const int n = robot.model.dof();
    for (const auto& [quantity_name, quantity] : denoc::quantity_names()) {
      if (denoc::needs_loops(quantity)) continue;  // ClosedLoopSamples's own test
      const std::vector<std::string> columns =
          denoc::quantity_columns(quantity, n, robot.model.floating());
      const denoc::SampleQuantities sample(robot, quantity,
                                           denoc::choose_route(quantity, std::nullopt, robot));
      EXPECT_EQ(static_cast<Eigen::Index>(columns.size()), sample.size())
          << name << ": " << quantity_name;
      std::vector<std::string> sorted = columns;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end())
          << name << ": " << quantity_name << " names a column twice";
    }
  }
}

// The derivatives (docs/derivatives.md): ridim's rows are the library's, friction included,
// two n x n matrices after t (to rounding: ridim takes packs of samples); their routes are checked,
// and --count-operations counts them.
TEST_F(RidimCli, DerivativesAreTheLibrarysWithTheDrivesFriction) {
  const std::string drives = std::string(DENOC_ROBOTS_DIR) + "/planar3_drives.yaml";
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(3, 4, states));
  const Result torques = ridim("'" + drives + "' traj.csv --quantity torque-derivatives");
  ASSERT_EQ(torques.status, 0) << torques.err;
  const std::vector<std::string> lines = lines_of(torques.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].substr(0, 40), "t,dtau_dq_1_1,dtau_dq_1_2,dtau_dq_1_3,dt");
  EXPECT_NE(lines[0].find(",dtau_dq_3_3,dtau_dqd_1_1,"), std::string::npos) << lines[0];
  const denoc::RobotFile robot = denoc::load_robot_file(drives);
  denoc::Workspace<double> ws(robot.model);
  denoc::DerivativesWorkspace<double> d(robot.model);
  for (std::size_t r = 0; r < states.size(); ++r) {
    const denoc::VecX<double>& x = states[r];
    const std::vector<double> row = numbers_of(lines[r + 1]);
    ASSERT_EQ(row.size(), 19u);
    denoc::inverse_dynamics_derivatives(robot.model, d, x.head(3), x.segment(3, 3), x.tail(3),
                                        true);
    // ridim computes them in packs of samples: within 1e-14 of the scalar route (lanes.hpp).
    const double scale = std::max(d.dtau_dq.cwiseAbs().maxCoeff(), d.dtau_dv.cwiseAbs().maxCoeff());
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        EXPECT_NEAR(row[1 + 3 * i + j], d.dtau_dq(i, j), 1e-14 * scale);
        EXPECT_NEAR(row[10 + 3 * i + j], d.dtau_dv(i, j), 1e-14 * scale);
      }
  }
  // The viscous friction is in: --no-friction gives the diagonal less G^2 B (0.05 at joint 1).
  const Result without =
      ridim("'" + drives + "' traj.csv --quantity torque-derivatives --no-friction");
  ASSERT_EQ(without.status, 0) << without.err;
  EXPECT_NEAR(numbers_of(lines[1])[10] - numbers_of(lines_of(without.out)[1])[10], 0.05, 1e-12);

  const Result accelerations =
      ridim("'" + drives + "' traj.csv --quantity acceleration-derivatives");
  ASSERT_EQ(accelerations.status, 0) << accelerations.err;
  EXPECT_EQ(lines_of(accelerations.out)[0].substr(0, 15), "t,dqdd_dq_1_1,d");

  const Result wrong_route =
      ridim("'" + drives + "' traj.csv --quantity acceleration-derivatives --algorithm denoc");
  EXPECT_EQ(wrong_route.status, 2);
  EXPECT_NE(wrong_route.err.find("the routes for it are udu"), std::string::npos)
      << wrong_route.err;
  for (const char* quantity : {"torque-derivatives", "acceleration-derivatives"}) {
    const Result counted =
        ridim("'" + drives + "' traj.csv --count-operations --quantity " + quantity);
    ASSERT_EQ(counted.status, 0) << counted.err;
    EXPECT_EQ(lines_of(counted.out)[1].substr(0, std::string(quantity).size()), quantity);
  }
}

TEST_F(RidimCli, StandardInputAndOutputFile) {
  std::vector<denoc::VecX<double>> states;
  const std::string csv = random_trajectory(3, 10, states);
  const Result from_file = ridim("'" + kPlanar + "' " + write("traj.csv", csv).string());
  const Result from_stdin = ridim("'" + kPlanar + "' - -o out.csv", csv);
  ASSERT_EQ(from_stdin.status, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, "");  // quiet when writing a file
  EXPECT_EQ(slurp(dir_ / "out.csv"), from_file.out);
}

TEST_F(RidimCli, MalformedTrajectoryNamesTheLine) {
  const std::string header = "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n";
  const std::string good = "0,1,2,3,4,5,6,7,8,9\n";
  const std::string later = "0.05,1,2,3,4,5,6,7,8,9\n";  // time increases row to row
  write("short.csv", header + good + later + "0.1,1,2,3,4,5,6,7,8\n" + good);
  Result r = ridim("'" + kPlanar + "' short.csv -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("short.csv:4: expected 10 columns, found 9"), std::string::npos) << r.err;
  // The two rows before the bad one stay in the output.
  EXPECT_EQ(lines_of(slurp(dir_ / "out.csv")).size(), 3u);

  write("word.csv", header + good + "0,1,abc,3,4,5,6,7,8,9\n");
  r = ridim("'" + kPlanar + "' word.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("word.csv:3: column 3 (q2): 'abc' is not a finite number"),
            std::string::npos)
      << r.err;

  write("header.csv", "t,q1,q2\n" + good);
  r = ridim("'" + kPlanar + "' header.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("header.csv:1: header has 3 columns, expected 10"), std::string::npos)
      << r.err;

  r = ridim("'" + kPlanar + "' missing.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.csv: cannot open"), std::string::npos) << r.err;
}

TEST_F(RidimCli, BadRobotFileNamesTheKeyAndKeepsTheOutputFile) {
  std::string text = slurp(kPlanar);
  text.replace(text.find("mass: 3"), 7, "mass: -3");
  write("bad.yaml", text);
  write("out.csv", "precious\n");
  Result r = ridim("bad.yaml -o out.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.yaml: links[1].mass: must be positive"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out.csv"), "precious\n");

  text = slurp(kPlanar);
  text.replace(text.find("    mass: 2\n"), 12, "");
  write("nomass.yaml", text);
  r = ridim("nomass.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nomass.yaml: links[2].mass: missing"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// docs/command-line.md: every route of every quantity, on the Stanford arm (revolute and prismatic
// joints). Each route's rows are the library's own to the last bit, and the routes agree with one
// another: torques and inertia matrices to 1e-12 relative, inverses to 1e-10.
TEST_F(RidimCli, EveryRouteOfEveryQuantity) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(6, 20, states));
  const denoc::RobotFile robot = denoc::load_robot_file(kStanford);
  const denoc::Model<double>& model = robot.model;
  denoc::Workspace<double> ws(model);
  denoc::GibbsAppellWorkspace<double> ga(model);
  denoc::FixmanWorkspace<double> fx(model);
  using Q = denoc::ConstVectorRef<double>;
  using Route = std::function<denoc::MatX<double>(Q, Q, Q)>;
  // The DeNOC route of the quantities that packs of samples compute (src/denoc/lanes) as the
  // library gives them to ridim, SampleQuantities: within 1e-14 of the scalar recursions
  // (tests/test_lanes.cpp), and ridim's rows are these bit for bit.
  const auto sample_quantity = [&robot](denoc::Quantity quantity) -> Route {
    auto quantities =
        std::make_shared<denoc::SampleQuantities>(robot, quantity, denoc::Route::denoc);
    return [quantities](Q q, Q qd, Q qdd) -> denoc::MatX<double> {
      denoc::VecX<double> row(quantities->size());
      quantities->evaluate(q, qd, qdd, row);
      return row;
    };
  };
  struct Case {
    std::string quantity;
    double tolerance;
    std::vector<std::pair<std::string, Route>> routes;  // the default first
  };
  const Case cases[] = {{"torques",
                         1e-12,
                         {{"denoc", sample_quantity(denoc::Quantity::torques)},
                          {"gibbs-appell",
                           [&](Q q, Q qd, Q qdd) -> denoc::MatX<double> {
                             return denoc::gibbs_appell_inverse_dynamics(model, ga, q, qd, qdd);
                           }}}},
                        {"bias",
                         1e-12,
                         {{"denoc", sample_quantity(denoc::Quantity::bias)},
                          {"gibbs-appell",
                           [&](Q q, Q qd, Q) -> denoc::MatX<double> {
                             return denoc::gibbs_appell_bias(model, ga, q, qd);
                           }}}},
                        {"gravity",
                         1e-12,
                         {{"denoc", sample_quantity(denoc::Quantity::gravity)},
                          {"gibbs-appell",
                           [&](Q q, Q, Q) -> denoc::MatX<double> {
                             return denoc::gibbs_appell_gravity(model, ga, q);
                           }}}},
                        {"mass-matrix",
                         1e-12,
                         {{"denoc", sample_quantity(denoc::Quantity::mass_matrix)},
                          {"gibbs-appell",
                           [&](Q q, Q, Q) -> denoc::MatX<double> {
                             return denoc::gibbs_appell_inertia(model, ga, q).transpose();
                           }}}},
                        {"inverse-mass-matrix",
                         1e-10,
                         {{"udu",
                           [&](Q q, Q, Q) -> denoc::MatX<double> {
                             return denoc::inverse_inertia_udu(model, ws, q).transpose();
                           }},
                          {"fixman",
                           [&](Q q, Q, Q) -> denoc::MatX<double> {
                             return denoc::fixman_inverse_inertia(model, fx, q).transpose();
                           }},
                          {"cholesky", [&](Q q, Q, Q) -> denoc::MatX<double> {
                             return denoc::inverse_generalized_inertia(model, ws, q).transpose();
                           }}}}};
  for (const Case& c : cases) {
    std::vector<std::vector<std::vector<double>>> outputs;  // per route, its rows
    for (std::size_t k = 0; k <= c.routes.size(); ++k) {
      // k == 0: no --algorithm, which must be the first (default) route.
      const auto& [name, route] = c.routes[k == 0 ? 0 : k - 1];
      const std::string option =
          "--quantity " + c.quantity + (k == 0 ? std::string() : " --algorithm " + name);
      const Result r = ridim("'" + kStanford + "' traj.csv " + option);
      ASSERT_EQ(r.status, 0) << option << ": " << r.err;
      const auto lines = lines_of(r.out);
      ASSERT_EQ(lines.size(), states.size() + 1) << option;
      std::vector<std::vector<double>> rows;
      for (std::size_t j = 0; j < states.size(); ++j) {
        const denoc::VecX<double>& s = states[j];
        const denoc::MatX<double> expected =
            route(s.segment(0, 6), s.segment(6, 6), s.segment(12, 6));
        rows.push_back(numbers_of(lines[j + 1]));
        ASSERT_EQ(rows.back().size(), static_cast<std::size_t>(expected.size()) + 1) << option;
        for (Eigen::Index i = 0; i < expected.size(); ++i)
          EXPECT_EQ(rows.back()[static_cast<std::size_t>(i) + 1], expected.data()[i]) << option;
      }
      outputs.push_back(rows);
    }
    for (std::size_t k = 1; k < outputs.size(); ++k) {
      for (std::size_t j = 0; j < states.size(); ++j) {
        const auto& a = outputs[k][j];
        const auto& b = outputs[0][j];
        double diff = 0, norm = 0;
        for (std::size_t i = 1; i < a.size(); ++i) {
          diff += (a[i] - b[i]) * (a[i] - b[i]);
          norm += b[i] * b[i];
        }
        EXPECT_LE(std::sqrt(diff), c.tolerance * std::sqrt(norm)) << c.quantity << " route " << k;
      }
    }
  }
}

// Through the app alone, on the Puma 560 with its drives (rotors and friction, as in Corke's
// toolbox): C qd = bias - gravity once the friction is left out, and U D U^T = mass-matrix.
TEST_F(RidimCli, CoriolisAndUduAgreeWithTheOtherOutputs) {
  std::vector<denoc::VecX<double>> states;
  write("traj.csv", random_trajectory(6, 10, states));
  const std::string robot = "'" + std::string(DENOC_ROBOTS_DIR) + "/puma560.yaml' traj.csv ";
  auto rows = [&](const std::string& options) {
    const Result r = ridim(robot + options);
    EXPECT_EQ(r.status, 0) << options << ": " << r.err;
    std::vector<std::vector<double>> out;
    const auto lines = lines_of(r.out);
    for (std::size_t k = 1; k < lines.size(); ++k)
      out.push_back(numbers_of(lines[k]));
    return out;
  };
  const auto C = rows("--quantity coriolis"), h = rows("--quantity bias --no-friction"),
             g = rows("--quantity gravity"), udu = rows("--quantity udu"),
             M = rows("--quantity mass-matrix");
  ASSERT_EQ(C.size(), states.size());
  for (std::size_t k = 0; k < states.size(); ++k) {
    using RowMajor = Eigen::Matrix<double, 6, 6, Eigen::RowMajor>;
    ASSERT_EQ(C[k].size(), 37u);
    ASSERT_EQ(udu[k].size(), 43u);
    const RowMajor C_k(C[k].data() + 1), U(udu[k].data() + 1), M_k(M[k].data() + 1);
    const Eigen::Map<const denoc::VecX<double>> D(udu[k].data() + 37, 6);
    const denoc::VecX<double> qd = states[k].segment(6, 6);
    for (int i = 0; i < 6; ++i) {
      const double h_less_g =
          h[k][static_cast<std::size_t>(i) + 1] - g[k][static_cast<std::size_t>(i) + 1];
      EXPECT_NEAR(C_k.row(i).dot(qd), h_less_g, 1e-12 * (1 + std::abs(h_less_g))) << "t " << k;
    }
    EXPECT_TRUE(U.isUpperTriangular(0.0));
    EXPECT_EQ(U.diagonal(), denoc::VecX<double>::Ones(6));
    EXPECT_LT((U * D.asDiagonal() * U.transpose() - M_k).cwiseAbs().maxCoeff(),
              1e-12 * M_k.cwiseAbs().maxCoeff());
  }
}

TEST_F(RidimCli, AlgorithmMustApplyToTheQuantity) {
  Result r = ridim("'" + kStanford + "' --quantity torques --algorithm fixman");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--algorithm fixman"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--quantity torques"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = ridim("'" + kStanford + "' --quantity inverse-mass-matrix --algorithm gibbs-appell -o x.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("udu, fixman, cholesky"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.csv"));
  EXPECT_EQ(ridim("'" + kStanford + "' --algorithm no-such-route").status, 2);
  r = ridim("'" + kStanford + "' --quantity coriolis --algorithm gibbs-appell");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the routes for it are denoc"), std::string::npos) << r.err;
  r = ridim("'" + kStanford + "' --quantity udu --algorithm cholesky");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the routes for it are udu"), std::string::npos) << r.err;
  // Drives' rotors are no bodies of the chain: the Fixman route, which inverts the free bodies'
  // mass matrix, refuses them with its reason instead of a wrong number.
  r = ridim("'" + std::string(DENOC_ROBOTS_DIR) +
            "/planar3_drives.yaml' --quantity inverse-mass-matrix --algorithm fixman");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--algorithm fixman: the drives"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(RidimCli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(ridim("").status, 2);
  EXPECT_EQ(ridim("'" + kPlanar + "' --quantity torque-ish").status, 2);
  EXPECT_EQ(ridim("no-such-robot.yaml").status, 2);
  const Result help = ridim("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--quantity"), std::string::npos);
}

// The UR5 (tests/fixtures/ur5_robot.urdf): its moving joints form one chain, whose last link
// carries ee_link and tool0 on fixed joints side by side. Read as that chain without --tip
// (docs/urdf.md): torques, mass matrix and simulation need no tool frame; pose, jacobian and
// --wrench ask for
// --frame or --tip, and either end named gives the same pose as that end made the tip.
TEST_F(RidimCli, UrdfWhoseMovingJointsFormOneChainNeedsNoTip) {
  write("ur5.urdf", denoc_test::fixture_text("ur5_robot.urdf"));
  std::vector<denoc::VecX<double>> states;
  const std::string csv = random_trajectory(6, 4, states);
  Result r = ridim("ur5.urdf -", csv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(ridim("ur5.urdf - --tip tool0", csv).out, r.out);
  EXPECT_EQ(ridim("ur5.urdf - --quantity mass-matrix", csv).status, 0);
  r = ridim("ur5.urdf - --quantity pose", csv);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "ridim: ur5.urdf: the chain ends in 2 links side by side (ee_link, tool0) and none of "
            "them is the tool frame, so --quantity pose needs --frame (a link whose frame it "
            "refers to) or --tip\n");
  for (const char* end : {"tool0", "ee_link"}) {
    const Result named = ridim(std::string("ur5.urdf - --quantity jacobian --frame ") + end, csv),
                 tipped = ridim(std::string("ur5.urdf - --quantity jacobian --tip ") + end, csv);
    EXPECT_EQ(named.status, 0) << named.err;
    EXPECT_EQ(named.out, tipped.out) << end;
  }
  r = ridim("ur5.urdf --describe");
  EXPECT_NE(r.out.find("tool frame: none; the chain ends in links side by side (ee_link, tool0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("wrist_3_joint -> wrist_3_link: tool0, ee_link"), std::string::npos)
      << r.out;
  EXPECT_EQ(ridim("ur5.urdf --floating-base --describe").status, 0);
  // rfdsim simulates it, and asks a wrench for a frame.
  r = run(DENOC_RFDSIM_EXE, "ur5.urdf --free-fall --t-end 0.01");
  EXPECT_EQ(r.status, 0) << r.err;
  write("w.csv", "t,fx,fy,fz,nx,ny,nz\n0,0,0,1,0,0,0\n1,0,0,1,0,0,0\n");
  r = run(DENOC_RFDSIM_EXE, "ur5.urdf --free-fall --t-end 0.01 --wrench w.csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("so --wrench needs --frame"), std::string::npos) << r.err;
  r = run(DENOC_RFDSIM_EXE, "ur5.urdf --free-fall --t-end 0.01 --wrench w.csv --frame tool0");
  EXPECT_EQ(r.status, 0) << r.err;
}

// A URDF with two chain ends: the arm (to "hand") and a sensor on a moving joint off link a.
const std::string kTwoEnds = denoc_test::fixture_text("two_ends.urdf");

TEST_F(RidimCli, UrdfRobotFileWithBaseAndTip) {
  write("arm.urdf", kTwoEnds);
  // Without --tip the branching tree is read whole (docs/urdf.md): j1, then a's children in
  // the order of their joints' names, j2 before pan.
  Result r = ridim("arm.urdf --describe");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tree, joints numbered depth-first"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3   pan -> camera"), std::string::npos) << r.out;

  std::vector<denoc::VecX<double>> states;
  const std::string csv = random_trajectory(2, 5, states);
  r = ridim("arm.urdf - --tip hand", csv);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ridim: warning: arm.urdf: carried 1 moving joint(s) of branches"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(": pan at 0"), std::string::npos) << r.err;
  const denoc::RobotFile robot =
      denoc::load_robot_file((dir_ / "arm.urdf").string(), {}, denoc::ChainSelection{"", "hand"});
  denoc::Workspace<double> ws(robot.model);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "t,tau1,tau2");
  for (std::size_t k = 0; k < states.size(); ++k) {
    const denoc::VecX<double>& s = states[k];
    const denoc::VecX<double> tau =
        denoc::inverse_dynamics(robot.model, ws, s.segment(0, 2), s.segment(2, 2), s.segment(4, 2));
    const std::vector<double> row = numbers_of(lines[k + 1]);
    ASSERT_EQ(row.size(), 3u);
    EXPECT_EQ(row[1], tau[0]);
    EXPECT_EQ(row[2], tau[1]);
  }
  // The chain base -> camera is j1 and pan; --base moves the base frame up the tree.
  r = ridim("arm.urdf - --tip camera --quantity gravity",
            "t,q1,q2,qd1,qd2,qdd1,qdd2\n0,0,0,0,0,0,0\n");
  EXPECT_EQ(r.status, 0) << r.err;
  r = ridim("arm.urdf - --base a --tip hand --quantity mass-matrix", "t,q1,qd1,qdd1\n0,0.5,0,0\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 2u);
  r = ridim("arm.urdf - --tip nowhere");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("arm.urdf: --tip nowhere: no link of that name"), std::string::npos)
      << r.err;
  r = ridim("'" + kPlanar + "' --tip hand");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--base and --tip choose the chain of a URDF"), std::string::npos) << r.err;
}

// ridim --export: the Stanford arm written in modified DH and as URDF, read back by ridim,
// gives the same torques (1e-12 relative) along the same trajectory.
TEST_F(RidimCli, ExportReadsBackWithTheSameTorques) {
  std::vector<denoc::VecX<double>> states;
  const std::string csv = random_trajectory(6, 20, states);
  const Result reference = ridim("'" + kStanford + "' -", csv);
  ASSERT_EQ(reference.status, 0) << reference.err;
  const std::vector<std::string> expected = lines_of(reference.out);
  for (const std::string& args :
       {std::string("--export mod.yaml --dh modified"), std::string("--export std.yaml"),
        std::string("--export arm.urdf")}) {
    Result r = ridim("'" + kStanford + "' " + args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(r.out, "");
    const std::string file = fields_of_args(args);
    r = ridim(file + " -", csv);
    ASSERT_EQ(r.status, 0) << file << ": " << r.err;
    const std::vector<std::string> got = lines_of(r.out);
    ASSERT_EQ(got.size(), expected.size());
    double worst = 0;
    for (std::size_t k = 1; k < got.size(); ++k) {
      const std::vector<double> a = numbers_of(expected[k]), b = numbers_of(got[k]);
      double scale = 0;
      for (std::size_t j = 1; j < a.size(); ++j)
        scale = std::max(scale, std::abs(a[j]));
      for (std::size_t j = 1; j < a.size(); ++j)
        worst = std::max(worst, std::abs(a[j] - b[j]) / scale);
    }
    EXPECT_LT(worst, 1e-12) << file;
  }
  EXPECT_NE(slurp(dir_ / "mod.yaml").find("dh: modified"), std::string::npos);
  // The URDF has no gravity, initial state or trajectory: said on standard error.
  Result r = ridim("'" + kStanford + "' --export arm.urdf");
  EXPECT_NE(r.err.find("ridim: warning: arm.urdf: URDF has no initial state or trajectory"),
            std::string::npos)
      << r.err;
  r = ridim("'" + kStanford + "' --export arm.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("must end in .yaml, .yml or .urdf"), std::string::npos) << r.err;
  r = ridim("'" + kStanford + "' --export arm.urdf --dh modified");
  EXPECT_EQ(r.status, 2);
  r = ridim("'" + kStanford + "' --dh modified");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--dh: applies only with --export"), std::string::npos) << r.err;
}

// inertia_checks: warn: warnings on standard error, and exit 1 with the rows so far kept when
// the inertia matrix stops being positive definite (docs/robot-file.md).
TEST_F(RidimCli, InertiaChecksWarnFailsAtRunTimeWhenTheMassMatrixIsSingular) {
  std::string text = slurp(kPlanar);
  text.replace(text.find("dh: standard"), 12, "dh: standard\ninertia_checks: warn");
  text.replace(text.find("inertia: {yy: 0.0225, zz: 0.0225}"), 33,
               "inertia: {zz: 0.0225, yy: 0.1}");
  write("warned.yaml", text);
  Result r = ridim("warned.yaml --quantity gravity");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("ridim: warning: warned.yaml: accepted by inertia_checks: warn, no rigid "
                       "body has links[1].inertia: principal moments"),
            std::string::npos)
      << r.err;
  // A URDF has no inertia_checks key: --inertia-checks warn does the same for it; a robot YAML
  // says it itself.
  r = ridim("warned.yaml --export warned.urdf");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string rest = "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n0,0.1,0.2,0.3,0,0,0,0,0,0\n";
  r = ridim("warned.urdf - --quantity gravity", rest);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("violate the triangle inequality"), std::string::npos) << r.err;
  r = ridim("warned.urdf - --quantity gravity --inertia-checks warn", rest);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ridim: warning: warned.urdf: accepted by --inertia-checks warn, no rigid "
                       "body has link "),
            std::string::npos)
      << r.err;
  r = ridim("warned.yaml --inertia-checks warn");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--inertia-checks is for URDF"), std::string::npos) << r.err;
  // The hand massless and without inertia: M is singular at every state.
  text.replace(text.find("    mass: 2\n"), 11, "    mass: 0\n");
  text.replace(text.find("inertia: {yy: 0.006666666666666667, zz: 0.006666666666666667}"), 62,
               "inertia: {}");
  write("singular.yaml", text);
  // The torques need no factorisation of M: they are computed as under the strict checks.
  r = ridim("singular.yaml -o out.csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 2u) << r.err;  // two warnings
  EXPECT_EQ(lines_of(slurp(dir_ / "out.csv")).size(), 1002u);
  // Its inverse does: the first sample fails, and nothing but the header is written.
  r = ridim("singular.yaml --quantity inverse-mass-matrix -o out.csv");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("at t = 0: the inertia matrix is not positive definite"), std::string::npos)
      << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 3u) << r.err;  // two warnings, one failure
  EXPECT_EQ(lines_of(slurp(dir_ / "out.csv")).size(), 1u);
}

TEST_F(RidimCli, DescribeSaysWhatWasUnderstood) {
  Result r = ridim("'" + kStanford + "' --describe");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* part :
       {"robot: Stanford arm\n", "(robot YAML, standard DH)", "joints: 6 (5 revolute, 1 prismatic)",
        "total mass: 21.1 kg", "DH table, standard (as given", "warnings: none",
        // joint 1 turns about the base z axis; joint 2 about base y (alpha_1 = -90 deg)
        "1   column           revolute   [0, 0, 1]", "2   shoulder         revolute   [0, 1, 0]"}) {
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  }
  // -o takes the description; options that say what to compute are refused, before any output.
  const std::string text = r.out;
  r = ridim("'" + kStanford + "' --describe -o described.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(dir_ / "described.txt"), text);
  for (const char* ignored : {" --quantity mass-matrix", " -", " --dh modified"}) {
    r = ridim("'" + kStanford + "' --describe" + ignored);
    EXPECT_EQ(r.status, 2) << ignored;
    EXPECT_EQ(r.out, "") << ignored;
  }
  write("arm.urdf", kTwoEnds);
  r = ridim("arm.urdf --tip hand --describe");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* part : {"(URDF)", "j2 -> hand", "total mass: 3 kg", "DH table, standard (fitted",
                           "DH table, modified (fitted", "carried 1 moving joint(s)"}) {
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  }
}

// A robot with loops (docs/loops.md): the trajectory gives the actuated joints; the torques, every
// joint's state and the cut joints' wrenches are the library's (ClosedLoopSamples); --describe
// gives the mobility; a loop quantity on a robot without loops, the full state's header and a
// missing trajectory are exit 2.
TEST_F(RidimCli, LoopsTakeTheActuatedJointsAndWriteTheirQuantities) {
  const std::string bar = std::string(DENOC_ROBOTS_DIR) + "/fourbar.yaml";
  std::string csv = "t,q1,qd1,qdd1\n";
  for (int k = 0; k < 5; ++k)
    csv += std::to_string(0.02 * k) + "," + std::to_string(0.125 * k) + ",6.25,1.5\n";
  write("crank.csv", csv);
  const denoc::RobotFile robot = denoc::load_robot_file(bar);
  for (const auto& [name, quantity] : {std::pair{"torques", denoc::Quantity::torques},
                                       {"joint-states", denoc::Quantity::joint_states},
                                       {"constraint-forces", denoc::Quantity::constraint_forces}}) {
    const Result r = ridim("'" + bar + "' crank.csv --quantity " + name);
    ASSERT_EQ(r.status, 0) << r.err;
    denoc::ClosedLoopSamples samples(robot, quantity, denoc::Route::denoc);
    const std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 6u);
    std::vector<std::string> header{"t"};
    header.insert(header.end(), samples.columns().begin(), samples.columns().end());
    EXPECT_EQ(cli::fields_of(lines[0]), header);
    denoc::VecX<double> row(samples.size());
    for (int k = 0; k < 5; ++k) {
      samples.evaluate(denoc::VecX<double>::Constant(1, 0.125 * k),
                       denoc::VecX<double>::Constant(1, 6.25),
                       denoc::VecX<double>::Constant(1, 1.5), row);
      const std::vector<double> written = numbers_of(lines[static_cast<std::size_t>(k + 1)]);
      for (Eigen::Index c = 0; c < row.size(); ++c)
        EXPECT_EQ(written[static_cast<std::size_t>(c + 1)], row[c]) << name << " row " << k;
    }
    EXPECT_EQ(r.err.find("least norm") != std::string::npos,
              quantity == denoc::Quantity::constraint_forces)
        << r.err;
  }
  EXPECT_EQ(
      cli::fields_of(lines_of(ridim("'" + bar + "' crank.csv -q constraint-forces").out)[0])[1],
      "ground_pivot_fx");
  const Result described = ridim("'" + bar + "' --describe");
  EXPECT_NE(described.out.find("mobility: 1 (3 joints less the rank 2)"), std::string::npos)
      << described.out;
  EXPECT_NE(described.out.find("t,q1,qd1,qdd1"), std::string::npos) << described.out;
  write("full.csv", "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n0,0,0,0,0,0,0,0,0,0\n");
  const Result full = ridim("'" + bar + "' full.csv");
  EXPECT_EQ(full.status, 2);
  EXPECT_NE(full.err.find("full.csv"), std::string::npos) << full.err;
  EXPECT_EQ(ridim("'" + bar + "'").status, 2);
  const Result tree = ridim(kPlanar + " --quantity joint-states");
  EXPECT_EQ(tree.status, 2);
  EXPECT_NE(tree.err.find("with loops"), std::string::npos) << tree.err;
}

}  // namespace
