/**
 * @file chapters/10_tensor_cores/split_k_tail_kernel.cuh
 * @brief Step 10 of chapter 10: step 8's block with a split-K tail. Where the last wave of
 *        tiles would leave most SMs idle, every SM takes whole tiles for the full waves, and
 *        each tile left over is cut along K into a few pieces for as many idle SMs; the pieces
 *        meet in a float workspace, and the block that adds the last one stores the tile
 *        (sm_90a only).
 */
#pragma once

#include <cuda.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>

#include "persistent_kernel.cuh"
#include "square_waves_kernel.cuh"
#include "tma_store.cuh"
#include "tma_store_kernel.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

//! [split_k_tail_grid]
/**
 * What cutting costs, in steps of K (a step of a large product takes 0.6-0.7 us on an H100),
 * fitted to the page's runs (section 10): a fixed part, the round trip of a tile through the
 * workspace (at 67 x 45 x 33, one tile of 2 steps, cutting it in two took 4.6 us more than not
 * cutting it), and a part for each piece of a tile, since a tile's pieces finish together and
 * add into the same 128 KiB (at 5120^3 and 256 x 256 x 8192).
 */
constexpr double kSplitCostSteps = 7, kPieceCostSteps = 0.3;

/// Step 10's grid: @p blocks blocks, each computing tiles blockIdx.x, blockIdx.x + blocks, ...
/// below @p whole_tiles whole; then the tiles from there on, in @p pieces pieces along K each,
/// one piece a block (blocks 0 to pieces x the tiles left - 1).
struct SplitKTailGrid {
  int64_t blocks;
  int64_t whole_tiles;
  int64_t pieces;
};

/// The time of the last wave, in steps of K, with each tile left of @p steps steps cut into
/// @p pieces: the longest piece, the trip through the workspace, what each piece of a tile adds.
inline double split_tail_steps(int64_t steps, int64_t pieces) {
  return double(tutorial::ceil_div(steps, pieces)) + kSplitCostSteps +
         kPieceCostSteps * double(pieces);
}

/**
 * @brief Step 10's grid for @p tiles tiles of @p steps steps of K on @p sm_count SMs: the
 *        pieces that make the last wave shortest by split_tail_steps(), if fewer than one
 *        whole tile's steps; else step 8's grid, every tile whole.
 *
 * 5120^3 is 800 tiles of 80 steps: 6 full waves of 132 and 8 tiles left, which step 8 spreads
 * as 7 waves on 115 blocks. Cut into 16 pieces of 5 steps each, the 8 tiles keep 128 SMs busy
 * for 5 steps (and 7 + 4.8 of adding up), not 80. At 8192^3, 68 tiles are left: two pieces each
 * would take 136 SMs, so none is cut.
 */
inline SplitKTailGrid split_k_tail_grid(int64_t tiles, int64_t steps, int sm_count) {
  const int64_t left = tiles % sm_count;
  SplitKTailGrid best{balanced_grid(tiles, sm_count), tiles, 1};
  double best_steps = double(steps);  // the last wave of whole tiles
  for (int64_t pieces = 2; left > 0 && pieces * left <= sm_count && pieces <= steps; ++pieces) {
    const double last_wave = split_tail_steps(steps, pieces);
    if (last_wave < best_steps) {
      // The full waves need every SM; with none, the pieces need only their blocks.
      best = {tiles > left ? sm_count : left * pieces, tiles - left, pieces};
      best_steps = last_wave;
    }
  }
  return best;
}
//! [split_k_tail_grid]

/// The steps [first_step, first_step + steps) of K of tile number tile (tile_of_block()'s order).
struct TilePiece {
  int64_t tile, first_step, steps;
};

/// Piece @p piece of the split tiles, numbered tile by tile: part piece % @p pieces of tile
/// @p whole + piece / pieces, each part steps [part x @p steps / pieces, (part + 1) x steps /
/// pieces): the same number, give or take one, and every step in exactly one part.
__host__ __device__ inline TilePiece split_piece(int64_t piece, int64_t whole, int64_t pieces,
                                                 int64_t steps) {
  const int64_t part = piece % pieces;
  const int64_t first = part * steps / pieces, end = (part + 1) * steps / pieces;
  return {whole + piece / pieces, first, end - first};
}

/// The workspace's floats for one split tile: both consumers' 64 x 256 accumulators.
constexpr int64_t kTileFloats = int64_t(kWgBlockM) * kWgBlockN;
/// A consumer warpgroup's part of a slot, in float4: 128 threads' kWgAccumulators floats.
constexpr int64_t kConsumerFloat4s = kWarpgroupThreads * kWgAccumulators / 4;
static_assert(kConsumerFloat4s * 4 * kConsumerWarpgroups == kTileFloats, "the slot is the tile");

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
//! [split_k_tail]
/**
 * @brief Step 10's tail, as persistent_tiles() takes it: the tiles from whole on are cut into
 *        @p pieces pieces along K each, one for each of the first blocks, and summed in
 *        @p partials.
 *
 * Each split tile has a slot in partials (kTileFloats floats, zero between launches) and,
 * for each consumer warpgroup, a count in @p steps_done of the steps added into its half.
 * A consumer adds its piece (atomicAdd, 16 bytes at a time), then one thread adds the piece's
 * steps to the count. The piece that brings the count to all of K's steps is the last: its
 * warpgroup reads the sum back, zeroes the slot and the count for the next launch, and stores
 * the tile. Chapter 08's ticket (last_block_reduce.cuh), with atomics into one slot where
 * chapter 08 keeps a partial per block: no block waits for another.
 */
