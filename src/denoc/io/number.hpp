// Numbers as text in the shortest form that reads back as the same double (0, 0.3, 1e+300,
// -0), the one form every CSV, exported robot file and message of the suite writes, so that a
// value in a message can be found in the output and a file read back gives the same model.
#pragma once

#include <charconv>
#include <string>

namespace denoc {

// Characters enough for any double in shortest round-trip form (24 at most).
inline constexpr int kShortestChars = 32;

// Writes `x` at `first`, which must have kShortestChars characters, and returns the end: the
// form for a writer's own buffer, with no string made per number.
inline char* write_shortest(char* first, double x) {
  return std::to_chars(first, first + kShortestChars, x).ptr;
}

inline std::string shortest(double x) {
  char text[kShortestChars];
  return std::string(text, write_shortest(text, x));
}

}  // namespace denoc
