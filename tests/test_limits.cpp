// Limits that hold (docs/errors.md), end to end: a 1000-link chain in every quantity of ridim
// and every method and algorithm of rfdsim; memory that stays flat however long the input or
// output (the 10-million-row figure of docs/errors.md is measured the same way, by hand); and
// extreme but valid inertia ratios (1e-6 to 1e6 in one chain) giving finite, consistent results.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <random>
#include <sstream>

#include "denoc/denoc.hpp"
#include "denoc/engine/quantities.hpp"
#include "denoc/io/robot_file.hpp"
#include "support/cli_support.hpp"

// Whether this build runs under AddressSanitizer (g++ and clang say so differently).
#if defined(__SANITIZE_ADDRESS__)
#define DENOC_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DENOC_TEST_ASAN 1
#endif
#endif
#ifndef DENOC_TEST_ASAN
#define DENOC_TEST_ASAN 0
#endif

namespace {

using cli::lines_of;
using cli::numbers_of;
using cli::Result;

// A chain of n links: revolute and prismatic joints, twisted axes, full inertia tensors, the
// masses (and inertias) scaled by mass_of(i).
template <typename MassOf>
std::string chain_yaml(int n, MassOf mass_of) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::ostringstream y;
  y.precision(17);
  y << "name: chain of " << n << "\nangle_unit: rad\ngravity: [0.3, -1.2, -9.81]\nlinks:\n";
  for (int i = 0; i < n; ++i) {
    const double m = mass_of(i);
    y << "  - joint: " << (i % 5 == 3 ? "prismatic" : "revolute") << "\n    a: " << 0.05 * u(rng)
      << "\n    b: " << 0.05 * u(rng) << "\n    alpha: " << 1.5 * u(rng)
      << "\n    theta: " << u(rng) << "\n    mass: " << m << "\n    com: [" << 0.02 * u(rng) << ", "
      << 0.02 * u(rng) << ", " << 0.02 * u(rng) << "]\n    inertia: {xx: " << 2e-3 * m
      << ", yy: " << 3e-3 * m << ", zz: " << 4e-3 * m << ", xy: " << 1e-4 * m << "}\n";
  }
  return y.str();
}

class Limits : public cli::CliTest {
 protected:
  Result ridim(const std::string& args, const std::string& input = "") {
    return run(DENOC_RIDIM_EXE, args, input);
  }
  Result rfdsim(const std::string& args) { return run(DENOC_RFDSIM_EXE, args); }

  // Peak resident memory (KiB) of `command` (shell words) as GNU time measures it: a process's
  // own peak is inherited through fork and exec, so the test process cannot measure it itself.
  // AddressSanitizer's fake stacks (detect_stack_use_after_return, scripts/check) are its own
  // memory, touched a little more the longer a program runs (0.65-1 MiB more at 400,000 rows than
  // at 20,000 here): switched off for the measured command, so that the peak is the program's.
  long peak_kib(const std::string& command) {
    write(
        "measured.sh",
        "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=0\"\n" +
            command + " > /dev/null\n");
    const Result r = run("/usr/bin/time", "-f %M sh measured.sh");
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    const auto lines = lines_of(r.err);
    return lines.empty() ? 0 : std::atol(lines.back().c_str());
  }
};

// The numbers of the output's last line (a million of them for a 1000-joint inertia matrix).
std::vector<double> last_row(const std::string& out) {
  std::vector<double> row;
  if (out.size() < 2) return row;
  const std::size_t start = out.rfind('\n', out.size() - 2);
  if (start == std::string::npos) return row;
  const char* p = out.data() + start + 1;
  const char* end = out.data() + out.size() - 1;  // the final '\n'
  while (p < end) {
    double x = 0;
    const auto [next, ec] = std::from_chars(p, end, x);
    EXPECT_EQ(ec, std::errc());
    row.push_back(x);
    p = next + 1;  // past the comma
  }
  return row;
}

bool all_finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return !v.empty();
}

