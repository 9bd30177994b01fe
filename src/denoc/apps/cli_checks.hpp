// Checks and options shared by the command lines of ridim and rfdsim. Checks (spec §11): numbers
// on the command line follow the CSV rule (decimal, one optional sign, finite: `--q0 nan,0,0` is
// a usage error naming --q0), and a file name cannot be empty (`-o ''`). Options: the external
// wrench (spec §6) and the batch options (spec §9), the same in both apps. Header-only, for the
// mains in apps/, which link CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "denoc/io/csv.hpp"
#include "denoc/io/overrides.hpp"
#include "denoc/io/progress.hpp"

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

// --wrench FILE and --wrench-frame base|tool (spec §6).
inline void add_wrench_options(CLI::App& app, std::string& wrench, std::string& frame) {
  app.add_option("--wrench", wrench,
                 "CSV t,fx,fy,fz,nx,ny,nz: the wrench the environment exerts on the tool, at\n"
                 "the tool frame origin; linear between samples, held outside them")
      ->option_text("FILE");
  app.add_option("--wrench-frame", frame,
                 "base (default) or tool: the frame in which --wrench's vectors are given")
      ->check(CLI::IsMember({"base", "tool"}))
      ->option_text("NAME");
}

// --progress, --quiet and --set KEY=VALUE (spec §9), as parsed.
struct BatchFlags {
  bool progress = false, quiet = false;
  std::vector<std::string> sets;
};

// `set_examples`: override paths that make sense for this app, for --set's help.
inline void add_batch_options(CLI::App& app, BatchFlags& flags, const std::string& set_examples) {
  auto* progress =
      app.add_flag("--progress", flags.progress,
                   "Show progress on standard error even when it is not a terminal or the run\n"
                   "is short");
  app.add_flag("--quiet", flags.quiet, "Never show progress (default: on a terminal, after 1 s)")
      ->excludes(progress);
  app.add_option("--set", flags.sets,
                 "Override one number of the robot file, by its path in messages, in the\n"
                 "file's units (angles in its angle_unit; repeatable), e.g.\n" +
                     set_examples)
      ->option_text("KEY=VALUE")
      ->allow_extra_args(false);
}

// Into either app's options (RidimOptions, RfdsimOptions). A malformed --set throws InputError.
template <typename Options>
void apply_batch_options(const BatchFlags& flags, Options& options) {
  if (flags.progress) options.progress = ProgressMode::on;
  if (flags.quiet) options.progress = ProgressMode::off;
  for (const std::string& set : flags.sets)
    options.overrides.push_back(parse_override(set));
}

}  // namespace denoc
