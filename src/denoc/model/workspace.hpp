// The configuration-dependent geometry that several families of algorithms read, sized once from
// the model and reused for every sample. Each family keeps its own scratch beside it: the DeNOC
// recursions in saha/workspace.hpp, Gibbs-Appell in mata/gibbs_appell_workspace.hpp, the extended
// Fixman solve in lee/fixman_workspace.hpp. Vectors indexed by joint hold index i-1 for link i.
#pragma once

#include <vector>

#include "denoc/model/arguments.hpp"
#include "denoc/model/model.hpp"

namespace denoc {

template <typename S>
struct KinematicsWorkspace {
  explicit KinematicsWorkspace(int n)
      : sin_q(VecX<S>::Zero(n)),
        cos_q(VecX<S>::Zero(n)),
        E(static_cast<std::size_t>(n), Mat3<S>::Identity()),
        ell(static_cast<std::size_t>(n), Vec3<S>::Zero()),
        R_base(static_cast<std::size_t>(n), Mat3<S>::Identity()),
        o_base(static_cast<std::size_t>(n), Vec3<S>::Zero()),
        c_base(static_cast<std::size_t>(n), Vec3<S>::Zero()),
        jacobian(Eigen::Matrix<S, 6, Eigen::Dynamic>::Zero(6, n)) {}

  // Joint frames for the current q, filled by update_joint_frames (joint_frames.hpp).
  VecX<S> sin_q, cos_q;      // sin and cos of every joint variable
  std::vector<Mat3<S>> E;    // rotation of J_i relative to J_{i-1}
  std::vector<Vec3<S>> ell;  // from C_{i-1} to C_i, in J_i (-c_{i,i-1} of Saha 1999, Eq. 13)

  // Tool pose and geometric Jacobian (kinematics.hpp).
  std::vector<Mat3<S>> R_base;  // orientation of J_i in the base frame
  std::vector<Vec3<S>> o_base;  // origin of J_i (on joint i's axis), base frame
  std::vector<Vec3<S>> c_base;  // mass centre C_i, base frame
  Transform<S> tool_pose;       // the tool frame in the base frame
  // With a floating base (docs/floating-base.md): the base frame in the world frame.
  Transform<S> base_pose;
  Eigen::Matrix<S, 6, Eigen::Dynamic> jacobian;  // [v; omega] of the tool frame origin, base frame
  Eigen::Matrix<S, 6, Eigen::Dynamic> world_jacobian;  // the same with a floating base, 6 x (6 + n)
};

// The workspace was built for a model of model's number of joints (arguments.hpp).
template <typename S>
void require_workspace(const Model<S>& model, const KinematicsWorkspace<S>& ws,
                       const char* function) {
  if (ws.sin_q.size() != model.dof()) wrong_workspace(function);
}

// An n x n buffer sized when its route first needs it, not when the workspace is built, so that a
// route that never forms a matrix never pays for one. Later calls only compare sizes.
template <typename S>
void allocate_square(MatX<S>& matrix, Eigen::Index n) {
  matrix.setZero(n, n);
}

template <typename S>
inline void size_square(MatX<S>& matrix, Eigen::Index n) {
  if (matrix.rows() != n || matrix.cols() != n) allocate_square(matrix, n);
}

}  // namespace denoc
