// Checks shared by the command lines of ridim and rfdsim (spec §11): numbers on the command line
// follow the CSV rule (decimal, one optional sign, finite: `--q0 nan,0,0` is a usage error
// naming --q0), and a file name cannot be empty (`-o ''`). Header-only, for the mains in apps/,
// which link CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "denoc/io/csv.hpp"

namespace denoc {

// Applied to each value of an option before CLI11 converts it (each element of a list).
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) {
        double value;
        if (parse_double(text, value)) return std::string();
        return "'" + text + "' is not a finite decimal number";
      },
      "");
}

inline CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& text) {
        return text.empty() ? std::string(
                                  "a file name cannot be empty (use - for standard "
                                  "output)")
                            : std::string();
      },
      "");
}

}  // namespace denoc
