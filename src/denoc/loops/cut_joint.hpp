// Closed kinematic loops (docs/loops.md): the model stays the spanning tree, and each loop is
// closed by a cut joint between two bodies, a frame on each (frame_a on body a, frame_b on body
// b). The loop holds when the two frames coincide but for the cut joint's own motion: a revolute
// joint leaves the turn about their common z axis, a prismatic one the slide along it, a spherical
// one every turn about their common origin.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "denoc/model/model.hpp"

namespace denoc {

enum class CutJointType { revolute, prismatic, spherical };

// A cut joint: its name (for messages and column names), its kind and its two frames.
template <typename S>
struct CutJoint {
  std::string name;
  CutJointType type = CutJointType::revolute;
  BodyFrame<S> a, b;
};

// The components of the relative motion of frame_a in frame_b, [v; w] in frame_b's axes (v of
// frame_a's origin), that a cut joint forbids: its equations, in this order (docs/loops.md).
struct CutJointRows {
  std::array<int, 5> components{};
  int count = 0;
};

inline CutJointRows constrained_components(CutJointType type) {
  switch (type) {
    case CutJointType::revolute:  // all of v, and the turns about x and y
      return {{0, 1, 2, 3, 4}, 5};
    case CutJointType::prismatic:  // v across z, and every turn
      return {{0, 1, 3, 4, 5}, 5};
    case CutJointType::spherical:  // all of v
      return {{0, 1, 2, 0, 0}, 3};
  }
  return {};
}

// The loops of a robot: the cut joints, and the joints that carry actuators (0-based, in joint
// order), as many as the mobility.
template <typename S>
struct Loops {
  std::vector<CutJoint<S>> cuts;
  std::vector<int> actuated;

  bool empty() const { return cuts.empty(); }
  // The number of loop equations m, redundant ones included.
  int equations() const {
    int m = 0;
    for (const CutJoint<S>& cut : cuts)
      m += constrained_components(cut.type).count;
    return m;
  }
};

// The columns of the actuated joints: each prefix followed by every actuated joint's number from 1,
// in joint order (`q` gives q1, q3 when joints 1 and 3 are actuated).
template <typename S>
std::vector<std::string> actuated_columns(const Loops<S>& loops,
                                          const std::vector<std::string>& prefixes) {
  std::vector<std::string> names;
  for (const std::string& prefix : prefixes) {
    for (int i : loops.actuated)
      names.push_back(prefix + std::to_string(i + 1));
  }
  return names;
}

}  // namespace denoc
