// --frame LINK (docs/trees.md): a link of the robot file named by the user, as the frame fixed to
// a body of the model (model.hpp, BodyFrame) whose pose, Jacobian or applied wrench is wanted.
#pragma once

#include <string>

#include "denoc/io/robot_file.hpp"

namespace denoc {

// The frame of the link `name`: for a robot YAML, the DH link frame F_i of the link of that name
// (the frame in which its com and inertia are given); for a URDF, the link frame of a moving
// joint's child, or of the tip link (the tool frame). "base" is the base frame. Throws InputError
// naming --frame and the links it knows.
BodyFrame<double> find_frame(const RobotFile& robot, const std::string& name);

}  // namespace denoc
