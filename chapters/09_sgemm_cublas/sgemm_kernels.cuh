/**
 * @file chapters/09_sgemm_cublas/sgemm_kernels.cuh
 * @brief The steps of chapter 09 from chapter 07's register tiles towards cublasSgemm: 16-byte
 *        loads and stores, two shared-memory buffers (one barrier per step along K), warp
 *        tiles, wider tiles (8 x 16 a thread) and asynchronous copies (cp.async).
 *
 * Storage: every matrix is row-major (tutorial/matmul.cuh). Every kernel handles any M, N, K:
 * a 16-byte access is used where its 4 floats are inside the matrix and 16-byte aligned (the
 * row length a multiple of 4), single floats with guards elsewhere.
 */
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>

#include "tutorial/block_cycles.cuh"
#include "tutorial/matmul.cuh"

namespace chapter09 {

using tutorial::BlockClock;
using tutorial::BlockCycleSlots;
using tutorial::ceil_div;

/// The block tile: kTileM rows of C per block of 256 threads, each thread computing 8 rows. Its
/// width is the kernels' template parameter kTileN: kNarrow (128, chapter 07's tile, 8 x 8 a
/// thread) or kWide (256, 8 x 16 a thread).
constexpr int kTileM = 128, kThreads = 256, kRowsPerThread = 8;
constexpr int kNarrow = 128, kWide = 256;
/// Row length of A's transposed tile: 4 floats of padding keep rows 16-byte aligned and move
/// consecutive rows 4 banks apart.
constexpr int kATileStride = kTileM + 4;

/// Columns of C each thread computes in a tile kTileN wide: 8 or 16.
template <int kTileN>
constexpr int kColsPerThread = kTileN* kTileM / kThreads / kRowsPerThread;

/// How the 256 threads share out the tile of C.
enum class Arrangement {
  /// Chapter 07's: a 16 x 16 grid of threads over the whole 128 x 128 tile; a warp covers 16
  /// rows and all 128 columns.
  kBlockGrid,
  /// Warp tiles: 2 x 4 warps, each covering 64 rows and a quarter of the columns (8 x 4
  /// lanes), so it reads 64 values of A and kTileN / 4 of B per step along K instead of 16
  /// and 128.
  kWarpTiles,
};

//! [thread_fragments]
/// Where a thread's rows and columns of the tile start: runs of 4, each one float4 load from
/// the tiles and one float4 store to C. 8 rows (two runs) and kTileN / 16 columns.
template <int kTileN>
struct Fragments {
  static constexpr int kColRuns = kColsPerThread<kTileN> / 4;  ///< 2 or 4
  int rows[2];
  int cols[4];  ///< the first kColRuns
};

/// The rows and columns of the tile that thread @p thread computes (also on the host, where
/// a test checks that every element of the tile is computed by exactly one thread).
template <Arrangement kArrangement, int kTileN>
__host__ __device__ Fragments<kTileN> thread_fragments(int thread) {
  Fragments<kTileN> f{};
  if constexpr (kArrangement == Arrangement::kBlockGrid) {
    static_assert(kTileN == kNarrow, "chapter 07's grid covers a 128 x 128 tile");
    const int ty = thread / 16, tx = thread % 16;  // chapter 07's owned(): 4 t and 64 + 4 t
    f.rows[0] = 4 * ty, f.rows[1] = 64 + 4 * ty;
    f.cols[0] = 4 * tx, f.cols[1] = 64 + 4 * tx;
  } else {
    const int warp = thread / 32, lane = thread % 32;
    const int row0 = (warp / 4) * 64, col0 = (warp % 4) * (kTileN / 4);  // 2 x 4 warp tiles
    const int lr = lane / 4, lc = lane % 4;                              // 8 x 4 lanes
    f.rows[0] = row0 + 4 * lr, f.rows[1] = row0 + 32 + 4 * lr;
    // A warp's 4 lanes of a row read 4 neighbouring float4 of B (64 bytes) per run.
    for (int j = 0; j < Fragments<kTileN>::kColRuns; ++j) f.cols[j] = col0 + 16 * j + 4 * lc;
  }
  return f;
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

/// 4 floats of a tile row, one 16-byte shared load.
__device__ inline float4 load_run(const float* from) {
  return *reinterpret_cast<const float4*>(from);
}

//! [multiply_tiles]
/// One step along K: @p acc += this thread's rows of @p a_tile (A transposed: [p][row]) times
/// its columns of @p b_tile, kDepth products each, from 16-byte shared loads.
template <int kDepth, int kTileN>
__device__ inline void multiply_tiles(const float (&a_tile)[kDepth][kATileStride],
                                      const float (&b_tile)[kDepth][kTileN],
                                      const Fragments<kTileN>& mine,
                                      float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
  constexpr int kCols = kColsPerThread<kTileN>, kColRuns = Fragments<kTileN>::kColRuns;
  static_assert(kColRuns == 2 || kColRuns == 4, "8 or 16 columns a thread");
#pragma unroll
  for (int p = 0; p < kDepth; ++p) {
    // Named values, as in chapter 07: written as loops over runs, the narrow kernels with
    // guards spill (ptxas, sm_90, nvcc 13.0). b2 and b3 exist in the wide tile only.
    const float4 a0 = load_run(&a_tile[p][mine.rows[0]]);
    const float4 a1 = load_run(&a_tile[p][mine.rows[1]]);
    const float4 b0 = load_run(&b_tile[p][mine.cols[0]]);
    const float4 b1 = load_run(&b_tile[p][mine.cols[1]]);
    const float4 b2 = kColRuns == 4 ? load_run(&b_tile[p][mine.cols[2]]) : float4{};
    const float4 b3 = kColRuns == 4 ? load_run(&b_tile[p][mine.cols[3]]) : float4{};
    const float a_frag[kRowsPerThread] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b_frag[16] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w,
                              b2.x, b2.y, b2.z, b2.w, b3.x, b3.y, b3.z, b3.w};
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
#pragma unroll
      for (int j = 0; j < kCols; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
  }
}
//! [multiply_tiles]

/// Writes this thread's fragment @p acc of the tile at (@p row0, @p col0) into C, 4 floats at
/// a time (store_four).
template <bool kGuarded, int kTileN>
__device__ inline void store_fragment(float* __restrict__ c, int64_t m, int64_t n, int64_t row0,
                                      int64_t col0, const Fragments<kTileN>& mine,
                                      const float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int64_t row = row0 + (i < 4 ? mine.rows[0] + i : mine.rows[1] + i - 4);
    const auto store_run = [&](int r) {
      store_four<kGuarded>(
          c, m, n, row, col0 + mine.cols[r],
          {acc[i][4 * r], acc[i][4 * r + 1], acc[i][4 * r + 2], acc[i][4 * r + 3]});
    };
    // Written out, not a loop: as a loop the guarded kernels spill (ptxas, sm_90, nvcc 13.0).
    store_run(0);
    store_run(1);
    if constexpr (Fragments<kTileN>::kColRuns == 4) {
      store_run(2);
      store_run(3);
    }
  }
}

//! [sgemm_tiles]
/**
 * @brief C = A * B, a 128 x kTileN tile of C per block, 8 x kTileN / 16 per thread, kDepth
 *        steps along K per tile of A and B, loaded and stored 16 bytes at a time, with
 *        kBuffers shared buffers for the tiles.
 *
 * Each step the next tiles of A and B are loaded into registers, in flight while the current
 * ones are multiplied. With one buffer (chapter 07's way) a step needs two barriers: one
 * before the registers are stored into the buffer (nobody still reads it) and one after
 * (everybody sees it whole). With two, the registers go into the other buffer, which nobody
 * has read since the last barrier, and one barrier a step is enough.
 *
 * kGroup: the tile rows that consecutive blocks share (tile_of_block; 1: row by row).
 *
 * kWide tiles: each thread computes 8 x 16, reading 6 float4 from the tiles per step for 128
 * FMAs instead of 4 for 64. Its 128 accumulators need more than the 128 registers that two
 * blocks an SM leave a thread, so a wide block runs alone on its SM.
 */
template <int kDepth, Arrangement kArrangement, int kBuffers, bool kGuarded = true,
          int kTileN = kNarrow, int kGroup = tutorial::kGroupRows>
__global__ void __launch_bounds__(kThreads, kTileN == kNarrow ? 2 : 1)
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
      tutorial::tile_of_block<kGroup>(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
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

  const Fragments<kTileN> mine = thread_fragments<kArrangement, kTileN>(threadIdx.x);
  float acc[kRowsPerThread][kColsPerThread<kTileN>] = {};
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
    multiply_tiles(a_tile[buffer], b_tile[buffer], mine, acc);
    if constexpr (kBuffers == 2) {
      if (more) stash(buffer ^ 1);  // the other buffer: read by nobody since the last barrier
      __syncthreads();
      buffer ^= 1;
    }
  }

