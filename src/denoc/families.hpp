// The algorithm families in one include (saha/, mata/, lee/, the model's kinematics, the
// derivatives of the dynamics), and the list of their functions: instantiated once per scalar
// type in instantiate_<S>.cpp, declared extern here for every other file. denoc.hpp adds the engine
// (engine/dynamics.hpp).
#pragma once

#include "denoc/count/counted.hpp"
#include "denoc/derivatives/forward_dynamics_derivatives.hpp"
#include "denoc/lee/fixman.hpp"
#include "denoc/mata/gibbs_appell.hpp"
#include "denoc/model/dh.hpp"
#include "denoc/model/kinematics.hpp"
#include "denoc/model/model.hpp"
#include "denoc/model/workspace.hpp"
#include "denoc/saha/convective_inertia.hpp"
#include "denoc/saha/energy.hpp"
#include "denoc/saha/forward_dynamics.hpp"
#include "denoc/saha/generalized_inertia.hpp"
#include "denoc/saha/inverse_dynamics.hpp"
#include "denoc/saha/inverse_inertia.hpp"
#include "denoc/saha/reactions.hpp"
#include "denoc/saha/workspace.hpp"

namespace denoc {

// Every function of the families, by name, for one scalar type S. Each signature is written once,
// where the function is declared; decltype reads it from there. The list is expanded twice:
// extern below, so that the apps and tests link the functions instead of compiling them again,
// and as the definitions in instantiate_<S>.cpp (one scalar type per unit: in one unit g++
// spent its inlining budget on the first type and left the second calling small kernels).
// decltype needs the name to denote one function template: expanded here, before the engine
// declares its dispatch of the same names (engine/dynamics.hpp), it does.
#define DENOC_FAMILY_FUNCTIONS(X, S)                  \
  /* the model's kinematics (model/kinematics.hpp) */ \
  X(update_joint_frames, S);                          \
  X(joint_poses, S);                                  \
  X(tool_pose, S);                                    \
  X(tool_jacobian, S);                                \
  X(frame_pose, S);                                   \
  X(frame_jacobian, S);                               \
  /* the DeNOC, Saha (1999) (saha/) */                \
  X(inverse_dynamics, S);                             \
  X(bias_forces, S);                                  \
  X(gravity_forces, S);                               \
  X(friction_forces, S);                              \
  X(generalized_inertia, S);                          \
  X(inverse_generalized_inertia, S);                  \
  X(kinetic_energy, S);                               \
  X(potential_energy, S);                             \
  X(articulated_body_masses, S);                      \
  X(forward_dynamics, S);                             \
  X(forward_dynamics_cholesky, S);                    \
  X(udu_factors, S);                                  \
  X(inverse_inertia_udu, S);                          \
  X(convective_inertia, S);                           \
  X(apply_tool_wrench, S);                            \
  X(apply_frame_wrench, S);                           \
  X(apply_frame_wrenches, S);                         \
  X(frame_wrench_forces, S);                          \
  X(joint_reactions, S);                              \
  /* their derivatives (derivatives/) */              \
  X(inverse_dynamics_derivatives, S);                 \
  X(forward_dynamics_derivatives, S);                 \
  /* Gibbs-Appell, Mata et al. (2002) (mata/) */      \
  X(gibbs_appell_inverse_dynamics, S);                \
  X(gibbs_appell_bias, S);                            \
  X(gibbs_appell_gravity, S);                         \
  X(gibbs_appell_inertia, S);                         \
  X(forward_dynamics_gibbs_appell, S);                \
  /* Fixman, Lee et al. (2007) (lee/) */              \
  X(fixman_factor, S);                                \
  X(fixman_apply, S);                                 \
  X(fixman_solve, S);                                 \
  X(fixman_inverse_inertia, S);                       \
  X(forward_dynamics_fixman, S);                      \
  X(fixman_unsupported_reason, S);                    \
  X(fixman_supports, S);

#define DENOC_EXTERN_INSTANCE(function, S) extern template decltype(function<S>) function<S>
#define DENOC_INSTANCE(function, S) template decltype(function<S>) function<S>

// The three scalar types the library compiles: float, double and the counting scalar
// (count/counted.hpp, for the operation counts). A unit compiling the algorithms itself, with
// flags of its own, defines DENOC_NO_EXTERN_TEMPLATES (tests/CMakeLists.txt says which and why).
#ifndef DENOC_NO_EXTERN_TEMPLATES
extern template class Model<float>;
extern template class Model<double>;
extern template class Model<Counted>;
DENOC_FAMILY_FUNCTIONS(DENOC_EXTERN_INSTANCE, float)
DENOC_FAMILY_FUNCTIONS(DENOC_EXTERN_INSTANCE, double)
DENOC_FAMILY_FUNCTIONS(DENOC_EXTERN_INSTANCE, Counted)
#endif

}  // namespace denoc
