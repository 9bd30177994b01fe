// URDF robot files (docs/urdf.md), read through urdfdom into the same RobotFile and Model as a DH
// table: the chain from a base link to a tip link, each moving joint a constant placement whose
// z axis is the joint axis, and each body the rigid union of the links that fixed joints join
// and of the branches off the chain, their moving joints locked. The tip link's frame is the
// tool frame.
#pragma once

#include <string>
#include <vector>

#include "denoc/io/robot_file.hpp"

namespace denoc {

// Reads a URDF file; throws InputError naming the file and the joint or link at fault.
RobotFile load_urdf(const std::string& path, const ChainSelection& chain = {});

// The same from text in memory; `path` only names it in messages.
RobotFile parse_urdf(const std::string& text, const std::string& path,
                     const ChainSelection& chain = {});

// --set on a URDF (docs/batches.md): the same paths as a robot file's, on the chain as loaded
// (links[i] is the body that chain joint i moves, fixed links merged, com and inertia in J_i):
// gravity[k], links[i].mass, .com[k], .inertia.xx (yy, zz, xy, xz, yz), .drive.Jm, .G, .B, .Tc.
// Applied in order and checked by the robot YAML loader's own checks, with the same verdicts
// (`inertia_checks_warn` as its inertia_checks: warn). Throws InputError naming the file and
// the key.
void apply_overrides(RobotFile& robot, const std::vector<Override>& overrides,
                     bool inertia_checks_warn = false);

// A rotation whose z axis is the unit vector `axis` (exact for the coordinate axes).
Mat3<double> frame_with_z_axis(const Vec3<double>& axis);

}  // namespace denoc
