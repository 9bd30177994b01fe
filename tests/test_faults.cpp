// Faults of the environment, for both executables (docs/errors.md): write errors (a full
// disk, a closed pipe with SIGPIPE ignored, an output that cannot be opened) stop the run with
// exit 1 naming the output and the reason; with SIGPIPE at its default the process ends by it,
// quietly; SIGINT and SIGTERM stop after a whole row with 128 + the signal; `-o` naming an input
// (however spelled) is refused before anything is opened, and the input stays intact.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/cli_support.hpp"

namespace {

using cli::lines_of;
using cli::Result;
using cli::slurp;

const std::string kPlanar = std::string(DENOC_ROBOTS_DIR) + "/planar3.yaml";
const std::string kStanford = std::string(DENOC_ROBOTS_DIR) + "/stanford.yaml";

// Both executables, each with a command line that writes a few thousand rows.
struct Tool {
  const char* exe;
  std::string args;  // without -o
};
const Tool kTools[] = {
    {DENOC_RIDIM_EXE, "'" + kStanford + "'"},
    {DENOC_RFDSIM_EXE, "'" + kPlanar + "' --free-fall --t-end 20"},
};
// The same, running long enough to be interrupted.
const Tool kLongRuns[] = {
    {DENOC_RIDIM_EXE, "'" + kStanford + "'"},  // with samples raised in the test
    {DENOC_RFDSIM_EXE, "'" + kPlanar + "' --free-fall --t-end 1e6"},
};

class Faults : public cli::CliTest {
 protected:
  // Runs `command` with standard output into a pipe that is closed after the first line; the
  // child's SIGPIPE is ignored or at its default. Returns the raw wait status.
  int run_into_closed_pipe(const std::string& command, bool ignore_sigpipe) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    const std::string err_path = (dir_ / "stderr").string();
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::signal(SIGPIPE, ignore_sigpipe ? SIG_IGN : SIG_DFL);  // inherited through exec
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(err_fd, STDERR_FILENO);
      ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') {
    }
    ::close(fds[0]);  // the reader has gone
    return wait_at_most(pid, 20);
  }

  // The raw wait status of `pid`; killed (and the test failed) if it runs longer than `seconds`,
  // so that a writer which ignores errors cannot hang the suite.
  static int wait_at_most(pid_t pid, double seconds) {
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "still running after " << seconds << " s with nobody reading";
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status;
  }

  // Waits (at most 20 s) until `pid` runs `exe` and catches SIGINT and SIGTERM (SigCgt of
  // /proc/<pid>/status): its handlers are installed. A fixed 300 ms was not always enough; a
  // sanitizer build's ridim, started while two compilations ran beside the tests, was killed by
  // the signal's default action before it had installed them.
  static bool wait_for_stop_handlers(pid_t pid, const std::string& exe) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const auto caught = [](unsigned long long mask, int signal) {
      return (mask >> (signal - 1)) & 1ULL;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      std::error_code ec;
      if (std::filesystem::equivalent(proc + "/exe", exe, ec)) {
        std::ifstream status(proc + "/status");
        for (std::string line; std::getline(status, line);) {
          if (line.rfind("SigCgt:", 0) != 0) continue;
          const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
          if (caught(mask, SIGINT) && caught(mask, SIGTERM)) return true;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  // Starts `command` (SIGINT and SIGTERM at their defaults), waits until `output` holds some
  // rows, sends `signal`, and returns the raw wait status.
  int interrupt(const std::string& command, const std::string& output, int signal,
                std::string& err) {
    const std::string err_path = (dir_ / "stderr").string();
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::signal(SIGINT, SIG_DFL);
      ::signal(SIGTERM, SIG_DFL);
      if (::chdir(dir_.c_str()) != 0) ::_exit(127);
      const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(err_fd, STDERR_FILENO);
      ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 2000; ++i) {
      std::error_code ec;
      const auto size = cli::fs::file_size(dir_ / output, ec);
      if (!ec && size > 200000) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, signal);
    const int status = wait_at_most(pid, 20);
    err = slurp(err_path);
    return status;
  }
};

TEST_F(Faults, FullDiskIsExitOneNamingTheOutput) {
  for (const Tool& tool : kTools) {
    const Result r = run(tool.exe, tool.args + " -o /dev/full");
    EXPECT_EQ(r.status, 1) << tool.exe;
    EXPECT_NE(r.err.find("/dev/full: write error: No space left on device"), std::string::npos)
        << r.err;
  }
}

TEST_F(Faults, StandardOutputOnAFullDisk) {
  for (const Tool& tool : kTools) {
    const int raw = std::system(("'" + std::string(tool.exe) + "' " + tool.args +
                                 " > /dev/full 2> '" + (dir_ / "err").string() + "'")
                                    .c_str());
    EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 1) << tool.exe;
    EXPECT_NE(read("err").find("<stdout>: write error: No space left on device"), std::string::npos)
        << read("err");
  }
}

