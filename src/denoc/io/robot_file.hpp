// Robot files (docs/robot-file.md): a DH table with masses and inertias, gravity, and optional
// initial state and trajectory, read into a Model built once. Every value is checked, and a bad one
// raises InputError naming the file, the key (e.g. links[2].mass) and its line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "denoc/io/overrides.hpp"
#include "denoc/io/trajectory.hpp"
#include "denoc/loops/assembly.hpp"
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
  // The frame of link_names[i] relative to J_i (--frame LINK, io/frames.hpp), where the reader
  // records it (URDF); a YAML's follow from its DH rows.
  std::vector<Transform<double>> link_frames;
  Model<double> model;
  std::optional<VecX<double>> initial_q;                  // SI units (rad, m)
  std::optional<VecX<double>> initial_qd;                 // SI units
  std::optional<CycloidalTrajectory<double>> trajectory;  // SI units
  // docs/robot-file.md, as read (SI units): the drive of each joint (defaults where none is given),
  // the tool frame relative to the last DH link frame, the payload on it. The model has them built
  // in (its tool() is relative to J_n: the last link frame's Post_n times this).
  std::vector<Drive<double>> drives;
  Transform<double> tool;
  Payload<double> payload;

  // URDF input, export, --describe and `inertia_checks: warn` (docs/urdf.md and
  // docs/robot-file.md).
  std::string format = "yaml";           // "yaml" or "urdf": what the file was read as
  std::vector<std::string> joint_names;  // URDF: the chain's moving joints, base to tip
  std::string tip_link;                  // URDF: the link whose frame is the tool frame
  // URDF: the links that end a chain whose moving joints form one chain but that hang from its
  // last body through fixed joints side by side (the UR5's ee_link and tool0): none of them is
  // the tool frame, so pose, jacobian and a wrench need a frame named (has_tool_frame).
  std::vector<std::string> chain_ends;
  // URDF: each link merged into a body through fixed joints, and the base link; YAML: the
  // `frames` list. Each a frame of that body (`body` -1: the base) placed in its joint frame
  // J_body (--frame NAME, frames.hpp).
  struct LinkFrame {
    std::string name;
    int body = -1;
    Transform<double> placement;
  };
  std::vector<LinkFrame> fixed_link_frames;
  std::vector<std::string> warnings;  // one line each, printed on standard error by the apps
  // inertia_checks: warn accepted a link that no rigid body can be, so the inertia matrix may
  // stop being positive definite: the apps check it at every state (docs/robot-file.md, exit 1).
  bool check_positive_definite = false;
  // `base:` (YAML): the placement of the DH frame 0 in the base frame, when it is not the
  // identity (a chain whose first axis is not the base z axis; see docs/robot-file.md, "Export").
  std::optional<Transform<double>> base;
  // `base: floating` (YAML, with `base_body`) or --floating-base (URDF): the model's base moves
  // freely (docs/floating-base.md); initial_q and initial_qd then hold 7 + n and 6 + n values.
  bool floating_base = false;
  // URDF <dynamics damping="B" friction="Tc"/> of each chain joint (zero when absent), as read:
  // docs/urdf.md makes them the joint's drive B and Tc with G = 1, so the dynamics include them
  // (ridim's torques, rfdsim's friction); kept here for --describe.
  struct JointDamping {
    double damping = 0;   // N m s/rad or N s/m
    double friction = 0;  // N m or N
  };
  std::vector<JointDamping> urdf_joint_dynamics;

  // `loops` and `actuated` (docs/loops.md): the cut joints that close loops on the tree, and the
  // joints that carry actuators. With loops, initial_q and initial_qd are the initial state
  // assembled (closed) and mobility the degrees of freedom the loops leave; -1 without loops.
  Loops<double> loops;
  int mobility = -1;

  int dof() const { return model.dof(); }
  bool has_loops() const { return !loops.empty(); }
  // Whether pose, jacobian and a wrench have a frame when none is named: the tool frame of a
  // chain, which a tree and a URDF chain with several ends (chain_ends) do not have.
  bool has_tool_frame() const { return model.is_chain() && chain_ends.empty(); }
  // rfdsim's default state: `initial` as read, else zero (with a floating base, the base at the
  // world origin, unturned and still): nq coordinates, or nv rates with `rates`.
  VecX<double> initial_state(bool rates) const;
};

// The fact of a loop that did not close (docs/loops.md): "the loop 'name' does not close: closure
// error E (m or rad) after assembly, above 1e-10". Each front end adds its remedy.
std::string closure_failure(const Loops<double>& loops, const ClosureError& closure);

// Which part of a URDF tree is the chain (docs/urdf.md): empty means the root / the only leaf.
struct ChainSelection {
  std::string base_link;
  std::string tip_link;
  // --inertia-checks warn (docs/robot-file.md for URDF, which has no inertia_checks key): a link
  // whose principal moments break the triangle inequality is accepted with a warning. URDF only.
  bool inertia_checks_warn = false;
  // --floating-base (docs/floating-base.md): the base link moves freely, its rigid group (the
  // links fixed joints join to it, branches off a --tip chain locked) its body.
  bool floating_base = false;
};

// Reads and validates a robot file, after applying the --set overrides to it (overrides.hpp);
// throws InputError. A file whose first element is <robot> (after an optional XML declaration
// and comments), or whose name ends in .urdf, is read as URDF (urdf.hpp) with `chain` choosing
// its base and tip links; any other is read as a robot YAML, and chain must be empty. A name
// ending in .xacro is refused: xacro must expand it first.
RobotFile load_robot_file(const std::string& path, const std::vector<Override>& overrides = {},
                          const ChainSelection& chain = {});

// The text of the robot file at `path` (what load_robot_file parses); InputError when it cannot be
// read, or is a xacro file.
std::string read_robot_text(const std::string& path);

// The same from text already in memory, a robot YAML or a URDF told apart as load_robot_file
// tells them; `path` only names it in messages (and, ending in .urdf, makes it a URDF).
RobotFile parse_robot_file(const std::string& text, const std::string& path,
                           const std::vector<Override>& overrides = {},
                           const ChainSelection& chain = {});

// The same from a YAML document already built (yaml_document.hpp; one built in memory has no
// lines to name in messages): the URDF reader's --set checks its chain's numbers through this.
RobotFile parse_robot_tree(YamlDocument document, const std::string& path,
                           const std::vector<Override>& overrides = {});

}  // namespace denoc
