// Exercise 7.1: the tiled matmul for any shape (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

constexpr int kTile = 16;

/// Shared-memory tiles on a 2-D grid: block (x, y) computes tile column x, tile row y of C,
/// thread (tx, ty) its element (ty, tx).
__global__ void matmul_tiled_2d(const float* a, const float* b, float* c, int64_t m, int64_t n,
                                int64_t k) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = int64_t{blockIdx.y} * kTile + ty;
  const int64_t col = int64_t{blockIdx.x} * kTile + tx;
  float sum = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    // Past an edge of A or B, load 0: it adds nothing, and every thread still reaches both
    // barriers (a thread that returned early would leave its tile element unwritten and the
    // barrier waiting for it).
    a_tile[ty][tx] = (row < m && k0 + tx < k) ? a[row * k + k0 + tx] : 0.0f;
    b_tile[ty][tx] = (k0 + ty < k && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

void matmul_any_shape(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  const dim3 block(kTile, kTile);
  // Round up: the last, partial tiles need blocks too.
  const dim3 grid(unsigned((n + kTile - 1) / kTile), unsigned((m + kTile - 1) / kTile));
  matmul_tiled_2d<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
