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

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// A producer warpgroup, then the consumer warpgroups.
constexpr int kSpecializedThreads = (1 + kConsumerWarpgroups) * kWarpgroupThreads;
/// Registers per thread after setmaxnreg: the block starts with 65536 / 384 = 168 (rounded
/// down to a multiple of 8) each; the producer gives 128 back, each consumer takes 64 more.
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
static_assert(kWarpgroupThreads * (kProducerRegisters + kConsumerWarpgroups * kConsumerRegisters) <=
                  65536,
              "the register file holds 64 K registers");

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// Thread 0: makes each stage's "full" barrier wait for the producer's one arrival (and its
/// bytes), and each "empty" barrier for one arrival per consumer warp of each of the
/// @p kSharingBlocks blocks whose consumers read what this block's producer copies (step 6's
/// cluster: 2; else 1).
template <int kSharingBlocks = 1>
__device__ inline void init_stage_barriers(uint64_t (&full)[kWgStages],
                                           uint64_t (&empty)[kWgStages]) {
  constexpr int kConsumerWarps = kConsumerWarpgroups * kWarpgroupThreads / 32;
  for (int s = 0; s < kWgStages; ++s) {
    mbarrier_init(&full[s], 1);  // the producer's arrive_expect_bytes
    mbarrier_init(&empty[s], kConsumerWarps * kSharingBlocks);
  }
  mbarrier_init_fence();
}

/// A consumer warp hands a stage back: one arrival on its "empty" barrier @p empty; in a
/// cluster of @p kClusterBlocks blocks (step 6), on that barrier in every block of the cluster,
/// since every block's producer copied part of the stage.
template <int kClusterBlocks = 1>
__device__ inline void release_stage(uint64_t* empty) {
  if constexpr (kClusterBlocks == 1) {
    mbarrier_arrive_per_warp(empty);
  } else {
#pragma unroll
    for (uint32_t block = 0; block < kClusterBlocks; ++block) {
      mbarrier_arrive_per_warp_in_block(empty, block);
    }
  }
}

//! [produce_tile]
/**
 * @brief The producer thread: copies the @p steps steps of the tile at (@p row0, @p col0) from
 *        its step @p first_step on (0: the whole tile; step 10's pieces of a tile start later)
 *        into the stages, each as soon as its stage is empty, from the ring position @p ring on
 *        (advanced past them).
 *
 * Round r of a stage needs round r - 1's data released: phase r - 1 of the empty barrier,
 * parity (r + 1) % 2, the round's own flipped. On round 0 that is the phase "before" a new
 * barrier's first, which does not wait.
 */
template <int kClusterBlocks = 1>
__device__ inline void produce_tile(const WgmmaStages& stages, uint64_t (&full)[kWgStages],
                                    uint64_t (&empty)[kWgStages], const CUtensorMap* a_map,
                                    const CUtensorMap* b_map, int64_t steps, int64_t row0,
                                    int64_t col0, RingPosition& ring, int64_t first_step = 0) {
  for (int64_t s = 0; s < steps; ++s) {
    const RingPosition here = ring.at(s);
    const int stage = here.stage();
    mbarrier_wait(&empty[stage], (here.parity() + 1) % 2);
    if constexpr (kClusterBlocks == 1) {
      load_stage(stages, stage, &full[stage], a_map, b_map, first_step + s, row0, col0);
    } else {
      load_stage_sharing_b<kClusterBlocks>(stages, stage, &full[stage], a_map, b_map,
                                           first_step + s, row0, col0);
    }
  }
  ring.advance(steps);
}
//! [produce_tile]

//! [consume_tile]
/**
 * @brief A consumer warpgroup: d += its 64 rows of the tile's A (@p a_rows bytes into each A
 *        stage) x B, over @p steps steps from the ring position @p ring on (advanced past
 *        them), releasing every stage it used exactly once.
 *
 * Each step waits for its round's phase of the stage's full barrier (its parity()). Once
 * wgmma_wait<1>() says the previous step's group is done, that step's stage goes back (one
 * arrival per warp on its empty barrier); after the last step, wgmma_wait<0>() and the last
 * stage goes back too, so that a persistent block's producer can fill it with the next tile
 * while C is stored (with one tile per block, nobody waits for that last release).
 */
template <int kClusterBlocks = 1>
__device__ inline void consume_tile(float (&d)[kWgAccumulators], const WgmmaStages& stages,
                                    uint64_t (&full)[kWgStages], uint64_t (&empty)[kWgStages],
                                    uint32_t a_rows, int64_t steps, RingPosition& ring) {
  for (int64_t s = 0; s < steps; ++s) {
    const RingPosition here = ring.at(s);
    const int stage = here.stage();
    mbarrier_wait(&full[stage], here.parity());
    multiply_stage(d, stages.a(stage) + a_rows, stages.b(stage));
    wgmma_wait<1>();  // this warp's wgmma of the previous step are done: hand its stage back
    keep_accumulators(d);
    if (s >= 1) release_stage<kClusterBlocks>(&empty[(ring.use + s - 1) % kWgStages]);
  }
  wgmma_wait<0>();
  keep_accumulators(d);
  release_stage<kClusterBlocks>(&empty[(ring.use + steps - 1) % kWgStages]);
  ring.advance(steps);
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
  __shared__ uint64_t full[kWgStages];   // the stage's copies have landed
  __shared__ uint64_t empty[kWgStages];  // every consumer warp is done with the stage
  const WgmmaStages stages = wgmma_stages(dynamic_shared);
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, m / kWgBlockM, tutorial::ceil_div(n, kWgBlockN));
  const int64_t row0 = tile.row * kWgBlockM, col0 = tile.col * kWgBlockN;
  const int64_t steps = k / kWgDepth;

  if (threadIdx.x == 0) init_stage_barriers(full, empty);
  __syncthreads();

  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  RingPosition ring;  // each side's own, from use 0
  if (warpgroup == 0) {
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0)
      produce_tile(stages, full, empty, &a_map, &b_map, steps, row0, col0, ring);
  } else {
    claim_registers<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const uint32_t a_rows = consumer * kWgConsumerABytes;  // this warpgroup's 64 rows of A
    float d[kWgAccumulators] = {};
    consume_tile(d, stages, full, empty, a_rows, steps, ring);
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
