// Exercise 10.7, solved: the grid of a persistent GEMM and the group size of its order of tiles,
// chosen so that its waves read the fewest bytes.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "exercise.hpp"

namespace exercise10 {

namespace {

constexpr int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// What the waves of @p blocks tiles read in all, their tiles in tile_of_block's order with
/// groups of @p group tile rows: in each wave, tile_h rows of A for each tile row it touches and
/// tile_w columns of B for each tile column, K values each.
int64_t rows_and_columns_read(int64_t tile_rows, int64_t tile_cols, int64_t blocks, int64_t group,
                              int64_t tile_h, int64_t tile_w) {
  // The last wave that touched each tile row and tile column: a wave counts each only once.
  std::vector<int64_t> row_wave(tile_rows, -1), col_wave(tile_cols, -1);
  int64_t read = 0;
  for (int64_t t = 0; t < tile_rows * tile_cols; ++t) {
    // Tile t of tile_of_block's order (chapter 07), its group a number known at run time: down
    // the group's rows (fewer in the last group), then on to the next column.
    const int64_t first_row = t / (group * tile_cols) * group;
    const int64_t rows = std::min(group, tile_rows - first_row);
    const int64_t in_group = t % (group * tile_cols);
    const int64_t row = first_row + in_group % rows, col = in_group / rows;
    const int64_t wave = t / blocks;
    if (row_wave[row] != wave) row_wave[row] = wave, read += tile_h;
    if (col_wave[col] != wave) col_wave[col] = wave, read += tile_w;
  }
  return read;
}

}  // namespace

int64_t wave_blocks(int64_t tiles, int64_t sms) {
  // The fewest waves: a block on every SM. As many waves take only ceil(tiles / waves) blocks,
  // each of which computes `waves` tiles or one fewer: no block computes more tiles than on a
  // block per SM, so nothing is lost, and each wave is a set of fewer tiles for the group to
  // shape.
  const int64_t waves = ceil_div(tiles, sms);
  return ceil_div(tiles, waves);
}

int64_t wave_group_rows(int64_t tile_rows, int64_t tile_cols, int64_t blocks, int64_t tile_h,
                        int64_t tile_w) {
  // Every group from 1 to tile_rows (a larger one walks the same order as tile_rows), counted:
  // tile_rows passes over the tiles, 64 x 4096 steps for a grid of 64 x 64 tiles, quick on the
  // host. Of groups that read as little, the smallest.
  int64_t best = 1;
  int64_t best_read = rows_and_columns_read(tile_rows, tile_cols, blocks, 1, tile_h, tile_w);
  for (int64_t group = 2; group <= tile_rows; ++group) {
    const int64_t read = rows_and_columns_read(tile_rows, tile_cols, blocks, group, tile_h, tile_w);
    if (read < best_read) best = group, best_read = read;
  }
  return best;
}

}  // namespace exercise10
