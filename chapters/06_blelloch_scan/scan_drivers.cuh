/**
 * @file chapters/06_blelloch_scan/scan_drivers.cuh
 * @brief A scan of any length from the tile kernels: scan (or sum) the tiles, scan the tile
 *        totals with the same scheme - recursively, for as many levels as it takes - and put
 *        each tile's offset back.
 */
#pragma once

#include <cstdint>
#include <vector>

#include "scan_kernels.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace chapter06 {

using tutorial::BlockCycleSlots;

/// Tiles of @p tile elements that cover @p n elements.
inline int64_t tile_count(int64_t n, int64_t tile) {
  return (n + tile - 1) / tile;
}

/// Device scratch for every level of the recursion: level 0 holds the totals of the input's
/// tiles and their exclusive scan (the tiles' offsets), level 1 the same for level 0's
/// totals, and so on until one tile holds them all. Allocated once, before any timing.
template <typename Out>
class TileLevels {
 public:
  TileLevels(int64_t n, int64_t tile) {
    for (int64_t count = tile_count(n, tile); count > 1; count = tile_count(count, tile)) {
      totals_.emplace_back(count);
      offsets_.emplace_back(count);
    }
  }
  Out* totals(int level) const { return totals_[level].data(); }
  Out* offsets(int level) const { return offsets_[level].data(); }

 private:
  std::vector<tutorial::DeviceBuffer<Out>> totals_, offsets_;
};

/// Step 1 or 2: the pair-tile kernel, unpadded or padded.
template <bool Padded>
struct PairTiles {
  static constexpr int kTile = kPairTile;
  /// The kernel scan() launches: scan_tile_pairs in the harness's clocked kernel.
  template <typename In, typename Out>
  static constexpr auto kernel =
      tutorial::clocked_kernel<scan_tile_pairs<Padded, In, Out>, kPairThreads>;
  template <typename In, typename Out>
  static void scan(const In* in, int64_t n, Out* out, Out* totals, bool inclusive,
                   BlockCycleSlots slots) {
    kernel<In, Out><<<tile_count(n, kTile), kPairThreads>>>(slots, in, n, out, totals, inclusive);
  }
};

/// Step 3: the coarse-tile kernel.
struct CoarseTiles {
  static constexpr int kTile = kCoarseTile;
  /// The kernel scan() launches, and reduce_then_scan() for its last pass: scan_tile_coarse in
  /// the harness's clocked kernel.
  template <typename In, typename Out>
  static constexpr auto kernel =
      tutorial::clocked_kernel<scan_tile_coarse<In, Out>, kCoarseThreads>;
  template <typename In, typename Out>
  static void scan(const In* in, int64_t n, Out* out, Out* totals, bool inclusive,
                   BlockCycleSlots slots) {
    kernel<In, Out><<<tile_count(n, kTile), kCoarseThreads>>>(
        slots, in, n, out, totals, static_cast<const Out*>(nullptr), inclusive);
  }
};

//! [scan_then_propagate]
/**
 * @brief Steps 1-3 for any n: scan every tile and write its total; scan the totals
 *        (exclusive, so each becomes its tile's offset) by calling itself; add the offsets.
 *
 * Bytes per element: the tile scan reads the input and writes the output, the add-back reads
 * and writes the output again.
 * @param slots cycle recording for the first kernel of level 0 (empty on deeper levels).
 */
template <typename Tiles, typename In, typename Out>
void scan_then_propagate(const In* in, int64_t n, Out* out, bool inclusive,
                         const TileLevels<Out>& levels, int level, BlockCycleSlots slots) {
  const int64_t tiles = tile_count(n, Tiles::kTile);
  if (tiles == 1) {  // one block scans it all: no totals, no offsets
    Tiles::scan(in, n, out, static_cast<Out*>(nullptr), inclusive, slots);
    return;
  }
  Out* totals = levels.totals(level);
  Out* offsets = levels.offsets(level);
  Tiles::scan(in, n, out, totals, inclusive, slots);
  scan_then_propagate<Tiles>(totals, tiles, offsets, false, levels, level + 1, BlockCycleSlots{});
  add_tile_offsets<<<tiles - 1, kAddThreads>>>(out, n, offsets, Tiles::kTile);
}
//! [scan_then_propagate]

//! [reduce_then_scan]
/**
 * @brief Step 4: sum the tiles first (reading only the input), scan the sums by calling
 *        itself, then scan every tile starting from its offset: the output is written once.
 * @param slots cycle recording for the final tile scan of level 0.
 */
template <typename In, typename Out>
void reduce_then_scan(const In* in, int64_t n, Out* out, bool inclusive,
                      const TileLevels<Out>& levels, int level, BlockCycleSlots slots) {
  const int64_t tiles = tile_count(n, kCoarseTile);
  Out* offsets = nullptr;
  if (tiles > 1) {
    Out* totals = levels.totals(level);
    offsets = levels.offsets(level);
    reduce_tiles<<<tiles, kCoarseThreads>>>(in, n, totals);
    reduce_then_scan(totals, tiles, offsets, false, levels, level + 1, BlockCycleSlots{});
  }
  tutorial::clocked_kernel<scan_tile_coarse<In, Out>, kCoarseThreads><<<tiles, kCoarseThreads>>>(
      slots, in, n, out, static_cast<Out*>(nullptr), offsets, inclusive);
}
//! [reduce_then_scan]

}  // namespace chapter06
