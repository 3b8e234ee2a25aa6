// Exercise 9.3, solved: chapter 09's `warp_tiled` steps on chapter 07's kernel (16-byte loads
// and stores, two shared buffers and one barrier a step, warp tiles, no guards for shapes made
// of whole tiles), and split-K: where the tiles of C are too few to fill the GPU, K is cut into
// slices, one block per tile and slice, and the slices' partial products are added into C.
#include <algorithm>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

/// The number of K slices, forced, for measurement: 0 chooses it from the shape (choose_split);
/// 1 never splits (chapter 09's kernel as it is); s > 1 asks for s slices.
constexpr int kForceSlices = 0;
/// Blocks an SM runs at once: what __launch_bounds__ below asks for (two blocks of 256 threads
/// at 128 registers each take all 65,536 registers of an SM; no third fits).
constexpr int kBlocksPerSm = 2;
/// The fewest steps along K a chosen slice has (a choice, not tuned): a slice ends with 64
/// atomic additions a thread, and at 16 steps a thread has made 8,192 FMAs before them.
constexpr int kMinSliceSteps = 16;
/// The most slices: a grid's y dimension has at most 65,535 blocks.
constexpr int kMaxSlices = 65535;

/// Warp tiles (exercise 9.1): the 8 warps as 2 x 4 regions of 64 rows x 32 columns, lane l at
/// (l / 4, l % 4) of an 8 x 4 grid in its region, with runs 32 rows and 16 columns apart.
__device__ __forceinline__ void warp_fragments(int thread, Fragment& rows, Fragment& cols) {
  const int warp = thread / 32, lane = thread % 32;
  const int row0 = warp / 4 * 64, col0 = warp % 4 * 32;
  rows = {row0 + 4 * (lane / 4), row0 + 32 + 4 * (lane / 4)};
  cols = {col0 + 4 * (lane % 4), col0 + 16 + 4 * (lane % 4)};
}

/// Adds a thread's 8 x 8 partial sums into C, one atomicAdd each: the blocks of the other
/// slices of the tile add into the same elements at the same time, in no fixed order.
template <bool kGuarded>
__device__ __forceinline__ void add_fragments(float* __restrict__ c, int64_t m, int64_t n,
                                              TileCorner corner, Fragment rows, Fragment cols,
                                              const float (&acc)[kPerThread][kPerThread]) {
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t row = corner.row + rows[i], col = corner.col + cols[j];
      if (!kGuarded || (row < m && col < n)) atomicAdd(&c[row * n + col], acc[i][j]);
    }
  }
}

/// C = A * B, a 128 x 128 tile of C per block (blockIdx.x), over the slice blockIdx.y of K:
/// columns [blockIdx.y * slice_k, min(k, (blockIdx.y + 1) * slice_k)) of A, the same rows of B.
/// slice_k is a multiple of kDepth, so a step never crosses the end of a slice, and only the last
/// slice can end in a partial step, at k, where the guards already fill with 0. With one slice
/// the block stores its tile; with several it adds into C, which the launcher cleared. 8 x 8
/// elements per thread in warp tiles; the tiles of a step come in with 16-byte loads (A stored
/// transposed) into one of two shared buffers while the other is multiplied, one barrier a
/// step. kGuarded = false tests nothing: only for shapes of whole tiles (whole_tiles).
template <bool kGuarded>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    fast_sgemm_kernel(const float* __restrict__ a, const float* __restrict__ b,
                      float* __restrict__ c, int64_t m, int64_t n, int64_t k, int64_t slice_k) {
  __shared__ StepTiles tiles[2];
  const TileCorner corner = block_corner(m, n);
  const int64_t k_begin = int64_t{blockIdx.y} * slice_k;  // < k: the launcher makes no empty slice
  const int64_t k_end = k_begin + slice_k < k ? k_begin + slice_k : k;
  Fragment rows, cols;
  warp_fragments(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  StepLoads next = fetch_step<kGuarded>(a, b, m, n, k, corner, k_begin);
  stash_step(next, tiles[0]);
  __syncthreads();  // the first tiles are whole
  int buffer = 0;
  for (int64_t k0 = k_begin; k0 < k_end; k0 += kDepth) {
    const bool more = k0 + kDepth < k_end;  // the same in every thread: the barrier below is safe
    if (more) next = fetch_step<kGuarded>(a, b, m, n, k, corner, k0 + kDepth);
    multiply_step(tiles[buffer], rows, cols, acc);
    if (more) stash_step(next, tiles[buffer ^ 1]);  // read by nobody since the last barrier
    __syncthreads();  // the next tiles are whole, and nobody still reads these
    buffer ^= 1;
  }
  if (gridDim.y == 1) {
    store_fragments<kGuarded>(c, m, n, corner, rows, cols, acc);
  } else {
    add_fragments<kGuarded>(c, m, n, corner, rows, cols, acc);
  }
}

/// How K is cut: @p slices slices of @p slice_k columns each (a multiple of kDepth), the last
/// one shorter where K is not a multiple of slice_k.
struct Split {
  int slices;
  int64_t slice_k;
};

/// The GPU's SMs, asked once: the checker and the chapters run on one GPU. On another GPU the
/// slices would only be fewer or more than the best; C is right with any number of them.
int sm_count() {
  static const int count = [] {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  }();
  return count;
}

/// As many slices as fill the GPU's block slots once (tiles x slices at most SMs x
/// kBlocksPerSm: one wave, no second, partial one), each of at least kMinSliceSteps steps; one
/// slice where the tiles alone fill the GPU, or K is short. Every slice gets whole steps, and
/// none is empty: the slice count is worked out again from the slice length.
Split choose_split(int64_t m, int64_t n, int64_t k) {
  const int64_t tiles = ceil_div(m, kTileM) * ceil_div(n, kTileN);
  const int64_t steps = ceil_div(k, kDepth);
  int64_t wanted = kForceSlices;
  if (wanted == 0) {
    const int64_t slots = int64_t{sm_count()} * kBlocksPerSm;
    wanted =
        std::min(std::max<int64_t>(1, slots / tiles), std::max<int64_t>(1, steps / kMinSliceSteps));
  }
  wanted = std::min<int64_t>({wanted, steps, kMaxSlices});
  const int64_t slice_steps = ceil_div(steps, wanted);
  return {static_cast<int>(ceil_div(steps, slice_steps)), slice_steps * kDepth};
}

/// Split into slices, C is not bit-reproducible from run to run: the slices' atomic
/// additions into C come in whatever order the blocks finish, and float addition is not
/// associative. Each element is still a sum of its K products in some order, within the
/// checker's bound (see README.md); with one slice it is the same every run.
void fast_sgemm(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n, int64_t k) {
  const Split split = choose_split(m, n, k);
  // The slices add into C, so C starts at 0 (on the default stream, before the kernel).
  if (split.slices > 1) CUDA_CHECK(cudaMemsetAsync(d_c, 0, sizeof(float) * m * n));
  const auto kernel = whole_tiles(m, n, k) ? fast_sgemm_kernel<false> : fast_sgemm_kernel<true>;
  const dim3 grid(tile_blocks(m, n), static_cast<unsigned int>(split.slices));
  kernel<<<grid, kThreads>>>(d_a, d_b, d_c, m, n, k, split.slice_k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise09
