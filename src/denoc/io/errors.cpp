#include "denoc/io/errors.hpp"

#include <algorithm>
#include <array>

namespace denoc {

namespace {

// A marker: kOpen, the parameter's number, kValue and the value when there is one, kClose.
// Control characters that no robot file, path or name the suite accepts holds in a message.
constexpr char kOpen = '\x1c';
constexpr char kValue = '\x1d';
constexpr char kClose = '\x1e';

struct Names {
  const char* library;
  const char* command_line;
  const char* python;
};

// By Parameter, in its order.
constexpr std::array<Names, 13> kNames{{
    {"base", "--base", "base="},
    {"tip", "--tip", "tip="},
    {"frame", "--frame", "frame="},
    {"floating_base", "--floating-base", "floating_base="},
    {"inertia_checks", "--inertia-checks", "inertia_checks="},
    {"algorithm", "--algorithm", "algorithm="},
    {"quantity", "--quantity", "quantity"},
    {"set", "--set", "set="},
    {"rtol", "--rtol", "rtol="},
    {"atol", "--atol", "atol="},
    {"wrench", "--wrench", "wrench"},
    {"export_file", "--export", "export"},
    {"dh", "--dh", "dh="},
}};

// Python names a quantity by the Robot method that computes it.
std::string python_method(const std::string& quantity) {
  if (quantity == "torques") return "inverse_dynamics()";
  std::string name = quantity;
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "()";
}

std::string named(Parameter parameter, const std::string& value, Wording wording) {
  const Names& names = kNames.at(static_cast<std::size_t>(parameter));
  switch (wording) {
    case Wording::command_line:
      return value.empty() ? names.command_line : std::string(names.command_line) + " " + value;
    case Wording::python:
      if (parameter == Parameter::quantity)
        return value.empty() ? "the method" : python_method(value);
      if (parameter == Parameter::set) return value.empty() ? "set=" : "set= key '" + value + "'";
      if (value.empty()) return names.python;
      return std::string(names.python) + "'" + value + "'";
    case Wording::library:
      break;
  }
  return value.empty() ? names.library : std::string(names.library) + " " + value;
}

}  // namespace

std::string mention(Parameter parameter, const std::string& value) {
  std::string marker(1, kOpen);
  marker += static_cast<char>('A' + static_cast<int>(parameter));
  if (!value.empty()) marker += kValue + value;
  return marker + kClose;
}

std::string worded(const std::string& message, Wording wording) {
  std::string out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t open = message.find(kOpen, from);
    const std::size_t close = open == std::string::npos ? open : message.find(kClose, open);
    if (close == std::string::npos || close < open + 2) {
      out.append(message, from, std::string::npos);
      return out;
    }
    out.append(message, from, open - from);
    const int index = message[open + 1] - 'A';
    const std::size_t value = message[open + 2] == kValue ? open + 3 : close;
    if (index < 0 || index >= static_cast<int>(kNames.size())) {
      out.append(message, open, close + 1 - open);  // not a marker of ours: kept as it is
    } else {
      out += named(static_cast<Parameter>(index), message.substr(value, close - value), wording);
    }
    from = close + 1;
  }
}

}  // namespace denoc
