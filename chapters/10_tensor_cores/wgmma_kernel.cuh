/**
 * @file chapters/10_tensor_cores/wgmma_kernel.cuh
 * @brief Step 3 of chapter 10: Hopper's TMA copies tiles into shared memory, wgmma multiplies
 *        them on a whole warpgroup (4 warps) straight from shared memory, mbarriers say when a
 *        tile has landed. Also the tile layout and the helpers steps 4 and 5 share (sm_90a only).
 */
#pragma once

#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tensor_map.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter10 {

/// A block computes 128 x 256 of C; a step along K takes 64 values (one 128-byte swizzled row
/// of each tile); kWgStages steps are in shared memory at once.
constexpr int kWgBlockM = 128, kWgBlockN = 256, kWgDepth = kTmaBoxDepth, kWgStages = 4;
/// Threads of a warpgroup, the unit wgmma runs on.
constexpr int kWarpgroupThreads = 128;
/// Warpgroups that multiply: each takes 64 rows of the tile (one m64n256 wgmma per 16 of K).
constexpr int kConsumerWarpgroups = kWgBlockM / 64;
/// Threads of step 3's block: the consumer warpgroups alone.
constexpr int kWgmmaTmaThreads = kConsumerWarpgroups * kWarpgroupThreads;
/// The accumulators of a thread: 64 x 256 floats over 128 threads.
constexpr int kWgAccumulators = 64 * kWgBlockN / kWarpgroupThreads;

/// The 128-byte swizzle repeats every 8 rows of 128 bytes: tiles start at multiples of this.
constexpr uint32_t kSwizzleAtomBytes = 1024;

/// A stage in shared memory: A's 128 x 64 tile, then B's 256 x 64 (rows of b_cols), both BF16
/// and K-major, as TMA writes them (128-byte swizzled) and wgmma reads them.
struct WgmmaStage {
  __nv_bfloat16 a[kWgBlockM * kWgDepth];
  __nv_bfloat16 b[kWgBlockN * kWgDepth];
};
constexpr uint32_t kWgStageBytes = sizeof(WgmmaStage);
/// Where B's tile starts in a stage.
constexpr uint32_t kWgBOffset = offsetof(WgmmaStage, b);
/// Dynamic shared memory of steps 3-6 (step 7 adds to it): the stages, and room to align them to
/// 1024 bytes (CUDA promises the dynamic part only 16-byte alignment).
constexpr int kWgSharedBytes = int(kWgStages * sizeof(WgmmaStage) + kSwizzleAtomBytes);
/// A consumer warpgroup's rows of A start this many bytes into A's tile per warpgroup before it.
constexpr uint32_t kWgConsumerABytes = sizeof(WgmmaStage::a) / kConsumerWarpgroups;

static_assert(kWgBlockM % 64 == 0 && kWgBlockN <= 256, "m64 wgmma per warpgroup, boxes <= 256");
static_assert(kWgBOffset % kSwizzleAtomBytes == 0 && kWgStageBytes % kSwizzleAtomBytes == 0,
              "every tile must start where the swizzle pattern starts");

