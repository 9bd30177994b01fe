// The model as loaded, written back out (docs/robot-file.md, "Export"): as a robot YAML in standard
// or modified DH, with com and inertia re-expressed in the new link frames, or as a URDF; and the
// DH table that a chain of placements has, found from its joint axes.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "denoc/io/robot_file.hpp"
#include "denoc/model/rotation.hpp"

namespace denoc {

// A DH table equivalent to a model: the same joint axes and the same bodies, link frames placed
// by the convention's rules (common normals of consecutive axes). `base` is set when the DH
// frame 0 cannot be the base frame (standard: the first axis is not the base z axis; modified:
// it is not perpendicular to the base x axis or does not meet it); it is then the placement of
// the DH frame 0 in the base frame, written to a robot YAML as `base:`.
struct DhFit {
  DhConvention convention = DhConvention::standard;
  std::vector<DhLink<double>> rows;  // SI units, angles in rad
  std::optional<Transform<double>> base;
  // The table's last link frame (DH frame n) in the model's last joint frame J_n: the model's
  // tool frame, relative to J_n, is last_frame * (tool in the table's last link frame).
  Transform<double> last_frame;
  // Each link's frame in the table (the DH frame its com and inertia are in) in its joint frame
  // J_i: where `frames` are placed from (robot-file.md).
  std::vector<Transform<double>> link_frames;
};

DhFit fit_dh(const Model<double>& model, DhConvention convention);

// Writes `robot` as a robot YAML (angles in degrees) in `convention`, with the tool frame and
// payload; text values are written by yaml-cpp's emitter, so any text reads back unchanged (a
// text that would not, as bytes that are not UTF-8, is an InputError naming it).
// The frames fixed to links are written as `frames`; what cannot be written is added to `notes`
// when given. InputError for a robot of no joint (a robot YAML has links).
void write_robot_yaml(std::ostream& out, const RobotFile& robot, DhConvention convention,
                      std::vector<std::string>* notes = nullptr);

// Writes `robot` as a URDF: one link per body with its joint frame J_i as the link frame (joint
// axis z), and the tool frame as a link on a fixed joint (with the payload's inertial), so it
// reads back as the same chain with the same tool frame. Things URDF cannot hold (gravity other
// than [0, 0, -9.81], initial state, trajectory, rotor inertia) are noted in `notes`; a name
// with a control character XML cannot hold (other than tab, line feed, carriage return, which
// are written as character references) is an InputError naming it.
void write_urdf(std::ostream& out, const RobotFile& robot, std::vector<std::string>& notes);

// ridim --export PATH [--dh ...]: by the name's ending, .yaml/.yml or .urdf; the DH convention
// defaults to the robot file's own (standard for a URDF). Throws InputError for a bad name or
// an unwritable file; returns the notes to print as warnings.
std::vector<std::string> export_robot(const RobotFile& robot, const std::string& path,
                                      std::optional<DhConvention> convention);

}  // namespace denoc
