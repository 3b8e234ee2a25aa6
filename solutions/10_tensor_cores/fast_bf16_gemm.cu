// Exercise 10.3, solved: mma.sync past the chapter's step 2. The instructions are the chapter's
// (cp.async into swizzled shared tiles, ldmatrix.x4, mma.sync.m16n8k16); what changes is how
// much of C a warp computes per fragment it loads. Chapter 10's warps compute 64 x 32 of C: per
// 16 values of K, 4 ldmatrix.x4 for A and 2 for B feed 16 mma.sync. A warp of 64 x 64 loads the
// same 4 for A and 4 for B and issues 32 mma.sync: 0.25 loads a product instead of 0.375, a
// third fewer shared-memory reads per product.
// The kernel is a template over its tiles, its depth along K and its stages, so that several
// configurations can be timed (the one fast_bf16_gemm runs is chosen below).
#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

/**
 * @brief One configuration of mma_wide_warp: a block computes kBlockM x kBlockN of C, each of
 *        its warps kWarpM x kWarpN; a step along K takes kDepth values into one of kStages
 *        buffers, kStages - 1 steps in flight while one is multiplied.
 */
template <int kBlockM_, int kBlockN_, int kWarpM_, int kWarpN_, int kDepth_, int kStages_>
struct GemmConfig {
  static constexpr int kBlockM = kBlockM_, kBlockN = kBlockN_, kWarpM = kWarpM_, kWarpN = kWarpN_,
                       kDepth = kDepth_, kStages = kStages_;
  /// Warps side by side along N; the block's warps, 32 threads each.
  static constexpr int kWarpsN = kBlockN / kWarpN;
  static constexpr int kThreads = (kBlockM / kWarpM) * kWarpsN * 32;
  /// A warp's 16 x 8 tiles of C (one mma.sync each per 16 values of K).
  static constexpr int kTilesM = kWarpM / 16, kTilesN = kWarpN / 8;
  /// 16-byte pieces (8 BF16 values) in a tile row of kDepth values.
  static constexpr int kPieces = kDepth / 8;
  /// BF16 values of one stage: A's tile (kBlockM rows of kDepth) and then B's (kBlockN rows).
  static constexpr int kStageValues = (kBlockM + kBlockN) * kDepth;
  static constexpr size_t kSharedBytes = size_t(kStages) * kStageValues * sizeof(__nv_bfloat16);

  static_assert(kBlockM % kWarpM == 0 && kBlockN % kWarpN == 0, "whole warps in a block tile");
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0,
                "an ldmatrix.x4 loads 16 rows of A, or two 8-column tiles of B");
  static_assert(kDepth % 16 == 0 && (kPieces & (kPieces - 1)) == 0,
                "whole mma.sync steps of 16 along K, a power of two of pieces a row (the swizzle)");
  static_assert(kStages >= 2, "a stage to multiply and at least one in flight");
  static_assert(kBlockM * kPieces % kThreads == 0 && kBlockN * kPieces % kThreads == 0,
                "every thread copies as many pieces of each tile");
};

/**
 * @brief Where piece @p chunk (16 bytes) of row @p row of a tile with @p kPieces pieces a row
 *        is stored in its row: chapter 10's XOR swizzle, for any row length.
 *
 * The 32 banks hold 128 bytes, so 8 / kPieces rows lie side by side in them (a *line*; one row
 * for 128-byte rows), and the same piece of two rows falls in the same 4 banks when the rows
 * are a whole number of lines apart. An ldmatrix matrix reads one piece of each of 8
 * consecutive rows: XOR-ing the piece with the row's line number, modulo the places a line
 * offers (8, or kPieces if fewer), sends those 8 pieces to 8 different groups of 4 banks and
 * keeps each row's pieces in that row. For the chapter's 64-byte rows this is its
 * (row / 2) mod 4; for 128-byte rows (64 values deep) it is row mod 8.
 */
template <int kPieces>
__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  constexpr int kRowsPerLine = kPieces >= 8 ? 1 : 8 / kPieces;
  constexpr int kPlaces = kPieces >= 8 ? 8 : kPieces;
  return chunk ^ ((row / kRowsPerLine) % kPlaces);
}