/// The grid of steps 3 and 4, and the tiles of step 5: one block per 128 x 256 tile of C (n may end
/// half-way through).
inline int64_t wgmma_blocks(int64_t m, int64_t n) {
  return tutorial::grid_blocks((m / kWgBlockM) * tutorial::ceil_div(n, kWgBlockN));
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// Where the stages live, aligned to 1024 bytes: tiles[s] for TMA, which takes pointers, and
/// a(s), b(s), the same tiles as shared-window addresses, for wgmma's descriptors.
struct WgmmaStages {
  WgmmaStage* tiles;
  uint32_t base;  ///< shared_address(tiles)
  __device__ uint32_t a(int stage) const { return base + uint32_t(stage) * kWgStageBytes; }
  __device__ uint32_t b(int stage) const { return a(stage) + kWgBOffset; }
};

//! [ring_position]
/**
 * @brief A position in the ring of kWgStages stages: use u (counted from the kernel's start)
 *        goes to stage u % kWgStages, on round u / kWgStages, and waits for the phase of that
 *        round, whose parity is round % 2 (phases alternate 0, 1, 0, ...).
 *
 * Each side keeps its own position (CuTe's PipelineState holds the same facts), and a
 * persistent block carries it from one tile to the next, never resetting it. at(s) is the
 * position s steps further on, where a loop over a tile's steps stands at step s.
 */
struct RingPosition {
  int64_t use = 0;
  __device__ int stage() const { return int(use % kWgStages); }
  __device__ uint32_t parity() const { return uint32_t(use / kWgStages) % 2; }
  __device__ RingPosition at(int64_t steps) const { return {use + steps}; }
  __device__ void advance(int64_t steps) { use += steps; }
};
//! [ring_position]

/// The stages in the kernel's dynamic shared memory @p dynamic_shared, rounded up to 1024
/// bytes (CUDA promises the dynamic part only 16-byte alignment).
__device__ inline WgmmaStages wgmma_stages(unsigned char* dynamic_shared) {
  const uint32_t start = shared_address(dynamic_shared);
  const uint32_t base = (start + kSwizzleAtomBytes - 1) / kSwizzleAtomBytes * kSwizzleAtomBytes;
  return {reinterpret_cast<WgmmaStage*>(dynamic_shared + (base - start)), base};
}

//! [load_stage]
/// One thread: starts the TMA copies of step @p step (A's rows from @p row0, B's from @p col0,
/// K from step * kWgDepth) into @p stage, and tells its mbarrier @p full how many bytes to wait
/// for.
__device__ inline void load_stage(const WgmmaStages& stages, int stage, uint64_t* full,
                                  const CUtensorMap* a_map, const CUtensorMap* b_map, int64_t step,
                                  int64_t row0, int64_t col0) {
  mbarrier_arrive_expect_bytes(full, kWgStageBytes);
  const auto k0 = int32_t(step * kWgDepth);
  tma_load_2d(stages.tiles[stage].a, a_map, k0, int32_t(row0), full);
  tma_load_2d(stages.tiles[stage].b, b_map, k0, int32_t(col0), full);
}
//! [load_stage]

//! [load_stage_sharing_b]
/**
 * @brief Step 6's load_stage(), in a cluster of @p kClusterBlocks blocks whose tiles share
 *        their columns of C (the same B tile, different rows of A): this block copies its own
 *        A tile, and 1 / kClusterBlocks of the B tile, which TMA multicasts into every block's
 *        stage. Each block's @p full barrier expects a whole stage: its A, and B from all.
 * @pre @p b_map's boxes are kWgBlockN / kClusterBlocks rows (a multiple of 8: each block's
 *      part of B starts where the 128-byte swizzle pattern does).
 */
template <int kClusterBlocks>
__device__ inline void load_stage_sharing_b(const WgmmaStages& stages, int stage, uint64_t* full,
                                            const CUtensorMap* a_map, const CUtensorMap* b_map,
                                            int64_t step, int64_t row0, int64_t col0) {
  constexpr int kPartRows = kWgBlockN / kClusterBlocks;
  static_assert(kPartRows * kWgDepth * 2 % kSwizzleAtomBytes == 0, "parts start on the pattern");
  const uint32_t rank = cooperative_groups::this_cluster().block_rank();
  mbarrier_arrive_expect_bytes(full, kWgStageBytes);
  const auto k0 = int32_t(step * kWgDepth);
  tma_load_2d(stages.tiles[stage].a, a_map, k0, int32_t(row0), full);
  tma_load_2d_multicast(stages.tiles[stage].b + rank * kPartRows * kWgDepth, b_map, k0,
                        int32_t(col0 + rank * kPartRows), full, (1u << kClusterBlocks) - 1);
}
//! [load_stage_sharing_b]

//! [multiply_stage]
/// The warpgroup: d += (its 64 rows of A's tile at @p a_tile) x (B's tile at @p b_tile), four
/// wgmma of 16 along K, committed as one group. Returns before they finish.
__device__ inline void multiply_stage(float (&d)[kWgAccumulators], uint32_t a_tile,
                                      uint32_t b_tile) {
  keep_accumulators(d);
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kWgDepth / 16; ++kk) {  // 16 BF16 values = 32 bytes further along K
    wgmma_m64n256k16(d, swizzled_tile_descriptor(a_tile + 32 * kk),
                     swizzled_tile_descriptor(b_tile + 32 * kk));
  }
  wgmma_commit();
  keep_accumulators(d);
}
//! [multiply_stage]

//! [store_tile]
/**
 * @brief The warpgroup stores its 64 x 256 accumulators to C (row-major, @p n columns) at
 *        (@p row0, @p col0), in wgmma's layout (wgmma_m64n256k16()): each 8-column piece a
 *        float2 per thread, four threads covering a row's 32 bytes.
 * @pre wgmma_wait<0>() since the last wgmma.
 */
