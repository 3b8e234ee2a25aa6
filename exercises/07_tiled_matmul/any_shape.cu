// Exercise 7.1: the tiled C = A^T * B for any shape (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

constexpr int kTile = 16;

/// C = A^T * B, A stored k x m, with shared-memory tiles on a 2-D grid: block (x, y) computes
/// tile column x, tile row y of C, thread (tx, ty) its element (ty, tx). As first written, it is
/// right only when m, n and k are multiples of kTile.
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
    // the loop below reads it turned.
    // TODO(7.1): on the last tiles these two loads read past the edges of A and B. Make them
    // right for any shape.
    at_tile[ty][tx] = a[(k0 + ty) * m + m0 + tx];
    b_tile[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += at_tile[p][ty] * b_tile[p][tx];
    __syncthreads();
  }
  // TODO(7.1): this store writes past the edges of C on the last tiles. Make it right for
  // any shape.
  c[row * n + col] = sum;
}

void matmul_any_shape(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  throw tutorial::Todo(
      "guard the edge tiles in exercises/07_tiled_matmul/any_shape.cu, then "
      "delete this line");
  const dim3 block(kTile, kTile);
  // TODO(7.1): this grid leaves out the last, partial tiles. Make it cover all of C.
  const dim3 grid(unsigned(n / kTile), unsigned(m / kTile));
  matmul_at_b_tiled<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
