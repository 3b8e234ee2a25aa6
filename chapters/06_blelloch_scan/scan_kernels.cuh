/**
 * @file chapters/06_blelloch_scan/scan_kernels.cuh
 * @brief The kernels of chapter 06: each scans tiles of the input (one tile per block) and
 *        writes or takes the tiles' totals; scan_drivers.cuh strings them into a scan of any
 *        length. The two tile scans are block bodies (__device__), which the drivers launch
 *        in the harness's kernel clocked_blocks, so that their blocks' cycles can be recorded.
 */
#pragma once

#include <cstdint>

#include "blelloch_tree.cuh"

namespace chapter06 {

/// Threads of a pair-tile block; each thread holds two elements, so a tile is 1024 elements.
constexpr int kPairThreads = 512;
constexpr int kPairTile = 2 * kPairThreads;

/// Threads of a coarse-tile block, and the consecutive elements each thread scans serially.
constexpr int kCoarseThreads = 256;
constexpr int kItemsPerThread = 8;
constexpr int kCoarseTile = kCoarseThreads * kItemsPerThread;

/// Threads of the block that adds one tile's offset back.
constexpr int kAddThreads = 256;

//! [scan_tile_pairs]
/**
 * @brief Scans tiles of kPairTile elements, two per thread, with the Blelloch tree.
 *
 * Step 1 (Padded = false) is the textbook tree; step 2 (Padded = true) only changes where
 * element i lives in shared memory (conflict_free_slot), so the up- and down-sweep's strided
 * accesses stop queueing on one bank.
 * @param tile_totals where block b writes the sum of its tile, or null when there is one tile.
 * @pre run by every thread of ceil(n / kPairTile) blocks of kPairThreads threads.
 */
template <bool Padded, typename In, typename Out>
__device__ void scan_tile_pairs(const In* __restrict__ in, int64_t n, Out* __restrict__ out,
                                Out* __restrict__ tile_totals, bool inclusive) {
  __shared__ Out tree[tree_slots<Padded, Out>(kPairTile)];
  const int t = threadIdx.x;
  // Elements t and t + kPairThreads: each half of the block reads one contiguous run, so every
  // warp's loads are coalesced. 64-bit: the tile may start past 2^31.
  const int64_t first = int64_t{blockIdx.x} * kPairTile;
  const int64_t i0 = first + t, i1 = first + t + kPairThreads;
  // Past the end: 0, the identity of +, so the tree itself needs no bounds checks.
  const Out x0 = i0 < n ? Out(in[i0]) : Out(0);
  const Out x1 = i1 < n ? Out(in[i1]) : Out(0);
  tree[tree_slot<Padded, Out>(t)] = x0;
  tree[tree_slot<Padded, Out>(t + kPairThreads)] = x1;

  const Out total = tree_exclusive_scan<Padded>(tree, kPairTile);

  // Exclusive to inclusive in the same pass: add the element itself, still in a register.
  if (i0 < n) out[i0] = tree[tree_slot<Padded, Out>(t)] + (inclusive ? x0 : Out(0));
  if (i1 < n) out[i1] = tree[tree_slot<Padded, Out>(t + kPairThreads)] + (inclusive ? x1 : Out(0));
  if (t == 0 && tile_totals != nullptr) tile_totals[blockIdx.x] = total;
}
//! [scan_tile_pairs]

//! [add_tile_offsets]
/**
 * @brief Adds offsets[b] (the exclusive scan of the tile totals) to every element of tile b.
 * @pre launched with kAddThreads threads and ceil(n / tile) - 1 blocks: block k handles tile
 *      k + 1, since tile 0's offset is 0.
 */
template <typename Out>
__global__ void __launch_bounds__(kAddThreads)
    add_tile_offsets(Out* __restrict__ out, int64_t n, const Out* __restrict__ offsets, int tile) {
  const int64_t tile_index = int64_t{blockIdx.x} + 1;
  const Out offset = offsets[tile_index];
  const int64_t first = tile_index * tile;
  const int64_t end = first + tile < n ? first + tile : n;
  for (int64_t i = first + threadIdx.x; i < end; i += kAddThreads) out[i] += offset;
}
//! [add_tile_offsets]

//! [scan_tile_coarse]
/**
 * @brief Step 3: scans tiles of kCoarseTile elements, kItemsPerThread consecutive elements per
 *        thread: a serial scan in registers, and the Blelloch tree only over the thread sums.
 *
 * The tree is the slow part of steps 1 and 2: 2 log2(tile) barriers for two elements a
 * thread. Here each thread first adds its 8 elements in registers, so the tree has 8 times
 * fewer leaves per element and its barriers are paid once per 2048 elements.
 * @param tile_totals where block b writes the sum of its tile, or null.
 * @param tile_offsets what block b adds to all its results (step 4), or null for none.
 * @pre run by every thread of ceil(n / kCoarseTile) blocks of kCoarseThreads threads.
 */
template <typename In, typename Out>
__device__ void scan_tile_coarse(const In* __restrict__ in, int64_t n, Out* __restrict__ out,
                                 Out* __restrict__ tile_totals,
                                 const Out* __restrict__ tile_offsets, bool inclusive) {
  __shared__ Out tile[tree_slots<true, Out>(kCoarseTile)];
  __shared__ Out thread_sums[tree_slots<true, Out>(kCoarseThreads)];
  const int t = threadIdx.x;
  const int64_t first = int64_t{blockIdx.x} * kCoarseTile;

  // Load through shared memory: in step j the block reads kCoarseThreads consecutive elements
  // (coalesced), but thread t needs elements 8t .. 8t+7, which it reads back from the tile.
  for (int j = 0; j < kItemsPerThread; ++j) {
    const int k = j * kCoarseThreads + t;
    tile[conflict_free_slot<Out>(k)] = first + k < n ? Out(in[first + k]) : Out(0);
  }
  __syncthreads();
  Out items[kItemsPerThread];
  Out sum = Out(0);
  for (int j = 0; j < kItemsPerThread; ++j) {
    items[j] = tile[conflict_free_slot<Out>(t * kItemsPerThread + j)];
    sum += items[j];
  }
  thread_sums[conflict_free_slot<Out>(t)] = sum;

  const Out total = tree_exclusive_scan<true>(thread_sums, kCoarseThreads);

  // The serial scan of the thread's 8 elements, starting from everything before them.
  Out running = thread_sums[conflict_free_slot<Out>(t)];
  if (tile_offsets != nullptr) running += tile_offsets[blockIdx.x];
  for (int j = 0; j < kItemsPerThread; ++j) {
    const Out before = running;
    running += items[j];
    tile[conflict_free_slot<Out>(t * kItemsPerThread + j)] = inclusive ? running : before;
  }
  __syncthreads();  // the coalesced store reads other threads' results
  for (int j = 0; j < kItemsPerThread; ++j) {
    const int k = j * kCoarseThreads + t;
    if (first + k < n) out[first + k] = tile[conflict_free_slot<Out>(k)];
  }
  if (t == 0 && tile_totals != nullptr) tile_totals[blockIdx.x] = total;
}
//! [scan_tile_coarse]

//! [reduce_tiles]
/**
 * @brief Step 4, first pass: only the sum of each kCoarseTile tile, from the input alone
 *        (each thread adds 8 coalesced elements, then the up-sweep adds the thread sums).
 * @pre launched with kCoarseThreads threads and ceil(n / kCoarseTile) blocks.
 */
template <typename In, typename Out>
__global__ void __launch_bounds__(kCoarseThreads)
    reduce_tiles(const In* __restrict__ in, int64_t n, Out* __restrict__ tile_totals) {
  __shared__ Out thread_sums[tree_slots<true, Out>(kCoarseThreads)];
  const int t = threadIdx.x;
  const int64_t first = int64_t{blockIdx.x} * kCoarseTile;
  Out sum = Out(0);
  for (int j = 0; j < kItemsPerThread; ++j) {
    const int64_t i = first + j * kCoarseThreads + t;
    if (i < n) sum += Out(in[i]);
  }
  thread_sums[conflict_free_slot<Out>(t)] = sum;
  tree_up_sweep<true>(thread_sums, kCoarseThreads);
  if (t == 0) tile_totals[blockIdx.x] = thread_sums[conflict_free_slot<Out>(kCoarseThreads - 1)];
}
//! [reduce_tiles]

}  // namespace chapter06
