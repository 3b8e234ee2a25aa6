// Tests of chapter 10's step 10 schedule, on the host: split_k_tail_grid() cuts only a last wave
// that is worth cutting and never asks for more blocks than SMs, and split_piece() hands every
// step of every split tile to exactly one block.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "split_k_tail_kernel.cuh"

namespace {

using chapter10::split_k_tail_grid;
using chapter10::split_piece;
using chapter10::SplitKTailGrid;
using chapter10::TilePiece;

constexpr int kH100Sms = 132;

/// Tiles of 128 x 256 and steps of 64 for an m x n x k problem (dimensions multiples of 256).
int64_t tiles_of(int64_t m, int64_t n) {
  return (m / 128) * (n / 256);
}

TEST(SplitKTail, ShapesWithAFullLastWaveStayWhole) {
  // 4096^3: 116 of 132 left; 8192^3: 68 left, and two pieces each would need 136 SMs.
  for (int64_t size : {4096, 8192}) {
    const SplitKTailGrid grid = split_k_tail_grid(tiles_of(size, size), size / 64, kH100Sms);
    EXPECT_EQ(grid.whole_tiles, tiles_of(size, size)) << size;
    EXPECT_EQ(grid.pieces, 1) << size;
    EXPECT_EQ(grid.blocks, 128) << size;  // step 8's grid
  }
}

TEST(SplitKTail, ShortTilesStayWhole) {
  // One tile of 2 steps (67 x 45 x 33, padded): two pieces of one step cost more than the tile.
  const SplitKTailGrid grid = split_k_tail_grid(1, 2, kH100Sms);
  EXPECT_EQ(grid.pieces, 1);
  EXPECT_EQ(grid.blocks, 1);
}

TEST(SplitKTail, AlmostEmptyLastWaveIsCut) {
  // 5120^3: 800 tiles, 6 waves of 132 and 8 left, 80 steps each.
  const SplitKTailGrid grid = split_k_tail_grid(tiles_of(5120, 5120), 80, kH100Sms);
  EXPECT_EQ(grid.blocks, kH100Sms);
  EXPECT_EQ(grid.whole_tiles, 792);
  EXPECT_EQ(grid.pieces, 16);  // 128 blocks of 5 steps
}

TEST(SplitKTail, GridNeverNeedsMoreBlocksThanSms) {
  for (int64_t tiles = 1; tiles <= 3 * kH100Sms; ++tiles) {
    for (int64_t steps : {1, 2, 3, 16, 80, 128}) {
      const SplitKTailGrid grid = split_k_tail_grid(tiles, steps, kH100Sms);
      const int64_t split = tiles - grid.whole_tiles;
      ASSERT_LE(grid.blocks, kH100Sms);
      ASSERT_GE(grid.pieces, 1);
      ASSERT_LE(grid.pieces, steps) << "a piece has at least one step";
      ASSERT_LE(split * grid.pieces, grid.blocks) << "one piece a block";
      ASSERT_EQ(grid.whole_tiles % grid.blocks == 0 || split == 0, true)
          << "whole tiles fill whole waves";
      if (grid.pieces == 1) ASSERT_EQ(split, 0) << tiles << " " << steps;
    }
  }
}

TEST(SplitKTail, PiecesCoverEveryStepOnce) {
  for (int64_t whole : {0, 792}) {
    for (int64_t pieces : {2, 3, 5, 16, 66}) {
      for (int64_t steps : {66, 80, 128, 129}) {
        const int64_t split = 3;
        std::vector<int> covered(size_t(split * steps), 0);
        for (int64_t piece = 0; piece < split * pieces; ++piece) {
          const TilePiece p = split_piece(piece, whole, pieces, steps);
          ASSERT_GE(p.tile, whole);
          ASSERT_LT(p.tile, whole + split);
          ASSERT_GE(p.steps, steps / pieces);
          ASSERT_LE(p.steps, steps / pieces + 1);
          for (int64_t s = p.first_step; s < p.first_step + p.steps; ++s) {
            ++covered[size_t((p.tile - whole) * steps + s)];
          }
        }
        for (size_t i = 0; i < covered.size(); ++i) ASSERT_EQ(covered[i], 1) << i;
      }
    }
  }
}

}  // namespace
