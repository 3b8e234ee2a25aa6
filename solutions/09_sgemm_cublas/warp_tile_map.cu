// Exercise 9.1, solved: which elements of the block tile each thread computes, arranged by
// warps.
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

__host__ __device__ void warp_tile_fragments(int thread, Fragment& rows, Fragment& cols) {
  // The 8 warps as 4 x 2 regions of 32 rows x 64 columns. A lane computes 8 x 8, so the 32
  // lanes of a region form a (32 / 8) x (64 / 8) = 4 x 8 grid: lane l at (l / 8, l % 8). Its two
  // runs of rows lie 16 apart and its two runs of columns 32 apart, so that the 8 lanes of a
  // lane row read 8 neighbouring float4 of B (128 bytes) per run: 4 lanes x 2 runs x 4 = 32
  // rows, 8 lanes x 2 runs x 4 = 64 columns.
  const int warp = thread / 32, lane = thread % 32;
  const int row0 = warp / 2 * 32, col0 = warp % 2 * 64;
  const int lr = lane / 8, lc = lane % 8;
  rows = {row0 + 4 * lr, row0 + 16 + 4 * lr};
  cols = {col0 + 4 * lc, col0 + 32 + 4 * lc};
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
  sgemm_warp_tiled_kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