/// Offset (in BF16 values) of element (@p row, @p k) in a swizzled tile @p kDepth values deep.
template <int kDepth>
__host__ __device__ constexpr int swizzled_offset(int row, int k) {
  return row * kDepth + swizzled_chunk<kDepth / 8>(row, k / 8) * 8 + k % 8;
}

#if __CUDA_ARCH__ >= 800
/// Starts the copies of kRows rows of kDepth values (rows @p k values apart at @p from) into the
/// swizzled @p tile: consecutive threads take consecutive pieces of a row, kPieces threads a row.
template <class Config, int kRows>
__device__ inline void copy_tile(__nv_bfloat16* tile, const __nv_bfloat16* from, int64_t k) {
  constexpr int kPieces = Config::kPieces;
#pragma unroll
  for (int i = 0; i < kRows * kPieces / Config::kThreads; ++i) {
    const int e = threadIdx.x + i * Config::kThreads, r = e / kPieces, piece = e % kPieces;
    const int at = r * Config::kDepth + swizzled_chunk<kPieces>(r, piece) * 8;
    __pipeline_memcpy_async(&tile[at], from + r * k + piece * 8, 16);
  }
}
#endif

/**
 * @brief C = A * B with mma.sync, Config's tiles: the pipeline of chapter 10's step 2, warps of
 *        kWarpM x kWarpN.
 *
 * Each step along K: wait for this step's tiles, one barrier, start the copies of the step
 * kStages - 1 ahead into the buffer the last step used; then for every 16 values of the step,
 * kTilesM ldmatrix.x4 for A's fragments, kTilesN / 2 for B's, and kTilesM x kTilesN mma.sync.
 * With 64 x 64 warps that is 8 loads for 32 products (the chapter's 64 x 32: 6 for 16). The
 * tiles live in dynamic shared memory, since deeper or wider tiles pass the 48 KiB a kernel may
 * declare statically.
 * @pre m a multiple of kBlockM, n of kBlockN, k of kDepth; compute capability 8.0 or newer;
 *      kThreads threads and kSharedBytes of dynamic shared memory a block, one block per tile.
 */
template <class Config>
__global__ void __launch_bounds__(Config::kThreads)
    mma_wide_warp(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b_cols,
                  float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  constexpr int kBlockM = Config::kBlockM, kBlockN = Config::kBlockN, kDepth = Config::kDepth,
                kStages = Config::kStages, kTilesM = Config::kTilesM, kTilesN = Config::kTilesN;
  // Stage s: A's tile (by rows of A) at s * kStageValues, B's (by columns of B) right after it.
  extern __shared__ __align__(128) __nv_bfloat16 tiles[];
  const auto a_tile = [&](int stage) { return tiles + stage * Config::kStageValues; };
  const auto b_tile = [&](int stage) { return a_tile(stage) + kBlockM * kDepth; };
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, m / kBlockM, n / kBlockN);
  const int64_t row0 = tile.row * kBlockM, col0 = tile.col * kBlockN;
  const auto copy_tiles = [&](int stage, int64_t k0) {
    copy_tile<Config, kBlockM>(a_tile(stage), a + row0 * k + k0, k);
    copy_tile<Config, kBlockN>(b_tile(stage), b_cols + col0 * k + k0, k);
  };

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / Config::kWarpsN) * Config::kWarpM;
  const int warp_col = (warp % Config::kWarpsN) * Config::kWarpN;
  float acc[kTilesM][kTilesN][4] = {};  // [16-row tile][8-column tile][the lane's 4 values]
  const int64_t steps = k / kDepth;
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copy_tiles(s, s * kDepth);
    __pipeline_commit();
  }
  for (int64_t s = 0; s < steps; ++s) {
    // kStages - 1 groups are in flight; all but the newest kStages - 2 must have landed, so
    // that this step's group (the oldest) is whole.
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();  // this step's tiles are whole, and nobody still reads the last step's
    const int64_t ahead = s + kStages - 1;
    if (ahead < steps) copy_tiles(int(ahead % kStages), ahead * kDepth);
    __pipeline_commit();
    const __nv_bfloat16* at = a_tile(int(s % kStages));
    const __nv_bfloat16* bt = b_tile(int(s % kStages));
#pragma unroll
    for (int kk = 0; kk < kDepth; kk += 16) {
      uint32_t a_frag[kTilesM][4], b_frag[kTilesN][2];
#pragma unroll
      for (int mt = 0; mt < kTilesM; ++mt) {  // lanes 0-15: rows 0-15 at k; 16-31: at k + 8
        const int row = warp_row + mt * 16 + lane % 16;
        ldmatrix_x4(a_frag[mt], &at[swizzled_offset<kDepth>(row, kk + (lane / 16) * 8)]);
      }
#pragma unroll
      for (int pair = 0; pair < kTilesN / 2; ++pair) {  // two 8-column tiles per ldmatrix.x4
        const int col = warp_col + pair * 16 + (lane / 16) * 8 + lane % 8;
        uint32_t r[4];
        ldmatrix_x4(r, &bt[swizzled_offset<kDepth>(col, kk + ((lane / 8) % 2) * 8)]);
        b_frag[2 * pair][0] = r[0], b_frag[2 * pair][1] = r[1];
        b_frag[2 * pair + 1][0] = r[2], b_frag[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < kTilesN; ++nt) mma_16x8x16(acc[mt][nt], a_frag[mt], b_frag[nt]);
      }
    }
  }

  // The accumulator's layout: rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and the
  // next, of each 16 x 8 tile.
