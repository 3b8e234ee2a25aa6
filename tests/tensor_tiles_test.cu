// Tests of chapter 10's swizzled shared tiles, on the host: the swizzle keeps each row's
// 16-byte pieces in the row, and neither ldmatrix's reads nor the cp.async writes of the tile
// meet a bank conflict in bank_turns.hpp's model (which Nsight Compute agrees with on the H100:
// tools/explain_check.py). The plain layout does conflict: the test can fail.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "mma_kernel.cuh"
#include "tutorial/bank_turns.hpp"

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

/// The turns beyond the fewest of every ldmatrix.x4 of a tile as matmul_mma issues them (A's
/// pattern: lanes 0-15 rows 0-15 at k, lanes 16-31 the same rows at k + 8), with @p offset
/// giving a (row, k)'s place in the tile.
template <typename Offset>
int ldmatrix_extra_turns(Offset offset) {
  int extra = 0;
  for (int first_row = 0; first_row < kMmaBlockM; first_row += 16) {
    for (int kk = 0; kk < kMmaDepth; kk += 16) {
      std::vector<int> offsets;
      for (int lane = 0; lane < 32; ++lane) {
        offsets.push_back(offset(first_row + lane % 16, kk + (lane / 16) * 8));
      }
      extra += extra_turns(sixteen_byte_access(offsets, false));
    }
  }
  return extra;
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
  EXPECT_EQ(ldmatrix_extra_turns(chapter10::swizzled_offset), 0);
}

TEST(TensorTiles, LdmatrixConflictsWhenPlain) {
  EXPECT_GT(ldmatrix_extra_turns([](int row, int k) { return row * kMmaDepth + k; }), 0);
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