TEST_F(Limits, ThousandLinkChainInEveryQuantityOfRidim) {
  const int n = 1000;
  write("chain.yaml", chain_yaml(n, [](int) { return 1.0; }));
  const denoc::RobotFile robot = denoc::load_robot_file((dir_ / "chain.yaml").string());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  denoc::VecX<double> state(3 * n);
  for (int i = 0; i < 3 * n; ++i)
    state[i] = u(rng);
  std::ostringstream csv;
  denoc::CsvWriter writer(csv);
  writer.header(denoc::column_names({"q", "qd", "qdd"}, n));
  writer.row(0.5, state);
  writer.flush();
  write("traj.csv", csv.str());
  const auto q = state.segment(0, n), qd = state.segment(n, n), qdd = state.segment(2 * n, n);
  denoc::Workspace<double> ws(robot.model);

  // Torques, bias and gravity: bit for bit the library's (SampleQuantities, which takes packs of
  // samples for them), and within 1e-14 of the largest entry the scalar recursions' values.
  const struct {
    denoc::Quantity quantity;
    denoc::VecX<double> scalar;
  } vectors[] = {
      {denoc::Quantity::torques, denoc::inverse_dynamics(robot.model, ws, q, qd, qdd)},
      {denoc::Quantity::bias, denoc::bias_forces(robot.model, ws, q, qd)},
      {denoc::Quantity::gravity, denoc::gravity_forces(robot.model, ws, q)},
  };
  for (const auto& v : vectors) {
    const std::string name = denoc::quantity_name(v.quantity);
    const Result r = ridim("chain.yaml traj.csv --quantity " + name);
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    const std::vector<double> row = last_row(r.out);
    ASSERT_EQ(row.size(), static_cast<std::size_t>(n + 1)) << name;
    denoc::SampleQuantities quantities(robot, v.quantity, denoc::Route::denoc);
    denoc::VecX<double> expected(n);
    quantities.evaluate(q, qd, qdd, expected);
    const double scale = std::max(1.0, v.scalar.cwiseAbs().maxCoeff());
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(row[static_cast<std::size_t>(i) + 1], expected[i]) << name << " " << i;
      ASSERT_NEAR(row[static_cast<std::size_t>(i) + 1], v.scalar[i], 1e-14 * scale) << name;
    }
  }
  // The inertia matrix: symmetric, M qdd + h = tau; its inverse times M is the identity (on a few
  // columns: all of them is 10^9 operations).
  const Result m = ridim("chain.yaml traj.csv --quantity mass-matrix");
  ASSERT_EQ(m.status, 0) << m.err;
  const std::vector<double> mrow = last_row(m.out);
  ASSERT_EQ(mrow.size(), static_cast<std::size_t>(n * n + 1));
  const Eigen::Map<const denoc::MatX<double>> M(mrow.data() + 1, n, n);  // symmetric: either order
  EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
  const denoc::VecX<double> residual = M * qdd + vectors[1].scalar - vectors[0].scalar;
  EXPECT_LT(residual.norm(), 1e-9 * vectors[0].scalar.norm());
  const Result minv = ridim("chain.yaml traj.csv --quantity inverse-mass-matrix");
  ASSERT_EQ(minv.status, 0) << minv.err;
  const std::vector<double> irow = last_row(minv.out);
  ASSERT_EQ(irow.size(), static_cast<std::size_t>(n * n + 1));
  const Eigen::Map<const denoc::MatX<double>> Minv(irow.data() + 1, n, n);
  for (int j : {0, 417, n - 1}) {
    denoc::VecX<double> e = denoc::VecX<double>::Zero(n);
    e[j] = 1;
    EXPECT_LT((M * Minv.col(j) - e).norm(), 1e-6) << "column " << j;
  }
  // Saha's C (docs/coriolis.md): C qd = bias - gravity (the chain has no drives); and the
  // U D U^T factors: U D U^T = M.
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Result c = ridim("chain.yaml traj.csv --quantity coriolis");
  ASSERT_EQ(c.status, 0) << c.err;
  const std::vector<double> crow = last_row(c.out);
  ASSERT_EQ(crow.size(), static_cast<std::size_t>(n * n + 1));
  const denoc::VecX<double> h_less_g = vectors[1].scalar - vectors[2].scalar;
  const denoc::VecX<double> Cqd = Eigen::Map<const RowMajor>(crow.data() + 1, n, n) * qd;
  EXPECT_LT((Cqd - h_less_g).norm(), 1e-10 * h_less_g.norm());
  const Result udu = ridim("chain.yaml traj.csv --quantity udu");
  ASSERT_EQ(udu.status, 0) << udu.err;
  const std::vector<double> urow = last_row(udu.out);
  ASSERT_EQ(urow.size(), static_cast<std::size_t>(n * n + n + 1));
  const Eigen::Map<const RowMajor> U(urow.data() + 1, n, n);
  const Eigen::Map<const denoc::VecX<double>> D(urow.data() + 1 + n * n, n);
  EXPECT_LT((U * D.asDiagonal() * U.transpose() - M).norm(), 1e-12 * M.norm());
}

