// SIGINT and SIGTERM for the apps. The library only takes a stop request (io/output.hpp), acted
// on after a whole row; the handlers that make it, and end the process when nothing has been
// written yet, are the command line's.
#pragma once

namespace denoc {

// Installs handlers for SIGINT and SIGTERM. Until an Output first writes, nothing can be left
// half-written, so the handler ends the process at once (128 + the signal), printing
// "`program`: interrupted (SIGINT) before the first row; nothing was written": a run stops
// promptly while it loads a robot file, waits for a trajectory's header or computes its first
// row. From the first write on, the handler only requests a stop (a second signal of the same
// kind ends the process at once, as if no handler were installed); the CSV writer checks after
// every row and throws Interrupted. `program` must outlive the process (a string literal).
void install_stop_signal_handlers(const char* program);

}  // namespace denoc