__device__ inline void store_warpgroup_tile(float (&d)[kWgAccumulators], float* c, int64_t n,
                                            int64_t row0, int64_t col0) {
  const int warp = (threadIdx.x % kWarpgroupThreads) / 32, lane = threadIdx.x % 32;
  const int64_t row = row0 + 16 * warp + lane / 4;
#pragma unroll
  for (int j = 0; j < kWgBlockN / 8; ++j) {
    const int64_t col = col0 + 8 * j + 2 * (lane % 4);
    if (col < n) {  // n is a multiple of 128, not 256: the last tile may hang over the edge
      *reinterpret_cast<float2*>(&c[row * n + col]) = {d[4 * j], d[4 * j + 1]};
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = {d[4 * j + 2], d[4 * j + 3]};
    }
  }
}
//! [store_tile]
#endif

//! [matmul_wgmma_tma]
/**
 * @brief C = A * B with TMA and wgmma: a 128 x 256 tile of C per block, two warpgroups of 64
 *        rows each, kWgStages stages of 64 along K in shared memory.
 *
 * What changed from mma_sync_ldmatrix: no thread copies a tile or loads a fragment any more.
 * Thread 0 starts two TMA copies per step (tiles arrive 128-byte swizzled, as wgmma reads
 * them), each stage's mbarrier says when its bytes have landed, and each warpgroup's wgmma
 * read A and B from shared memory through descriptors, keeping 64 x 256 accumulators in
 * registers (128 a thread). One group of wgmma stays in flight while the next is issued; once
 * a step's group has finished in both warpgroups (wait, then a block barrier), thread 0
 * refills its stage with the step kWgStages ahead.
 * @pre m, n multiples of 128 and k of 64 (the chapter pads to 128); sm_90a build on compute
 *      capability 9.0; kWgmmaTmaThreads threads, kWgSharedBytes of dynamic shared memory,
 *      wgmma_blocks(m, n) blocks; @p a_map, @p b_map from k_major_tensor_map() with boxes of
 *      128 and 256 rows.
 */
__device__ void matmul_wgmma_tma(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                 float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ uint64_t full[kWgStages];  // phase u of full[s]: step s + u kWgStages has landed
  const WgmmaStages stages = wgmma_stages(dynamic_shared);
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, m / kWgBlockM, tutorial::ceil_div(n, kWgBlockN));
  const int64_t row0 = tile.row * kWgBlockM, col0 = tile.col * kWgBlockN;
  const int64_t steps = k / kWgDepth;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kWgStages; ++s) mbarrier_init(&full[s], 1);
    mbarrier_init_fence();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int s = 0; s < kWgStages && s < steps; ++s) {
      load_stage(stages, s, &full[s], &a_map, &b_map, s, row0, col0);
    }
  }

  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  const uint32_t a_rows = warpgroup * kWgConsumerABytes;  // this warpgroup's 64 rows of A
  float d[kWgAccumulators] = {};
  for (int64_t s = 0; s < steps; ++s) {
    const RingPosition here{s};  // step s is use s of the ring
    const int stage = here.stage();
    mbarrier_wait(&full[stage], here.parity());
    multiply_stage(d, stages.a(stage) + a_rows, stages.b(stage));
    wgmma_wait<1>();  // this warpgroup's wgmma of step s - 1 are done...
    keep_accumulators(d);
    __syncthreads();  // ... and the other's: step s - 1's stage is free
    const int64_t refill = s - 1 + kWgStages;
    if (threadIdx.x == 0 && s >= 1 && refill < steps) {
      const int free_stage = int((s - 1) % kWgStages);
      load_stage(stages, free_stage, &full[free_stage], &a_map, &b_map, refill, row0, col0);
    }
  }
  wgmma_wait<0>();
  keep_accumulators(d);
  store_warpgroup_tile(d, c, n, row0 + 64 * warpgroup, col0);
#endif
}
//! [matmul_wgmma_tma]

/// matmul_wgmma_tma as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh): the tensor maps become __grid_constant__ parameters of that
/// kernel; one block an SM; the start clock waits in shared memory (every register goes to the
/// accumulators).
inline constexpr auto wgmma_tma_kernel =
    tutorial::clocked_kernel<matmul_wgmma_tma, kWgmmaTmaThreads, 1, tutorial::ClockStart::kShared>;

}  // namespace chapter10
