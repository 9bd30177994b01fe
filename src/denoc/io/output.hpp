// Output that cannot lie (docs/errors.md): every write, the final flush and the close are checked,
// and the first failure stops the run with the output's name and the reason (exit 1). Before
// anything is opened for writing, an output that is one of the inputs is refused (exit 2).
// A stop request (the apps' handlers of SIGINT and SIGTERM make one) is acted on after the row
// being written, so every line of the output is whole (exit 128 + the signal number).
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "denoc/io/errors.hpp"

namespace denoc {

// A write, flush or close that failed, or an output that could not be opened (exit 1).
struct OutputError : RunError {
  using RunError::RunError;
};

// SIGINT or SIGTERM arrived: the run stopped after a whole row (exit 128 + signal_number).
struct Interrupted : std::runtime_error {
  Interrupted(int signal, const std::string& message)
      : std::runtime_error(message), signal_number(signal) {}
  int signal_number;
};

// The destination of a run's rows. Bytes go straight to a file descriptor with write(2),
// retried on partial writes and EINTR; with SIGPIPE ignored a closed pipe is EPIPE, reported
// like any other error (with SIGPIPE at its default the process ends by the signal, quietly).
class Output {
 public:
  // "" or "-": standard output; `standard_output` is std::cout in the apps (then the bytes go to
  // file descriptor 1, which nothing else writes to), or any stream in tests. Otherwise the file
  // is created or truncated. Throws OutputError naming the path if it cannot be opened.
  Output(const std::string& path, std::ostream& standard_output);
  ~Output();  // closes a file still open, without reporting (an error is being handled)
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  // Writes all `size` bytes or throws OutputError ("NAME: write error: strerror").
  void write(const char* data, std::size_t size);
  // Closes a file (or flushes a stream) and reports a failure; standard output stays open.
  void close();

  const std::string& name() const { return name_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::ostream* stream_ = nullptr;
};

// Throws InputError if `output` (a path; "", "-" never match) is the same file as one of
// `inputs` (pairs of what it is, e.g. "the trajectory file", and its path; "-" is skipped),
// however spelled: the same device and inode when the output exists, else the same canonical
// path. Called before the output is opened, so `-o` (or `option`, the message's name for the
// output) can never truncate an input.
void check_output_is_not_an_input(const std::string& output,
                                  const std::vector<std::pair<std::string, std::string>>& inputs,
                                  const std::string& option = "-o");

// A request to stop the run after the row being written, e.g. from a handler of SIGINT or
// SIGTERM (`signal` is its number; async-signal-safe). The CSV writer checks after every row and
// throws Interrupted. The library installs no handler: the apps do (apps/cli/signals.hpp).
void request_stop(int signal);

// Whether an Output has written: before that nothing can be left half-written, so a signal
// handler may end the process at once (async-signal-safe).
bool output_has_started();

// The signal passed to request_stop, or 0.
int pending_stop_signal();

}  // namespace denoc
