// C = -A B for dense column-major matrices without allocating per call: Eigen's cache-blocked
// product (Core/products/GeneralMatrixMatrix.h) with its packing buffers kept in a scratch sized
// once, as cholesky.hpp does for the factorisation (Eigen's own product takes them from the heap
// once they pass EIGEN_STACK_ALLOCATION_LIMIT, about 127 x 127 doubles). Scalars other than
// float and double (the counting scalar, the packs) take the coefficient-based product, which
// allocates nothing.
#pragma once

#include <type_traits>

#include "denoc/kernels/cholesky.hpp"
#include "denoc/kernels/matrix_types.hpp"

namespace denoc {

template <typename S>
class ProductScratch {
 public:
  // Sizes the buffers for products of `rows` x `depth` by `depth` x `cols` unless they are
  // already (the first call allocates, the later ones compare).
  void size_for(Eigen::Index rows, Eigen::Index cols, Eigen::Index depth) {
    if (rows == rows_ && cols == cols_ && depth == depth_) return;
    rows_ = rows, cols_ = cols, depth_ = depth;
    kc_ = depth, mc_ = rows, nc_ = cols;
    Eigen::internal::computeProductBlockingSizes<S, S, 1>(kc_, mc_, nc_, Eigen::Index(1));
    lhs_.resize(kc_ * mc_);
    rhs_.resize(kc_ * nc_);
  }
  cholesky_detail::PackingBuffers<S> buffers() {
    return cholesky_detail::PackingBuffers<S>(lhs_.data(), rhs_.data(), kc_, mc_, nc_);
  }

 private:
  VecX<S> lhs_, rhs_;  // Eigen's blockA (kc x mc) and blockB (kc x nc)
  Eigen::Index rows_ = -1, cols_ = -1, depth_ = -1, kc_ = 0, mc_ = 0, nc_ = 0;
};

// C = -A B; C must not share storage with A or B, and is sized by the caller.
template <typename S>
void negated_product(const MatX<S>& A, const MatX<S>& B, MatX<S>& C, ProductScratch<S>& scratch) {
  if constexpr (std::is_same_v<S, double> || std::is_same_v<S, float>) {
    scratch.size_for(A.rows(), B.cols(), A.cols());
    auto buffers = scratch.buffers();
    C.setZero();
    Eigen::internal::general_matrix_matrix_product<Eigen::Index, S, Eigen::ColMajor, false, S,
                                                   Eigen::ColMajor, false, Eigen::ColMajor,
                                                   1>::run(A.rows(), B.cols(), A.cols(), A.data(),
                                                           A.outerStride(), B.data(),
                                                           B.outerStride(), C.data(), 1,
                                                           C.outerStride(), S(-1), buffers);
  } else {
    (void)scratch;
    C.noalias() = -A.lazyProduct(B);
  }
}

}  // namespace denoc
