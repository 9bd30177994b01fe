// A model with some of its joints held still: each locked joint's motion at its value becomes part
// of the fixed placements of the joints below it, and the link it moved becomes part of its
// parent's link (of the base's body when its parent is the base). What remains is a model of the
// moving joints only, as Pinocchio's buildReducedModel makes one. Lee, Wang and Chirikjian (2007)
// §4.3 hold two torsions of the polypeptide at 180 deg so (hard variables, in their words); a URDF
// branch carried off the chain is locked the same way (io/urdf.cpp, docs/urdf.md).
//
// With the locked joints at their values and at rest, the reduced model's inertia matrix is the
// full model's with their rows and columns removed, and its joint forces are the full model's at
// the other joints: the tests hold both.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "denoc/model/model.hpp"

namespace denoc {

// Joint `joint` (0-based, as Model::joint) held at q.
template <typename S>
struct LockedJoint {
  int joint = 0;
  S q = 0;
};

// The links of a model with the joints of `locked` held still, and where each of the given links
// went: frames[k] is link k's joint frame J_k as a frame fixed to a link of the result (link -1:
// the base), so that a frame, a wrench or a reading on the old link k can be carried over.
template <typename S>
struct ReducedLinks {
  std::vector<LinkSpec<S>> links;    // the moving joints' links, in the given order
  std::vector<BodyFrame<S>> frames;  // one per given link
  std::vector<int> kept;             // the given index of each link of `links`
  RigidBody<S> on_base;              // what was joined to the base, in the base frame
};

namespace reduced_detail {
// J_i relative to J_lambda(i) at q_i: the placement, then the joint's own motion (model.hpp).
template <typename S>
Transform<S> placed_at(const LinkSpec<S>& link, S q) {
  return link.placement *
         (link.type == JointType::revolute ? Transform<S>::rot_z(q) : Transform<S>::trans_z(q));
}

// The value each joint is locked at, or none; checks every entry of `locked`.
template <typename S>
std::vector<const S*> locked_values(int n, const std::vector<LockedJoint<S>>& locked) {
  std::vector<const S*> value(static_cast<std::size_t>(n), nullptr);
  for (const LockedJoint<S>& l : locked) {
    const std::string which = "lock_joints: joint " + std::to_string(l.joint + 1);
    if (l.joint < 0 || l.joint >= n)
      throw std::invalid_argument(which + ": the model has joints 1 to " + std::to_string(n));
    using std::isfinite;
    if (!isfinite(l.q)) throw std::invalid_argument(which + ": its value is not finite");
    const S*& v = value[static_cast<std::size_t>(l.joint)];
    if (v) throw std::invalid_argument(which + ": locked twice");
    v = &l.q;
  }
  return value;
}
}  // namespace reduced_detail

// The links of `links` (a model's, Model::links: parents resolved) with the joints of `locked`
// held still, depth-first as before.
template <typename S>
ReducedLinks<S> lock_joints(const std::vector<LinkSpec<S>>& links,
                            const std::vector<LockedJoint<S>>& locked) {
  const int n = static_cast<int>(links.size());
  const std::vector<const S*> value = reduced_detail::locked_values(n, locked);
  const std::vector<int> parents = resolve_parents(links);
  ReducedLinks<S> r;
  r.frames.resize(links.size());
  for (int k = 0; k < n; ++k) {
    const LinkSpec<S>& link = links[static_cast<std::size_t>(k)];
    const int parent = parents[static_cast<std::size_t>(k)];
    // The frame J_k hangs from: its parent's, wherever that went (the base frame for the base).
    const BodyFrame<S> from =
        parent < 0 ? BodyFrame<S>{} : r.frames[static_cast<std::size_t>(parent)];
    BodyFrame<S>& frame = r.frames[static_cast<std::size_t>(k)];
    if (const S* q = value[static_cast<std::size_t>(k)]) {
      frame = {from.link, from.placement * reduced_detail::placed_at(link, *q)};
      const RigidBody<S> body =
          transformed(RigidBody<S>{link.mass, link.com, link.inertia}, frame.placement);
      if (frame.link < 0) {
        r.on_base = combined(r.on_base, body);
      } else {
        join_body(r.links[static_cast<std::size_t>(frame.link)], body);
      }
      continue;
    }
    LinkSpec<S> moved = link;
    moved.parent = from.link < 0 ? LinkSpec<S>::kBase : from.link;
    moved.placement = from.placement * link.placement;
    frame = {static_cast<int>(r.links.size()), Transform<S>()};
    r.links.push_back(moved);
    r.kept.push_back(k);
  }
  return r;
}

// `model` with the joints of `locked` held still: its tool frame and payload carried to the link
// that now holds the last link, the base body of a floating base joined by what was locked onto
// the base. Throws std::invalid_argument when that link is not the last one (the tool frame is on
// the last link: model.hpp), or when no joint is left.
template <typename S>
Model<S> reduced_model(const Model<S>& model, const std::vector<LockedJoint<S>>& locked) {
  const ReducedLinks<S> r = lock_joints(model.links(), locked);
  if (r.links.empty()) throw std::invalid_argument("reduced_model: every joint is locked");
  const BodyFrame<S>& last = r.frames.back();
  if (last.link != static_cast<int>(r.links.size()) - 1) {
    const std::string carrier =
        last.link < 0 ? "the base"
                      : "link " + std::to_string(r.kept[static_cast<std::size_t>(last.link)] + 1);
    throw std::invalid_argument("reduced_model: the tool frame's link " +
                                std::to_string(model.dof()) + " would become part of " + carrier +
                                ", and the tool frame must be on the last link left");
  }
  const Transform<S> tool = last.placement * model.tool();
  if (!model.floating()) return Model<S>(r.links, model.gravity(), tool, model.payload());
  return Model<S>(r.links, model.gravity(), tool, model.payload(),
                  combined(model.base_body(), r.on_base));
}

}  // namespace denoc
