// Exercise 7.1: the tiled C = A^T * B for any shape (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

constexpr int kTile = 16;

/// C = A^T * B, A stored k x m, with shared-memory tiles on a 2-D grid: block (x, y) computes
/// tile column x, tile row y of C, thread (tx, ty) its element (ty, tx).
__global__ void matmul_at_b_tiled(const float* a, const float* b, float* c, int64_t m, int64_t n,
                                  int64_t k) {
  // at_tile[p][r] = A(k0 + p, m0 + r) = A^T(m0 + r, k0 + p): the tile of A^T, stored turned.
  __shared__ float at_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t m0 = int64_t{blockIdx.y} * kTile;  // the first row of this block's tile of C
  const int64_t row = m0 + ty;
  const int64_t col = int64_t{blockIdx.x} * kTile + tx;
  float sum = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    // A's tile is copied as it lies in A, so that a warp reads along rows of A (coalesced);
    // the loop below reads it turned. Each guard tests the indices of the element it loads,
    // (k0 + ty, m0 + tx) of A (k x m), not those of the thread's element of C. Outside A or B
    // the tile holds 0, which adds nothing; every thread still reaches both barriers.
    at_tile[ty][tx] = (k0 + ty < k && m0 + tx < m) ? a[(k0 + ty) * m + m0 + tx] : 0.0f;
    b_tile[ty][tx] = (k0 + ty < k && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += at_tile[p][ty] * b_tile[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

void matmul_any_shape(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  const dim3 block(kTile, kTile);
  // Round up: the last, partial tiles need blocks too.
  const dim3 grid(unsigned((n + kTile - 1) / kTile), unsigned((m + kTile - 1) / kTile));
  matmul_at_b_tiled<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
