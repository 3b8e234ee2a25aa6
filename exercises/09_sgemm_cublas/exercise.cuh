/**
 * @file exercises/09_sgemm_cublas/exercise.cuh
 * @brief The functions of exercises 9.1 to 9.3, shared by the learner's files and the checkers,
 *        and the pieces of chapter 09's kernels that they build on.
 *
 * Every matrix is row-major (element (r, c) of an R x C matrix at r * C + c) and lives in
 * device memory as cudaMalloc returns it (16-byte aligned). Sizes are at least 1 and need not be
 * multiples of any tile. Every kernel here computes a 128 x 128 tile of C per block of 256
 * threads, each thread 8 x 8 elements of it, stepping 8 along K, as in chapter 09.
 */
#pragma once

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"  // chapter 07's tile order
#include "09_sgemm_cublas/sgemm_kernels.cuh"  // chapter 09's tile
#include "tutorial/harness/cuda_check.cuh"

namespace exercise09 {

using tutorial::ceil_div;

/// The block tile of chapter 09's narrow steps: kTileM x kTileN elements of C per block of
/// kThreads threads, each computing kPerThread x kPerThread of them, kDepth steps along K per
/// pair of tiles of A and B (chapter 09's steps 8 deep).
using chapter09::kThreads;
using chapter09::kTileM;
constexpr int kTileN = chapter09::kNarrow, kPerThread = chapter09::kRowsPerThread, kDepth = 8;
/// Row length of A's transposed tile in shared memory: 4 floats of padding keep every row
/// 16-byte aligned and start consecutive rows 4 banks apart.
using chapter09::kATileStride;
static_assert(kTileM * kDepth / 4 == kThreads && kDepth * kTileN / 4 == kThreads,
              "each tile of a step is one float4 per thread");

/// The rows (or the columns) of the block tile that a thread computes: 8 of them, as two runs of
/// 4, each run read from shared memory with one 16-byte load and stored to C with another.
struct Fragment {
  int first;   ///< the first run: first .. first + 3
  int second;  ///< the second run: second .. second + 3
  /// The @p i-th of the 8 (0 <= i < 8).
  __host__ __device__ int operator[](int i) const { return i < 4 ? first + i : second + i - 4; }
};

/// Chapter 07's arrangement: the 256 threads as a 16 x 16 grid over the tile; thread
/// (ty, tx) = (t / 16, t % 16) computes the runs of 4 rows from 4 ty and 64 + 4 ty, and of 4
/// columns from 4 tx and 64 + 4 tx. A warp covers 16 rows of the tile and all 128 columns.
__host__ __device__ inline void block_grid_fragments(int thread, Fragment& rows, Fragment& cols) {
  const int ty = thread / 16, tx = thread % 16;
  rows = {4 * ty, kTileM / 2 + 4 * ty};
  cols = {4 * tx, kTileN / 2 + 4 * tx};
}

//! [exercise_9_1]
/// Exercise 9.1: the rows and columns of the 128 x 128 tile that thread @p thread (0..255)
/// computes, arranged by warps: every element of the tile is computed by exactly one thread,
/// and the 32 threads of each warp together cover a region of 32 rows x 64 columns (chapter
/// 09's warp tiles are 64 rows x 32 columns). Each run starts at a multiple of 4 (a 16-byte
/// shared load) and lies inside the tile.
__host__ __device__ void warp_tile_fragments(int thread, Fragment& rows, Fragment& cols);

/// C = A * B by the kernel of warp_tile_map.cu, each thread computing what warp_tile_fragments
/// gives it. @pre 1 <= m, n, k.
void sgemm_warp_tiled(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k);
//! [exercise_9_1]

//! [exercise_9_2]
/// The depth of exercise 9.2's ring: shared buffers of one step's tiles (StepTiles) each.
constexpr int kRingStages = 3;

/// Exercise 9.2: C = A * B with chapter 07's arrangement (block_grid_fragments), the tiles of
/// each step copied from global to shared memory by asynchronous copies (cp.async) into a ring
/// of kRingStages buffers: while one step is multiplied, the copies of the next two are in
/// flight. One barrier a step, and right for any shape. @pre 1 <= m, n, k.
void sgemm_async_ring(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k);

/// The kernel sgemm_async_ring launches. The checker reads its shared memory size: the ring,
/// declared `__shared__` in the kernel, takes at least kRingStages * sizeof(StepTiles) bytes.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_async_ring_kernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int64_t m, int64_t n, int64_t k);
//! [exercise_9_2]

//! [exercise_9_3]
/// Exercise 9.3 (performance): C = A * B for any shape, as fast as the checker's target where
/// K is long and C has few tiles (m = n = 1024, k = 16384). Only enqueues work on the default
/// stream: kernels, and cudaMemsetAsync(d_c, ...) of C's m x n elements where C must start at
/// 0 (to add the partial products of slices of K into it with atomicAdd); it allocates no
/// memory and does not wait for the GPU. Each element may be its K products summed in any
/// order, and need not be the same from run to run. @pre 1 <= m, n, k.
void fast_sgemm(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n, int64_t k);
//! [exercise_9_3]

// The pieces of chapter 09's kernels that the exercises build on.

/// 4 consecutive floats of a row-major @p rows x @p columns matrix, from (row, col), col a
/// multiple of 4: one 16-byte load where all 4 lie inside the matrix and the row length keeps
/// them 16-byte aligned, else one float at a time, 0 for those outside. kGuarded = false: the
/// caller knows that all 4 lie inside and are aligned; no test is made.
template <bool kGuarded>
__device__ __forceinline__ float4 load_four(const float* __restrict__ matrix, int64_t rows,
                                            int64_t columns, int64_t row, int64_t col) {
  const int64_t at = row * columns + col;
  if constexpr (kGuarded) {
    if (row >= rows || col + 3 >= columns || columns % 4 != 0) {
      float v[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) v[i] = row < rows && col + i < columns ? matrix[at + i] : 0.0f;
      return {v[0], v[1], v[2], v[3]};
    }
  }
  return *reinterpret_cast<const float4*>(matrix + at);
}

/// Writes 4 consecutive floats of a row-major matrix from (row, col), the same way: one
/// 16-byte store where it can, else those of the 4 that lie inside, one at a time.
template <bool kGuarded>
__device__ __forceinline__ void store_four(float* __restrict__ matrix, int64_t rows,
                                           int64_t columns, int64_t row, int64_t col,
                                           float4 value) {
  const int64_t at = row * columns + col;
  if constexpr (kGuarded) {
    if (row >= rows || col + 3 >= columns || columns % 4 != 0) {
      const float v[4] = {value.x, value.y, value.z, value.w};
      for (int i = 0; i < 4 && row < rows && col + i < columns; ++i) matrix[at + i] = v[i];
      return;
    }
  }
  *reinterpret_cast<float4*>(matrix + at) = value;
}

/// Where this block's tile of C starts, in elements of C.
struct TileCorner {
  int64_t row, col;
};

/// The corner of the tile that this block computes: the tiles in chapter07::tile_of_block's
/// order (consecutive blocks walk down groups of 8 tile rows, so that they share more of A
/// and B in L2).
__device__ __forceinline__ TileCorner block_corner(int64_t m, int64_t n) {
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  return {tile.row * kTileM, tile.col * kTileN};
}

/// One step's tiles in shared memory. A's 128 x 8 tile is stored transposed,
/// a[p][r] = A(row0 + r, k0 + p), so that 4 rows of it at step p are 4 neighbours (one 16-byte
/// load); B's 8 x 128 tile as it is, b[p][c] = B(k0 + p, col0 + c). 0 outside A or B.
struct alignas(16) StepTiles {
  float a[kDepth][kATileStride];
  float b[kDepth][kTileN];
};

/// A thread's share of one step's tiles, on its way from global to shared memory.
struct StepLoads {
  float4 a;  ///< row t / 2 of A's tile, columns 4 (t % 2) .. 4 (t % 2) + 3
  float4 b;  ///< row t / 32 of B's tile, columns 4 (t % 32) .. 4 (t % 32) + 3
};

/// Global memory -> registers: this thread's 4 floats of A's tile and 4 of B's for the step at
/// @p k0 (a warp reads 16 rows x 32 bytes of A and 512 consecutive bytes of B).
template <bool kGuarded>
__device__ __forceinline__ StepLoads fetch_step(const float* __restrict__ a,
                                                const float* __restrict__ b, int64_t m, int64_t n,
                                                int64_t k, TileCorner corner, int64_t k0) {
  const int t = threadIdx.x;
  return {load_four<kGuarded>(a, m, k, corner.row + t / 2, k0 + 4 * (t % 2)),
          load_four<kGuarded>(b, k, n, k0 + t / 32, corner.col + 4 * (t % 32))};
}

/// Registers -> shared memory: A's 4 floats down a column of the transposed tile, B's 4 as one
/// 16-byte store. Thread t of a warp writes a[4 (t % 2) + i][t / 2 + 16 w] (w: the warp), in
/// bank (4 (4 (t % 2) + i) + t / 2 + 16 w) % 32 (a row is 132 = 4 mod 32 words): for each i the
/// 32 lanes fall in 32 different banks.
__device__ __forceinline__ void stash_step(const StepLoads& loads, StepTiles& tiles) {
  const int t = threadIdx.x, r = t / 2, p = 4 * (t % 2);
  tiles.a[p][r] = loads.a.x;
  tiles.a[p + 1][r] = loads.a.y;
  tiles.a[p + 2][r] = loads.a.z;
  tiles.a[p + 3][r] = loads.a.w;
  *reinterpret_cast<float4*>(&tiles.b[t / 32][4 * (t % 32)]) = loads.b;
}

/// One step along K: acc[i][j] += A(rows[i], p) * B(p, cols[j]) for the kDepth columns p of the
/// tiles; at each p, four 16-byte shared loads feed 64 FMAs.
__device__ __forceinline__ void multiply_step(const StepTiles& tiles, Fragment rows, Fragment cols,
                                              float (&acc)[kPerThread][kPerThread]) {
#pragma unroll
  for (int p = 0; p < kDepth; ++p) {
    const float4 a0 = *reinterpret_cast<const float4*>(&tiles.a[p][rows.first]);
    const float4 a1 = *reinterpret_cast<const float4*>(&tiles.a[p][rows.second]);
    const float4 b0 = *reinterpret_cast<const float4*>(&tiles.b[p][cols.first]);
    const float4 b1 = *reinterpret_cast<const float4*>(&tiles.b[p][cols.second]);
    const float a_frag[kPerThread] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b_frag[kPerThread] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
  }
}

/// Writes a thread's 8 x 8 elements of C, 4 at a time (store_four).
template <bool kGuarded>
__device__ __forceinline__ void store_fragments(float* __restrict__ c, int64_t m, int64_t n,
                                                TileCorner corner, Fragment rows, Fragment cols,
                                                const float (&acc)[kPerThread][kPerThread]) {
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int64_t row = corner.row + rows[i];
    store_four<kGuarded>(c, m, n, row, corner.col + cols.first,
                         {acc[i][0], acc[i][1], acc[i][2], acc[i][3]});
    store_four<kGuarded>(c, m, n, row, corner.col + cols.second,
                         {acc[i][4], acc[i][5], acc[i][6], acc[i][7]});
  }
}

/// Blocks of the 1-D grid over C (m x n): one per tile. @throws CudaError past 2^31 - 1.
inline unsigned int tile_blocks(int64_t m, int64_t n) {
  return static_cast<unsigned int>(
      tutorial::grid_blocks(ceil_div(m, kTileM) * ceil_div(n, kTileN)));
}

/// Whether no tile of a step has an edge: M and N multiples of 128, K of 8. Then every 16-byte
/// access lies inside its matrix, aligned, and the kGuarded = false pieces may be used.
inline bool whole_tiles(int64_t m, int64_t n, int64_t k) {
  return m % kTileM == 0 && n % kTileN == 0 && k % kDepth == 0;
}

}  // namespace exercise09
