// Checker of exercise 10.7, on the host: wave_blocks's grid for every number of tiles up to 5000
// and a few larger ones, on 6 numbers of SMs; then wave_group_rows's group for grids of 1 x 1 to
// 64 x 64 tiles (many of them not a multiple of the group), 4 tile shapes, the same 6 numbers of
// SMs and two grids each (wave_blocks's and a block per SM), against the least that any group
// reads, found by trying them all.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"

namespace {

using tutorial::expect;

/// The numbers of SMs the checker tries: an H100 SXM's, an H100 PCIe's, an A100's, and three
/// others.
constexpr int64_t kSmCounts[] = {132, 114, 108, 78, 16, 1};

constexpr int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// The waves of a grid of @p blocks blocks for @p tiles tiles.
constexpr int64_t waves_of(int64_t tiles, int64_t blocks) {
  return ceil_div(tiles, blocks);
}

/// Expects wave_blocks(tiles, sms) to be a grid of at most min(tiles, sms) blocks that takes the
/// fewest waves, and the smallest such grid.
void expect_wave_blocks(int64_t tiles, int64_t sms) {
  const int64_t blocks = exercise10::wave_blocks(tiles, sms);
  const std::string call = "wave_blocks(" + std::to_string(tiles) + ", " + std::to_string(sms) +
                           ") = " + std::to_string(blocks);
  const int64_t most = std::min(tiles, sms);
  expect(blocks >= 1 && blocks <= most, call + ": a grid for " + std::to_string(tiles) +
                                            " tiles on " + std::to_string(sms) + " SMs has 1 to " +
                                            std::to_string(most) + " blocks");
  const int64_t fewest = waves_of(tiles, most);
  expect(waves_of(tiles, blocks) == fewest, call + ": " + std::to_string(blocks) + " blocks take " +
                                                std::to_string(waves_of(tiles, blocks)) +
                                                " waves, where " + std::to_string(most) + " take " +
                                                std::to_string(fewest));
  expect(blocks == 1 || waves_of(tiles, blocks - 1) > fewest,
         call + ": " + std::to_string(ceil_div(tiles, fewest)) + " blocks take as few waves (" +
             std::to_string(fewest) + "); the grid should be the smallest that does");
}

/// A tile of C, in tiles.
struct Tile {
  int64_t row, col;
};

/// Tile @p t of chapter07::tile_of_block's order with groups of @p group tile rows: down the
/// group's rows (fewer in the last group), then on to the next column. The chapter's function
/// takes its group as a template argument, a constant of each kernel, and is device code; the
/// checker tries every group at run time, so it walks the same order here.
Tile tile_in_order(int64_t t, int64_t tile_rows, int64_t tile_cols, int64_t group) {
  const int64_t first_row = t / (group * tile_cols) * group;
  const int64_t rows = std::min(group, tile_rows - first_row);
  const int64_t in_group = t % (group * tile_cols);
  return {first_row + in_group % rows, in_group / rows};
}

/// What the waves read with groups of @p group tile rows: the tile rows of A and tile columns of
/// B each wave touches, summed over the waves (each tile row is tile_h rows of A, each tile
/// column tile_w columns of B, K values each).
struct WavesRead {
  int64_t tile_rows_read = 0, tile_cols_read = 0, waves = 0;

  /// Rows of A and columns of B read, for tiles of @p tile_h x @p tile_w.
  int64_t rows_and_columns(int64_t tile_h, int64_t tile_w) const {
    return tile_rows_read * tile_h + tile_cols_read * tile_w;
  }

  /// "3712 rows of A and columns of B (10 tile rows, 19 tile columns)"
  std::string describe(int64_t tile_h, int64_t tile_w) const {
    return std::to_string(rows_and_columns(tile_h, tile_w)) + " rows of A and columns of B (" +
           std::to_string(tile_rows_read) + " tile rows, " + std::to_string(tile_cols_read) +
           " tile columns)";
  }
};

WavesRead waves_read(int64_t tile_rows, int64_t tile_cols, int64_t blocks, int64_t group) {
  std::vector<int64_t> row_wave(tile_rows, -1), col_wave(tile_cols, -1);  // last wave to touch
  WavesRead read;
  const int64_t tiles = tile_rows * tile_cols;
  read.waves = waves_of(tiles, blocks);
  for (int64_t t = 0; t < tiles; ++t) {
    const Tile tile = tile_in_order(t, tile_rows, tile_cols, group);
    const int64_t wave = t / blocks;
    if (row_wave[tile.row] != wave) row_wave[tile.row] = wave, ++read.tile_rows_read;
    if (col_wave[tile.col] != wave) col_wave[tile.col] = wave, ++read.tile_cols_read;
  }
  return read;
}

/// A grid of tiles and its blocks, with what every group from 1 to tile_rows reads.
struct Grid {
  int64_t tile_rows, tile_cols, sms, blocks;
  std::string blocks_from;          // "wave_blocks's grid" or "a block per SM"
  std::vector<WavesRead> by_group;  // [g - 1]: groups of g tile rows

