// The algorithm families in one include (saha/, mata/, lee/, floating/, the model's kinematics),
// and the list of their signatures: instantiated once per scalar type in instantiate_<S>.cpp,
// declared extern here for every other file. The engine's dispatch lists its own
// (engine/dynamics.hpp); denoc.hpp includes both.
#pragma once

#include "denoc/floating/floating_convective_inertia.hpp"
#include "denoc/floating/floating_dynamics.hpp"
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

// Gibbs-Appell, Mata et al. (2002) (mata/gibbs_appell.hpp), part of DENOC_ALGORITHMS below.
#define DENOC_GIBBS_APPELL_ALGORITHMS(KEYWORD, S)                                           \
  KEYWORD const VecX<S>& gibbs_appell_inverse_dynamics<S>(                                  \
      const Model<S>&, GibbsAppellWorkspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>,      \
      ConstVectorRef<S>);                                                                   \
  KEYWORD const VecX<S>& gibbs_appell_bias<S>(const Model<S>&, GibbsAppellWorkspace<S>&,    \
                                              ConstVectorRef<S>, ConstVectorRef<S>);        \
  KEYWORD const VecX<S>& gibbs_appell_gravity<S>(const Model<S>&, GibbsAppellWorkspace<S>&, \
                                                 ConstVectorRef<S>);                        \
  KEYWORD const MatX<S>& gibbs_appell_inertia<S>(const Model<S>&, GibbsAppellWorkspace<S>&, \
                                                 ConstVectorRef<S>);                        \
  KEYWORD const VecX<S>& forward_dynamics_gibbs_appell<S>(                                  \
      const Model<S>&, GibbsAppellWorkspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>,      \
      ConstVectorRef<S>);

// The floating-base routes (floating/), part of DENOC_ALGORITHMS below: declared extern so that
// the apps and tests that call them do not each compile the routes behind them again.
#define DENOC_FLOATING_ALGORITHMS(KEYWORD, S)                                                    \
  KEYWORD const VecX<S>& floating_inverse_dynamics<S>(                                           \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>, ConstVectorRef<S>);  \
  KEYWORD const VecX<S>& floating_bias_forces<S>(const Model<S>&, Workspace<S>&,                 \
                                                 ConstVectorRef<S>, ConstVectorRef<S>);          \
  KEYWORD const VecX<S>& floating_gravity_forces<S>(const Model<S>&, Workspace<S>&,              \
                                                    ConstVectorRef<S>);                          \
  KEYWORD const MatX<S>& floating_inertia<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>); \
  KEYWORD bool factor_floating_inertia<S>(const Model<S>&, Workspace<S>&);                       \
  KEYWORD const MatX<S>& floating_convective_inertia<S>(const Model<S>&, Workspace<S>&,          \
                                                        ConstVectorRef<S>, ConstVectorRef<S>);   \
  KEYWORD void floating_udu_factors<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);       \
  KEYWORD const VecX<S>& floating_forward_dynamics<S>(                                           \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>, ConstVectorRef<S>);  \
  KEYWORD const VecX<S>& floating_forward_dynamics_cholesky<S>(                                  \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>, ConstVectorRef<S>);  \
  KEYWORD const MatX<S>& floating_inverse_inertia_udu<S>(const Model<S>&, Workspace<S>&,         \
                                                         ConstVectorRef<S>);                     \
  KEYWORD const MatX<S>& floating_inverse_inertia_cholesky<S>(const Model<S>&, Workspace<S>&,    \
                                                              ConstVectorRef<S>);                \
  KEYWORD S floating_kinetic_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,        \
                                       ConstVectorRef<S>);                                       \
  KEYWORD S floating_potential_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);     \
  KEYWORD const Transform<S>& floating_frame_pose<S>(const Model<S>&, Workspace<S>&,             \
                                                     const BodyFrame<S>&, ConstVectorRef<S>);    \
  KEYWORD const Eigen::Matrix<S, 6, Eigen::Dynamic>& floating_frame_jacobian<S>(                 \
      const Model<S>&, Workspace<S>&, const BodyFrame<S>&, ConstVectorRef<S>);                   \
  KEYWORD const VecX<S>& apply_floating_frame_wrench<S>(                                         \
      const Model<S>&, Workspace<S>&, const BodyFrame<S>&, ConstVectorRef<S>, const Vec6<S>&);   \
  KEYWORD const VecX<S>& apply_floating_frame_wrenches<S>(                                       \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, const FrameWrench<S>*, int);

