// The one main of both apps: parse the command line, run, map what was thrown to the exit status
// (0 success, 2 bad input or usage, 1 failure while computing, 128 + N stopped by signal N).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <stdexcept>
#include <string>

namespace denoc {

// A command line that parses but asks for something impossible ("give one of --free-fall or
// --torques"): "PROGRAM: message" and "Run 'PROGRAM --help' for usage." on standard error, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses argc/argv with `app` (--help and --version print and exit 0; a parse error is a
// UsageError), installs the stop-signal handlers, then runs `body`: an InputError is exit 2, an
// Interrupted 128 + its signal, any other exception 1, each as "PROGRAM: what" on standard
// error; a UsageError from `body` is reported as a parse error is. `after` (if any) runs last
// unless the command line was refused, however the run ended, e.g. for rfdsim's --stats.
// `program` must outlive the process (a string literal).
int run_main(const char* program, CLI::App& app, int argc, char** argv,
             const std::function<void()>& body, const std::function<void()>& after = {});

}  // namespace denoc
