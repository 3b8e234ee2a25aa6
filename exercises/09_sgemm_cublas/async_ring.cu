// Exercise 9.2: a ring of three shared buffers, filled by asynchronous copies (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

/// C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread (chapter 07's arrangement).
/// Where you start: chapter 09's `double_buffered` step. Each step loads the next step's tiles
/// into registers (fetch_step), multiplies one shared buffer, then stores the registers into
/// the other buffer (stash_step): one barrier a step, and the loads have one step to land.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_async_ring_kernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  // TODO(9.2): copy the tiles with asynchronous copies (<cuda_pipeline.h>) straight into a ring
  // of kRingStages shared buffers, two steps in flight while one is multiplied; still one
  // __syncthreads() a step, and right for any m, n and k.
  __shared__ StepTiles tiles[2];
  const TileCorner corner = block_corner(m, n);
  Fragment rows, cols;
  block_grid_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  StepLoads next = fetch_step<true>(a, b, m, n, k, corner, 0);
  stash_step(next, tiles[0]);
  __syncthreads();  // the first tiles are whole
  int buffer = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    const bool more = k0 + kDepth < k;  // the same in every thread: the barrier below is safe
    if (more) next = fetch_step<true>(a, b, m, n, k, corner, k0 + kDepth);
    multiply_step(tiles[buffer], rows, cols, acc);
    if (more) stash_step(next, tiles[buffer ^ 1]);  // read by nobody since the last barrier
    __syncthreads();  // the next tiles are whole, and nobody still reads these
    buffer ^= 1;
  }
  store_fragments<true>(c, m, n, corner, rows, cols, acc);
}

void sgemm_async_ring(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  throw tutorial::Todo(
      "fill a ring of three shared buffers with asynchronous copies in "
      "exercises/09_sgemm_cublas/async_ring.cu, then delete this line");
  sgemm_async_ring_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
