// Progress on standard error (docs/command-line.md): only on a terminal and for a run longer than a
// second,
// --progress and --quiet force it on and off, and standard output and -o files never change.
// The class with a string stream, and the apps under a pseudo-terminal made by script(1).
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "cli/progress.hpp"
#include "denoc/version.hpp"
#include "support/cli_support.hpp"

namespace progress_test {

using denoc::Progress;
using denoc::ProgressMode;

std::string run_progress(ProgressMode mode, bool terminal, bool long_run) {
  std::ostringstream err;
  {
    Progress progress(mode, err, terminal, "test", "rows", 4);
    progress.update(1);
    if (long_run) std::this_thread::sleep_for(std::chrono::milliseconds(1050));
    progress.update(2);
    progress.finish(4);
  }
  return err.str();
}

TEST(Progress, OnlyOnATerminalAfterASecond) {
  EXPECT_EQ(run_progress(ProgressMode::automatic, false, false), "");
  EXPECT_EQ(run_progress(ProgressMode::automatic, true, false), "");
  EXPECT_EQ(run_progress(ProgressMode::off, true, false), "");
  const std::string shown = run_progress(ProgressMode::automatic, true, true);
  EXPECT_EQ(shown.rfind("\rtest: 2 of 4 rows (50%), ", 0), 0u) << shown;
  EXPECT_NE(shown.find(" rows/s, 2 s left\033[K\rtest: 4 of 4 rows, "), std::string::npos) << shown;
  EXPECT_EQ(shown.back(), '\n');  // the last line is ended
  EXPECT_EQ(run_progress(ProgressMode::automatic, false, true), "");
  EXPECT_EQ(run_progress(ProgressMode::off, true, true), "");
}

TEST(Progress, ForcedOnWritesLinesAndTheLastOne) {
  const std::string short_run = run_progress(ProgressMode::on, false, false);
  EXPECT_EQ(short_run.rfind("test: 4 of 4 rows, ", 0), 0u) << short_run;
  EXPECT_EQ(short_run.find('\r'), std::string::npos);
  EXPECT_EQ(cli::lines_of(short_run).size(), 1u);
}

TEST(Progress, SimulatedTimeAndAnOpenLineEndedOnError) {
  std::ostringstream err;
  {
    Progress progress(ProgressMode::on, err, true, "sim", "s", 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(1010));
    progress.update(2.5);  // then the run fails: no finish()
  }
  const std::string text = err.str();
  EXPECT_EQ(text.rfind("\rsim: t = 2.5 of 10 s (25%), ", 0), 0u) << text;
  EXPECT_NE(text.find("simulated s/s"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');  // so that the error message starts on its own line
}

// The apps under a pseudo-terminal: script(1) gives them a terminal as standard error; standard
// output goes to a file.
class ProgressCli : public cli::CliTest {
 protected:
  // Runs `command` (shell words) with a terminal; returns what appeared on it.
  std::string on_terminal(const std::string& command) {
    const cli::Result r = run("script", "-qfec \"" + command + "\" /dev/null");
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  }
};

const std::string kRidim = DENOC_RIDIM_EXE;
const std::string kRfdsim = DENOC_RFDSIM_EXE;
const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";
const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";

// Rows of a trajectory (or torque) file for the Stanford arm: t and `columns` zeros.
std::string zero_rows(const std::string& header, int columns, int rows) {
  std::string text = header + "\n";
  for (int k = 0; k < rows; ++k) {
    text += std::to_string(k) + "e-3";
    for (int i = 0; i < columns; ++i)
      text += ",0";
    text += "\n";
  }
  return text;
}

// Half the rows, a pause longer than the second that automatic progress waits, then the rest:
// the run lasts past the threshold however fast the machine is.
std::string slowly(const std::string& file, int rows) {
  return "{ head -n " + std::to_string(rows / 2 + 1) + " " + file + "; sleep 1.5; tail -n +" +
         std::to_string(rows / 2 + 2) + " " + file + "; }";
}

TEST_F(ProgressCli, RidimOnATerminalOnlyAndOutputUnchanged) {
  std::string header = "t";
  for (const char* part : {"q", "qd", "qdd"}) {
    for (int i = 1; i <= 6; ++i)
      header += std::string(",") + part + std::to_string(i);
  }
  write("traj.csv", zero_rows(header, 18, 4000));
  const std::string terminal =
      on_terminal(slowly("traj.csv", 4000) + " | " + kRidim + " " + kStanford + " - > tty.csv");
  EXPECT_NE(terminal.find("\rridim: "), std::string::npos) << terminal;
  EXPECT_NE(terminal.find(" rows/s"), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("ridim: 4000 rows, "), std::string::npos) << terminal;

  const std::string args = kStanford + " traj.csv";
  const cli::Result plain = run(kRidim, args + " -o plain.csv");
  ASSERT_EQ(plain.status, 0);
  EXPECT_EQ(plain.err, "");  // standard error is a file here: nothing
  EXPECT_EQ(read("tty.csv"), read("plain.csv"));

  EXPECT_EQ(on_terminal(kRidim + " " + args + " --quiet -o quiet.csv"), "");
  EXPECT_EQ(read("quiet.csv"), read("plain.csv"));
}

TEST_F(ProgressCli, RfdsimShowsSimulatedTime) {
  write("tau.csv", zero_rows("t,tau1,tau2,tau3,tau4,tau5,tau6", 6, 4000));
  const std::string terminal = on_terminal(slowly("tau.csv", 4000) + " | " + kRfdsim + " " +
                                           kStanford + " --torques - --t-end 4 -o tty.csv");
  EXPECT_NE(terminal.find("\rrfdsim: t = "), std::string::npos) << terminal;
  EXPECT_NE(terminal.find(" of 4 s ("), std::string::npos) << terminal;
  EXPECT_NE(terminal.find(" left"), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("rfdsim: t = 4 of 4 s, "), std::string::npos) << terminal;

  // --progress without a terminal: the last line only, for this short run; output unchanged.
  const cli::Result forced = run(kRfdsim, kPlanar + " --free-fall --t-end 1 --progress -o f.csv");
  ASSERT_EQ(forced.status, 0);
  EXPECT_EQ(forced.err.rfind("rfdsim: t = 1 of 1 s, ", 0), 0u) << forced.err;
  EXPECT_EQ(cli::lines_of(forced.err).size(), 1u);
  const cli::Result quiet = run(kRfdsim, kPlanar + " --free-fall --t-end 1 -o q.csv");
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(read("f.csv"), read("q.csv"));
  EXPECT_EQ(run(kRfdsim, kPlanar + " --free-fall --progress --quiet").status, 2);
}

// --version (docs/command-line.md), here with the other command-line additions of the batch work.
TEST_F(ProgressCli, VersionIsTheProjects) {
  for (const std::string& app : {std::string("ridim"), std::string("rfdsim")}) {
    const cli::Result r = run(app == "ridim" ? kRidim : kRfdsim, "--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, app + " " + DENOC_VERSION + "\n");
    EXPECT_EQ(r.err, "");
  }
  EXPECT_EQ(std::string(DENOC_VERSION), std::to_string(DENOC_VERSION_MAJOR) + "." +
                                            std::to_string(DENOC_VERSION_MINOR) + "." +
                                            std::to_string(DENOC_VERSION_PATCH));
}

}  // namespace progress_test