TEST_F(Faults, ClosedPipeWithSigpipeIgnoredStopsAtOnce) {
  for (const Tool& tool : kLongRuns) {
    std::string args = tool.args;
    if (std::string(tool.exe) == DENOC_RIDIM_EXE) {
      std::string text = slurp(kStanford);
      text.replace(text.find("samples: 1001"), 13, "samples: 100000000");
      args = "'" + write("long.yaml", text).string() + "'";
    }
    std::string err;
    const auto start = std::chrono::steady_clock::now();
    const int status = run_into_closed_pipe("'" + std::string(tool.exe) + "' " + args, true);
    err = read("stderr");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << tool.exe << " " << status;
    EXPECT_NE(err.find("<stdout>: write error: Broken pipe"), std::string::npos) << err;
    EXPECT_LT(seconds, 20.0) << "kept computing with nobody reading";  // the full runs take minutes

    // With SIGPIPE at its default: ended by the signal, nothing on standard error.
    const int killed = run_into_closed_pipe("'" + std::string(tool.exe) + "' " + args, false);
    err = read("stderr");
    EXPECT_TRUE(WIFSIGNALED(killed) && WTERMSIG(killed) == SIGPIPE) << tool.exe << " " << killed;
    EXPECT_EQ(err, "");
  }
}

