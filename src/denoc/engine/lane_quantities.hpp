// Many samples per instruction for the quantities that batch users compute on millions of
// independent samples: the joint forces (with the drives' friction), h, g, the inertia matrix and
// the derivatives of the joint forces (derivatives/), and the forward dynamics, each on `width`
// samples at once, one per lane of a pack (lanes.hpp). The recursions are saha/'s own templates
// instantiated on packs, so a lane's result is the scalar route's up to the order in which the
// compiler fuses multiply-adds (docs/performance.md). Fixed bases, the DeNOC routes and no wrench;
// SampleQuantities and ForwardDynamics use them where they apply and fall back to one sample at a
// time elsewhere.
#pragma once

#include <cstddef>
#include <memory>

#include "denoc/derivatives/workspace.hpp"
#include "denoc/engine/quantity_table.hpp"
#include "denoc/engine/routes.hpp"
#include "denoc/lanes/lanes.hpp"
#include "denoc/model/model.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// Pointers to `width` samples' vectors of T (double or float): sample k's at [k], lanes beyond
// the count unused.
template <typename T>
struct LanePointersOf {
  const T* q[Lanes<T>::size];
  const T* qd[Lanes<T>::size];
  const T* qdd[Lanes<T>::size];  // or tau for the forward dynamics
  T* out[Lanes<T>::size];
};
using LanePointers = LanePointersOf<double>;

// Where one vector of consecutive samples lies: sample k's at data + k * stride (a stride of 0
// gives every sample the same vector).
template <typename T>
struct Strided {
  T* data;
  std::ptrdiff_t stride;
};

// The pointers to samples first .. first + count - 1 of vectors laid out so.
template <typename T>
LanePointersOf<T> lane_pointers(long first, int count, Strided<const T> q, Strided<const T> qd,
                                Strided<const T> qdd, Strided<T> out) {
  LanePointersOf<T> p{};
  for (int j = 0; j < count; ++j) {
    const long k = first + j;
    p.q[j] = q.data + k * q.stride;
    p.qd[j] = qd.data + k * qd.stride;
    p.qdd[j] = qdd.data + k * qdd.stride;
    p.out[j] = out.data + k * out.stride;
  }
  return p;
}
inline LanePointers lane_pointers(long first, int count, Strided<const double> q,
                                  Strided<const double> qd, Strided<const double> qdd,
                                  Strided<double> out) {
  return lane_pointers<double>(first, count, q, qd, qdd, out);
}

// The model broadcast to every lane and a workspace of packs, built once. T is double (what the
// command lines and the Python module use) or float (twice the lanes; LaneDynamicsOf<float> from
// a Model<float>).
template <typename T>
class LaneDynamicsOf {
 public:
  using Pack = Lanes<T>;
  using Pointers = LanePointersOf<T>;
  static constexpr int width = Pack::size;

  explicit LaneDynamicsOf(const Model<T>& model);

  // Whether the lanes compute `quantity` by `route` for this model (a fixed base, DeNOC).
  static bool supports(Quantity quantity, Route route, const Model<T>& model);
  // The same for the forward dynamics (ForwardDynamics): a fixed base, the O(n) route.
  static bool supports_forward(Route route, const Model<T>& model);

  // `count` <= width samples of q, qd, qdd: the quantity's row (docs/csv.md) into out[k]; the
  // drives' friction added to the forces when `friction`.
  void evaluate(Quantity quantity, bool friction, int count, const Pointers& samples);
  // qdd = I^-1 (tau - h - friction) for `count` samples of q, qd and tau (in qdd[k]), into out[k].
  void forward(bool friction, int count, const Pointers& samples);
  // After forward: sample k's pivots m^_i of I = U D U^T (Saha 1999, Eq. 47) into `m_hat`.
  void pivots(int sample, VecX<T>& m_hat) const;

 private:
  void gather(int count, const Pointers& samples);
  static void scatter(const VecX<Pack>& values, int count, const Pointers& samples);
  // A matrix of packs row by row into the samples' rows, from entry `offset` on.
  static void scatter(const MatX<Pack>& values, Eigen::Index offset, int count,
                      const Pointers& samples);
  void scatter_forces(const VecX<Pack>& forces, bool friction, int count, const Pointers& samples);

  Model<Pack> model_lanes_;
  Workspace<Pack> ws_;
  std::unique_ptr<DerivativesWorkspace<Pack>> derivatives_;  // built at the first call needing it
  VecX<Pack> q_, qd_, qdd_, friction_;
};

using LaneDynamics = LaneDynamicsOf<double>;
extern template class LaneDynamicsOf<double>;
extern template class LaneDynamicsOf<float>;

}  // namespace denoc
