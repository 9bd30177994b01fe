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

}  // namespace

BodyFrame<double> find_frame(const RobotFile& robot, const std::string& name) {
  if (name == "base") return {-1, Transform<double>()};
  if (!robot.tip_link.empty() && name == robot.tip_link) return robot.model.tool_frame();
  for (std::size_t i = 0; i < robot.link_names.size(); ++i) {
    if (robot.link_names[i] == name)
      return {static_cast<int>(i), link_frame_in_joint_frame(robot, i)};
  }
  std::string known = "base";
  for (const std::string& link : robot.link_names)
    known += ", " + link;
  const bool tip_listed = std::find(robot.link_names.begin(), robot.link_names.end(),
                                    robot.tip_link) != robot.link_names.end();
  if (!robot.tip_link.empty() && !tip_listed) known += ", " + robot.tip_link;
  throw InputError(robot.path + ": --frame " + name + ": no link of that name (links: " + known +
                   ")");
}

}  // namespace denoc
