// The command line's words for what a user chose (denoc/io/errors.hpp): each Parameter a message
// marks is named as the option that sets it, `--frame F`.
#pragma once

#include <string>

#include "denoc/io/errors.hpp"

namespace denoc {

std::string command_line_words(Parameter parameter, const std::string& value);

// `message` with its marks worded as options.
inline std::string on_command_line(const std::string& message) {
  return worded(message, command_line_words);
}

}  // namespace denoc