#pragma unroll
  for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
    for (int nt = 0; nt < kTilesN; ++nt) {
      const int64_t row = row0 + warp_row + mt * 16 + lane / 4;
      const int64_t col = col0 + warp_col + nt * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&c[row * n + col]) = {acc[mt][nt][0], acc[mt][nt][1]};
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = {acc[mt][nt][2], acc[mt][nt][3]};
    }
  }
#endif
}

/// Launches mma_wide_warp<Config> on whole block tiles (the preconditions of mma_wide_warp).
template <class Config>
void multiply_whole_tiles(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c,
                          int64_t m, int64_t n, int64_t k) {
  // Past 48 KiB, a kernel's dynamic shared memory must be asked for: once per configuration.
  static const bool asked = [] {
    CUDA_CHECK(cudaFuncSetAttribute(mma_wide_warp<Config>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(Config::kSharedBytes)));
    return true;
  }();
  static_cast<void>(asked);
  const int64_t blocks = tutorial::grid_blocks((m / Config::kBlockM) * (n / Config::kBlockN));
  mma_wide_warp<Config><<<static_cast<unsigned>(blocks), Config::kThreads, Config::kSharedBytes>>>(
      d_a, d_b_cols, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

/// The configuration fast_bf16_gemm runs: 4 warps of 64 x 64 on a 128 x 128 tile, tiles 32
/// values deep, 4 stages (64 KiB of shared memory). Of six configurations timed at 4096^3 on an
/// H100 (2026-11-26, median of 20 cold-L2 runs each, against cublasGemmEx's 0.1824 ms), it was
/// the fastest: 0.3240 ms, 0.563x; the chapter's own shape (128 x 128, warps of 64 x 32, 32
/// deep, 3 stages) took 0.3922 ms, 0.465x; 64 deep, 3 stages 0.3423 ms; 128 x 256 tiles of 8
/// such warps 0.4563 ms (32 deep, 4 stages) and 0.3664 ms (64 deep, 3 stages); 256 x 128,
/// 64 deep, 0.3780 ms. A 128 x 128 tile also fits every shape multiply_padded makes.
using FastConfig = GemmConfig<128, 128, 64, 64, 32, 4>;
static_assert(kPad % FastConfig::kBlockM == 0 && kPad % FastConfig::kBlockN == 0 &&
                  kPad % FastConfig::kDepth == 0,
              "FastConfig runs on any multiple of kPad");

void fast_bf16_gemm(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
                    int64_t n, int64_t k) {
  multiply_padded(d_a, d_b_cols, d_c, m, n, k, multiply_whole_tiles<FastConfig>);
}

}  // namespace exercise10
