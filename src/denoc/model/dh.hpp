// Denavit-Hartenberg tables, standard (Saha 1999 Appendix A; docs/robot-file.md) and modified
// (Craig), mapped onto the chain of model.hpp.
//
// Each DH transform is split as Pre_i * motion(q_i) * Post_i, where motion is Rz(q_i) or
// Tz(q_i). Then J_i = F_{i-1} Pre_i motion(q_i), the link frame in which the row gives com and
// inertia is F_i = J_i Post_i, and the placement of J_i relative to J_{i-1} is
// Post_{i-1} Pre_i (Post_0 = identity, the base frame).
//   standard: Rz(theta) Tz(b) Tx(a) Rx(alpha)
//     revolute:  Pre = Rz(theta),        Post = Tz(b) Tx(a) Rx(alpha)
//     prismatic: Pre = Rz(theta) Tz(b),  Post = Tx(a) Rx(alpha)
//   modified: Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta) Tz(b)
//     revolute:  Pre = Rx(alpha) Tx(a) Rz(theta),        Post = Tz(b)
//     prismatic: Pre = Rx(alpha) Tx(a) Rz(theta) Tz(b),  Post = identity
#pragma once

#include <vector>

#include "denoc/model/model.hpp"

namespace denoc {

enum class DhConvention { standard, modified };

template <typename S>
struct DhLink {
  JointType type = JointType::revolute;
  S a = 0, b = 0, alpha = 0, theta = 0;  // m, m, rad, rad (offsets of the joint variable)
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
  const T pre = T::rot_x(l.alpha) * T::trans_x(l.a) * T::rot_z(l.theta);
  if (revolute) return {pre, T::trans_z(l.b)};
  return {pre * T::trans_z(l.b), T()};
}

template <typename S>
std::vector<LinkSpec<S>> links_from_dh(DhConvention convention, const std::vector<DhLink<S>>& dh) {
  std::vector<LinkSpec<S>> links;
  Transform<S> previous_post;  // Post_{i-1}
  for (const DhLink<S>& row : dh) {
    const DhSplit<S> split = split_dh(convention, row);
    LinkSpec<S> link;
    link.type = row.type;
    link.placement = previous_post * split.pre;
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
    previous_post = split.post;
  }
  return links;
}

}  // namespace denoc

namespace denoc {

// The same with the DH frame 0 placed by `base` in the base frame (a robot file's `base:`,
// README "Export"): only the first placement changes, to base * Pre_1.
template <typename S>
std::vector<LinkSpec<S>> links_from_dh(DhConvention convention, const std::vector<DhLink<S>>& dh,
                                       const Transform<S>& base) {
  std::vector<LinkSpec<S>> links = links_from_dh(convention, dh);
  if (!links.empty()) links.front().placement = base * links.front().placement;
  return links;
}

}  // namespace denoc
