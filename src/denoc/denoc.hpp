// The core library in one include.
#pragma once

#include "denoc/dh.hpp"
#include "denoc/energy.hpp"
#include "denoc/generalized_inertia.hpp"
#include "denoc/inverse_dynamics.hpp"
#include "denoc/model.hpp"
#include "denoc/trajectory.hpp"
#include "denoc/workspace.hpp"

namespace denoc {

// Instantiated once, in src/instantiate.cpp.
#define DENOC_EXTERN(S)                                                                         \
  extern template class Model<S>;                                                               \
  extern template const VecX<S>& inverse_dynamics<S>(                                           \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>, ConstVectorRef<S>); \
  extern template const MatX<S>& generalized_inertia<S>(const Model<S>&, Workspace<S>&,         \
                                                        ConstVectorRef<S>);                     \
  extern template const MatX<S>& inverse_generalized_inertia<S>(const Model<S>&, Workspace<S>&, \
                                                                ConstVectorRef<S>);
DENOC_EXTERN(float)
DENOC_EXTERN(double)
#undef DENOC_EXTERN

}  // namespace denoc