  store_fragment<kGuarded>(c, m, n, row0, col0, mine, acc);
  tutorial::block_clock_stop(slots, started);
}
//! [sgemm_tiles]

//! [copy_async]
/// Starts copying one float of a row-major matrix, (@p row, @p col), into shared memory at
/// @p to, without passing through registers (cp.async on compute capability 8.0 and newer, a
/// plain copy before). Outside the matrix (kGuarded) nothing is read and @p to gets 0.
template <bool kGuarded>
__device__ inline void copy_one_async(float* to, const float* __restrict__ matrix, int64_t rows,
                                      int64_t columns, int64_t row, int64_t col) {
  const bool inside = !kGuarded || (row < rows && col < columns);
  __pipeline_memcpy_async(to, inside ? matrix + row * columns + col : matrix, sizeof(float),
                          inside ? 0 : sizeof(float));  // the last argument: bytes zero-filled
}

/// Starts copying 4 consecutive floats from (@p row, @p col) to @p to: one 16-byte copy where
/// load_four() would make one 16-byte load, else four single floats.
template <bool kGuarded>
__device__ inline void copy_four_async(float* to, const float* __restrict__ matrix, int64_t rows,
                                       int64_t columns, int64_t row, int64_t col) {
  if (!kGuarded || (row < rows && col + 3 < columns && columns % 4 == 0)) {
    __pipeline_memcpy_async(to, matrix + row * columns + col, 4 * sizeof(float));
  } else {
    for (int i = 0; i < 4; ++i) copy_one_async<true>(to + i, matrix, rows, columns, row, col + i);
  }
}
//! [copy_async]

