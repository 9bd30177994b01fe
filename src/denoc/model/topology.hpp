// How the recursions walk the model's tree. Each recursion is written once, over a topology:
// ChainTopology, where the parent of joint i is i - 1 and a value carried outwards or inwards
// stays in registers from one joint to the next (the code the chains always ran), and
// TreeTopology, where it is read from the parent's stored entry or summed into it. with_topology
// picks one per call from the model, so a chain pays one branch per call, not one per joint.
#pragma once

#include <utility>

#include "denoc/model/model.hpp"

namespace denoc {

struct ChainTopology {
  static constexpr bool chain = true;
  static constexpr int parent(int i) { return i - 1; }
};

struct TreeTopology {
  static constexpr bool chain = false;
  const int* parents;  // the model's, 0-based, -1 for the base
  int parent(int i) const { return parents[i]; }
};

// Whether the recursions run their chain code on `model`: a chain on a fixed base. A chain on a
// floating base takes the tree's code, where the base's share is gathered at the root; the
// workspaces size the tree's per-joint sums by the same test.
template <typename S>
bool runs_chain_code(const Model<S>& model) {
  return model.is_chain() && !model.floating();
}

// f(ChainTopology{}) for a chain on a fixed base, else f(TreeTopology{...}) (a chain on a floating
// base too: the base's share at the root is written once, in the tree's code, and the chain's
// stays as it was); both must return the same type.
template <typename S, typename F>
decltype(auto) with_topology(const Model<S>& model, F&& f) {
  if (runs_chain_code(model)) return f(ChainTopology{});
  return f(TreeTopology{model.parents().data()});
}

}  // namespace denoc