struct SplitKTail {
  int64_t whole;     // tiles [0, whole) are whole, [whole, tiles) in pieces
  int64_t pieces;    // pieces a split tile
  float4* partials;  // kTileFloats / 4 a split tile
  int* steps_done;   // kConsumerWarpgroups a split tile
  __device__ int64_t whole_tiles(int64_t) const { return whole; }

  /// Calls @p piece(tile, first_step, steps) for this block's piece, split_piece(blockIdx.x),
  /// if it has one.
  template <typename Piece>
  __device__ void for_each_piece(int64_t tiles, int64_t steps, Piece&& piece) const {
    if (int64_t(blockIdx.x) >= (tiles - whole) * pieces) return;
    const TilePiece mine = split_piece(blockIdx.x, whole, pieces, steps);
    piece(mine.tile, mine.first_step, mine.steps);
  }

  /// Consumer warpgroup @p consumer adds @p d, its sum over @p piece_steps of the @p steps
  /// steps of split tile @p slot (tile whole + slot). Returns whether the tile is complete: then
  /// d holds its whole sum.
  __device__ bool add_piece(float (&d)[kWgAccumulators], int64_t slot, int consumer,
                            int64_t piece_steps, int64_t steps) const {
    if (piece_steps == steps) return true;  // the whole of K: nothing to meet
    __shared__ int last[kConsumerWarpgroups];
    const int thread = threadIdx.x % kWarpgroupThreads;
    const uint32_t barrier = 1 + consumer;  // this warpgroup's 128 threads, as the store's
    // Thread t's accumulator 4 i to 4 i + 3 at float4 i * 128 + t: a warp's 32 adds are 512
    // contiguous bytes. Any layout would do: each thread reads back the floats it added.
    float4* mine = partials + (slot * kConsumerWarpgroups + consumer) * kConsumerFloat4s + thread;
#pragma unroll
    for (int i = 0; i < kWgAccumulators / 4; ++i) {
      atomicAdd(mine + i * kWarpgroupThreads, {d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]});
    }
    __threadfence();  // this thread's adds, before its warpgroup's count below
    named_barrier_sync<kWarpgroupThreads>(barrier);
    if (thread == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> done(
          steps_done[slot * kConsumerWarpgroups + consumer]);
      const int before = done.fetch_add(int(piece_steps), cuda::memory_order_acq_rel);
      const bool is_last = before + piece_steps == steps;
      if (is_last) done.store(0, cuda::memory_order_relaxed);  // for the next launch
      last[consumer] = is_last;
    }
    named_barrier_sync<kWarpgroupThreads>(barrier);
    if (!last[consumer]) return false;
    __threadfence();  // every piece's adds, before these reads
#pragma unroll
    for (int i = 0; i < kWgAccumulators / 4; ++i) {
      const float4 sum = __ldcg(mine + i * kWarpgroupThreads);  // from L2, where the adds are
      __stcg(mine + i * kWarpgroupThreads, float4{});
      d[4 * i] = sum.x, d[4 * i + 1] = sum.y, d[4 * i + 2] = sum.z, d[4 * i + 3] = sum.w;
    }
    return true;
  }
};
//! [split_k_tail]
#endif

//! [matmul_wgmma_split_k_tail]
/// Step 10: step 8's block (groups of kWaveGroupRows tile rows, C stored by TMA) on
/// split_k_tail_grid()'s grid, its tiles from @p whole_tiles on cut into @p pieces along K.
/// @pre as matmul_wgmma_square_waves, with @p partials and @p steps_done zero for the split
///      tiles (each launch leaves them zero again), and 1 <= @p pieces <= k / kWgDepth.
__device__ void matmul_wgmma_split_k_tail(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                          const CUtensorMap& c_map, int64_t m, int64_t n, int64_t k,
                                          int64_t whole_tiles, int64_t pieces, float4* partials,
                                          int* steps_done) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_store_tiles<kWaveGroupRows>(a_map, b_map, c_map, m, n, k,
                                  SplitKTail{whole_tiles, pieces, partials, steps_done});
#endif
}
//! [matmul_wgmma_split_k_tail]

/// matmul_wgmma_split_k_tail as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh); one block an SM.
inline constexpr auto split_k_tail_kernel =
    tutorial::clocked_kernel<matmul_wgmma_split_k_tail, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
