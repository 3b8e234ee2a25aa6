/**
 * @file chapters/07_tiled_matmul/tile_of_block.cuh
 * @brief Which tile of C a block computes: the order of the tiles over the grid, shared by the
 *        matrix chapters 07, 09 and 10.
 */
#pragma once

#include <cstdint>

namespace chapter07 {

//! [tile_of_block]
/// A tile of C, in tiles: tile (row, col) starts at element (row * height, col * width).
struct TilePosition {
  int64_t row, col;
};

/// Tile rows that consecutive blocks share (the group size of the block swizzle).
constexpr int64_t kGroupRows = 8;

/**
 * @brief The tile of C that block @p block computes, in a grid of tile_rows x tile_cols tiles.
 *
 * Blocks start roughly in index order, so this order decides which tiles are computed at the
 * same time, and so what the L2 cache must hold. Taken row by row, the blocks running at one
 * moment would cover a few tile rows of C and read every tile column of B. Here consecutive
 * blocks walk down a group of kGroupRows tile rows, column by column ("block swizzling"): the
 * blocks running at one moment read kGroupRows tile rows of A and only a few tile columns of
 * B, and more of what they read is still in L2 when the next block needs it. kGroup = 1 walks
 * the tiles row by row, the order without the swizzle (chapter 09 measures both).
 * @pre 0 <= block < tile_rows * tile_cols
 */
template <int64_t kGroup = kGroupRows>
__device__ inline TilePosition tile_of_block(int64_t block, int64_t tile_rows, int64_t tile_cols) {
  const int64_t group_blocks = kGroup * tile_cols;
  const int64_t first_row = block / group_blocks * kGroup;
  const int64_t left = tile_rows - first_row;
  const int64_t rows = left < kGroup ? left : kGroup;  // the last group may be short
  const int64_t in_group = block % group_blocks;
  return {first_row + in_group % rows, in_group / rows};
}
//! [tile_of_block]

}  // namespace chapter07
