/**
 * @file chapters/10_tensor_cores/tma_store_kernel.cuh
 * @brief Step 7 of chapter 10: step 5's persistent pipeline with its epilogue handed to TMA:
 *        the consumers write their accumulators into small swizzled boxes of shared memory,
 *        TMA stores each box to C, and the consumers go on to the next tile's wgmma while the
 *        stores drain (sm_90a only).
 */
#pragma once

#include <cuda.h>

#include <cstdint>

#include "07_tiled_matmul/tile_of_block.cuh"
#include "hopper_ptx.cuh"
#include "persistent_kernel.cuh"
#include "tensor_map.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// A box of C (kCBoxRows x kCBoxCols floats, 8 KiB); a consumer warpgroup's 64 x 256
/// accumulators are kCBoxesPerTile boxes side by side.
constexpr int kCBoxFloats = kCBoxRows * kCBoxCols;
constexpr int kCBoxBytes = kCBoxFloats * int(sizeof(float)), kCBoxesPerTile = kWgBlockN / kCBoxCols;
/// Boxes of shared memory each consumer warpgroup writes in turn: box b goes to buffer
/// b % kCBuffers, once TMA has read out the box kCBuffers before it. Two is what fits beside
/// the 4 stages (192 KiB, and 1 KiB to align them) in a block's 227 KiB.
constexpr int kCBuffers = 2;
/// Dynamic shared memory of step 7: step 5's stages, then each consumer's kCBuffers boxes.
constexpr int kTmaStoreSharedBytes = kWgSharedBytes + kConsumerWarpgroups * kCBuffers * kCBoxBytes;
static_assert(kCBoxBytes % kSwizzleAtomBytes == 0, "each box starts where the swizzle does");
static_assert(kCBoxesPerTile % kCBuffers == 0,
              "a tile's first box reuses the buffer kCBuffers boxes back, across tiles too");
static_assert(kTmaStoreSharedBytes <= 227 * 1024, "an H100 block has 227 KiB of shared memory");

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
//! [write_c_box]
/**
 * @brief The warpgroup writes box @p box of its accumulators (columns kCBoxCols box to
 *        kCBoxCols (box + 1) of its 64 x 256) into the shared box at @p buffer, laid out as
 *        c_tensor_map() says: C's rows i and i + 8 of each 16 at rows 2 i and 2 i + 1, and
 *        row r's 16-byte piece p at piece p ^ (r % 8) (the 128-byte swizzle).
 *
 * Both are there to keep these writes free of bank conflicts. A warp writes 8 rows of 32
 * bytes at once (wgmma's layout, store_warpgroup_tile()), 8 bytes a thread, and shared
 * memory serves such a write half a warp (128 bytes) at a time: 4 rows of 2 pieces, which
 * must land on 8 different pieces of 16 bytes (4 banks each). Unswizzled, every row's pieces
 * are the same two. The swizzle XORs a piece's index with r % 8: rows 0 and 1 then hold the
 * same two pieces, rows 2 and 3 the same two others: 4 of the 8, each twice. With the rows
 * interleaved, a half warp's 4 rows are 2 apart in the box (0, 2, 4, 6 for the first), XORed
 * with 0, 2, 4, 6 (or 1, 3, 5, 7): all 8 pieces.
 */
__device__ inline void write_c_box(const float (&d)[kWgAccumulators], int box, float* buffer) {
  const int warp = (threadIdx.x % kWarpgroupThreads) / 32, lane = threadIdx.x % 32;
  const int row = 16 * warp + 2 * (lane / 4);  // C's row lane / 4 of the warp's 16; + 1: row + 8
#pragma unroll
  for (int j4 = 0; j4 < kCBoxCols / 8; ++j4) {  // the 8-column pieces of wgmma's layout
    const int j = box * (kCBoxCols / 8) + j4;
    const int piece = (8 * j4 + 2 * (lane % 4)) / 4;  // 16-byte piece of the row...
    const int within = 2 * (lane % 2);                // ... and the float in it
#pragma unroll
    for (int h = 0; h < 2; ++h) {  // C's row, then the row 8 below it
      const int r = row + h, col = 4 * (piece ^ (r % 8)) + within;
      *reinterpret_cast<float2*>(&buffer[r * kCBoxCols + col]) = {d[4 * j + 2 * h],
                                                                  d[4 * j + 2 * h + 1]};
    }
  }
}
//! [write_c_box]

//! [store_tile_by_tma]
/**
 * @brief The consumer warpgroup @p consumer stores its 64 x 256 accumulators to C at (@p row0,
 *        @p col0) through its kCBuffers shared boxes at @p buffers: box after box, it waits
 *        until TMA has read the box that last used the buffer, writes the box, and its first
 *        thread hands it to TMA (a store in a bulk group of its own). Returns as soon as the
 *        last box is handed over: TMA writes C while the warpgroup multiplies the next tile.
 *
 * The first thread issues, commits and waits for every store, because bulk groups are a
 * thread's own. The named barrier (1 + consumer, this warpgroup's 128 threads) passes its
 * word on: before the writes, "the buffer is free"; after them (and each writer's proxy
 * fence), "the box is whole". Boxes wholly past C's n columns are not stored.
 */
