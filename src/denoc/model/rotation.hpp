// Roll, pitch and yaw about the fixed X, Y and Z axes, R = Rz(yaw) Ry(pitch) Rx(roll): the
// angles of a URDF <origin rpy>, and of a robot YAML's `tool` and `base` (docs/ on the robot
// file), read into a rotation and written back from one.
#pragma once

#include <cmath>

#include "denoc/model/spatial.hpp"

namespace denoc {

template <typename S>
Mat3<S> rotation_from_rpy(const Vec3<S>& rpy) {
  return (Eigen::AngleAxis<S>(rpy[2], Vec3<S>::UnitZ()) *
          Eigen::AngleAxis<S>(rpy[1], Vec3<S>::UnitY()) *
          Eigen::AngleAxis<S>(rpy[0], Vec3<S>::UnitX()))
      .toRotationMatrix();
}

// The angles of R, pitch in [-pi/2, pi/2]; at pitch = +-pi/2 (gimbal lock) only roll - yaw or
// roll + yaw is defined, and the yaw is folded into the roll.
template <typename S>
Vec3<S> rpy_of(const Mat3<S>& R) {
  using std::atan2;
  using std::hypot;
  const S c = hypot(R(0, 0), R(1, 0));
  const S pitch = atan2(-R(2, 0), c);
  if (c > S(1e-12)) return {atan2(R(2, 1), R(2, 2)), pitch, atan2(R(1, 0), R(0, 0))};
  return {atan2(-R(1, 2), R(1, 1)), pitch, S(0)};
}

}  // namespace denoc
