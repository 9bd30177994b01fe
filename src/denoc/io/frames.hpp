// --frame NAME (docs/trees.md): a link of the robot file named by the user, as the frame fixed to
// a body of the model (model.hpp, BodyFrame) whose pose, Jacobian or applied wrench is wanted.
#pragma once

#include <optional>
#include <string>

#include "denoc/io/robot_file.hpp"

namespace denoc {

// The frame of the link `name`: for a robot YAML, the DH link frame F_i of the link of that name
// (the frame in which its com and inertia are given); for a URDF, any link: the link frame of a
// moving joint's child, of the tip link (the tool frame), or of a link merged into a body through
// fixed joints. "base" is the base frame. Throws InputError naming the frame and the links known.
BodyFrame<double> find_frame(const RobotFile& robot, const std::string& name);

// The frame `name`, or with no name none (the tool frame) when the robot has one
// (RobotFile::has_tool_frame); InputError when `needed` (a pose, a Jacobian, a wrench: `what`
// names it) and the robot has no tool frame.
std::optional<BodyFrame<double>> frame_or_tool(const RobotFile& robot, const std::string& name,
                                               bool needed, const std::string& what);

}  // namespace denoc
