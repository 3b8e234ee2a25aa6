/**
 * @file chapters/10_tensor_cores/cluster_kernel.cuh
 * @brief Step 6 of chapter 10, and cluster_tiles(), the block steps 6 and 9 share: step 5's
 *        persistent pipeline in thread-block clusters of two. The two blocks of a cluster
 *        compute tiles one above the other, which need the same tile of B: each block copies
 *        half of it, and TMA multicasts that half into both blocks' shared memory (sm_90a
 *        only).
 */
#pragma once

#include <cooperative_groups.h>
#include <cuda.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// Blocks of a cluster: two tiles of C one above the other, 256 x 256 of C per cluster.
constexpr int kClusterBlocks = 2;
/// Rows of B's tile (columns of C) each block of a cluster copies for both: the box of B's
/// tensor map in step 6.
constexpr int kClusterBRows = kWgBlockN / kClusterBlocks;
/// The pairs of tile rows walk the grid in groups of this many, as step 5's tiles walk it in
/// groups of kGroupRows tile rows: the same tile rows and columns are in flight at once, so the
/// two steps differ by the multicast alone.
constexpr int64_t kClusterGroupPairs = chapter07::kGroupRows / kClusterBlocks;

/// The pairs of tile rows of an m-row C (the last pair's lower tile is past m when m / 128 is
/// odd), and the cluster tiles: pairs times tile columns.
__host__ __device__ inline int64_t cluster_tile_rows(int64_t m) {
  return tutorial::ceil_div(m / kWgBlockM, kClusterBlocks);
}
inline int64_t cluster_tiles(int64_t m, int64_t n) {
  return cluster_tile_rows(m) * tutorial::ceil_div(n, kWgBlockN);
}

//! [cluster_tiles]
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/**
 * @brief The block of steps 6 and 9: step 5's persistent producer and consumers, in clusters of
 *        two blocks that share each tile of B.
 *
 * Cluster c takes cluster tiles c, c + clusters, ... (256 x 256 of C each, in tile_of_block()'s
 * order, in groups of @p kGroupPairs pairs of tile rows): block r of the cluster (its rank)
 * computes the 128 x 256 tile of rows 256 i + 128 r, and its consumer warpgroups hand each
 * tile's accumulators to @p store(d, stages, consumer, row0, col0), as persistent_tiles() does.
 * Both tiles need the same 256 rows of B's columns. In step 5 each block copied all of them;
 * here each copies 128 and multicasts them into the stage of both blocks
 * (load_stage_sharing_b()): each block asks L2 for half of B's tile instead of all of it (what
 * that saves, and what it does not, the page measures).
 *
 * What a cluster adds to the pipeline:
 * - A stage is filled by two producers, so a block's full barrier counts the peer's bytes too,
 *   and a stage is free only when the consumers of both blocks are done with it: every consumer
 *   warp releases it on both blocks' empty barriers (release_stage<2>, through mapa).
 * - Before any copy or arrival reaches the peer, its barriers must exist: cluster.sync() after
 *   they are made. And no block may exit while its peer may still arrive on its barriers or
 *   copy into it: cluster.sync() before the end.
 * - Both blocks walk the same cluster tiles with the same steps, so their rings agree.
 * Where m / 128 is odd, the last pair's lower tile lies past m: its A box is all zeros (TMA
 * fills boxes past the matrix), its block computes it so that its half of B still reaches the
 * peer, and it stores nothing.
 * @pre as matmul_wgmma_persistent; launched in clusters of kClusterBlocks with an even number of
 *      blocks; @p b_map with boxes of kClusterBRows rows.
 */
template <int64_t kGroupPairs, typename Store>
__device__ inline void cluster_tiles(const CUtensorMap& a_map, const CUtensorMap& b_map, int64_t m,
                                     int64_t n, int64_t k, Store&& store) {
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ uint64_t full[kWgStages];   // the stage's copies, ours and the peer's, have landed
  __shared__ uint64_t empty[kWgStages];  // every consumer warp of both blocks is done with it
  const WgmmaStages stages = wgmma_stages(dynamic_shared);
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int64_t rank = cluster.block_rank();
  const int64_t first = blockIdx.x / kClusterBlocks, clusters = gridDim.x / kClusterBlocks;
  const int64_t pair_rows = cluster_tile_rows(m), tile_cols = tutorial::ceil_div(n, kWgBlockN);
  const int64_t tiles = pair_rows * tile_cols, steps = k / kWgDepth;

  if (threadIdx.x == 0) init_stage_barriers<kClusterBlocks>(full, empty);
  cluster.sync();  // both blocks' barriers exist before either copies or arrives into the other

  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  RingPosition ring;  // each side's own, carried from tile to tile, the same in both blocks
  if (warpgroup == 0) {
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0) {
      for (int64_t t = first; t < tiles; t += clusters) {
        const chapter07::TilePosition tile =
            chapter07::tile_of_block<kGroupPairs>(t, pair_rows, tile_cols);
        const int64_t row0 = (tile.row * kClusterBlocks + rank) * kWgBlockM;
        produce_tile<kClusterBlocks>(stages, full, empty, &a_map, &b_map, steps, row0,
                                     tile.col * kWgBlockN, ring);
      }
    }
  } else {
    claim_registers<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const uint32_t a_rows = consumer * kWgConsumerABytes;  // this warpgroup's 64 rows of A
    for (int64_t t = first; t < tiles; t += clusters) {
      const chapter07::TilePosition tile =
          chapter07::tile_of_block<kGroupPairs>(t, pair_rows, tile_cols);
      const int64_t row0 = (tile.row * kClusterBlocks + rank) * kWgBlockM;
      float d[kWgAccumulators] = {};
      consume_tile<kClusterBlocks>(d, stages, full, empty, a_rows, steps, ring);
      if (row0 < m) store(d, stages, consumer, row0 + 64 * consumer, tile.col * kWgBlockN);
    }
  }
  cluster.sync();  // no block leaves while the other may still copy into it or arrive on it
}
#endif
//! [cluster_tiles]

//! [matmul_wgmma_cluster]
/// Step 6: cluster_tiles() in pairs of step 5's groups (kClusterGroupPairs), each consumer
/// storing its accumulators from its registers, as step 5 does.
__device__ void matmul_wgmma_cluster(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                     float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  cluster_tiles<kClusterGroupPairs>(
      a_map, b_map, m, n, k,
      [&](float(&d)[kWgAccumulators], const WgmmaStages&, int, int64_t row0, int64_t col0) {
        store_warpgroup_tile(d, c, n, row0, col0);
      });
#endif
}
//! [matmul_wgmma_cluster]

/// matmul_wgmma_cluster as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh), in clusters of kClusterBlocks (cluster_step() in
/// wgmma_steps.cuh sets the cluster's size at launch); one block an SM.
inline constexpr auto cluster_kernel =
    tutorial::clocked_kernel<matmul_wgmma_cluster, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
