// A symmetric positive definite matrix factored in place as L L^T, for the routes that form the
// inertia matrix (Saha's composite bodies, Mata et al.'s Gibbs-Appell Hessian).
#pragma once

#include <algorithm>
#include <cmath>

#include "denoc/kernels/matrix_types.hpp"

namespace denoc {

namespace cholesky_detail {

// A = L L^T for a diagonal block of L (its lower triangle read, L left there). Column by column
// from the left: each column is one matrix-vector product with the columns already done, which
// needs no scratch memory and is the fastest form up to about a hundred columns.
template <typename S>
bool factor_columns(Eigen::Ref<MatX<S>> L) {
  const Eigen::Index n = L.rows();
  for (Eigen::Index j = 0; j < n; ++j) {
    auto column = L.col(j).tail(n - j);
    if (j > 0) column.noalias() -= L.bottomLeftCorner(n - j, j) * L.row(j).head(j).transpose();
    using std::sqrt;  // and the counting scalar's (count/counted.hpp)
    const S pivot = column[0];
    if (!(pivot > 0)) return false;
    column /= sqrt(pivot);
  }
  return true;
}

// ---- Eigen's internals here (Eigen 3.4.0, Core/products/*.h); the other use: the GIM's packets --
// Eigen's level-3 kernels (triangular solve, triangle-only product) pack their operands into
// two buffers that a `level3_blocking` hands them; Eigen's own blocking object takes those from
// the heap once they exceed EIGEN_STACK_ALLOCATION_LIMIT (128 KB: from about 150 joints). This
// one points them into storage the caller keeps (CholeskyScratch, sized once). The kernels read
// only blockA()/blockB() and kc()/mc() (kc x mc of blockA, kc x (triangle or product size) of
// blockB), so buffers of kc*mc and kc*n entries serve every call of a factorisation of order n.
template <typename S>
class PackingBuffers : public Eigen::internal::level3_blocking<S, S> {
 public:
  PackingBuffers(S* lhs, S* rhs, Eigen::Index kc, Eigen::Index mc, Eigen::Index nc) {
    this->m_blockA = lhs;
    this->m_blockB = rhs;
    this->m_kc = kc;
    this->m_mc = mc;
    this->m_nc = nc;
  }
};

// Eigen's cache-size heuristic for the blocks of a product of depth `depth` and order `n`:
// returns {kc, mc}, the sizes PackingBuffers must be given.
template <typename S>
std::pair<Eigen::Index, Eigen::Index> packing_sizes(Eigen::Index depth, Eigen::Index n) {
  Eigen::Index kc = depth, mc = n, nc = n;
  Eigen::internal::computeProductBlockingSizes<S, S, 1>(kc, mc, nc, Eigen::Index(1));
  return {kc, mc};
}

// One step of the right-looking factorisation, for the panel below the diagonal block L11
// (order b, already factored) and the trailing matrix A22 (order r), both inside the
// column-major matrix whose columns are `stride` apart:
//   L21 = A21 L11^-T   (triangular solve from the right; L11^T upper, row-major view of L11)
//   A22 -= L21 L21^T   (lower triangle only: Eigen's triangle-only product, as its rankUpdate)
template <typename S>
void solve_panel_and_update(const S* L11, S* A21, S* A22, Eigen::Index b, Eigen::Index r,
                            Eigen::Index stride, PackingBuffers<S>& buffers) {
  using Eigen::ColMajor;
  using Eigen::Index;
  using Eigen::RowMajor;
  namespace internal = Eigen::internal;
  internal::triangular_solve_matrix<S, Index, Eigen::OnTheRight, Eigen::Upper, false, RowMajor,
                                    ColMajor, 1>::run(b, r, L11, stride, A21, 1, stride, buffers);
  internal::general_matrix_matrix_triangular_product<Index, S, ColMajor, false, S, RowMajor, false,
                                                     ColMajor, 1, Eigen::Lower>::run(r, b, A21,
                                                                                     stride, A21,
                                                                                     stride, A22, 1,
                                                                                     stride, S(-1),
                                                                                     buffers);
}
// ---- end of Eigen's internals -----------------------------------------------------------------

}  // namespace cholesky_detail

// Scratch memory of the blocked factorisation of an n x n matrix, allocated once (no
// allocation per call, size_for at the first): Eigen's packing buffers for the level-3 kernels.
// Empty (and unused) below the crossover order.
template <typename S>
class CholeskyScratch {
 public:
  // The order from which the blocked form is faster than the column one (below it the matrix
  // stays in the first-level cache), and the width of its diagonal blocks: measured on both
  // compilers, generic and -march=x86-64-v3 (docs/performance.md, "Against RBDL and Pinocchio").
  // Blocks of 16 to 64 were all faster than Eigen's LLT from n = 128; 32 was never far from the
  // best.
  static constexpr Eigen::Index kBlockedFrom = 120;
  static constexpr Eigen::Index kBlock = 32;