//! [sgemm_async]
/**
 * @brief sgemm_tiles with warp tiles, the tiles of A and B copied from global to shared memory
 *        asynchronously into kStages buffers: kStages - 1 steps along K in flight while one
 *        is multiplied.
 *
 * sgemm_tiles loads the next tiles into registers and stores them into shared memory after
 * the multiply: the loads must land before the stores can issue, and the registers that hold
 * them are taken for the whole step. Here each thread starts copies (cp.async) that write
 * shared memory by themselves, commits them as one group per step, and later waits for the
 * group it needs: at step s it waits for the copies of step s, starts those of step s +
 * kStages - 1 into the buffer that step s - 1 used, and multiplies. A is copied one float at a
 * time, so that it can still be stored transposed (a_tile[p][row], read 16 bytes at a time);
 * B 16 bytes at a time. One barrier a step: after it, every thread's copies of step s are in
 * shared memory, and every thread is done reading the buffer that is refilled next.
 * Steps of 8 along K; any M, N, K with kGuarded, whole tiles only (whole_tiles()) without.
 * @pre launched with kThreads threads, one block per tile of C (tile_of_block()).
 */
template <int kStages, bool kGuarded = true, int kTileN = kNarrow>
__global__ void __launch_bounds__(kThreads, kTileN == kNarrow ? 2 : 1)
    sgemm_async(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                int64_t m, int64_t n, int64_t k, BlockCycleSlots slots) {
  constexpr int kDepth = 8;
  constexpr int kACopies = kTileM * kDepth / kThreads;      // single floats of A per thread
  constexpr int kBCopies = kDepth * kTileN / 4 / kThreads;  // float4 of B per thread
  static_assert(kStages >= 2, "a stage to multiply and at least one in flight");
  const BlockClock started = tutorial::block_clock_start();
  __shared__ __align__(16) float a_tile[kStages][kDepth][kATileStride];  // transposed: [p][row]
  __shared__ __align__(16) float b_tile[kStages][kDepth][kTileN];
  const tutorial::TilePosition tile =
      tutorial::tile_of_block(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  const int64_t row0 = tile.row * kTileM, col0 = tile.col * kTileN;

  const auto copy_tiles = [&](int stage, int64_t k0) {
#pragma unroll
    for (int i = 0; i < kACopies; ++i) {
      // A warp copies 4 rows x 8 floats: 32-byte pieces of 4 rows of A, written to 32
      // different banks of the transposed tile (bank 4 p + row, mod 32).
      const int e = threadIdx.x + i * kThreads, r = e / kDepth, p = e % kDepth;
      copy_one_async<kGuarded>(&a_tile[stage][p][r], a, m, k, row0 + r, k0 + p);
    }
#pragma unroll
    for (int i = 0; i < kBCopies; ++i) {
      const int f = threadIdx.x + i * kThreads, p = f / (kTileN / 4), col = 4 * (f % (kTileN / 4));
      copy_four_async<kGuarded>(&b_tile[stage][p][col], b, k, n, k0 + p, col0 + col);
    }
  };

  const Fragments<kTileN> mine = thread_fragments<Arrangement::kWarpTiles, kTileN>(threadIdx.x);
  float acc[kRowsPerThread][kColsPerThread<kTileN>] = {};
  const int64_t steps = ceil_div(k, kDepth);
  for (int s = 0; s < kStages - 1; ++s) {  // the first kStages - 1 steps in flight
    if (s < steps) copy_tiles(s, s * kDepth);
    __pipeline_commit();  // a group per step, empty or not: the waits below count groups
  }
  for (int64_t s = 0; s < steps; ++s) {
    __pipeline_wait_prior(kStages - 2);  // this thread's copies of step s have landed
    __syncthreads();  // everyone's have; everyone is done with step s - 1's buffer
    const int64_t ahead = s + kStages - 1;
    if (ahead < steps) copy_tiles(int(ahead % kStages), ahead * kDepth);
    __pipeline_commit();
    const int stage = int(s % kStages);
    multiply_tiles(a_tile[stage], b_tile[stage], mine, acc);
  }
  store_fragment<kGuarded>(c, m, n, row0, col0, mine, acc);
  tutorial::block_clock_stop(slots, started);
}
//! [sgemm_async]

/// Whether the kGuarded = false kernels may run: whole tiles only (M a multiple of 128, N of
/// the tile's @p width, K of its @p depth), so every 16-byte access is inside and aligned.
/// Other shapes take the guarded kernel.
inline bool whole_tiles(int64_t m, int64_t n, int64_t k, int width, int depth) {
  return m % kTileM == 0 && n % width == 0 && k % depth == 0;
}

}  // namespace chapter09