// The algorithms, for one scalar type S: instantiated once in src/instantiate_<S>.cpp with
// DENOC_ALGORITHMS(template, S) and declared here with DENOC_ALGORITHMS(extern template, S), so
// that the apps and tests link them instead of compiling them again.
#define DENOC_ALGORITHMS(KEYWORD, S)                                                               \
  KEYWORD class Model<S>;                                                                          \
  KEYWORD void update_joint_frames<S>(const Model<S>&, KinematicsWorkspace<S>&,                    \
                                      ConstVectorRef<S>);                                          \
  KEYWORD const VecX<S>& inverse_dynamics<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,    \
                                             ConstVectorRef<S>, ConstVectorRef<S>);                \
  KEYWORD const VecX<S>& bias_forces<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,         \
                                        ConstVectorRef<S>);                                        \
  KEYWORD const VecX<S>& gravity_forces<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);     \
  KEYWORD void friction_forces<S>(const Model<S>&, ConstVectorRef<S>,                              \
                                  type_identity<Eigen::Ref<VecX<S>>>::type);                       \
  KEYWORD const MatX<S>& generalized_inertia<S>(const Model<S>&, Workspace<S>&,                    \
                                                ConstVectorRef<S>);                                \
  KEYWORD const MatX<S>& inverse_generalized_inertia<S>(const Model<S>&, Workspace<S>&,            \
                                                        ConstVectorRef<S>);                        \
  KEYWORD S kinetic_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,                   \
                              ConstVectorRef<S>);                                                  \
  KEYWORD S potential_energy<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);                \
  KEYWORD void articulated_body_masses<S>(const Model<S>&, Workspace<S>&);                         \
  KEYWORD const VecX<S>& forward_dynamics<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,    \
                                             ConstVectorRef<S>, ConstVectorRef<S>);                \
  KEYWORD const VecX<S>& forward_dynamics_cholesky<S>(                                             \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>, ConstVectorRef<S>, ConstVectorRef<S>);    \
  KEYWORD void udu_factors<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>);                  \
  KEYWORD const MatX<S>& convective_inertia<S>(const Model<S>&, Workspace<S>&, ConstVectorRef<S>,  \
                                               ConstVectorRef<S>);                                 \
  DENOC_GIBBS_APPELL_ALGORITHMS(KEYWORD, S)                                                        \
  DENOC_FLOATING_ALGORITHMS(KEYWORD, S)                                                            \
  KEYWORD bool fixman_factor<S>(const Model<S>&, FixmanWorkspace<S>&, ConstVectorRef<S>);          \
  KEYWORD const VecX<S>& fixman_apply<S>(const Model<S>&, FixmanWorkspace<S>&, ConstVectorRef<S>); \
  KEYWORD const VecX<S>& fixman_solve<S>(const Model<S>&, FixmanWorkspace<S>&, ConstVectorRef<S>,  \
                                         ConstVectorRef<S>);                                       \
  KEYWORD const MatX<S>& fixman_inverse_inertia<S>(const Model<S>&, FixmanWorkspace<S>&,           \
                                                   ConstVectorRef<S>);                             \
  KEYWORD const VecX<S>& forward_dynamics_fixman<S>(const Model<S>&, Workspace<S>&,                \
                                                    FixmanWorkspace<S>&, ConstVectorRef<S>,        \
                                                    ConstVectorRef<S>, ConstVectorRef<S>);         \
  KEYWORD std::string fixman_unsupported_reason<S>(const Model<S>&);                               \
  KEYWORD bool fixman_supports<S>(const Model<S>&);                                                \
  KEYWORD const MatX<S>& inverse_inertia_udu<S>(const Model<S>&, Workspace<S>&,                    \
                                                ConstVectorRef<S>);                                \
  KEYWORD void joint_poses<S>(const Model<S>&, KinematicsWorkspace<S>&);                           \
  KEYWORD const Transform<S>& tool_pose<S>(const Model<S>&, KinematicsWorkspace<S>&,               \
                                           ConstVectorRef<S>);                                     \
  KEYWORD const Eigen::Matrix<S, 6, Eigen::Dynamic>& tool_jacobian<S>(                             \
      const Model<S>&, KinematicsWorkspace<S>&, ConstVectorRef<S>);                                \
  KEYWORD const Transform<S>& frame_pose<S>(const Model<S>&, KinematicsWorkspace<S>&,              \
                                            const BodyFrame<S>&, ConstVectorRef<S>);               \
  KEYWORD const Eigen::Matrix<S, 6, Eigen::Dynamic>& frame_jacobian<S>(                            \
      const Model<S>&, KinematicsWorkspace<S>&, const BodyFrame<S>&, ConstVectorRef<S>);           \
  KEYWORD void apply_tool_wrench<S>(const Model<S>&, Workspace<S>&, const Vec6<S>&);               \
  KEYWORD void apply_frame_wrench<S>(const Model<S>&, Workspace<S>&, const BodyFrame<S>&,          \
                                     const Vec6<S>&);                                              \
  KEYWORD const Eigen::Matrix<S, 6, Eigen::Dynamic>& joint_reactions<S>(                           \
      const Model<S>&, Workspace<S>&, ConstVectorRef<S>);

#ifndef DENOC_INSTANTIATING
DENOC_ALGORITHMS(extern template, float)
DENOC_ALGORITHMS(extern template, double)
#endif

}  // namespace denoc
