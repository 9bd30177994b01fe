// The inertia matrix H of a kinematic tree factored as H = L^T L with the parent array,
// Featherstone, "Rigid Body Dynamics Algorithms" (2008), Section 6.5 (Tables 6.3 and 6.4);
// docs/tree-cholesky.md. H_ij is non-zero only when joint j lies on the path from the base to
// joint i or the other way round (docs/trees.md); factoring from the last joint inwards makes
// L_ij non-zero only where H_ij is, so the factor is as sparse as H and costs O(n d^2), d the
// depth of the tree, where a dense factorisation costs O(n^3). L is kept in the lower triangle
// of an n x n matrix (row i holds joint i and its ancestors), the parents as the model numbers
// them (0-based, parents[i] < i, -1 for the base). Nothing is allocated. The three entry points
// are never inlined: their callers also run the chain's dense route, which is to compile as it
// did without them.
#pragma once

#include <cmath>

#include "denoc/model/spatial.hpp"

namespace denoc {

// H = L^T L in place, Table 6.3: from the last joint k inwards, L_kk = sqrt(H_kk), the row of k
// divided by it, then H_ij -= L_ki L_kj for every pair of ancestors j, i of k (j on the path to
// i). Those pairs are on one path, so no entry off the paths is ever written (no fill-in).
// H's lower triangle is read; false unless H is positive definite (a pivot that is not > 0,
// NaN included), L then partly formed.
template <typename S>
[[gnu::noinline]] bool tree_ltl_in_place(MatX<S>& H, const int* parents) {
  using std::sqrt;  // and the counting scalar's (count/counted.hpp)
  for (int k = static_cast<int>(H.rows()) - 1; k >= 0; --k) {
    const S pivot = H(k, k);
    if (!(pivot > 0)) return false;
    const S L_kk = sqrt(pivot);
    H(k, k) = L_kk;
    for (int i = parents[k]; i >= 0; i = parents[i])
      H(k, i) /= L_kk;
    for (int i = parents[k]; i >= 0; i = parents[i]) {
      const S L_ki = H(k, i);
      for (int j = i; j >= 0; j = parents[j])
        H(i, j) -= L_ki * H(k, j);
    }
  }
  return true;
}

// x <- L^-T x, Table 6.4's first loop: L^T y = x from the leaves inwards, each y_i, once the
// joints outboard of i have been subtracted, taken off the entries of i's ancestors.
template <typename S, typename Vector>
void tree_solve_transposed(const MatX<S>& L, const int* parents, Vector& x) {
  for (int i = static_cast<int>(L.rows()) - 1; i >= 0; --i) {
    x[i] /= L(i, i);
    const S x_i = x[i];
    for (int j = parents[i]; j >= 0; j = parents[j])
      x[j] -= L(i, j) * x_i;
  }
}

// x <- L^-1 x, Table 6.4's second loop: L y = x from the base outwards, row i reading only the
// entries of i's ancestors.
template <typename S, typename Vector>
void tree_solve_lower(const MatX<S>& L, const int* parents, Vector& x) {
  for (int i = 0; i < L.rows(); ++i) {
    S x_i = x[i];
    for (int j = parents[i]; j >= 0; j = parents[j])
      x_i -= L(i, j) * x[j];
    x[i] = x_i / L(i, i);
  }
}

// x <- H^-1 x = L^-1 L^-T x with the factor of tree_ltl_in_place: O(n d).
template <typename S, typename Vector>
[[gnu::noinline]] void tree_ltl_solve(const MatX<S>& L, const int* parents, Vector&& x) {
  tree_solve_transposed(L, parents, x);
  tree_solve_lower(L, parents, x);
}

// x = L^-1 e_k into x[0 .. m), m returned: non-zero only on the subtree of k, which the
// depth-first numbering makes the range k .. k + m - 1 (i > k is in it while its parent is).
// Table 6.4's forward substitution started at row k, each row reading its ancestors down to k.
template <typename S, typename Vector>
int tree_inverse_column(const MatX<S>& L, const int* parents, int k, Vector& x) {
  x[0] = S(1) / L(k, k);
  int m = 1;
  for (int i = k + 1; i < L.rows() && parents[i] >= k; ++i, ++m) {
    S sum = S(0);
    for (int j = parents[i]; j >= k; j = parents[j])
      sum += L(i, j) * x[j - k];
    x[m] = -sum / L(i, i);
  }
  return m;
}

// H^-1 = L^-1 L^-T = sum_k x_k x_k^T, x_k = L^-1 e_k (tree_inverse_column): each term fills
// the block of k's subtree, contiguous, its lower triangle by columns (vectorised products),
// then mirrored. O(n d^2) for the columns and sum_k m_k^2 / 2 <= n^2 d / 2 for the blocks.
// `column` holds n entries of scratch; `inverse` must be n x n.
template <typename S>
[[gnu::noinline]] void tree_ltl_inverse(const MatX<S>& L, const int* parents, VecX<S>& column,
                                        MatX<S>& inverse) {
  inverse.setZero();
  for (int k = 0; k < L.rows(); ++k) {
    const int m = tree_inverse_column(L, parents, k, column);
    for (int c = 0; c < m; ++c)
      inverse.col(k + c).segment(k + c, m - c) += column[c] * column.segment(c, m - c);
  }
  inverse.template triangularView<Eigen::StrictlyUpper>() = inverse.transpose();
}

}  // namespace denoc
