// Checks and options shared by the command lines of ridim and rfdsim. Checks: numbers on the
// command line follow the CSV rule (decimal, one optional sign, finite: `--q0 nan,0,0` is a usage
// error naming --q0), and a file name cannot be empty (`-o ''`). Options: the robot file and its
// URDF chain, -o, the external wrench, the batch options (--progress, --quiet, --set) and the
// names of routes and quantities, the same in both apps. Header-only, for the mains in apps/.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/progress.hpp"
#include "denoc/io/csv.hpp"
#include "denoc/io/overrides.hpp"

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

// The robot file and, for a URDF, the chain's ends and how strict the inertia checks are: the
// fields robot, base_link, tip_link, inertia_checks and floating_base of either app's options.
template <typename Options>
void add_robot_options(CLI::App& app, Options& options) {
  app.add_option("robot", options.robot,
                 "Robot file: YAML (see robots/stanford.yaml) or URDF (*.urdf)")
      ->required()
      ->type_name("FILE");
  app.add_option("--base", options.base_link,
                 "URDF robot file: the link the chain starts from (default: the root link)")
      ->option_text("LINK");
  app.add_option("--tip", options.tip_link,
                 "URDF robot file: the link the chain ends at, whose frame is the tool frame\n"
                 "(default: the only leaf reached through a moving joint, e.g. tool0 behind\n"
                 "fixed joints). Branches off the chain through moving joints are carried,\n"
                 "locked at 0 or the nearest limit; mimic joints are independent joints (each\n"
                 "named in a warning)")
      ->option_text("LINK");
  app.add_option("--inertia-checks", options.inertia_checks,
                 "URDF robot file: strict (default) or warn, to accept links whose principal\n"
                 "moments break the triangle inequality, as a YAML's inertia_checks: warn")
      ->check(CLI::IsMember({"strict", "warn"}))
      ->option_text("strict|warn");
  app.add_flag("--floating-base", options.floating_base,
               "URDF robot file: the base link moves freely, with seven more coordinates\n"
               "(position, unit quaternion) and six more rates placed first\n"
               "(docs/floating-base.md; a robot YAML says base: floating)");
}

// -o FILE; `help` says what is written there.
inline void add_output_option(CLI::App& app, std::string& output, const std::string& help) {
  app.add_option("-o,--output", output, help)->check(non_empty_path())->option_text("FILE");
}

// An option that takes one of the names of `table` (pairs of a name and its value, e.g. the
// routes of --algorithm), kept as text in `name`; named_value gives the value after parsing.
template <typename T>
CLI::Option* add_name_option(CLI::App& app, const std::string& flag, std::string& name,
                             const std::vector<std::pair<std::string, T>>& table,
                             const std::string& help) {
  std::vector<std::string> names;
  for (const auto& entry : table)
    names.push_back(entry.first);
  return app.add_option(flag, name, help)->check(CLI::IsMember(names))->option_text("NAME");
}

// The value of `name` in `table`, or `fallback` when the option was not given (name empty);
// `Value` is T or e.g. std::optional<T>.
template <typename T, typename Value>
Value named_value(const std::vector<std::pair<std::string, T>>& table, const std::string& name,
                  Value fallback) {
  for (const auto& [entry, value] : table) {
    if (entry == name) return value;
  }
  return fallback;
}

// --frame LINK (docs/trees.md): the link whose frame pose, jacobian, frame-velocity,
// frame-acceleration and --wrench refer to.
inline void add_frame_option(CLI::App& app, std::string& link) {
  app.add_option("--frame", link,
                 "The link whose frame the pose, the Jacobian and --wrench refer to (a link\n"
                 "name of the robot file, or base); default: the tool frame. Needed on a tree")
      ->option_text("LINK");
}

// --wrench FILE and --wrench-frame base|tool (docs/robot-file.md).
inline void add_wrench_options(CLI::App& app, std::string& wrench, std::string& frame) {
  app.add_option("--wrench", wrench,
                 "CSV t,fx,fy,fz,nx,ny,nz: the wrench the environment exerts on the tool, at\n"
                 "the tool frame origin; linear between samples, held outside them")
      ->option_text("FILE");
  app.add_option("--wrench-frame", frame,
                 "base (default) or tool: the frame in which --wrench's vectors are given\n"
                 "(tool: the --frame given, if any)")
      ->check(CLI::IsMember({"base", "tool"}))
      ->option_text("NAME");
}

// --progress, --quiet and --set KEY=VALUE (docs/batches.md), as parsed.
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
