#include "cli/signals.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "denoc/io/output.hpp"

namespace denoc {

namespace {

const char* program_name = "denoc";

// write(2) of a whole C string; what else could a signal handler do if it failed.
void write_to_stderr(const char* text) {
  std::size_t size = std::strlen(text);
  while (size > 0) {
    const ssize_t written = ::write(STDERR_FILENO, text, size);
    if (written <= 0) return;
    text += written;
    size -= static_cast<std::size_t>(written);
  }
}

extern "C" void note_stop_signal(int signal) {
  if (!output_has_started()) {
    // Nothing written, nothing to keep whole: stop now, whatever is running (only
    // async-signal-safe calls: write, _exit).
    write_to_stderr(program_name);
    write_to_stderr(signal == SIGINT ? ": interrupted (SIGINT)" : ": terminated (SIGTERM)");
    write_to_stderr(" before the first row; nothing was written\n");
    ::_exit(128 + signal);
  }
  if (pending_stop_signal() == signal) {
    // The second one: end at once, as without a handler.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  request_stop(signal);
}

}  // namespace

void install_stop_signal_handlers(const char* program) {
  program_name = program;
  struct sigaction action {};
  action.sa_handler = note_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a read or write in progress completes; the row check stops
  for (int signal : {SIGINT, SIGTERM}) {
    struct sigaction previous {};
    sigaction(signal, nullptr, &previous);
    // A shell runs background jobs with SIGINT ignored; keep it so.
    if (previous.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
}

}  // namespace denoc
