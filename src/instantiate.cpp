// Explicit instantiations of the templated algorithms for float and double, so that the apps
// and tests link them instead of compiling them again (declared extern in denoc.hpp).
#include "denoc/denoc.hpp"

namespace denoc {

#define DENOC_INSTANTIATE(S)                                                                     \
  template class Model<S>;                                                                       \
  template void update_joint_frames<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);       \
  template const VecX<S>& inverse_dynamics<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>, \
                                              ConstVectorRef<S>, ConstVectorRef<S>);             \
  template const VecX<S>& bias_forces<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,      \
                                         ConstVectorRef<S>);                                     \
  template const VecX<S>& gravity_forces<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);  \
  template const MatX<S>& generalized_inertia<S>(const Model<S>&, Workspace<S>&,                 \
                                                 ConstVectorRef<S>);                             \
  template const MatX<S>& inverse_generalized_inertia<S>(const Model<S>&, Workspace<S>&,         \
                                                         ConstVectorRef<S>);                     \
  template S kinetic_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,                \
                               ConstVectorRef<S>);                                               \
  template S potential_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);

DENOC_INSTANTIATE(float)
DENOC_INSTANTIATE(double)

}  // namespace denoc
