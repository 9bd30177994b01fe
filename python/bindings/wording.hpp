// The Python module's words for what a user chose (denoc/io/errors.hpp): each Parameter a message
// marks is named as the keyword argument that sets it, `frame='F'`, and a quantity as the Robot
// method that computes it.
#pragma once

#include <string>

#include "denoc/io/errors.hpp"

namespace denoc::python {

std::string python_words(Parameter parameter, const std::string& value);

// `message` with its marks worded as keyword arguments.
inline std::string in_python(const std::string& message) {
  return worded(message, python_words);
}

}  // namespace denoc::python
