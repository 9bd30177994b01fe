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

// By Parameter, in its order.
constexpr std::array<const char*, kParameters> kNames{
    "base", "tip",  "frame", "floating_base", "inertia_checks", "algorithm", "quantity",
    "set",  "rtol", "atol",  "wrench",        "export_file",    "dh"};

}  // namespace

std::string library_words(Parameter parameter, const std::string& value) {
  const char* name = kNames.at(static_cast<std::size_t>(parameter));
  return value.empty() ? name : std::string(name) + " " + value;
}

std::string mention(Parameter parameter, const std::string& value) {
  std::string marker(1, kOpen);
  marker += static_cast<char>('A' + static_cast<int>(parameter));
  if (!value.empty()) marker += kValue + value;
  return marker + kClose;
}

std::string worded(const std::string& message, ParameterWords words) {
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
    if (index < 0 || index >= kParameters) {
      out.append(message, open, close + 1 - open);  // not a marker of ours: kept as it is
    } else {
      out += words(static_cast<Parameter>(index), message.substr(value, close - value));
    }
    from = close + 1;
  }
}

}  // namespace denoc
