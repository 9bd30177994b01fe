#include "denoc/io/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace denoc {

namespace {

// Set by request_stop (the apps' handlers of SIGINT and SIGTERM). Atomic, not only volatile: the
// handler may run on any thread, and the rows may be written on another than the one that reads
// the flag (CsvWriter::format_in_background); lock-free atomics are safe in a signal handler.
std::atomic<int> stop_signal{0};
// Set before an Output first writes: from then on a signal stops the run after a whole row.
std::atomic<int> output_started{0};
static_assert(std::atomic<int>::is_always_lock_free);

}  // namespace

Output::Output(const std::string& path, std::ostream& standard_output) {
  if (path.empty() || path == "-") {
    name_ = "<stdout>";
    if (&standard_output == &std::cout) {
      fd_ = STDOUT_FILENO;
    } else {
      stream_ = &standard_output;
    }
    return;
  }
  name_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) fail("cannot open for writing", errno);
  owns_fd_ = true;
}

Output::~Output() {
  if (owns_fd_) ::close(fd_);
}

void Output::fail(const std::string& what, int error) const {
  throw OutputError(name_ + ": " + what + ": " + std::strerror(error));
}

void Output::write(const char* data, std::size_t size) {
  output_started = 1;
  if (stream_) {
    stream_->write(data, static_cast<std::streamsize>(size));
    if (!*stream_) throw OutputError(name_ + ": write error");
    return;
  }
  while (size > 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail("write error", errno);
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void Output::close() {
  if (stream_) {
    stream_->flush();
    if (!*stream_) throw OutputError(name_ + ": write error");
    return;
  }
  if (!owns_fd_) return;
  owns_fd_ = false;
  // close(2) is where a file system that defers writes (NFS, a full quota) reports them.
  if (::close(fd_) != 0) fail("error closing", errno);
}

void check_output_is_not_an_input(const std::string& output,
                                  const std::vector<std::pair<std::string, std::string>>& inputs,
                                  const std::string& option) {
  if (output.empty() || output == "-") return;
  namespace fs = std::filesystem;
  struct stat out {};
  const bool exists = ::stat(output.c_str(), &out) == 0;
  std::error_code ec;
  const fs::path out_path = fs::weakly_canonical(output, ec);
  for (const auto& [what, input] : inputs) {
    if (input.empty() || input == "-") continue;
    bool same = false;
    struct stat in {};
    if (exists) {
      // Only files: /dev/stdout and /dev/stdin may well be the same terminal, and that is fine.
      same = ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
             in.st_ino == out.st_ino && S_ISREG(out.st_mode);
    } else if (!ec) {
      std::error_code ec_in;
      const fs::path in_path = fs::weakly_canonical(input, ec_in);
      same = !ec_in && in_path == out_path;
    }
    if (same) {
      throw InputError(option + " " + output + ": is " + what + " " + input +
                       "; writing there would destroy the input (choose another output)");
    }
  }
}

void request_stop(int signal) {
  stop_signal = signal;
}

bool output_has_started() {
  return output_started != 0;
}

int pending_stop_signal() {
  return stop_signal;
}

}  // namespace denoc
