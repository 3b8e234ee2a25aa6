// Tests of chapter 10's swizzled shared tiles, on the host: the swizzle keeps each row's
// 16-byte pieces in the row, and neither ldmatrix's reads nor the cp.async writes of the tile
// meet a bank conflict in bank_turns.hpp's model (which Nsight Compute agrees with on the H100:
// tools/explain_check.py). The plain layout does conflict: the test can fail.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "mma_kernel.cuh"
#include "tutorial/explain/bank_turns.hpp"

namespace {

using chapter10::kChunksPerRow;
using chapter10::kMmaBlockM;
using chapter10::kMmaDepth;
using chapter10::kMmaThreads;
using tutorial::SharedAccessRecord;
using tutorial::WarpAccess;

/// A warp access of 16 bytes a lane at the given BF16 offsets (one per lane, in lane order).
WarpAccess sixteen_byte_access(const std::vector<int>& offsets, bool store) {
  std::vector<SharedAccessRecord> lanes;
  for (size_t lane = 0; lane < offsets.size(); ++lane) {
    SharedAccessRecord r{};
    r.index = offsets[lane];
    r.address = static_cast<uint32_t>(offsets[lane]) * 2;  // BF16: 2 bytes
    r.lane = static_cast<uint8_t>(lane);
    r.bytes = 16;
    r.store = store;
    lanes.push_back(r);
  }
  return tutorial::group_warp_accesses(lanes).at(0);
}

int extra_turns(const WarpAccess& access) {
  return tutorial::bank_turns(access) - tutorial::fewest_turns(access);
}

/// Lane l of an ldmatrix.x4 of A's tile (as matmul_mma issues it): rows 0-15 of a 16-row
/// tile at k for lanes 0-15, the same rows at k + 8 for lanes 16-31.
struct ALanes {
  static int row(int lane) { return lane % 16; }
  static int k(int lane) { return (lane / 16) * 8; }
};
/// Lane l of an ldmatrix.x4 of B's tile: two 8-column tiles of B (rows of b_cols), each at k
/// and at k + 8.
struct BLanes {
  static int row(int lane) { return (lane / 16) * 8 + lane % 8; }
  static int k(int lane) { return ((lane / 8) % 2) * 8; }
};

/// The turns beyond the fewest of every ldmatrix.x4 of a tile with Lanes' pattern, with
/// @p offset giving a (row, k)'s place in the tile.
template <typename Lanes, typename Offset>
int ldmatrix_extra_turns(Offset offset) {
  int extra = 0;
  for (int first_row = 0; first_row < kMmaBlockM; first_row += 16) {
    for (int kk = 0; kk < kMmaDepth; kk += 16) {
      std::vector<int> offsets;
      for (int lane = 0; lane < 32; ++lane) {
        offsets.push_back(offset(first_row + Lanes::row(lane), kk + Lanes::k(lane)));
      }
      extra += extra_turns(sixteen_byte_access(offsets, false));
    }
  }
  return extra;
}

/// A tile stored without the swizzle.
int plain_offset(int row, int k) {
  return row * kMmaDepth + k;
}

TEST(TensorTiles, SwizzleKeepsEachRowsPieces) {
  for (int row = 0; row < kMmaBlockM; ++row) {
    std::set<int> pieces;
    for (int chunk = 0; chunk < kChunksPerRow; ++chunk) {
      pieces.insert(chapter10::swizzled_chunk(row, chunk));
    }
    EXPECT_EQ(pieces, (std::set<int>{0, 1, 2, 3})) << "row " << row;
  }
}

TEST(TensorTiles, LdmatrixWithoutConflictsWhenSwizzled) {
  EXPECT_EQ(ldmatrix_extra_turns<ALanes>(chapter10::swizzled_offset), 0);
  EXPECT_EQ(ldmatrix_extra_turns<BLanes>(chapter10::swizzled_offset), 0);
}

TEST(TensorTiles, LdmatrixConflictsWhenPlain) {
  EXPECT_GT(ldmatrix_extra_turns<ALanes>(plain_offset), 0);
  EXPECT_GT(ldmatrix_extra_turns<BLanes>(plain_offset), 0);
}

TEST(TensorTiles, AsyncCopiesWithoutConflicts) {
  int extra = 0;
  for (int first = 0; first < kMmaBlockM * kChunksPerRow; first += 32) {
    std::vector<int> offsets;
    for (int lane = 0; lane < 32; ++lane) {  // as matmul_mma's copy_tiles
      const int e = first + lane, r = e / kChunksPerRow, piece = e % kChunksPerRow;
      offsets.push_back(r * kMmaDepth + chapter10::swizzled_chunk(r, piece) * 8);
    }
    extra += extra_turns(sixteen_byte_access(offsets, true));
  }
  EXPECT_EQ(extra, 0);
  static_assert(kMmaBlockM * kChunksPerRow % kMmaThreads == 0, "whole pieces per thread");
}

}  // namespace
