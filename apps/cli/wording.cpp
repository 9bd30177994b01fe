#include "cli/wording.hpp"

namespace denoc {

std::string command_line_words(Parameter parameter, const std::string& value) {
  const char* option = "";
  switch (parameter) {
    case Parameter::base:
      option = "--base";
      break;
    case Parameter::tip:
      option = "--tip";
      break;
    case Parameter::frame:
      option = "--frame";
      break;
    case Parameter::floating_base:
      option = "--floating-base";
      break;
    case Parameter::inertia_checks:
      option = "--inertia-checks";
      break;
    case Parameter::algorithm:
      option = "--algorithm";
      break;
    case Parameter::quantity:
      option = "--quantity";
      break;
    case Parameter::set:
      option = "--set";
      break;
    case Parameter::rtol:
      option = "--rtol";
      break;
    case Parameter::atol:
      option = "--atol";
      break;
    case Parameter::wrench:
      option = "--wrench";
      break;
    case Parameter::export_file:
      option = "--export";
      break;
    case Parameter::dh:
      option = "--dh";
      break;
  }
  return value.empty() ? option : std::string(option) + " " + value;
}

}  // namespace denoc
