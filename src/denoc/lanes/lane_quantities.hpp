// Many samples per instruction for the quantities that batch users compute on millions of
// independent samples: the joint forces (with the drives' friction), h, g and the inertia
// matrix, and the forward dynamics, each on `width` samples at once, one per lane of a pack
// (lanes.hpp). The recursions are saha/'s own templates instantiated on packs, so a lane's result
// is the scalar route's up to the order in which the compiler fuses multiply-adds
// (docs/performance.md). Fixed bases, the DeNOC routes and no wrench; SampleQuantities and
// ForwardDynamics use them where they apply and fall back to one sample at a time elsewhere.
#pragma once

#include <cstddef>

#include "denoc/lanes/lanes.hpp"
#include "denoc/model/model.hpp"
#include "denoc/routes.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

enum class Quantity;  // quantities.hpp

// Pointers to `width` samples' vectors: sample k's at [k], lanes beyond the count unused.
struct LanePointers {
  const double* q[Lanes<double>::size];
  const double* qd[Lanes<double>::size];
  const double* qdd[Lanes<double>::size];  // or tau for the forward dynamics
  double* out[Lanes<double>::size];
};

// Where one vector of consecutive samples lies: sample k's at data + k * stride (a stride of 0
// gives every sample the same vector).
template <typename T>
struct Strided {
  T* data;
  std::ptrdiff_t stride;
};

// The pointers to samples first .. first + count - 1 of vectors laid out so.
LanePointers lane_pointers(long first, int count, Strided<const double> q, Strided<const double> qd,
                           Strided<const double> qdd, Strided<double> out);

// The model broadcast to every lane and a workspace of packs, built once.
class LaneDynamics {
 public:
  using Pack = Lanes<double>;
  static constexpr int width = Pack::size;

  explicit LaneDynamics(const Model<double>& model);

  // Whether the lanes compute `quantity` by `route` for this model (a fixed base, DeNOC).
  static bool supports(Quantity quantity, Route route, const Model<double>& model);
  // The same for the forward dynamics (ForwardDynamics): a fixed base, the O(n) route.
  static bool supports_forward(Route route, const Model<double>& model);

  // `count` <= width samples of q, qd, qdd: the quantity's row (docs/csv.md) into out[k]; the
  // drives' friction added to the forces when `friction`.
  void evaluate(Quantity quantity, bool friction, int count, const LanePointers& samples);
  // qdd = I^-1 (tau - h - friction) for `count` samples of q, qd and tau (in qdd[k]), into out[k].
  void forward(bool friction, int count, const LanePointers& samples);

 private:
  void gather(int count, const LanePointers& samples);
  static void scatter(const VecX<Pack>& values, int count, const LanePointers& samples);
  void scatter_forces(const VecX<Pack>& forces, bool friction, int count,
                      const LanePointers& samples);

  Model<Pack> model_lanes_;
  Workspace<Pack> ws_;
  VecX<Pack> q_, qd_, qdd_, friction_;
};

}  // namespace denoc
