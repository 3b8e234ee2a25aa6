/**
 * @file chapters/09_sgemm_cublas/sgemm_kernels.cuh
 * @brief The steps of chapter 09 from chapter 07's register tiles towards cublasSgemm: 16-byte
 *        loads and stores, two shared-memory buffers (one barrier per step along K), and warp
 *        tiles.
 *
 * Storage: every matrix is row-major (tutorial/matmul.cuh). Every kernel handles any M, N, K:
 * a 16-byte access is used where its 4 floats are inside the matrix and 16-byte aligned (the
 * row length a multiple of 4), single floats with guards elsewhere.
 */
#pragma once

#include <cstdint>

#include "tutorial/block_cycles.cuh"
#include "tutorial/matmul.cuh"

namespace chapter09 {

using tutorial::BlockClock;
using tutorial::BlockCycleSlots;
using tutorial::ceil_div;

/// The block tile: 128 x 128 elements of C per block of 256 threads, each computing 8 x 8.
constexpr int kTileM = 128, kTileN = 128, kThreads = 256, kPerThread = 8;
/// Row length of A's transposed tile: 4 floats of padding keep rows 16-byte aligned and move
/// consecutive rows 4 banks apart.
constexpr int kATileStride = kTileM + 4;

/// How the 256 threads share out the 128 x 128 tile of C.
enum class Arrangement {
  /// Chapter 07's: a 16 x 16 grid of threads over the whole tile; a warp covers 16 rows and
  /// all 128 columns.
  kBlockGrid,
  /// Warp tiles: each warp covers 64 x 32 of the tile (8 x 4 lanes), so it reads 64 values of
  /// A and 32 of B per step along K instead of 16 and 128.
  kWarpTiles,
};

//! [thread_fragments]
/// Where a thread's rows (or columns) start: 8 of them, as two runs of 4 (two float4 loads
/// from the tiles, two float4 stores to C).
struct Fragment {
  int first;   ///< the first run of 4
  int second;  ///< the second run of 4
};

/// The rows and columns of the tile that thread @p thread computes.
template <Arrangement kArrangement>
__device__ void thread_fragments(int thread, Fragment& rows, Fragment& cols) {
  if constexpr (kArrangement == Arrangement::kBlockGrid) {
    const int ty = thread / 16, tx = thread % 16;  // chapter 07's owned(): 4 t and 64 + 4 t
    rows = {4 * ty, 64 + 4 * ty};
    cols = {4 * tx, 64 + 4 * tx};
  } else {
    const int warp = thread / 32, lane = thread % 32;
    const int row0 = (warp / 4) * 64, col0 = (warp % 4) * 32;  // 2 x 4 warps of 64 x 32
    const int lr = lane / 4, lc = lane % 4;                    // 8 x 4 lanes
    rows = {row0 + 4 * lr, row0 + 32 + 4 * lr};
    cols = {col0 + 4 * lc, col0 + 16 + 4 * lc};
  }
}
//! [thread_fragments]

//! [load_four]
/// 4 consecutive floats of a row-major matrix with @p columns columns, from (row, col): one
/// 16-byte load where they all exist and the row length keeps them aligned, else guarded
/// single loads (0 outside). kGuarded = false: the caller knows they all exist, aligned, and
/// no test is made.
template <bool kGuarded>
__device__ inline float4 load_four(const float* __restrict__ matrix, int64_t rows, int64_t columns,
                                   int64_t row, int64_t col) {
  if constexpr (!kGuarded) {
    return *reinterpret_cast<const float4*>(matrix + row * columns + col);
  } else {
    if (row < rows && col + 3 < columns && columns % 4 == 0) {
      return *reinterpret_cast<const float4*>(matrix + row * columns + col);
    }
    float v[4];
    for (int i = 0; i < 4; ++i) {
      v[i] = (row < rows && col + i < columns) ? matrix[row * columns + col + i] : 0.0f;
    }
    return {v[0], v[1], v[2], v[3]};
  }
}
//! [load_four]

/// Writes 4 consecutive floats of C from (row, col), the same way.
template <bool kGuarded>
__device__ inline void store_four(float* __restrict__ c, int64_t rows, int64_t columns, int64_t row,
                                  int64_t col, float4 value) {
  if constexpr (!kGuarded) {
    *reinterpret_cast<float4*>(c + row * columns + col) = value;
  } else {
    if (row >= rows) return;
    if (col + 3 < columns && columns % 4 == 0) {
      *reinterpret_cast<float4*>(c + row * columns + col) = value;
      return;
    }
    const float v[4] = {value.x, value.y, value.z, value.w};
    for (int i = 0; i < 4 && col + i < columns; ++i) c[row * columns + col + i] = v[i];
  }
}

//! [sgemm_tiles]
/**
 * @brief C = A * B, a 128 x 128 tile of C per block, 8 x 8 per thread, kDepth steps along K
 *        per tile of A and B, loaded and stored 16 bytes at a time, with kBuffers shared
 *        buffers for the tiles.
 *
 * Each step the next tiles of A and B are loaded into registers, in flight while the current
 * ones are multiplied. With one buffer (chapter 07's way) a step needs two barriers: one
 * before the registers are stored into the buffer (nobody still reads it) and one after
 * (everybody sees it whole). With two, the registers go into the other buffer, which nobody
 * has read since the last barrier, and one barrier a step is enough.
 */
template <int kDepth, Arrangement kArrangement, int kBuffers, bool kGuarded = true>
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_tiles(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                int64_t m, int64_t n, int64_t k, BlockCycleSlots slots) {
  constexpr int kALoads = kTileM * kDepth / 4 / kThreads;  // float4 of A per thread and tile
  constexpr int kBLoads = kDepth * kTileN / 4 / kThreads;
  static_assert(kALoads >= 1 && kBLoads >= 1, "every thread loads whole float4");
  const BlockClock started = tutorial::block_clock_start();
  static_assert(kBuffers == 1 || kBuffers == 2, "one buffer or two");
  __shared__ __align__(16) float a_tile[kBuffers][kDepth][kATileStride];  // transposed: [p][row]
  __shared__ __align__(16) float b_tile[kBuffers][kDepth][kTileN];
  const tutorial::TilePosition tile =
      tutorial::tile_of_block(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  const int64_t row0 = tile.row * kTileM, col0 = tile.col * kTileN;

  float4 a_next[kALoads], b_next[kBLoads];
  const auto fetch = [&](int64_t k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int f = threadIdx.x + i * kThreads;  // float4 f of the tile: row f / (kDepth / 4)
      a_next[i] =
          load_four<kGuarded>(a, m, k, row0 + f / (kDepth / 4), k0 + 4 * (f % (kDepth / 4)));
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      b_next[i] =
          load_four<kGuarded>(b, k, n, k0 + f / (kTileN / 4), col0 + 4 * (f % (kTileN / 4)));
    }
  };
  const auto stash = [&](int buffer) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      const int r = f / (kDepth / 4), p = 4 * (f % (kDepth / 4));
      a_tile[buffer][p][r] = a_next[i].x;
      a_tile[buffer][p + 1][r] = a_next[i].y;
      a_tile[buffer][p + 2][r] = a_next[i].z;
      a_tile[buffer][p + 3][r] = a_next[i].w;
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      *reinterpret_cast<float4*>(&b_tile[buffer][f / (kTileN / 4)][4 * (f % (kTileN / 4))]) =
          b_next[i];
    }
  };

  Fragment rows, cols;
  thread_fragments<kArrangement>(threadIdx.x, rows, cols);
  float acc[kPerThread][kPerThread] = {};
  fetch(0);
  if constexpr (kBuffers == 2) {
    stash(0);
    __syncthreads();
  }
  int buffer = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    const bool more = k0 + kDepth < k;
    if constexpr (kBuffers == 1) {
      if (k0 > 0) __syncthreads();  // everyone is done reading the tiles of the last step
      stash(0);
      __syncthreads();
    }
    if (more) fetch(k0 + kDepth);  // in flight while this tile is multiplied
