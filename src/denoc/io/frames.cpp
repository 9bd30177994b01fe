#include "denoc/io/frames.hpp"

#include <algorithm>

#include "denoc/io/errors.hpp"

namespace denoc {

namespace {

// F_i relative to J_i: Post_i of the row's DH split (dh.hpp), or the URDF link frame the reader
// recorded.
Transform<double> link_frame_in_joint_frame(const RobotFile& robot, std::size_t i) {
  if (i < robot.link_frames.size()) return robot.link_frames[i];
  if (robot.format == "yaml" && i < robot.dh.size())
    return split_dh(robot.convention, robot.dh[i]).post;
  return Transform<double>();
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names)
    text += (text.empty() ? "" : ", ") + n;
  return text;
}

std::string known_frames(const RobotFile& robot) {
  std::vector<std::string> names = robot.link_names;
  for (const RobotFile::LinkFrame& f : robot.fixed_link_frames)
    names.push_back(f.name);
  std::string known = std::count(names.begin(), names.end(), "base") ? "" : "base";
  for (const std::string& link : names)
    known += (known.empty() ? "" : ", ") + link;
  const bool tip_listed =
      std::find(robot.link_names.begin(), robot.link_names.end(), robot.tip_link) !=
          robot.link_names.end() ||
      std::any_of(robot.fixed_link_frames.begin(), robot.fixed_link_frames.end(),
                  [&](const auto& f) { return f.name == robot.tip_link; });
  if (!robot.tip_link.empty() && !tip_listed) known += ", " + robot.tip_link;
  return known;
}

}  // namespace

BodyFrame<double> find_frame(const RobotFile& robot, const std::string& name) {
  if (!robot.tip_link.empty() && name == robot.tip_link) return robot.model.tool_frame();
  for (std::size_t i = 0; i < robot.link_names.size(); ++i) {
    if (robot.link_names[i] == name)
      return {static_cast<int>(i), link_frame_in_joint_frame(robot, i)};
  }
  for (const RobotFile::LinkFrame& f : robot.fixed_link_frames) {
    if (f.name == name) return {f.body, f.placement};
  }
  // After the links: a URDF link named "base" (the UR5 has one, turned) is that link.
  if (name == "base") return {-1, Transform<double>()};
  throw InputError(robot.path + ": " + mention(Parameter::frame, name) +
                   ": no link of that name (links: " + known_frames(robot) + ")");
}

std::optional<BodyFrame<double>> frame_or_tool(const RobotFile& robot, const std::string& name,
                                               bool needed, const std::string& what) {
  if (!name.empty()) return find_frame(robot, name);
  if (robot.has_tool_frame() || !needed) return std::nullopt;
  const std::string why = robot.model.is_chain()
                              ? "the chain ends in " + std::to_string(robot.chain_ends.size()) +
                                    " links side by side (" + listed(robot.chain_ends) +
                                    ") and none of them is the tool frame"
                              : "the robot is a tree, with no one tool frame";
  throw InputError(robot.path + ": " + why + ", so " + what + " needs " +
                   mention(Parameter::frame) + " (a link whose frame it refers to)" +
                   (robot.model.is_chain() ? " or " + mention(Parameter::tip) : std::string()));
}

}  // namespace denoc
