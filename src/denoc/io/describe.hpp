// ridim --describe: what the suite understood of a robot file, for a person to check before
// trusting its numbers (docs/robot-file.md, "Checking a model").
#pragma once

#include <iosfwd>

#include "denoc/io/robot_file.hpp"

namespace denoc {

// The chain, each joint's type and axis (in the base frame at q = 0), masses and their total,
// the mass centres, the warnings, the DH table (as given, or for a URDF fitted in both
// conventions), for a URDF each joint's damping and friction, and last the header lines of the
// trajectory and torque CSVs this robot takes, with their units.
void describe_robot(std::ostream& out, const RobotFile& robot);

}  // namespace denoc
