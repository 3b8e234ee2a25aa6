// Exercise 9.2: two shared buffers, one barrier per step along K (see README.md).
#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/exercise.hpp"

namespace exercise09 {

/// C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread (chapter 07's arrangement).
/// Where you start: the chapter's `vectorized` step, with one shared buffer, so that a step
/// needs two barriers: one before the buffer is overwritten (nobody still multiplies the last
/// step's tiles) and one after (everybody sees the new tiles whole). The next step's tiles are
/// loaded into registers while this step's are multiplied.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_double_buffered_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  // TODO(9.2): two buffers of tiles in shared memory and one __syncthreads() per step along K,
  // still right for any m, n and k.
  __shared__ StepTiles tiles;
  const TileCorner corner = block_corner(m, n);
  Fragment rows, cols;
  block_grid_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  StepLoads next = fetch_step<true>(a, b, m, n, k, corner, 0);
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    if (k0 > 0) __syncthreads();  // nobody still multiplies the last step's tiles
    stash_step(next, tiles);
    __syncthreads();  // the tiles are whole
    if (k0 + kDepth < k) next = fetch_step<true>(a, b, m, n, k, corner, k0 + kDepth);
    multiply_step(tiles, rows, cols, acc);
  }
  store_fragments<true>(c, m, n, corner, rows, cols, acc);
}

void sgemm_double_buffered(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                           int64_t k) {
  throw tutorial::Todo(
      "give sgemm_double_buffered_kernel two buffers and one barrier a step in "
      "exercises/09_sgemm_cublas/double_buffered.cu, then delete this line");
  sgemm_double_buffered_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
