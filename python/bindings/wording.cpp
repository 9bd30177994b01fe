#include "wording.hpp"

#include <algorithm>

namespace denoc::python {

namespace {

// A quantity is named by the Robot method that computes it.
std::string method(const std::string& quantity) {
  if (quantity == "torques") return "inverse_dynamics()";
  std::string name = quantity;
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "()";
}

}  // namespace

std::string python_words(Parameter parameter, const std::string& value) {
  const char* keyword = "";
  switch (parameter) {
    case Parameter::quantity:
      return value.empty() ? "the method" : method(value);
    case Parameter::set:
      return value.empty() ? "set=" : "set= key '" + value + "'";
    case Parameter::wrench:
      keyword = "wrench";
      break;
    case Parameter::export_file:
      keyword = "export";
      break;
    case Parameter::base:
      keyword = "base=";
      break;
    case Parameter::tip:
      keyword = "tip=";
      break;
    case Parameter::frame:
      keyword = "frame=";
      break;
    case Parameter::floating_base:
      keyword = "floating_base=";
      break;
    case Parameter::inertia_checks:
      keyword = "inertia_checks=";
      break;
    case Parameter::algorithm:
      keyword = "algorithm=";
      break;
    case Parameter::rtol:
      keyword = "rtol=";
      break;
    case Parameter::atol:
      keyword = "atol=";
      break;
    case Parameter::dh:
      keyword = "dh=";
      break;
  }
  return value.empty() ? keyword : std::string(keyword) + "'" + value + "'";
}

}  // namespace denoc::python
