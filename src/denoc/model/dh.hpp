// Denavit-Hartenberg tables, standard (Saha 1999 Appendix A; docs/robot-file.md) and modified
// (Craig), mapped onto the chain of model.hpp; trees in modified DH with the Khalil-Kleinfinger
// parameters gamma and epsilon (W. Khalil and J.-F. Kleinfinger, "A new geometric notation for
// open and closed-loop robots", IEEE ICRA 1986), each row placed from its parent's frame.
//
// Each DH transform is split as Pre_i * motion(q_i) * Post_i, where motion is Rz(q_i) or
// Tz(q_i). Then J_i = F_{i-1} Pre_i motion(q_i), the link frame in which the row gives com and
// inertia is F_i = J_i Post_i, and the placement of J_i relative to J_{i-1} is
// Post_{lambda(i)} Pre_i (Post_0 = identity, the base frame), lambda(i) the parent (the link before
// in a chain).
//   standard: Rz(theta) Tz(b) Tx(a) Rx(alpha)
//     revolute:  Pre = Rz(theta),        Post = Tz(b) Tx(a) Rx(alpha)
//     prismatic: Pre = Rz(theta) Tz(b),  Post = Tx(a) Rx(alpha)
//   modified: Rz(gamma) Tz(epsilon) Rx(alpha) Tx(a) Rz(theta) Tz(b), gamma = epsilon = 0 in
//   Craig's form (a chain's usual table); Pre below is that product up to Rz(theta):
//     revolute:  Pre = Rz(gamma) Tz(epsilon) Rx(alpha) Tx(a) Rz(theta),        Post = Tz(b)
//     prismatic: Pre = Rz(gamma) Tz(epsilon) Rx(alpha) Tx(a) Rz(theta) Tz(b),  Post = identity
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "denoc/model/model.hpp"

namespace denoc {

enum class DhConvention { standard, modified };

template <typename S>
struct DhLink {
  JointType type = JointType::revolute;
  // The parent row, LinkSpec's conventions: an index (0-based), kBase or kPrevious (the default).
  int parent = LinkSpec<S>::kPrevious;
  S a = 0, b = 0, alpha = 0, theta = 0;  // m, m, rad, rad (offsets of the joint variable)
  S gamma = 0, epsilon = 0;              // rad, m: Khalil-Kleinfinger, modified DH only
  S mass = 1;
  Vec3<S> com = Vec3<S>::Zero();      // in the DH link frame F_i
  Mat3<S> inertia = Mat3<S>::Zero();  // about C_i, in F_i
};

template <typename S>
struct DhSplit {
  Transform<S> pre, post;
};

template <typename S>
DhSplit<S> split_dh(DhConvention convention, const DhLink<S>& l) {
  using T = Transform<S>;
  const bool revolute = l.type == JointType::revolute;
  if (convention == DhConvention::standard) {
    if (revolute) return {T::rot_z(l.theta), T::trans_z(l.b) * T::trans_x(l.a) * T::rot_x(l.alpha)};
    return {T::rot_z(l.theta) * T::trans_z(l.b), T::trans_x(l.a) * T::rot_x(l.alpha)};
  }
  T pre = T::rot_x(l.alpha) * T::trans_x(l.a) * T::rot_z(l.theta);
  if (l.gamma != S(0) || l.epsilon != S(0))  // a chain's table keeps its products unchanged
    pre = T::rot_z(l.gamma) * T::trans_z(l.epsilon) * pre;
  if (revolute) return {pre, T::trans_z(l.b)};
  return {pre * T::trans_z(l.b), T()};
}

// Each row placed from its parent's link frame, Post_{lambda(i)} Pre_i; the rows with the base as
// parent from `base`, the DH frame 0 in the base frame (a robot file's `base:`, docs/robot-file.md,
// "Export").
template <typename S>
std::vector<LinkSpec<S>> links_from_dh(DhConvention convention, const std::vector<DhLink<S>>& dh,
                                       const Transform<S>& base = Transform<S>()) {
  std::vector<LinkSpec<S>> links;
  std::vector<Transform<S>> posts;  // Post_i of every row, for its children
  for (std::size_t k = 0; k < dh.size(); ++k) {
    const DhLink<S>& row = dh[k];
    const int parent = row.parent == LinkSpec<S>::kPrevious ? static_cast<int>(k) - 1 : row.parent;
    if (parent >= static_cast<int>(k) || parent < LinkSpec<S>::kBase)
      throw std::invalid_argument("links_from_dh: row " + std::to_string(k + 1) +
                                  "'s parent is not an earlier row");
    const DhSplit<S> split = split_dh(convention, row);
    LinkSpec<S> link;
    link.type = row.type;
    link.parent = parent;
    link.placement = (parent < 0 ? base : posts[static_cast<std::size_t>(parent)]) * split.pre;
    link.mass = row.mass;
    link.com = split.post * row.com;
    link.inertia = split.post.R * row.inertia * split.post.R.transpose();
    // Reactions are reported in the DH frame whose z axis is joint i's (docs/csv.md): standard DH
    // frame i-1 = J_i motion(q_i)^-1 Pre_i^-1, fixed to link i-1; modified DH frame i = J_i Post_i.
    if (convention == DhConvention::standard) {
      link.reaction_frame = split.pre.inverse();
      link.reaction_frame_undoes_motion = true;
    } else {
      link.reaction_frame = split.post;
    }
    links.push_back(link);
    posts.push_back(split.post);
  }
  return links;
}

}  // namespace denoc