TEST_F(Limits, ThousandLinkChainInEveryMethodAndAlgorithmOfRfdsim) {
  write("chain.yaml", chain_yaml(1000, [](int) { return 1.0; }));
  const std::string run_args = "chain.yaml --free-fall --t-end 0.001 --dt 0.001 ";
  // The reference: rk4 with both algorithms, which must agree to rounding.
  const Result udu = rfdsim(run_args + "--method rk4 --algorithm udu");
  const Result cholesky = rfdsim(run_args + "--method rk4 --algorithm cholesky");
  ASSERT_EQ(udu.status, 0) << udu.err;
  ASSERT_EQ(cholesky.status, 0) << cholesky.err;
  const std::vector<double> a = last_row(udu.out), b = last_row(cholesky.out);
  ASSERT_TRUE(all_finite(a));
  ASSERT_EQ(a.size(), 4u * 1000 + 5);  // t, q, qd, qdd, tau, kinetic, potential, work, dissipated
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 1; i <= 2000; ++i)  // q and qd
    EXPECT_NEAR(a[i], b[i], 1e-9 * (1 + std::abs(a[i]))) << "column " << i;
  for (const char* method : {"dopri5", "cash-karp54", "fehlberg78"}) {
    const Result r = rfdsim(run_args + "--method " + method + " --rtol 1e-6 --atol 1e-6");
    ASSERT_EQ(r.status, 0) << method << ": " << r.err;
    const std::vector<double> row = last_row(r.out);
    ASSERT_TRUE(all_finite(row)) << method;
    EXPECT_EQ(row[0], 0.001);
    for (std::size_t i = 1; i <= 1000; ++i)
      EXPECT_NEAR(row[i], a[i], 1e-5) << method << " q" << i;
  }
}

