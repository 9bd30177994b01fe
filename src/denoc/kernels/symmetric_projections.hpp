// The SIMD kernel of the base-frame inertia matrix (saha/generalized_inertia.hpp, Saha 1999
// Eq. 24): a symmetric n x n matrix whose entries are six-term dot products of two 6 x n
// matrices, i_ij = i_ji = w_i^T p_j, written with Eigen's packet functions so that each block of
// entries is summed in registers and stored twice. The arithmetic is the one of
// reference_symmetric_from_projections below, which the tests compare it with.
#pragma once

#include <algorithm>

#include "denoc/kernels/matrix_types.hpp"

namespace denoc {

// One block of L x L entries of a symmetric matrix whose entry (i, j) is w_i^T p_j (i >= j), L
// the SIMD width of S (2 doubles with SSE2, 4 with AVX): the block of rows ib.. and columns jb..
// is summed in L registers from the rows of W = [w_i] and the columns of P = [p_j], then stored
// twice, as it is below the diagonal and transposed above it. Nothing is read back to mirror the
// matrix: a mirror after the fact read and wrote every upper entry alone, about a quarter of the
// time at n = 384. Needs ib >= jb + L, so that the block lies below the diagonal. Written with
// Eigen's packet functions (internal API, Eigen 3.4.0; its other use is in cholesky.hpp).
template <typename S, typename Packet, int L>
EIGEN_ALWAYS_INLINE void symmetric_block(const S* const (&w)[6], const Packet (&p)[6][L], int ib,
                                         int jb, S* gim, Eigen::Index ld) {
  using namespace Eigen::internal;
  PacketBlock<Packet, L> block;
  const Packet w_0 = ploadu<Packet>(w[0] + ib);
  for (int c = 0; c < L; ++c)
    block.packet[c] = pmul(w_0, p[0][c]);
  for (int k = 1; k < 6; ++k) {
    const Packet w_k = ploadu<Packet>(w[k] + ib);  // component k of w_ib .. w_ib+L-1
    for (int c = 0; c < L; ++c)
      block.packet[c] = pmadd(w_k, p[k][c], block.packet[c]);
  }
  for (int c = 0; c < L; ++c)
    pstoreu(gim + (jb + c) * ld + ib, block.packet[c]);  // I_{ib.., jb+c}
  ptranspose(block);
  for (int r = 0; r < L; ++r)
    pstoreu(gim + (ib + r) * ld + jb, block.packet[r]);  // I_{jb.., ib+r}
}

// The lower triangle of I from W and P, each entry i_ij = w_i^T p_j also stored as i_ji: full
// blocks off the diagonal by symmetric_block; the entries of the diagonal blocks and of the rows
// beyond the last full block one by one.
template <typename S>
void reference_symmetric_from_projections(
    const Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>& W,
    const Eigen::Matrix<S, 6, Eigen::Dynamic>& P, MatX<S>& gim);

template <typename S>
void symmetric_from_projections(const Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>& W,
                                const Eigen::Matrix<S, 6, Eigen::Dynamic>& P, MatX<S>& gim) {
  if constexpr (!Eigen::internal::packet_traits<S>::Vectorizable) {
    // No packets for this scalar (the counting one, count/counted.hpp): the reference below,
    // the same sums in the same order.
    reference_symmetric_from_projections(W, P, gim);
    return;
  }
  using Packet = typename Eigen::internal::packet_traits<S>::type;
  constexpr int L = Eigen::internal::packet_traits<S>::size;
  const int n = static_cast<int>(W.cols());
  const int blocked = n / L * L;
  const S* const w[6] = {W.row(0).data(), W.row(1).data(), W.row(2).data(),
                         W.row(3).data(), W.row(4).data(), W.row(5).data()};
  S* const out = gim.data();
  const Eigen::Index ld = gim.rows();
  // By tiles of 32 x 32 entries, so that the lines a tile and its transpose write stay in L1
  // until they are full (docs/performance.md, "Against RBDL and Pinocchio":
  // what the tiles gained).
  constexpr int kTile = 32;
  for (int jt = 0; jt < blocked; jt += kTile) {
    for (int it = jt; it < blocked; it += kTile) {
      for (int jb = jt; jb < std::min(jt + kTile, blocked); jb += L) {
        Packet p[6][L];  // p_jb .. p_jb+L-1 by components, each broadcast
        for (int k = 0; k < 6; ++k) {
          for (int c = 0; c < L; ++c)
            p[k][c] = Eigen::internal::pset1<Packet>(P(k, jb + c));
        }
        for (int ib = std::max(it, jb + L); ib < std::min(it + kTile, blocked); ib += L)
          symmetric_block(w, p, ib, jb, out, ld);
      }
    }
  }
  const auto entry = [&](int i, int j) {
    S sum = S(0);
    for (int k = 0; k < 6; ++k)
      sum += w[k][i] * P(k, j);
    gim(i, j) = gim(j, i) = sum;
  };
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < std::min((j / L + 1) * L, n); ++i)
      entry(i, j);  // j's diagonal block
    if (j < blocked) {
      for (int i = blocked; i < n; ++i)
        entry(i, j);  // the rows after the last full block
    }
  }
}

// The same matrix entry by entry, one statement for Eq. (24)'s i_ij = w_i^T p_j: the reference
// the kernel above is tested against.
template <typename S>
void reference_symmetric_from_projections(
    const Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>& W,
    const Eigen::Matrix<S, 6, Eigen::Dynamic>& P, MatX<S>& gim) {
  for (Eigen::Index j = 0; j < W.cols(); ++j)
    for (Eigen::Index i = j; i < W.cols(); ++i)
      gim(i, j) = gim(j, i) = W.col(i).dot(P.col(j));
}

}  // namespace denoc
