// The operation counts of one evaluation: the algorithms run once on the counting scalar
// (count/counted.hpp), instantiated for it in instantiate_counted.cpp. Used by --count-operations
// (docs/operation-counts.md), scripts/reproduce's counts table and the tests.
#pragma once

#include "denoc/count/counted.hpp"
#include "denoc/engine/dynamics.hpp"

namespace denoc {

inline OperationCounts operator-(const OperationCounts& a, const OperationCounts& b) {
  return {a.multiplications - b.multiplications, a.additions - b.additions,
          a.divisions - b.divisions, a.square_roots - b.square_roots,
          a.sines_cosines - b.sines_cosines};
}

// What `evaluate()` does on this thread's counting scalars, and nothing before or after it.
template <typename Evaluate>
OperationCounts count_operations(Evaluate&& evaluate) {
  const OperationCounts before = operation_counts;
  evaluate();
  return operation_counts - before;
}

// A double vector as counting scalars (the values unchanged; the copy is not counted).
inline VecX<Counted> counted(const Eigen::Ref<const VecX<double>>& x) {
  return x.cast<Counted>();
}

// A model cast to the counting scalar and the families' workspaces for it, all built before
// anything is counted (their construction is the model's cost, not an evaluation's).
struct CountingDynamics {
  explicit CountingDynamics(const Model<double>& model)
      : model(model.cast<Counted>()), dynamics(this->model) {
    dynamics.gibbs_appell();
    dynamics.fixman();
  }
  CountingDynamics(const CountingDynamics&) = delete;
  CountingDynamics& operator=(const CountingDynamics&) = delete;

  Model<Counted> model;
  Dynamics<Counted> dynamics;  // with its own copy of `model`
};

}  // namespace denoc
