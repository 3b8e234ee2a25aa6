// Exercise 9.2, solved: a ring of three shared buffers, filled by asynchronous copies.
#include <cuda_pipeline.h>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

/// Starts copying element (@p row, @p col) of a row-major @p rows x @p columns matrix to @p to
/// in shared memory. Outside the matrix nothing is read: the copy's zero-fill argument (the last
/// one, in bytes) makes it write 0, so that a step past K adds nothing.
__device__ __forceinline__ void copy_one_async(float* to, const float* __restrict__ matrix,
                                               int64_t rows, int64_t columns, int64_t row,
                                               int64_t col) {
  const bool inside = row < rows && col < columns;
  __pipeline_memcpy_async(to, inside ? matrix + row * columns + col : matrix, sizeof(float),
                          inside ? 0 : sizeof(float));
}

/// Starts this thread's copies of the step at @p k0 into @p tiles: the 4 floats of A and 4 of B
/// that fetch_step loads and stash_step stores, without passing through registers. A's go one
/// at a time, down a column of the transposed tile (a 16-byte copy cannot transpose), in the
/// same banks as stash_step's stores; B's as one 16-byte copy where load_four would make one
/// 16-byte load, else one float at a time.
__device__ __forceinline__ void copy_step_async(const float* __restrict__ a,
                                                const float* __restrict__ b, int64_t m, int64_t n,
                                                int64_t k, TileCorner corner, int64_t k0,
                                                StepTiles& tiles) {
  const int t = threadIdx.x, r = t / 2, p = 4 * (t % 2);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    copy_one_async(&tiles.a[p + i][r], a, m, k, corner.row + r, k0 + p + i);
  }
  const int64_t row = k0 + t / 32, col = corner.col + 4 * (t % 32);
  float* to = &tiles.b[t / 32][4 * (t % 32)];
  if (row < k && col + 3 < n && n % 4 == 0) {
    __pipeline_memcpy_async(to, b + row * n + col, 4 * sizeof(float));
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) copy_one_async(to + i, b, k, n, row, col + i);
  }
}

/// C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread (chapter 07's arrangement),
/// the tiles copied asynchronously into a ring of kRingStages shared buffers. Step s waits for
/// its own copies, meets the others at the barrier, starts the copies of step s + 2 into the
/// buffer step s - 1 used, and multiplies: the copies of two steps are in flight meanwhile, and
/// no register holds a tile on its way.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_async_ring_kernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  __shared__ StepTiles ring[kRingStages];
  const TileCorner corner = block_corner(m, n);
  Fragment rows, cols;
  block_grid_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  const int64_t steps = ceil_div(k, kDepth);
  for (int s = 0; s < kRingStages - 1; ++s) {  // the first kRingStages - 1 steps in flight
    if (s < steps) copy_step_async(a, b, m, n, k, corner, s * kDepth, ring[s]);
    __pipeline_commit();  // a group per step, empty or not: the wait below counts groups
  }
  int stage = 0, refill = kRingStages - 1;  // counted round: ring[s % 3] and ring[(s + 2) % 3]
  for (int64_t s = 0; s < steps; ++s) {
    __pipeline_wait_prior(kRingStages - 2);  // this thread's copies of step s have landed
    __syncthreads();  // everyone's have, and nobody still multiplies step s - 1's buffer
    if (s + kRingStages - 1 < steps) {
      copy_step_async(a, b, m, n, k, corner, (s + kRingStages - 1) * kDepth, ring[refill]);
    }
    __pipeline_commit();
    multiply_step(ring[stage], rows, cols, acc);
    stage = stage + 1 == kRingStages ? 0 : stage + 1;
    refill = refill + 1 == kRingStages ? 0 : refill + 1;
  }
  store_fragments<true>(c, m, n, corner, rows, cols, acc);
}

void sgemm_async_ring(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  sgemm_async_ring_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
