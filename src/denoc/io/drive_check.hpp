// What a drive may be, shared by the robot YAML reader (a link's `drive` block, and --set), and
// the URDF reader (a joint's <dynamics damping friction>, read as the drive's B and Tc): the
// rotor inertia and viscous friction are not negative, the gear ratio is not 0, and Coulomb
// friction opposes the motion in both directions.
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include "denoc/model/model.hpp"

namespace denoc {

struct DriveProblem {
  enum Field { Jm, G, B, Tc_pos, Tc_neg } field;
  std::string what;  // e.g. "must be >= 0 (N m s/rad)"
};

// The first field of `d` that no drive has, in the order Jm, G, B, Tc+, Tc-; none when all
// are admissible. Non-finite values are the reader's to refuse (it names what it read).
inline std::optional<DriveProblem> drive_problem(const Drive<double>& d) {
  if (d.Jm < 0) return DriveProblem{DriveProblem::Jm, "must be >= 0 (kg m^2)"};
  if (d.G == 0) return DriveProblem{DriveProblem::G, "must not be 0 (motor rate / joint rate)"};
  if (d.B < 0) return DriveProblem{DriveProblem::B, "must be >= 0 (N m s/rad)"};
  if (d.Tc_pos < 0) return DriveProblem{DriveProblem::Tc_pos, "must be >= 0 (friction for qd > 0)"};
  if (d.Tc_neg > 0) return DriveProblem{DriveProblem::Tc_neg, "must be <= 0 (friction for qd < 0)"};
  return std::nullopt;
}

}  // namespace denoc
