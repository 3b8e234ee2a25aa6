/**
 * @file chapters/10_tensor_cores/wgmma_kernel.cuh
 * @brief Step 3 of chapter 10: Hopper's TMA copies tiles into shared memory, wgmma multiplies
 *        them on a whole warpgroup (4 warps) straight from shared memory, mbarriers say when a
 *        tile has landed. Also the tile layout and the helpers steps 4 and 5 share (sm_90a only).
 */
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tensor_map.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/matmul.cuh"

namespace chapter10 {

//! [wgmma_config]
// Steps 3-5's decisions, one a line; everything else in their kernels follows from these.
constexpr int kWgBlockM = 128;          // rows of C a block computes: one 64-row wgmma per consumer
constexpr int kWgBlockN = 256;          // columns of C a block computes: wgmma's widest N
constexpr int kWgDepth = kTmaBoxDepth;  // K per stage: 64 BF16 = one 128-byte swizzled row a tile
constexpr int kWgStages = 4;            // stages in shared memory at once: 4 x 48 KiB
constexpr int kWarpgroupThreads = 128;  // threads of a warpgroup, the unit wgmma runs on
constexpr int kProducerRegisters = 40;  // per producer thread after setmaxnreg.dec (steps 4-5)
constexpr int kConsumerRegisters = 232;  // per consumer thread after setmaxnreg.inc (steps 4-5)
constexpr int kSwizzleAtomBytes = 1024;  // 128-byte swizzle: repeats every 8 rows of 128 bytes
//! [wgmma_config]

/// Warpgroups that multiply: each takes 64 rows of the tile (one m64n256 wgmma per 16 of K).
constexpr int kConsumerWarpgroups = kWgBlockM / 64;
/// Threads of step 3's block: the consumer warpgroups alone.
constexpr int kWgmmaTmaThreads = kConsumerWarpgroups * kWarpgroupThreads;
/// The accumulators of a thread: 64 x 256 floats over 128 threads.
constexpr int kWgAccumulators = 64 * kWgBlockN / kWarpgroupThreads;

static_assert(kWgBlockM % 64 == 0 && kWgBlockN <= 256, "m64 wgmma per warpgroup, boxes <= 256");
static_assert(kWgDepth * 2 == 128, "a tile's row is the 128-byte swizzle's row");

//! [shared_storage]
/// A stage: A's 128 x 64 tile, then B's 256 x 64 (rows of b_cols), both BF16, as TMA writes
/// them (128-byte swizzled). Each tile starts where the swizzle pattern starts.
struct alignas(kSwizzleAtomBytes) WgmmaStage {
  __nv_bfloat16 a[kWgBlockM][kWgDepth];
  __nv_bfloat16 b[kWgBlockN][kWgDepth];
};
static_assert(sizeof(WgmmaStage::a) % kSwizzleAtomBytes == 0 &&
                  sizeof(WgmmaStage) % kSwizzleAtomBytes == 0,
              "every tile must start where the swizzle pattern starts");

/// Steps 3-5's dynamic shared memory: the ring of stages.
struct WgmmaSharedStorage {
  WgmmaStage stage[kWgStages];
};

/// The dynamic shared memory a block of steps 3-5 asks for: the storage, and room to align it
/// to 1024 bytes (CUDA promises the dynamic part only 16-byte alignment).
constexpr int kWgSharedBytes = int(sizeof(WgmmaSharedStorage)) + kSwizzleAtomBytes;
//! [shared_storage]

/// The grid of steps 3 and 4, and the tiles of step 5: one block per 128 x 256 tile of C (n may end
/// half-way through).
inline int64_t wgmma_blocks(int64_t m, int64_t n) {
  return tutorial::grid_blocks((m / kWgBlockM) * tutorial::ceil_div(n, kWgBlockN));
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// The storage in the kernel's dynamic shared memory @p dynamic_shared, moved up to the next
/// multiple of 1024 bytes.
__device__ inline WgmmaSharedStorage& wgmma_storage(unsigned char* dynamic_shared) {
  const uint32_t start = shared_address(dynamic_shared);
  const uint32_t skip = (kSwizzleAtomBytes - start % kSwizzleAtomBytes) % kSwizzleAtomBytes;
  return *reinterpret_cast<WgmmaSharedStorage*>(dynamic_shared + skip);
}

//! [stage_ring]
/**
 * @brief Where one side of the pipeline is in the ring of kWgStages stages (CuTe's
 *        PipelineState): its uses go to stages 0, 1, 2, 3, 0, 1, ...; one pass over the
 *        stages is a round, and phase is the round's parity, 0 on rounds 0, 2, 4, ...
 *
 * Round r of a stage waits for phase r of its full barrier (parity phase) and, before it
 * refills the stage, for phase r - 1 of its empty barrier (parity phase ^ 1: on round 0 the
 * phase "before" a new barrier's first, which does not wait).
 */
struct StageRing {
  int stage = 0;
  uint32_t phase = 0;
  /// Moves to the next use: the next stage, and after the last one the first, a round on.
  __device__ void advance() {
    if (++stage == kWgStages) {
      stage = 0;
      phase ^= 1u;
    }
  }
};
//! [stage_ring]

//! [load_stage]
/// One thread: starts the TMA copies of step @p step (A's rows from @p row0, B's from @p col0,
/// K from step * kWgDepth) into @p stage, and tells @p full how many bytes to wait for.
__device__ inline void load_stage(WgmmaStage& stage, uint64_t& full, const CUtensorMap* a_map,
                                  const CUtensorMap* b_map, int64_t step, int64_t row0,
                                  int64_t col0) {
  mbarrier_arrive_expect_bytes(&full, sizeof(WgmmaStage));
  const auto k0 = int32_t(step * kWgDepth);
  tma_load_2d(stage.a, a_map, k0, int32_t(row0), &full);
  tma_load_2d(stage.b, b_map, k0, int32_t(col0), &full);
}
//! [load_stage]

//! [multiply_stage]
/// The warpgroup: d += (its 64 rows, from row @p a_row, of A's tile in @p stage) x (B's tile),
/// four wgmma of 16 along K, committed as one group. Returns before they finish.
__device__ inline void multiply_stage(float (&d)[kWgAccumulators], const WgmmaStage& stage,
                                      int a_row) {
  const uint32_t a_tile = shared_address(stage.a[a_row]), b_tile = shared_address(stage.b);
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
  __shared__ uint64_t full[kWgStages];  // phase r of full[s]: round r of stage s has landed
  WgmmaSharedStorage& storage = wgmma_storage(dynamic_shared);
  const tutorial::TilePosition tile =
      tutorial::tile_of_block(blockIdx.x, m / kWgBlockM, tutorial::ceil_div(n, kWgBlockN));
  const int64_t row0 = tile.row * kWgBlockM, col0 = tile.col * kWgBlockN;
  const int64_t steps = k / kWgDepth;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kWgStages; ++s) mbarrier_init(&full[s], 1);
    mbarrier_init_fence();
  }
  __syncthreads();
  if (threadIdx.x == 0) {  // round 0: step s into stage s
    for (int s = 0; s < kWgStages && s < steps; ++s) {
      load_stage(storage.stage[s], full[s], &a_map, &b_map, s, row0, col0);
    }
  }

  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  float d[kWgAccumulators] = {};
  StageRing ring;  // step s's stage and its round's parity
  int used = 0;    // the stage of step s - 1
  for (int64_t s = 0; s < steps; ++s) {
    mbarrier_wait(&full[ring.stage], ring.phase);
    multiply_stage(d, storage.stage[ring.stage], 64 * warpgroup);
    wgmma_wait<1>();  // this warpgroup's wgmma of step s - 1 are done...
    keep_accumulators(d);
    __syncthreads();  // ... and the other's: step s - 1's stage is free
    const int64_t refill = s - 1 + kWgStages;
    if (threadIdx.x == 0 && s >= 1 && refill < steps) {
      load_stage(storage.stage[used], full[used], &a_map, &b_map, refill, row0, col0);
    }
    used = ring.stage;
    ring.advance();
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
