// The inertia matrix H of a kinematic tree factored as H = L^T D L with the parent array,
// Featherstone, "Rigid Body Dynamics Algorithms" (2008), Section 6.5 (Table 6.3's LTDL and
// Table 6.4); docs/tree-cholesky.md. H_ij is non-zero only when joint j lies on the path from the
// base to joint i or the other way round (docs/trees.md); factoring from the last joint inwards
// makes L_ij non-zero only where H_ij is, so the factor is as sparse as H and costs O(n d^2), d
// the depth of the tree, where a dense factorisation costs O(n^3). L is unit lower triangular
// and D diagonal, with no square root on the way (the L^T L of the same table takes one per
// joint, on the critical path). Both are kept in one n x n matrix, D on its diagonal and L
// strictly below it (row i holds joint i's ancestors), the parents as the model numbers them
// (0-based, parents[i] < i, -1 for the base). Nothing is allocated. The entry points are never
// inlined: their callers also run the chain's dense route, which is to compile as it did without
// them.
#pragma once

#include "denoc/kernels/matrix_types.hpp"

namespace denoc {

// H = L^T D L in place, Table 6.3 (LTDL), the readable reference of tree_ltdl: from the last
// joint k inwards, D_k = H_kk, and for each ancestor i of k, with a = H_ki / H_kk,
// H_ij -= a H_kj for every j on the path from the base to i (i included), then L_ki = a. Those
// pairs (i, j) are on one path, so no entry off the paths is ever written (no fill-in). H's lower
// triangle is read; false unless H is positive definite (a pivot that is not > 0, NaN included),
// the factor then partly formed.
template <typename S>
bool tree_ltdl_in_place(MatX<S>& H, const int* parents) {
  for (int k = static_cast<int>(H.rows()) - 1; k >= 0; --k) {
    const S D_k = H(k, k);
    if (!(D_k > 0)) return false;
    for (int i = parents[k]; i >= 0; i = parents[i]) {
      const S a = H(k, i) / D_k;
      for (int j = i; j >= 0; j = parents[j])
        H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
  return true;
}

// The same factor column by column, each entry a dot product (left-looking, the order of
// Pinocchio's cholesky::decompose), from H into `LD` without a copy of H. With H = L^T D L,
//   H_ki = sum over m >= k of L_mk D_m L_mi,
// and L_mk != 0 only for m in the subtree of k, which the depth-first numbering makes the range
// k .. e - 1, e = subtree_end(k). Every such m has k and all of k's ancestors on its path, so the
// column segments below row k are dense; with y_m = D_m L_mk (m = k+1 .. e-1, in `scratch`):
//   D_k  = H_kk - y . L(k+1 .. e-1, k),
//   L_ki = (H_ki - y . L(k+1 .. e-1, i)) / D_k   for each ancestor i of k,
// from the last joint inwards (rows below k are final when k is reached). Column-major storage
// makes each segment contiguous; the segments are short (a subtree), so plain loops, which beat
// Eigen's vectorised reductions there. H's lower triangle is read; `LD` is written on the
// diagonal and on the paths only (off them it keeps what it had: zeros from size_square).
// `scratch` holds n entries. False unless H is positive definite.
template <typename S>
bool tree_ltdl(const MatX<S>& H, MatX<S>& LD, VecX<S>& scratch, const int* parents,
               const int* subtree_ends) {
  S* y = scratch.data();
  for (int k = static_cast<int>(H.rows()) - 1; k >= 0; --k) {
    const int below = subtree_ends[k] - k - 1;
    const S* L_k = &LD.coeffRef(k + 1, k);
    S D_k = H(k, k);
    for (int m = 0; m < below; ++m) {
      y[m] = LD.coeff(k + 1 + m, k + 1 + m) * L_k[m];
      D_k -= y[m] * L_k[m];
    }
    if (!(D_k > 0)) return false;
    LD(k, k) = D_k;
    const S D_k_inverse = S(1) / D_k;  // one division per joint, not one per entry
    for (int i = parents[k]; i >= 0; i = parents[i]) {
      const S* L_i = &LD.coeffRef(k + 1, i);
      S sum = H(k, i);
      for (int m = 0; m < below; ++m)
        sum -= y[m] * L_i[m];
      LD(k, i) = sum * D_k_inverse;
    }
  }
  return true;
}

// x <- L^-T x, Table 6.4's first loop (L unit): from the leaves inwards, each x_i, once the
// joints outboard of i have been subtracted, taken off the entries of i's ancestors.
template <typename S, typename Vector>
void tree_solve_transposed(const MatX<S>& LD, const int* parents, Vector& x) {
  for (int i = static_cast<int>(LD.rows()) - 1; i >= 0; --i) {
    const S x_i = x[i];
    for (int j = parents[i]; j >= 0; j = parents[j])
      x[j] -= LD(i, j) * x_i;
  }
}

// x <- L^-1 x, Table 6.4's last loop (L unit): from the base outwards, row i reading only the
// entries of i's ancestors.
template <typename S, typename Vector>
void tree_solve_lower(const MatX<S>& LD, const int* parents, Vector& x) {
  for (int i = 0; i < LD.rows(); ++i) {
    S x_i = x[i];
    for (int j = parents[i]; j >= 0; j = parents[j])
      x_i -= LD(i, j) * x[j];
    x[i] = x_i;
  }
}

// x <- H^-1 x = L^-1 D^-1 L^-T x with the factor of tree_ltdl: O(n d).
template <typename S, typename Vector>
void tree_ltdl_solve(const MatX<S>& LD, const int* parents, Vector&& x) {
  tree_solve_transposed(LD, parents, x);
  x.array() /= LD.diagonal().array();
  tree_solve_lower(LD, parents, x);
}

// x = L^-1 e_k into x[0 .. m), m returned: non-zero only on the subtree of k, which the
// depth-first numbering makes the range k .. k + m - 1 (i > k is in it while its parent is).
// Table 6.4's forward substitution started at row k, each row reading its ancestors down to k.
template <typename S, typename Vector>
int tree_inverse_column(const MatX<S>& LD, const int* parents, int k, Vector& x) {
  x[0] = S(1);
  int m = 1;
  for (int i = k + 1; i < LD.rows() && parents[i] >= k; ++i, ++m) {
    S sum = S(0);
    for (int j = parents[i]; j >= k; j = parents[j])
      sum += LD(i, j) * x[j - k];
    x[m] = -sum;
  }
  return m;
}

// H^-1 = L^-1 D^-1 L^-T = sum_k x_k x_k^T / D_k, x_k = L^-1 e_k (tree_inverse_column): each
// term fills the block of k's subtree, contiguous, its lower triangle by columns (vectorised
// products), then mirrored. O(n d^2) for the columns and sum_k m_k^2 / 2 <= n^2 d / 2 for the
// blocks. `column` holds n entries of scratch; `inverse` must be n x n.
template <typename S>
void tree_ltdl_inverse(const MatX<S>& LD, const int* parents, VecX<S>& column, MatX<S>& inverse) {
  inverse.setZero();
  for (int k = 0; k < LD.rows(); ++k) {
    const int m = tree_inverse_column(LD, parents, k, column);
    const S D_k = LD(k, k);
    for (int c = 0; c < m; ++c)
      inverse.col(k + c).segment(k + c, m - c) += (column[c] / D_k) * column.segment(c, m - c);
  }
  inverse.template triangularView<Eigen::StrictlyUpper>() = inverse.transpose();
}

}  // namespace denoc
