/**
 * @file chapters/10_tensor_cores/warp_specialized_kernel.cuh
 * @brief Step 4 of chapter 10: step 3's TMA and wgmma with warp specialization: a producer
 *        warpgroup only copies, two consumer warpgroups only multiply, "full" and "empty"
 *        mbarriers hand each stage back and forth, and setmaxnreg moves registers from the
 *        producer to the consumers (sm_90a only). Its producer and consumer loops are step 5's
 *        too.
 */
#pragma once

#include <cuda.h>

#include <cstdint>

#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/matmul.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// A producer warpgroup, then the consumer warpgroups.
constexpr int kSpecializedThreads = (1 + kConsumerWarpgroups) * kWarpgroupThreads;
/// The block starts with 65536 / 384 = 168 registers a thread (rounded down to a multiple of 8);
/// setmaxnreg takes 128 from each producer thread and gives each consumer thread 64 more.
static_assert(kWarpgroupThreads * (kProducerRegisters + kConsumerWarpgroups * kConsumerRegisters) <=
                  65536,
              "the register file holds 64 K registers");

/// Each stage's two barriers: "full" (its copies have landed) and "empty" (every consumer warp
/// is done with it). Static shared memory, beside the dynamic WgmmaSharedStorage.
struct StageBarriers {
  uint64_t full[kWgStages];
  uint64_t empty[kWgStages];
};

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// Thread 0: makes each stage's "full" barrier wait for the producer's one arrival (and its
/// bytes), and each "empty" barrier for one arrival per consumer warp.
__device__ inline void init_stage_barriers(StageBarriers& barriers) {
  constexpr int kConsumerWarps = kConsumerWarpgroups * kWarpgroupThreads / 32;
  for (int s = 0; s < kWgStages; ++s) {
    mbarrier_init(&barriers.full[s], 1);  // the producer's arrive_expect_bytes
    mbarrier_init(&barriers.empty[s], kConsumerWarps);
  }
  mbarrier_init_fence();
}

//! [produce_tile]
/**
 * @brief The producer thread: copies the @p steps steps of the tile at (@p row0, @p col0) into
 *        the stages, each as soon as its stage is empty, from the place in the ring @p ring
 *        stands on (moved on past this tile's uses).
 *
 * Round r of a stage needs round r - 1's data released: phase r - 1 of the empty barrier, the
 * parity other than the round's, which on round 0 is the phase "before" a new barrier's first
 * and does not wait.
 */
__device__ inline void produce_tile(WgmmaSharedStorage& storage, StageBarriers& barriers,
                                    const CUtensorMap* a_map, const CUtensorMap* b_map,
                                    int64_t steps, int64_t row0, int64_t col0, StageRing& ring) {
  for (int64_t s = 0; s < steps; ++s) {
    mbarrier_wait(&barriers.empty[ring.stage], ring.phase ^ 1u);
    load_stage(storage.stage[ring.stage], barriers.full[ring.stage], a_map, b_map, s, row0, col0);
    ring.advance();
  }
}
//! [produce_tile]

//! [consume_tile]
/**
 * @brief A consumer warpgroup: d += its 64 rows of the tile's A (from row @p a_row of each A
 *        tile) x B, over @p steps steps from the place in the ring @p ring stands on (moved on
 *        past this tile's uses), releasing every stage it used exactly once.
 *
 * Round r of a stage waits for phase r of its full barrier (parity ring.phase). Once
 * wgmma_wait<1>() says the previous step's group is done, that step's stage goes back (one
 * arrival per warp on its empty barrier); after the last step, wgmma_wait<0>() and the last
 * stage goes back too, so that a persistent block's producer can fill it with the next tile
 * while C is stored (with one tile per block, nobody waits for that last release).
 */
__device__ inline void consume_tile(float (&d)[kWgAccumulators], WgmmaSharedStorage& storage,
                                    StageBarriers& barriers, int a_row, int64_t steps,
                                    StageRing& ring) {
  int used = ring.stage;  // the stage of the previous step
  for (int64_t s = 0; s < steps; ++s) {
    mbarrier_wait(&barriers.full[ring.stage], ring.phase);
    multiply_stage(d, storage.stage[ring.stage], a_row);
    wgmma_wait<1>();  // this warp's wgmma of the previous step are done: hand its stage back
    keep_accumulators(d);
    if (s >= 1) mbarrier_arrive_per_warp(&barriers.empty[used]);
    used = ring.stage;
    ring.advance();
  }
  wgmma_wait<0>();
  keep_accumulators(d);
  mbarrier_arrive_per_warp(&barriers.empty[used]);
}
//! [consume_tile]
#endif

//! [matmul_wgmma_warp_specialized]
/**
 * @brief C = A * B with a warp-specialized pipeline: step 3's tiles and wgmma, but the copies
 *        no longer wait for the multiplies, nor the multiplies for a block barrier.
 *
 * What changed from wgmma_tma: warpgroup 0 is the producer. It keeps 40 registers a thread
 * (setmaxnreg.dec) and one of its threads issues every TMA copy as soon as a stage is free:
 * it waits on the stage's "empty" mbarrier, then arms its "full" mbarrier with the bytes to
 * come. Warpgroups 1 and 2 are the consumers (232 registers a thread: 128 accumulators and
 * room to keep them all in registers). Each waits on a stage's full barrier, issues its wgmma,
 * waits until only this step's group is still running, and then hands the previous step's
 * stage back: one arrival per consumer warp on its empty barrier. No __syncthreads() in the
 * loop: each side waits only for what it needs.
 *
 * The two sides' loops, with the parity each wait asks for: produce_tile(), consume_tile().
 * @pre as matmul_wgmma_tma, with kSpecializedThreads threads.
 */
__device__ void matmul_wgmma_warp_specialized(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                              float* __restrict__ c, int64_t m, int64_t n,
                                              int64_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ StageBarriers barriers;
  WgmmaSharedStorage& storage = wgmma_storage(dynamic_shared);
  const tutorial::TilePosition tile =
      tutorial::tile_of_block(blockIdx.x, m / kWgBlockM, tutorial::ceil_div(n, kWgBlockN));
  const int64_t row0 = tile.row * kWgBlockM, col0 = tile.col * kWgBlockN;
  const int64_t steps = k / kWgDepth;

  if (threadIdx.x == 0) init_stage_barriers(barriers);
  __syncthreads();

  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  StageRing ring;  // this side's place in the ring
  if (warpgroup == 0) {
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0) produce_tile(storage, barriers, &a_map, &b_map, steps, row0, col0, ring);
  } else {
    claim_registers<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    float d[kWgAccumulators] = {};
    consume_tile(d, storage, barriers, 64 * consumer, steps, ring);
    store_warpgroup_tile(d, c, n, row0 + 64 * consumer, col0);
  }
#endif
}
//! [matmul_wgmma_warp_specialized]

/// matmul_wgmma_warp_specialized as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh): the tensor maps become __grid_constant__ parameters of that
/// kernel; one block an SM.
inline constexpr auto warp_specialized_kernel =
    tutorial::clocked_kernel<matmul_wgmma_warp_specialized, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