  std::string describe(int64_t tile_h, int64_t tile_w) const {
    return "tiles of " + std::to_string(tile_h) + " x " + std::to_string(tile_w) + ", a grid of " +
           std::to_string(tile_rows) + " x " + std::to_string(tile_cols) + " tiles, " +
           std::to_string(blocks) + " blocks (" + blocks_from + " on " + std::to_string(sms) +
           " SMs)";
  }
};

/// Expects wave_group_rows's group for @p grid and tiles of @p tile_h x @p tile_w to read as
/// little as the best group. A group past tile_rows is taken as tile_rows: the same order.
void expect_group(const Grid& grid, int64_t tile_h, int64_t tile_w) {
  const int64_t group =
      exercise10::wave_group_rows(grid.tile_rows, grid.tile_cols, grid.blocks, tile_h, tile_w);
  const std::string call =
      grid.describe(tile_h, tile_w) + ": wave_group_rows gives " + std::to_string(group);
  expect(group >= 1, call + ", where a group has at least 1 tile row");
  int64_t best = 1;
  for (int64_t g = 2; g <= grid.tile_rows; ++g) {
    if (grid.by_group[g - 1].rows_and_columns(tile_h, tile_w) <
        grid.by_group[best - 1].rows_and_columns(tile_h, tile_w)) {
      best = g;
    }
  }
  const WavesRead& got = grid.by_group[std::min(group, grid.tile_rows) - 1];
  const WavesRead& want = grid.by_group[best - 1];
  expect(got.rows_and_columns(tile_h, tile_w) == want.rows_and_columns(tile_h, tile_w),
         call + ", whose " + std::to_string(got.waves) + " waves read " +
             got.describe(tile_h, tile_w) + "; groups of " + std::to_string(best) + " read " +
             want.describe(tile_h, tile_w) + ", the fewest");
}

/// Expects wave_group_rows to pick a best group for a grid of @p tile_rows x @p tile_cols tiles
/// on @p blocks blocks (@p blocks_from on @p sms SMs), for each tile shape.
void expect_groups(int64_t tile_rows, int64_t tile_cols, int64_t sms, int64_t blocks,
                   const std::string& blocks_from) {
  Grid grid{tile_rows, tile_cols, sms, blocks, blocks_from, {}};
  for (int64_t g = 1; g <= tile_rows; ++g) {
    grid.by_group.push_back(waves_read(tile_rows, tile_cols, blocks, g));
  }
  // Rows x columns of C: chapter 10's 128 x 256 first.
  for (const auto& shape :
       {std::pair<int64_t, int64_t>{128, 256}, {128, 128}, {256, 128}, {64, 256}}) {
    expect_group(grid, shape.first, shape.second);
  }
}

void check_wave_order(const tutorial::CheckRun&) {
  for (const int64_t sms : kSmCounts) {
    for (int64_t tiles = 1; tiles <= 5000; ++tiles) expect_wave_blocks(tiles, sms);
    for (const int64_t tiles : {8192, 65535, 1 << 20, (1 << 20) + 1}) {
      expect_wave_blocks(tiles, sms);
    }
  }

  // Tile rows of the grid: small numbers, multiples of 8 and 16 and their neighbours (most are
  // not a multiple of the best group); tile columns: fewer of them, so that the checker is quick.
  // Chapter 10's grids of 128 x 256 tiles are among them: 32 x 16 (4096^3), 64 x 32 (8192^3).
  const int64_t row_counts[] = {1,  2,  3,  5,  7,  8,  9,  12, 15, 16, 17,
                                23, 24, 31, 32, 33, 40, 47, 48, 63, 64};
  const int64_t col_counts[] = {1, 2, 5, 8, 13, 16, 17, 24, 32, 33, 64};
  // wave_blocks's grids first, then a block per SM (where that is another grid).
  for (const bool per_sm_grid : {false, true}) {
    for (const int64_t sms : kSmCounts) {
      for (const int64_t tile_rows : row_counts) {
        for (const int64_t tile_cols : col_counts) {
          const int64_t tiles = tile_rows * tile_cols, per_sm = std::min(tiles, sms);
          const int64_t balanced = ceil_div(tiles, waves_of(tiles, per_sm));
          if (!per_sm_grid) {
            expect_groups(tile_rows, tile_cols, sms, balanced, "wave_blocks's grid");
          } else if (per_sm != balanced) {
            expect_groups(tile_rows, tile_cols, sms, per_sm, "a block per SM");
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tutorial::run_exercise(argc, argv, "10.7", "square waves", check_wave_order);
}
