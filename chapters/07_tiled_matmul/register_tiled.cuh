/**
 * @file chapters/07_tiled_matmul/register_tiled.cuh
 * @brief Chapter 07's last step, register tiles: each thread computes 8 x 8 elements of C.
 *        Chapter 09 starts from it.
 */
#pragma once

#include <cstdint>

#include "matmul.cuh"
#include "tile_of_block.cuh"
#include "tutorial/explain/shared_trace.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter07 {

using tutorial::ceil_div;
using tutorial::shared_array;
using tutorial::TracedShared;

constexpr int kRegTileM = 128;  ///< rows of C per block
constexpr int kRegTileN = 128;  ///< columns of C per block
constexpr int kRegTileK = 8;    ///< depth of one step along K
constexpr int kPerThread = 8;   ///< each thread computes kPerThread x kPerThread elements of C
constexpr int kThreadGrid = kRegTileN / kPerThread;           ///< threads per row of the tile: 16
constexpr int kRegThreads = kThreadGrid * kThreadGrid;        ///< 256
constexpr int kALoads = kRegTileM * kRegTileK / kRegThreads;  ///< A elements each thread loads
constexpr int kBLoads = kRegTileK * kRegTileN / kRegThreads;  ///< B elements each thread loads
/// Row length of A's transposed tile: 4 floats of padding, so that the 32 stores of a warp
/// fall in 32 different banks (see stash below); 132 floats keep every row 16-byte aligned.
constexpr int kATileStride = kRegTileM + 4;
static_assert(kRegTileM == kRegTileN && kRegTileM % kPerThread == 0, "square block tile");
static_assert(kPerThread == 8, "a thread's 8 rows (and columns) are two float4 of 4");
static_assert(kRegThreads % kRegTileK == 0 && kRegThreads % kRegTileN == 0,
              "the loads must divide evenly among the threads");

/// Row (or column) of the tile that a thread's i-th row (column) lies on: the thread at grid
/// position t owns 4 t .. 4 t + 3 and 64 + 4 t .. 64 + 4 t + 3. Neighbouring threads then read
/// neighbouring float4 of a shared tile row: no bank conflicts, where 8 adjacent elements per
/// thread would put threads t and t + 4 on the same banks.
__device__ constexpr int owned(int t, int i) {
  return (i / 4) * (kRegTileM / 2) + 4 * t + i % 4;
}

/// Four floats of shared memory in one 16-byte load: row[col .. col + 3].
/// @pre &row[col] is 16-byte aligned.
__device__ inline float4 load4(const float* row, int col) {
  return *reinterpret_cast<const float4*>(row + col);
}
/// The same from a recorded row (--explain).
__device__ inline float4 load4(const TracedShared<float>& row, int col) {
  return row.load_vector<float4>(col);
}

//! [matmul_register_tiled]
/// Register tiles. A block of 256 threads computes a 128 x 128 tile of C; each thread computes
/// an 8 x 8 block of it, accumulated in 64 registers. Per step p along K a thread reads 8
/// values of A's tile and 8 of B's (four float4 loads) and does 64 FMAs with them: an element
/// read from shared memory now feeds 8 FMAs instead of 1. The tiles are 128 x 8 and 8 x 128,
/// each global element loaded once per block: 32 FLOPs per byte instead of 8 (tiled 32 x 32).
/// The next step's tiles are loaded into registers while the current ones are multiplied.
template <bool kRecord = false>
__device__ void matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  // A's tile is stored transposed, a_tile[p][r] = A(row0 + r, k0 + p), so that the 4 rows a
  // thread needs at step p are 4 neighbours: one float4 load.
  __shared__ __align__(16) float a_memory[kRegTileK][kATileStride];
  __shared__ __align__(16) float b_memory[kRegTileK][kRegTileN];
  const auto a_tile = shared_array<kRecord>(a_memory, 0);  // recorded for --explain
  const auto b_tile = shared_array<kRecord>(b_memory, 1);
  const TilePosition tile =
      tile_of_block(blockIdx.x, ceil_div(m, kRegTileM), ceil_div(n, kRegTileN));
  const int64_t row0 = tile.row * kRegTileM, col0 = tile.col * kRegTileN;

  // Loading: thread t copies column t % 8 of A rows t / 8 + 32 i (a warp reads 4 rows x 8
  // floats: whole 32-byte sectors), and column t % 128 of B rows t / 128 + 2 i (a warp reads
  // 32 neighbours).
  constexpr int kARowStep = kRegThreads / kRegTileK, kBRowStep = kRegThreads / kRegTileN;
  const int a_k = threadIdx.x % kRegTileK, a_r = threadIdx.x / kRegTileK;
  const int b_c = threadIdx.x % kRegTileN, b_k = threadIdx.x / kRegTileN;
  float a_next[kALoads], b_next[kBLoads];
  // Global -> registers, guarded: outside A or B reads as 0 and adds nothing.
  const auto fetch = [&](int64_t k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int64_t r = row0 + a_r + i * kARowStep, p = k0 + a_k;
      a_next[i] = (r < m && p < k) ? a[r * k + p] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int64_t p = k0 + b_k + i * kBRowStep, col = col0 + b_c;
      b_next[i] = (p < k && col < n) ? b[p * n + col] : 0.0f;
    }
  };
  // Registers -> shared memory. A warp's A stores go to a_tile[a_k][a_r + ...] with a_k in
  // 0..7 and a_r in 0..3: bank (132 a_k + a_r) % 32 = (4 a_k + a_r) % 32, all 32 different.
  const auto stash = [&] {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) a_tile[a_k][a_r + i * kARowStep] = a_next[i];
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) b_tile[b_k + i * kBRowStep][b_c] = b_next[i];
  };

  // Computing: thread (ty, tx) of a 16 x 16 grid owns rows owned(ty, 0..7) of the tile and
  // columns owned(tx, 0..7).
  const int tx = threadIdx.x % kThreadGrid, ty = threadIdx.x / kThreadGrid;
  float acc[kPerThread][kPerThread] = {};
  fetch(0);
  for (int64_t k0 = 0; k0 < k; k0 += kRegTileK) {
    stash();
    __syncthreads();                                // the tiles are complete
    if (k0 + kRegTileK < k) fetch(k0 + kRegTileK);  // in flight while we multiply
#pragma unroll
    for (int p = 0; p < kRegTileK; ++p) {
      float a_frag[kPerThread], b_frag[kPerThread];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const float4 av = load4(a_tile[p], owned(ty, 4 * half));
        const float4 bv = load4(b_tile[p], owned(tx, 4 * half));
        a_frag[4 * half] = av.x, a_frag[4 * half + 1] = av.y;
        a_frag[4 * half + 2] = av.z, a_frag[4 * half + 3] = av.w;
        b_frag[4 * half] = bv.x, b_frag[4 * half + 1] = bv.y;
        b_frag[4 * half + 2] = bv.z, b_frag[4 * half + 3] = bv.w;
      }
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] += a_frag[i] * b_frag[j];
      }
    }
    __syncthreads();  // everyone is done reading before the next stash overwrites the tiles
  }

#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int64_t row = row0 + owned(ty, i);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t col = col0 + owned(tx, j);
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
  }
}
//! [matmul_register_tiled]

/// The register-tiled body as the harness launches it (clocked_kernel, block_cycles.cuh), with
/// its launch bounds: kRegThreads threads a block and at least 2 blocks an SM, which caps the
/// registers at 128 a thread so that two blocks fit.
inline constexpr auto register_tiled_kernel =
    tutorial::clocked_kernel<matmul_register_tiled<>, kRegThreads, 2>;

}  // namespace chapter07