TEST_F(Faults, OutputThatCannotBeOpenedIsExitOne) {
  for (const Tool& tool : kTools) {
    const Result r = run(tool.exe, tool.args + " -o no-such-dir/out.csv");
    EXPECT_EQ(r.status, 1) << tool.exe;
    EXPECT_NE(r.err.find("no-such-dir/out.csv: cannot open for writing: No such file or directory"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(Faults, SigintAndSigtermStopAfterAWholeRow) {
  for (const Tool& tool : kLongRuns) {
    for (const int signal : {SIGINT, SIGTERM}) {
      std::string args = tool.args;
      if (std::string(tool.exe) == DENOC_RIDIM_EXE) {
        std::string text = slurp(kStanford);
        text.replace(text.find("samples: 1001"), 13, "samples: 100000000");
        args = "'" + write("long.yaml", text).string() + "'";
      }
      std::remove((dir_ / "out.csv").c_str());
      std::string err;
      const int status = interrupt("'" + std::string(tool.exe) + "' " + args + " -o out.csv",
                                   "out.csv", signal, err);
      ASSERT_TRUE(WIFEXITED(status)) << tool.exe << " " << status;
      EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << err;
      const char* what =
          signal == SIGINT ? "interrupted (SIGINT) after row " : "terminated (SIGTERM) after row ";
      EXPECT_NE(err.find(what), std::string::npos) << err;
      EXPECT_NE(err.find("; the rows up to there are in out.csv"), std::string::npos) << err;
      // Every line whole: the file ends with a newline, and each row has the header's columns;
      // the message's row count is the file's.
      const std::string text = read("out.csv");
      ASSERT_FALSE(text.empty());
      EXPECT_EQ(text.back(), '\n');
      const auto lines = lines_of(text);
      const std::size_t columns = cli::fields_of(lines[0]).size();
      for (std::size_t i = 1; i < lines.size(); ++i)
        ASSERT_EQ(cli::fields_of(lines[i]).size(), columns) << "line " << i + 1;
      EXPECT_NE(err.find("after row " + std::to_string(lines.size() - 1) + ","), std::string::npos)
          << err << " (" << lines.size() - 1 << " rows)";
    }
  }
}

// Before the first row is written there is nothing to keep whole, so SIGINT and SIGTERM stop
// the run at once, whatever it is doing: here it is blocked opening a robot file that is a FIFO
// nobody writes to (as a slow load would be), or reading a trajectory's header from a pipe that
// stays silent. Exit 128 + the signal, a message, and the -o file as it was.
TEST_F(Faults, SigintAndSigtermStopAtOnceBeforeTheFirstRow) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.yaml").c_str(), 0644), 0);
  write("robot.yaml", slurp(kPlanar));
  const struct {
    const char* exe;
    const char* name;
    std::string args;
  } cases[] = {
      {DENOC_RIDIM_EXE, "ridim", "fifo.yaml -o out.csv"},
      {DENOC_RFDSIM_EXE, "rfdsim", "fifo.yaml --free-fall -o out.csv"},
      {DENOC_RIDIM_EXE, "ridim", "robot.yaml - -o out.csv"},  // standard input: a silent pipe
  };
  for (const auto& c : cases) {
    for (const int signal : {SIGINT, SIGTERM}) {
      write("out.csv", "precious\n");
      int silent[2];
      ASSERT_EQ(::pipe(silent), 0);
      const std::string err_path = (dir_ / "stderr").string();
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        ::dup2(silent[0], STDIN_FILENO);
        ::close(silent[0]);
        ::close(silent[1]);
        if (::chdir(dir_.c_str()) != 0) ::_exit(127);
        const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(err_fd, STDERR_FILENO);
        ::execl("/bin/sh", "sh", "-c", ("exec '" + std::string(c.exe) + "' " + c.args).c_str(),
                static_cast<char*>(nullptr));
        ::_exit(127);
      }
      ::close(silent[0]);
      // Its handlers installed, it blocks on an input that never comes: the signal arrives before
      // the first row.
      ASSERT_TRUE(wait_for_stop_handlers(pid, c.exe)) << c.args;
      ::kill(pid, signal);
      const int status = wait_at_most(pid, 5);
      ::close(silent[1]);
      ASSERT_TRUE(WIFEXITED(status)) << c.args << " " << status;
      EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << c.args;
      EXPECT_EQ(read("stderr"),
                std::string(c.name) +
                    (signal == SIGINT ? ": interrupted (SIGINT)" : ": terminated (SIGTERM)") +
                    " before the first row; nothing was written\n")
          << c.args;
      EXPECT_EQ(read("out.csv"), "precious\n") << c.args;
    }
  }
}

TEST_F(Faults, OutputNamingAnInputIsRefusedAndTheInputKept) {
  const std::string header = "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n";
  std::string trajectory = header;
  for (int k = 0; k < 30; ++k)
    trajectory += std::to_string(k) + ",0.1,0.2,0.3,0,0,0,0,0,0\n";
  const std::string torques = "t,tau1,tau2,tau3\n0,0,0,0\n1,1,1,1\n";
  const std::string robot = slurp(kPlanar);
  cli::fs::create_directories(dir_ / "sub");
  write("t.csv", trajectory);
  write("f.csv", torques);
  write("robot.yaml", robot);
  ::symlink("t.csv", (dir_ / "link.csv").c_str());
  ::link((dir_ / "f.csv").c_str(), (dir_ / "hard.csv").c_str());
  struct Case {
    const char* exe;
    std::string args, message;
  };
  const Case cases[] = {
      {DENOC_RIDIM_EXE, "robot.yaml t.csv -o t.csv", "-o t.csv: is the trajectory file t.csv"},
      {DENOC_RIDIM_EXE, "robot.yaml t.csv -o ./sub/../t.csv", "is the trajectory file t.csv"},
      {DENOC_RIDIM_EXE, "robot.yaml link.csv -o t.csv", "is the trajectory file link.csv"},
      {DENOC_RIDIM_EXE, "robot.yaml t.csv -o \"$PWD/t.csv\"", "is the trajectory file t.csv"},
      {DENOC_RIDIM_EXE, "robot.yaml -o robot.yaml", "is the robot file robot.yaml"},
      {DENOC_RFDSIM_EXE, "robot.yaml --torques f.csv -o f.csv", "is the torque file f.csv"},
      {DENOC_RFDSIM_EXE, "robot.yaml --torques f.csv -o hard.csv", "is the torque file f.csv"},
      {DENOC_RFDSIM_EXE, "robot.yaml --free-fall -o ./robot.yaml", "is the robot file robot.yaml"},
      {DENOC_RIDIM_EXE, "robot.yaml --export ./robot.yaml",
       "--export ./robot.yaml: is the robot file robot.yaml"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.exe, c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(read("t.csv"), trajectory) << c.args;
    EXPECT_EQ(read("f.csv"), torques) << c.args;
    EXPECT_EQ(read("robot.yaml"), robot) << c.args;
  }
  // A new file is fine, and so is an output that only looks like an input.
  EXPECT_EQ(run(DENOC_RIDIM_EXE, "robot.yaml t.csv -o sub/t.csv").status, 0);
}

TEST_F(Faults, NonFiniteResultStopsBeforeItsRowAndKeepsTheRowsBefore) {
  // ridim: a finite row whose torques overflow (qd = 1e308), after two good rows.
  write("t.csv",
        "t,q1,q2,q3,qd1,qd2,qd3,qdd1,qdd2,qdd3\n0,0,0,0,0,0,0,0,0,0\n0.1,0,0,0,0,0,0,0,0,0\n"
        "0.2,0,0,0,1e308,0,0,0,0,0\n0.3,0,0,0,0,0,0,0,0,0\n");
  Result r = run(DENOC_RIDIM_EXE, "'" + kPlanar + "' t.csv -o out.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("ridim: at t = 0.2 (t.csv line 4): tau"), std::string::npos) << r.err;
  auto lines = lines_of(read("out.csv"));
  ASSERT_EQ(lines.size(), 3u);  // the header and the rows at t = 0 and 0.1
  EXPECT_EQ(lines.back().rfind("0.1,", 0), 0u);

  // rfdsim: a robot whose mass overflows the energies from the first row on.
  std::string robot = slurp(kPlanar);
  robot.replace(robot.find("mass: 3"), 7, "mass: 1e308");
  write("heavy.yaml", robot);
  r = run(DENOC_RFDSIM_EXE, "heavy.yaml --free-fall -o out.csv");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("rfdsim: at t = 0: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" would be "), std::string::npos) << r.err;
  lines = lines_of(read("out.csv"));
  ASSERT_EQ(lines.size(), 1u);  // the header only: no row with inf or nan
}

TEST_F(Faults, OutputTimesEndAtTEndEvenBeyondDt) {
  // t-end < dt: the rows t = 0 and t = t-end (an earlier version wrote one row, labelled t = 1).
  const Result r = run(DENOC_RFDSIM_EXE, "'" + kPlanar + "' --free-fall --t-end 1 --dt 1e300");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("0,", 0), 0u);
  EXPECT_EQ(lines[2].rfind("1,", 0), 0u);
  // And t-end = 0: the one row at t = 0.
  const Result zero = run(DENOC_RFDSIM_EXE, "'" + kPlanar + "' --free-fall --t-end 0");
  ASSERT_EQ(zero.status, 0) << zero.err;
  EXPECT_EQ(lines_of(zero.out).size(), 2u);
}

}  // namespace
