// Robot files (spec §1): a DH table with masses and inertias, gravity, and optional initial
// state and trajectory, read into a Model built once. Every value is checked, and a bad one
// raises InputError naming the file, the key (e.g. links[2].mass) and its line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "denoc/io/overrides.hpp"
#include "denoc/io/trajectory.hpp"
#include "denoc/model/dh.hpp"

namespace denoc {

struct RobotFile {
  std::string path;  // as given, for messages
  std::string name;
  std::string source;
  DhConvention convention = DhConvention::standard;
  double angle_scale = 1;  // radians per angle_unit
  std::vector<DhLink<double>> dh;
  std::vector<std::string> link_names;
  Model<double> model;
  std::optional<VecX<double>> initial_q;                  // SI units (rad, m)
  std::optional<VecX<double>> initial_qd;                 // SI units
  std::optional<CycloidalTrajectory<double>> trajectory;  // SI units
  // Spec §6, as read (SI units): the drive of each joint (defaults where none is given), the
  // tool frame relative to the last DH link frame, the payload on it. The model has them built
  // in (its tool() is relative to J_n: the last link frame's Post_n times this).
  std::vector<Drive<double>> drives;
  Transform<double> tool;
  Payload<double> payload;

  int dof() const { return model.dof(); }
};

// Reads and validates a robot file, after applying the --set overrides to it (overrides.hpp);
// throws InputError.
RobotFile load_robot_file(const std::string& path, const std::vector<Override>& overrides = {});

// The same from text already in memory; `path` only names it in messages.
RobotFile parse_robot_file(const std::string& text, const std::string& path,
                           const std::vector<Override>& overrides = {});

}  // namespace denoc
