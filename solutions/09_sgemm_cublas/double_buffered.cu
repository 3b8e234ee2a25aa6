// Exercise 9.2, solved: two shared buffers, one barrier per step along K.
#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"

namespace exercise09 {

/// C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread (chapter 07's arrangement),
/// with two shared buffers of tiles. Each step multiplies one buffer while the next step's
/// tiles go into the other, which nobody has read since the last barrier: one barrier a step
/// is enough. The next step's tiles are loaded into registers while this step's are multiplied.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_double_buffered_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
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
    if (more) stash_step(next, tiles[buffer ^ 1]);
    // One barrier for two reasons: the other buffer is whole before anyone multiplies it, and
    // everyone is done with this one before the next step's stash overwrites it.
    __syncthreads();
    buffer ^= 1;
  }
  store_fragments<true>(c, m, n, corner, rows, cols, acc);
}

void sgemm_double_buffered(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                           int64_t k) {
  sgemm_double_buffered_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
