// A symmetric positive definite matrix factored in place as L L^T, for the routes that form the
// inertia matrix (Saha's composite bodies, Mata et al.'s Gibbs-Appell Hessian).
#pragma once

#include <cmath>

#include "denoc/model/spatial.hpp"

namespace denoc {

// A = L L^T, with A given in L (its lower triangle is read) and L left in its lower triangle;
// false unless A is positive definite. Column by column from the left: each column is one
// matrix-vector product with the columns already done, which needs no scratch memory (Eigen's
// blocked LLT takes its blocks from the heap beyond about 150 joints) and is as fast up to a few
// hundred joints.
template <typename S>
bool cholesky_in_place(MatX<S>& L) {
  const Eigen::Index n = L.rows();
  for (Eigen::Index j = 0; j < n; ++j) {
    auto column = L.col(j).tail(n - j);
    if (j > 0) column.noalias() -= L.bottomLeftCorner(n - j, j) * L.row(j).head(j).transpose();
    const S pivot = column[0];
    if (!(pivot > 0)) return false;
    column /= std::sqrt(pivot);
  }
  return true;
}

}  // namespace denoc
