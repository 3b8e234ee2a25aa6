// Exercise 9.1: which elements of the block tile each thread computes, arranged by warps (see
// README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

__host__ __device__ void warp_tile_fragments(int thread, Fragment& rows, Fragment& cols) {
  // TODO(9.1): arrange the threads by warps, as exercise.cuh's contract says: each warp covers
  // 32 rows x 64 columns of the tile (not the chapter's 64 x 32). Where you start: chapter 07's
  // arrangement, in which a warp covers 16 rows and all 128 columns.
  block_grid_fragments(thread, rows, cols);
}

/// C = A * B, a 128 x 128 tile of C per block, each thread computing the 8 x 8 elements that
/// warp_tile_fragments gives it: a plain loop along K with one shared buffer.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_warp_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  __shared__ StepTiles tiles;
  const TileCorner corner = block_corner(m, n);
  Fragment rows, cols;
  warp_tile_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    if (k0 > 0) __syncthreads();  // nobody still reads the last step's tiles
    stash_step(fetch_step<true>(a, b, m, n, k, corner, k0), tiles);
    __syncthreads();  // the tiles are whole
    multiply_step(tiles, rows, cols, acc);
  }
  store_fragments<true>(c, m, n, corner, rows, cols, acc);
}

void sgemm_warp_tiled(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k) {
  throw tutorial::Todo(
      "write warp_tile_fragments in exercises/09_sgemm_cublas/warp_tile_map.cu, then delete "
      "this line");
  sgemm_warp_tiled_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