TEST_F(Limits, MemoryStaysFlatWithTheNumberOfRows) {
  // Output: ridim's own trajectory, 20,000 against 400,000 samples (Stanford arm).
  std::string stanford = cli::slurp(std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml");
  const std::size_t at = stanford.find("samples: 1001");
  write("short.yaml", std::string(stanford).replace(at, 13, "samples: 20000"));
  write("long.yaml", std::string(stanford).replace(at, 13, "samples: 400000"));
  const std::string exe = std::string("'") + DENOC_RIDIM_EXE + "'";
  const long out_short = peak_kib(exe + " short.yaml"), out_long = peak_kib(exe + " long.yaml");
  // Input: a trajectory of 20,000 against 400,000 rows on standard input (planar arm).
  const std::string planar = std::string("'") + DENOC_ROBOTS_DIR + "/planar3.yaml'";
  auto piped = [&](long rows) {
    return "{ echo t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3; seq " + std::to_string(rows) +
           " | sed 's/$/,0.1,0.2,0.3,1,2,3,4,5,6/'; } | " + exe + " " + planar + " -";
  };
  const long in_short = peak_kib(piped(20000)), in_long = peak_kib(piped(400000));
  std::printf("[memory] ridim peak KiB: %ld / %ld (output 2e4 / 4e5 rows), %ld / %ld (input)\n",
              out_short, out_long, in_short, in_long);
  // 20 times the rows, at most 1 MiB more (allocator noise; a row of history would be ~150 B).
  EXPECT_LT(out_long - out_short, 1024) << out_short << " " << out_long;
  EXPECT_LT(in_long - in_short, 1024) << in_short << " " << in_long;
}

// Loading a robot file costs memory in proportion to its text: a 1000-link chain (about 190 KB
// of YAML) runs in at most twice the peak of a 10-link one. yaml-cpp's node tree took 17.6 MB
// for it, four times that peak.
TEST_F(Limits, ThousandLinkRobotFileLoadsInLittleMemory) {
  const auto with_trajectory = [](int n) {
    std::string from, to;
    for (int i = 0; i < n; ++i) {
      from += (i ? ", " : "") + std::string("0");
      to += (i ? ", " : "") + std::string("0.1");
    }
    return chain_yaml(n, [](int) { return 1.0; }) +
           "trajectory: {duration: 1, samples: 101, from: [" + from + "], to: [" + to + "]}\n";
  };
  write("short.yaml", with_trajectory(10));
  write("long.yaml", with_trajectory(1000));
  const std::string exe = std::string("'") + DENOC_RIDIM_EXE + "'";
  // The pose: what ridim holds per joint for it is the model and one workspace. (The torques'
  // packs of samples hold a copy of the model per SIMD lane, memory per joint that is not the
  // file's: 2 MB more at 1000 links with two lanes.)
  const std::string pose = " --quantity pose";
  const long short_chain = peak_kib(exe + " short.yaml" + pose),
             long_chain = peak_kib(exe + " long.yaml" + pose);
  std::printf("[memory] ridim peak KiB: %ld (10 links) / %ld (1000 links)\n", short_chain,
              long_chain);
#if DENOC_TEST_ASAN
  // Under AddressSanitizer the peak also holds its redzones and its quarantine of freed blocks, so
  // it grows with everything allocated over the run, not with what is held (measured: 25,364 and
  // 61,580 KiB); the normal build checks the bound (5,660 and 9,684 KiB).
  GTEST_SKIP() << "peak RSS under AddressSanitizer measures allocations made, not memory held";
#endif
  EXPECT_LT(long_chain, 2 * short_chain) << short_chain << " " << long_chain;
}

// Hostile robot files: ten levels of nine aliases stand for 3.9e9 values, and 200,000 keys
// given twice. Every check runs once over the parser's events, so each is refused at once, naming
// the key and its line, in a few MiB; `timeout` ends a run that walks the expanded aliases
// (which took minutes) with 124 instead of hanging the suite.
TEST_F(Limits, HostileYamlIsRefusedAtOnceNamingTheKey) {
  std::string nested = "links:\n- {joint: revolute, mass: 1, name: &a0 [l,l,l,l,l,l,l,l,l]}\n";
  std::string top = "a0: &a0 [l,l,l,l,l,l,l,l,l]\n";
  for (int k = 1; k <= 10; ++k) {
    std::string nine = "*a" + std::to_string(k - 1);
    for (int i = 1; i < 9; ++i)
      nine += ",*a" + std::to_string(k - 1);
    const std::string anchor = "&a" + std::to_string(k) + " [" + nine + "]";
    nested += "- {joint: revolute, mass: 1, name: " + anchor + "}\n";
    if (k < 10) top += "a" + std::to_string(k) + ": " + anchor + "\n";
  }
  write("nested.yaml", nested);
  write("top.yaml", top + "links: [*a9]\n");
  std::string keys = "links:\n- {joint: revolute, mass: 1}\n";
  for (int k = 0; k < 200000; ++k)
    keys += "name: n" + std::to_string(k) + "\n";
  write("keys.yaml", keys);
  const std::string exe = std::string("timeout -k 2 10 '") + DENOC_RIDIM_EXE + "' ";
  const struct {
    const char* file;
    const char* message;
  } cases[] = {
      {"nested.yaml",
       "nested.yaml: links[5].name[0]: the aliases (*name) up to here stand for more than 100000 "
       "values; no robot file needs so many (line 7)"},
      {"top.yaml",
       "top.yaml: a5[0]: the aliases (*name) up to here stand for more than 100000 values; no "
       "robot file needs so many (line 6)"},
      {"keys.yaml", "keys.yaml: name: given twice in the same block (line 4)"},
  };
  for (const auto& c : cases) {
    write("run.sh", exe + c.file + " -o out.csv\n");
    const Result r = run("/bin/sh", "run.sh");
    EXPECT_EQ(r.status, 2) << c.file << " (124: still running after 10 s)\n" << r.err;
    EXPECT_EQ(r.err, std::string("ridim: ") + c.message + "\n");
    // Not 256 MB: the duplicate is found before a node is built (yaml-cpp's nodes of the whole
    // file take 200 MB).
    write("measured.sh", exe + c.file + " -o out.csv\n");
    const Result m = run("/usr/bin/time", "-f %M sh measured.sh");
    const auto lines = lines_of(m.err);
    ASSERT_FALSE(lines.empty());
    EXPECT_LT(std::atol(lines.back().c_str()), 64 * 1024) << c.file << " peak KiB";
  }
}

TEST(LimitsInProcess, ExtremeInertiaRatiosGiveFiniteConsistentResults) {
  // Masses 1e-6 .. 1e6 kg along one chain, alternating heavy and light, and the reverse.
  for (const bool heavy_first : {true, false}) {
    const denoc::RobotFile robot =
        denoc::parse_robot_file(chain_yaml(8,
                                           [&](int i) {
                                             const int k = heavy_first ? i : 7 - i;
                                             return std::pow(10.0, k % 2 ? -6.0 : 6.0 - k);
                                           }),
                                "extreme.yaml");
    const int n = robot.dof();
    denoc::Workspace<double> ws(robot.model);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    denoc::VecX<double> q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i)
      q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
    const denoc::VecX<double> tau = denoc::inverse_dynamics(robot.model, ws, q, qd, qdd);
    const denoc::VecX<double> h = denoc::bias_forces(robot.model, ws, q, qd);
    const denoc::VecX<double> g = denoc::gravity_forces(robot.model, ws, q);
    const denoc::MatX<double> M = denoc::generalized_inertia(robot.model, ws, q);
    const denoc::MatX<double> Minv = denoc::inverse_generalized_inertia(robot.model, ws, q);
    ASSERT_TRUE(tau.allFinite() && h.allFinite() && g.allFinite() && M.allFinite() &&
                Minv.allFinite());
    EXPECT_LT((M * qdd + h - tau).norm(), 1e-9 * tau.norm());
    // Forward dynamics by both routes inverts the inverse dynamics (the condition number is up
    // to ~1e12 here, so relative to the inverse's scale).
    const denoc::VecX<double> a = denoc::forward_dynamics(robot.model, ws, q, qd, tau);
    ASSERT_TRUE(a.allFinite());
    EXPECT_LT((a - qdd).norm(), 1e-3 * qdd.norm()) << "udu, heavy first " << heavy_first;
    const denoc::VecX<double> b = denoc::forward_dynamics_cholesky(robot.model, ws, q, qd, tau);
    ASSERT_TRUE(b.allFinite());
    EXPECT_LT((b - qdd).norm(), 1e-3 * qdd.norm()) << "cholesky, heavy first " << heavy_first;
    const double kinetic = denoc::kinetic_energy(robot.model, ws, q, qd);
    EXPECT_TRUE(std::isfinite(kinetic) && kinetic > 0);
    EXPECT_NEAR(kinetic, 0.5 * qd.dot(M * qd), 1e-9 * kinetic);
  }
}

}  // namespace
