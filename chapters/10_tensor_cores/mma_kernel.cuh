/**
 * @file chapters/10_tensor_cores/mma_kernel.cuh
 * @brief Step 2 of chapter 10: the tensor cores through PTX's mma.sync, fed by ldmatrix from
 *        shared tiles in a swizzled layout, the tiles copied in by cp.async, several steps in
 *        flight (compute capability 8.0 and newer).
 */
#pragma once

#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "tensor_core_ptx.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter10 {

/// A block computes 128 x 128 of C with 8 warps, each 64 x 32 (2 x 4 warps); a step along K
/// takes 32 values, two mma.sync steps of 16.
constexpr int kMmaBlockM = 128, kMmaBlockN = 128, kMmaDepth = 32, kMmaThreads = 256;
/// 16-byte pieces (8 BF16 values) in a tile row of kMmaDepth values.
constexpr int kChunksPerRow = kMmaDepth / 8;

//! [swizzle]
/**
 * @brief Where piece @p chunk (16 bytes) of row @p row of a tile is stored in its row: the
 *        XOR swizzle.
 *
 * A tile row is 64 bytes, so shared memory's 32 banks (128 bytes) hold two rows side by side,
 * and the same piece of rows r and r + 2 falls in the same 4 banks. ldmatrix reads one piece
 * from each of 8 consecutive rows at once: stored plainly, those 8 pieces fall in 2 groups of
 * banks, a 4-way conflict. XOR-ing the piece's index with (row / 2) mod 4 sends the 8 pieces to
 * 8 different groups of 4 banks, and keeps each row's 4 pieces in that row (a permutation).
 */
__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  return chunk ^ ((row >> 1) & (kChunksPerRow - 1));
}

/// Offset (in BF16 values) of element (@p row, @p k) in a swizzled kMmaDepth-wide tile.
__host__ __device__ constexpr int swizzled_offset(int row, int k) {
  return row * kMmaDepth + swizzled_chunk(row, k / 8) * 8 + k % 8;
}
//! [swizzle]

//! [matmul_mma]
/**
 * @brief C = A * B with mma.sync: a 128 x 128 tile of C per block, 64 x 32 per warp (4 x 4
 *        instructions of 16 x 8 per step of 16 along K), tiles 32 deep in kStages buffers
 *        filled by cp.async: kStages - 1 steps in flight while one is multiplied.
 *
 * Each step along K: wait for this step's tiles, one barrier, start the copies of the step
 * kStages - 1 ahead into the buffer the last step used (chapter 09's sgemm_async), then, twice
 * (16 values of K each), load the warp's 4 fragments of A and 4 of B with ldmatrix and issue
 * its 16 mma.sync. Both tiles are stored swizzled (swizzled_offset), so that neither the
 * copies nor ldmatrix meet a bank conflict (in the bank model the unit tests check).
 * @pre m, n multiples of 128 and k of 32 (the chapter pads to 128); compute capability 8.0 or
 *      newer; run by blocks of kMmaThreads threads, one block per tile (tile_of_block).
 */
template <int kStages>
__device__ void matmul_mma(const __nv_bfloat16* __restrict__ a,
                           const __nv_bfloat16* __restrict__ b_cols, float* __restrict__ c,
                           int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  static_assert(kStages >= 2, "a stage to multiply and at least one in flight");
  // A's tile by rows of A, B's by columns of B (rows of b_cols): 128 rows of 32 values each.
  __shared__ __align__(128) __nv_bfloat16 a_tile[kStages][kMmaBlockM * kMmaDepth];
  __shared__ __align__(128) __nv_bfloat16 b_tile[kStages][kMmaBlockN * kMmaDepth];
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, m / kMmaBlockM, n / kMmaBlockN);
  const int64_t row0 = tile.row * kMmaBlockM, col0 = tile.col * kMmaBlockN;

  const auto copy_tiles = [&](int stage, int64_t k0) {
  // 128 rows x 4 pieces of 16 bytes per tile: 2 pieces of each tile per thread; 4 threads
  // copy a row's 64 bytes.
#pragma unroll
    for (int i = 0; i < kMmaBlockM * kChunksPerRow / kMmaThreads; ++i) {
      const int e = threadIdx.x + i * kMmaThreads, r = e / kChunksPerRow, piece = e % kChunksPerRow;
      const int at = r * kMmaDepth + swizzled_chunk(r, piece) * 8;
      __pipeline_memcpy_async(&a_tile[stage][at], a + (row0 + r) * k + k0 + piece * 8, 16);
      __pipeline_memcpy_async(&b_tile[stage][at], b_cols + (col0 + r) * k + k0 + piece * 8, 16);
    }
  };

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / 4) * 64, warp_col = (warp % 4) * 32;
  float acc[4][4][4] = {};  // [16-row tile][8-column tile][the lane's 4 values]
  const int64_t steps = k / kMmaDepth;
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copy_tiles(s, s * kMmaDepth);
    __pipeline_commit();
  }
  for (int64_t s = 0; s < steps; ++s) {
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();
    const int64_t ahead = s + kStages - 1;
    if (ahead < steps) copy_tiles(int(ahead % kStages), ahead * kMmaDepth);
    __pipeline_commit();
    const __nv_bfloat16* at = a_tile[s % kStages];
    const __nv_bfloat16* bt = b_tile[s % kStages];
#pragma unroll
    for (int kk = 0; kk < kMmaDepth; kk += 16) {
      uint32_t a_frag[4][4], b_frag[4][2];
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {  // lanes 0-15: rows 0-15 at k; 16-31: the same at k + 8
        const int row = warp_row + mt * 16 + lane % 16;
        ldmatrix_x4(a_frag[mt], &at[swizzled_offset(row, kk + (lane / 16) * 8)]);
      }
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {  // two 8-column tiles of B per ldmatrix.x4
        const int col = warp_col + pair * 16 + (lane / 16) * 8 + lane % 8;
        uint32_t r[4];
        ldmatrix_x4(r, &bt[swizzled_offset(col, kk + ((lane / 8) % 2) * 8)]);
        b_frag[2 * pair][0] = r[0], b_frag[2 * pair][1] = r[1];
        b_frag[2 * pair + 1][0] = r[2], b_frag[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
        for (int nt = 0; nt < 4; ++nt) mma_16x8x16(acc[mt][nt], a_frag[mt], b_frag[nt]);
      }
    }
  }

  // The accumulator's layout: rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and the
  // next, of each 16 x 8 tile.
#pragma unroll
  for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
      const int64_t row = row0 + warp_row + mt * 16 + lane / 4;
      const int64_t col = col0 + warp_col + nt * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&c[row * n + col]) = {acc[mt][nt][0], acc[mt][nt][1]};
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = {acc[mt][nt][2], acc[mt][nt][3]};
    }
  }
#endif
}
//! [matmul_mma]

/// matmul_mma as the harness launches it (clocked_kernel in tutorial/harness/block_cycles.cuh).
template <int kStages>
inline constexpr auto mma_kernel = tutorial::clocked_kernel<matmul_mma<kStages>, kMmaThreads>;

}  // namespace chapter10
