// The two ways a run can fail, which the apps map onto the exit codes of docs/command-line.md.
#pragma once

#include <stdexcept>

namespace denoc {

// Bad input or usage: the message names the file and the line or key (exit status 2).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failure while computing, after the input was accepted (exit status 1).
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace denoc
