// Exercise 9.3, solved: chapter 09's `warp_tiled` steps on chapter 07's kernel: 16-byte loads
// and stores, two shared buffers and one barrier a step, warp tiles, and no guards for shapes
// made of whole tiles.
#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"

namespace exercise09 {

/// Warp tiles (exercise 9.1): the 8 warps as 2 x 4 regions of 64 rows x 32 columns, lane l at
/// (l / 4, l % 4) of an 8 x 4 grid in its region, with runs 32 rows and 16 columns apart.
__device__ __forceinline__ void warp_fragments(int thread, Fragment& rows, Fragment& cols) {
  const int warp = thread / 32, lane = thread % 32;
  const int row0 = warp / 4 * 64, col0 = warp % 4 * 32;
  rows = {row0 + 4 * (lane / 4), row0 + 32 + 4 * (lane / 4)};
  cols = {col0 + 4 * (lane % 4), col0 + 16 + 4 * (lane % 4)};
}

/// C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread in warp tiles. The tiles of a
/// step come in with 16-byte loads (A stored transposed) into one of two shared buffers while
/// the other is multiplied, one barrier a step. kGuarded = false tests nothing: only for
/// shapes of whole tiles (whole_tiles).
template <bool kGuarded>
__global__ void __launch_bounds__(kThreads, 2)
    fast_sgemm_kernel(const float* __restrict__ a, const float* __restrict__ b,
                      float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  __shared__ StepTiles tiles[2];
  const TileCorner corner = block_corner(m, n);
  Fragment rows, cols;
  warp_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  StepLoads next = fetch_step<kGuarded>(a, b, m, n, k, corner, 0);
  stash_step(next, tiles[0]);
  __syncthreads();  // the first tiles are whole
  int buffer = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    const bool more = k0 + kDepth < k;  // the same in every thread: the barrier below is safe
    if (more) next = fetch_step<kGuarded>(a, b, m, n, k, corner, k0 + kDepth);
    multiply_step(tiles[buffer], rows, cols, acc);
    if (more) stash_step(next, tiles[buffer ^ 1]);  // read by nobody since the last barrier
    __syncthreads();  // the next tiles are whole, and nobody still reads these
    buffer ^= 1;
  }
  store_fragments<kGuarded>(c, m, n, corner, rows, cols, acc);
}

void fast_sgemm(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n, int64_t k) {
  const auto kernel = whole_tiles(m, n, k) ? fast_sgemm_kernel<false> : fast_sgemm_kernel<true>;
  kernel<<<tile_blocks(m, n), kThreads>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