#pragma unroll
    for (int p = 0; p < kDepth; ++p) {
      const float4 a0 = *reinterpret_cast<const float4*>(&a_tile[buffer][p][rows.first]);
      const float4 a1 = *reinterpret_cast<const float4*>(&a_tile[buffer][p][rows.second]);
      const float4 b0 = *reinterpret_cast<const float4*>(&b_tile[buffer][p][cols.first]);
      const float4 b1 = *reinterpret_cast<const float4*>(&b_tile[buffer][p][cols.second]);
      const float a_frag[kPerThread] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b_frag[kPerThread] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] += a_frag[i] * b_frag[j];
      }
    }
    if constexpr (kBuffers == 2) {
      if (more) stash(buffer ^ 1);  // the other buffer: read by nobody since the last barrier
      __syncthreads();
      buffer ^= 1;
    }
  }

#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int64_t row = row0 + (i < 4 ? rows.first + i : rows.second + i - 4);
    store_four<kGuarded>(c, m, n, row, col0 + cols.first,
                         {acc[i][0], acc[i][1], acc[i][2], acc[i][3]});
    store_four<kGuarded>(c, m, n, row, col0 + cols.second,
                         {acc[i][4], acc[i][5], acc[i][6], acc[i][7]});
  }
  tutorial::block_clock_stop(slots, started);
}
//! [sgemm_tiles]

/// Whether the kGuarded = false kernels may run: whole tiles only (M and N multiples of 128, K
/// of @p depth), so every 16-byte access is inside and aligned. Other shapes take the guarded
/// kernel.
inline bool whole_tiles(int64_t m, int64_t n, int64_t k, int depth) {
  return m % kTileM == 0 && n % kTileN == 0 && k % depth == 0;
}

}  // namespace chapter09
