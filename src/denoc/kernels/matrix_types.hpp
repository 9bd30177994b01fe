// The fixed- and dynamic-size Eigen types that every layer names, templated on the scalar. They
// sit here, below the model, so that the kernels include nothing of the model (docs/layout.md).
#pragma once

#include <Eigen/Core>

namespace denoc {

template <typename S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <typename S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
template <typename S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <typename S>
using Mat6 = Eigen::Matrix<S, 6, 6>;
template <typename S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <typename S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

}  // namespace denoc