__device__ inline void store_tile_by_tma(const float (&d)[kWgAccumulators], float* buffers,
                                         const CUtensorMap* c_map, int consumer, int64_t n,
                                         int64_t row0, int64_t col0) {
  const bool issuer = threadIdx.x % kWarpgroupThreads == 0;
  const uint32_t barrier = 1 + consumer;
#pragma unroll  // d is indexed by box: unrolled, it stays in registers
  for (int box = 0; box < kCBoxesPerTile; ++box) {
    float* buffer = buffers + (box % kCBuffers) * kCBoxFloats;
    if (issuer) tma_store_wait_read<kCBuffers - 1>();  // the box kCBuffers ago is read out
    named_barrier_sync<kWarpgroupThreads>(barrier);
    write_c_box(d, box, buffer);
    fence_shared_for_tma();
    named_barrier_sync<kWarpgroupThreads>(barrier);
    if (issuer) {
      const int64_t col = col0 + box * kCBoxCols;
      const int32_t box_start[4] = {int32_t(col), 0, 0, int32_t(row0 / 16)};
      if (col < n) tma_store_4d(c_map, box_start, buffer);
      tma_store_commit();  // one group a box, stored or not, so the count above holds
    }
  }
}
//! [store_tile_by_tma]

//! [store_by_tma]
/**
 * @brief The epilogue of steps 7 to 9, as persistent_tiles() and cluster_tiles() call it: the
 *        consumer warpgroup stores its tile with store_tile_by_tma() through its own kCBuffers
 *        boxes of shared memory, after the stages (1024-byte aligned, as they are).
 */
struct StoreByTma {
  const CUtensorMap* c_map;  // c_tensor_map(C, m, n)
  int64_t n;

  __device__ void operator()(float (&d)[kWgAccumulators], const WgmmaStages& stages, int consumer,
                             int64_t row0, int64_t col0) const {
    float* const buffers =
        reinterpret_cast<float*>(stages.tiles + kWgStages) + consumer * kCBuffers * kCBoxFloats;
    store_tile_by_tma(d, buffers, c_map, consumer, n, row0, col0);
  }

  /// Before the block ends: each consumer's issuing thread waits until its last stores are
  /// complete, so that no store still reads the block's shared memory when the next block
  /// gets it.
  __device__ static void finish() {
    const bool issuer = threadIdx.x >= kWarpgroupThreads && threadIdx.x % kWarpgroupThreads == 0;
    if (issuer) tma_store_wait_all();
  }
};
//! [store_by_tma]
#endif

//! [matmul_wgmma_tma_store]
/**
 * @brief The block of steps 7, 8 and 10: C = A * B with step 5's persistent producer and
 *        consumers (persistent_tiles(), its tiles in groups of @p kGroup tile rows, and step
 *        10's @p tail), storing C through TMA.
 *
 * What changed from wgmma_persistent: the consumers no longer write C from their registers to
 * global memory (64 stores of 8 bytes a thread, during which nothing multiplies: a copy of
 * step 5 that skips them took 11-12% less time). Each consumer warpgroup writes its accumulators,
 * one 64 x 32 box at a time, into its boxes of shared memory after the stages
 * (store_tile_by_tma()), and one of its threads hands each box to TMA, which copies it to C
 * while the warpgroup already waits for the next tile's first stage. Before its block ends,
 * that thread waits until its last stores are complete.
 * @pre as matmul_wgmma_persistent, with kTmaStoreSharedBytes of dynamic shared memory and
 *      @p c_map from c_tensor_map(C, m, n).
 */
template <int64_t kGroup, typename Tail = NoTail>
__device__ inline void tma_store_tiles(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                       const CUtensorMap& c_map, int64_t m, int64_t n, int64_t k,
                                       const Tail& tail = {}) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  persistent_tiles<kGroup>(a_map, b_map, m, n, k, StoreByTma{&c_map, n}, tail);
  StoreByTma::finish();  // no store still reads this block's shared memory at its end
#endif
}

/// Step 7: tma_store_tiles() in step 5's groups of kGroupRows tile rows, on step 5's grid.
__device__ void matmul_wgmma_tma_store(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                       const CUtensorMap& c_map, int64_t m, int64_t n, int64_t k) {
  tma_store_tiles<chapter07::kGroupRows>(a_map, b_map, c_map, m, n, k);
}
//! [matmul_wgmma_tma_store]

/// matmul_wgmma_tma_store as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh): the three tensor maps become __grid_constant__
/// parameters of that kernel; one block an SM.
inline constexpr auto tma_store_kernel =
    tutorial::clocked_kernel<matmul_wgmma_tma_store, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