  CholeskyScratch() = default;
  explicit CholeskyScratch(Eigen::Index n) {
    if (n < kBlockedFrom) return;
    order_ = n;
    const auto sizes = cholesky_detail::packing_sizes<S>(kBlock, n);
    kc_ = sizes.first;
    mc_ = sizes.second;
    lhs_.resize(kc_ * mc_);
    rhs_.resize(kc_ * n);
  }

  // The packing buffers for a factorisation of order n (the one the scratch was sized for).
  cholesky_detail::PackingBuffers<S> buffers(Eigen::Index n) {
    return cholesky_detail::PackingBuffers<S>(lhs_.data(), rhs_.data(), kc_, mc_, n);
  }
  bool sized_for(Eigen::Index n) const { return n == order_; }
  // Sizes the buffers for order n unless they are already (the first factorisation of a route
  // allocates, the later ones only compare).
  void size_for(Eigen::Index n) {
    if (n >= kBlockedFrom && n != order_) *this = CholeskyScratch(n);
  }

 private:
  VecX<S> lhs_, rhs_;                         // Eigen's blockA (kc x mc) and blockB (kc x n)
  Eigen::Index order_ = 0, kc_ = 0, mc_ = 0;  // order_: the n it was sized for, 0 if unused
};

// A = L L^T, with A given in L (its lower triangle is read) and L left in its lower triangle;
// false unless A is positive definite. Column by column without scratch memory (above) for small
// orders; from CholeskyScratch::kBlockedFrom on, right-looking by blocks of b columns (as Eigen's
// LLT does): factor the diagonal block by columns, solve the panel below it,
// subtract its product from the lower triangle of the trailing matrix, which Eigen's cache-blocked
// kernels do at matrix-product speed. `scratch` is built for L's order (a scratch built for
// another order is not used: the column form runs instead).
template <typename S>
bool cholesky_in_place(MatX<S>& L, CholeskyScratch<S>& scratch) {
  const Eigen::Index n = L.rows();
  // A scalar without SIMD packets (the counting one, count/counted.hpp) takes the column form at
  // every order: Eigen's packed kernels are the double and float ones.
  if constexpr (!Eigen::internal::packet_traits<S>::Vectorizable)
    return cholesky_detail::factor_columns<S>(L);
  if (n < CholeskyScratch<S>::kBlockedFrom || !scratch.sized_for(n))
    return cholesky_detail::factor_columns<S>(L);
  cholesky_detail::PackingBuffers<S> buffers = scratch.buffers(n);
  const Eigen::Index block = CholeskyScratch<S>::kBlock;
  const Eigen::Index stride = L.outerStride();
  for (Eigen::Index k = 0; k < n; k += block) {
    const Eigen::Index b = std::min(block, n - k), r = n - k - b;
    if (!cholesky_detail::factor_columns<S>(L.block(k, k, b, b))) return false;
    if (r > 0)
      cholesky_detail::solve_panel_and_update<S>(&L(k, k), &L(k + b, k), &L(k + b, k + b), b, r,
                                                 stride, buffers);
  }
  return true;
}

}  // namespace denoc
