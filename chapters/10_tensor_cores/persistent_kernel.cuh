/**
 * @file chapters/10_tensor_cores/persistent_kernel.cuh
 * @brief Step 5 of chapter 10, and persistent_tiles(), the block steps 5, 7, 8 and 10 share:
 *        step 4's warp-specialized pipeline in a persistent grid, one block per SM walking tile
 *        after tile, so that the producer loads the next tile while the consumers store the
 *        last one (sm_90a only).
 */
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "hopper_ptx.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// The persistent grid: one block per SM (a block fills an SM's shared memory), fewer where
/// there are fewer tiles than SMs.
inline int64_t persistent_blocks(int64_t m, int64_t n, int sm_count) {
  return std::min<int64_t>(wgmma_blocks(m, n), sm_count);
}

//! [persistent_tiles]
/// The tail of steps 5, 7 and 8: none. Every tile is computed whole, by one block (step 10's
/// SplitKTail cuts the last tiles along K among idle blocks instead).
struct NoTail {
  __device__ int64_t whole_tiles(int64_t tiles) const { return tiles; }
  template <typename Piece>
  __device__ void for_each_piece(int64_t, int64_t, Piece&&) const {}
  __device__ bool add_piece(float (&)[kWgAccumulators], int64_t, int, int64_t, int64_t) const {
    return true;
  }
};

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/**
 * @brief The block of steps 5, 7, 8 and 10: step 4's producer and consumers on a grid that
 *        stays.
 *
 * The block computes the tiles blockIdx.x, blockIdx.x + gridDim.x, ... (in tile_of_block()'s
 * order, in groups of @p kGroup tile rows), one after the other, and its consumer warpgroups
 * hand each tile's accumulators to @p store(d, stages, consumer, row0, col0): warpgroup
 * consumer's 64 rows of the tile, whose first element is C(row0, col0). Tiles from
 * @p tail.whole_tiles() on are left to the tail: step 10's pieces of them, the steps of K
 * @p tail.for_each_piece() hands this block, each summed up by @p tail.add_piece().
 *
 * What changed from wgmma_warp_specialized: a block no longer ends with its tile. Its stage
 * ring runs on from one tile to the next (each side's RingPosition, and so each stage's round
 * and parity, is carried over, never reset), and the consumers release every stage they use,
 * the last one of a tile included. So the producer, which waits only for empty stages, starts
 * copying the next tile's first steps while the consumers still multiply the last steps of
 * this one and store its accumulators to C. One tile's epilogue and the next one's pipeline
 * fill overlap, and no block is launched, nor its barriers set up, more than once per SM.
 */
template <int64_t kGroup = chapter07::kGroupRows, typename Store, typename Tail = NoTail>
__device__ inline void persistent_tiles(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                        int64_t m, int64_t n, int64_t k, Store&& store,
                                        const Tail& tail = {}) {
  extern __shared__ unsigned char dynamic_shared[];
  __shared__ uint64_t full[kWgStages];   // the stage's copies have landed
  __shared__ uint64_t empty[kWgStages];  // every consumer warp is done with the stage
  const WgmmaStages stages = wgmma_stages(dynamic_shared);
  const int64_t tile_rows = m / kWgBlockM, tile_cols = tutorial::ceil_div(n, kWgBlockN);
  const int64_t tiles = tile_rows * tile_cols, steps = k / kWgDepth;
  const int64_t whole = tail.whole_tiles(tiles);

  if (threadIdx.x == 0) init_stage_barriers(full, empty);
  __syncthreads();

  // Both sides walk the same tiles with the same steps, so their ring positions agree, tile
  // after tile, without telling each other.
  const int warpgroup = threadIdx.x / kWarpgroupThreads;
  RingPosition ring;  // each side's own, carried from tile to tile
  if (warpgroup == 0) {
    release_registers<kProducerRegisters>();
    if (threadIdx.x == 0) {
      for (int64_t t = blockIdx.x; t < whole; t += gridDim.x) {
        const chapter07::TilePosition tile =
            chapter07::tile_of_block<kGroup>(t, tile_rows, tile_cols);
        produce_tile(stages, full, empty, &a_map, &b_map, steps, tile.row * kWgBlockM,
                     tile.col * kWgBlockN, ring);
      }
      tail.for_each_piece(tiles, steps, [&](int64_t t, int64_t first_step, int64_t piece_steps) {
        const chapter07::TilePosition tile =
            chapter07::tile_of_block<kGroup>(t, tile_rows, tile_cols);
        produce_tile(stages, full, empty, &a_map, &b_map, piece_steps, tile.row * kWgBlockM,
                     tile.col * kWgBlockN, ring, first_step);
      });
    }
  } else {
    claim_registers<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const uint32_t a_rows = consumer * kWgConsumerABytes;  // this warpgroup's 64 rows of A
    for (int64_t t = blockIdx.x; t < whole; t += gridDim.x) {
      const chapter07::TilePosition tile =
          chapter07::tile_of_block<kGroup>(t, tile_rows, tile_cols);
      float d[kWgAccumulators] = {};  // every tile starts from zero
      consume_tile(d, stages, full, empty, a_rows, steps, ring);
      store(d, stages, consumer, tile.row * kWgBlockM + 64 * consumer, tile.col * kWgBlockN);
    }
    tail.for_each_piece(tiles, steps, [&](int64_t t, int64_t, int64_t piece_steps) {
      const chapter07::TilePosition tile =
          chapter07::tile_of_block<kGroup>(t, tile_rows, tile_cols);
      float d[kWgAccumulators] = {};
      consume_tile(d, stages, full, empty, a_rows, piece_steps, ring);
      // The piece that completes the tile gets the whole sum back in d, and stores it.
      if (tail.add_piece(d, t - whole, consumer, piece_steps, steps)) {
        store(d, stages, consumer, tile.row * kWgBlockM + 64 * consumer, tile.col * kWgBlockN);
      }
    });
  }
}
#endif
//! [persistent_tiles]

//! [matmul_wgmma_persistent]
/**
 * @brief C = A * B with persistent_tiles(), each consumer storing its accumulators from its
 *        registers (store_warpgroup_tile(), as steps 3 and 4 store).
 * @pre as matmul_wgmma_warp_specialized, with persistent_blocks(m, n, SMs) blocks.
 */
__device__ void matmul_wgmma_persistent(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                        float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  persistent_tiles(a_map, b_map, m, n, k,
                   [&](float(&d)[kWgAccumulators], const WgmmaStages&, int, int64_t row0,
                       int64_t col0) { store_warpgroup_tile(d, c, n, row0, col0); });
#endif
}
//! [matmul_wgmma_persistent]

/// matmul_wgmma_persistent as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh): the tensor maps become __grid_constant__ parameters of that
/// kernel; one block an SM.
inline constexpr auto persistent_kernel =
    tutorial::clocked_kernel<matmul_wgmma_persistent, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
