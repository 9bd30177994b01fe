// The two ways a run can fail, which the apps map onto the exit codes of docs/command-line.md, and
// how their messages name what the user chose.
//
// The library's messages state facts: which file, line, key, link or sample. Where a fact is about
// something the user chose (a tip link, a frame, a route), the message names that choice by its
// Parameter, and each front end words it in its own terms (the command line as its option,
// `--frame F`; the Python module as its keyword argument, `frame='F'`), with words of its own:
// the library knows no front end. what() gives the library's own words (`frame F`), for C++
// users.
#pragma once

#include <stdexcept>
#include <string>

namespace denoc {

// What a user chooses when loading a robot or asking for a quantity.
enum class Parameter {
  base,            // a URDF's base link
  tip,             // a URDF chain's tip link
  frame,           // the frame of a pose, Jacobian or wrench
  floating_base,   // a URDF's base moves freely
  inertia_checks,  // strict, or warn (inertias no rigid body has accepted)
  algorithm,       // the route (engine/routes.hpp)
  quantity,        // what is computed
  set,             // an override of one number of the robot file
  rtol,            // the integrator's relative tolerance
  atol,            // its absolute tolerance
  wrench,          // an external wrench along the run
  export_file,     // the file a robot is exported to
  dh,              // the DH convention of an export
};
inline constexpr int kParameters = static_cast<int>(Parameter::dh) + 1;

// How a front end names a parameter, and the value chosen when `value` is not empty.
using ParameterWords = std::string (*)(Parameter parameter, const std::string& value);

// The library's own words: the parameter's name, then the value (`frame F`, `floating_base`).
std::string library_words(Parameter parameter, const std::string& value);

// The parameter, with the value chosen when `value` is not empty, as a marker in a message
// (replaced by `worded`).
std::string mention(Parameter parameter, const std::string& value = "");

// `message` with its markers in a front end's words.
std::string worded(const std::string& message, ParameterWords words);

// A failure whose message may name parameters (mention).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message)
      : std::runtime_error(denoc::worded(message, library_words)), message_(message) {}
  // The message with its markers, to be worded by a front end or carried into another error.
  const std::string& message() const { return message_; }
  std::string worded(ParameterWords words) const { return denoc::worded(message_, words); }

 private:
  std::string message_;
};

// Bad input or usage: the message names the file and the line or key (exit status 2).
struct InputError : Error {
  using Error::Error;
};

// A failure while computing, after the input was accepted (exit status 1).
struct RunError : Error {
  using Error::Error;
};

}  // namespace denoc
