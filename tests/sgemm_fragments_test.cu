// Tests of chapter 09's arrangements of threads (BlockGrid, WarpTiles), on the host: which elements
// of the tile of C each thread computes (every element by exactly one thread), and that the 16-byte
// shared loads of a warp's fragments take no more turns than their bytes need (bank_turns.hpp's
// model, which Nsight Compute agrees with on the H100: tools/explain_check.py). No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sgemm_kernels.cuh"
#include "tutorial/explain/bank_turns.hpp"

namespace {

using chapter09::BlockGrid;
using chapter09::Fragments;
using chapter09::kATileStride;
using chapter09::kRowsPerThread;
using chapter09::kThreads;
using chapter09::kTileM;
using chapter09::WarpTiles;
using tutorial::SharedAccessRecord;
using tutorial::WarpAccess;

/// How many threads compute each element of the kTileM x kTileN tile.
template <class Arrangement, int kTileN = Arrangement::kTileN>
std::vector<int> threads_per_element() {
  std::vector<int> count(kTileM * kTileN, 0);
  for (int t = 0; t < kThreads; ++t) {
    const Fragments<kTileN> f = Arrangement::of(t);
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int row = f.rows[i / 4] + i % 4;
      for (int r = 0; r < Fragments<kTileN>::kColRuns; ++r) {
        for (int j = 0; j < 4; ++j) ++count.at(row * kTileN + f.cols[r] + j);
      }
    }
  }
  return count;
}

/// The first element computed by other than exactly one thread, or "" when there is none.
template <class Arrangement, int kTileN = Arrangement::kTileN>
std::string first_uncovered() {
  const std::vector<int> count = threads_per_element<Arrangement>();
  for (int e = 0; e < kTileM * kTileN; ++e) {
    if (count[e] != 1) {
      return "element (" + std::to_string(e / kTileN) + ", " + std::to_string(e % kTileN) +
             ") computed by " + std::to_string(count[e]) + " threads";
    }
  }
  return "";
}

TEST(SgemmFragments, EveryElementOnceChapter07Grid) {
  EXPECT_EQ(first_uncovered<BlockGrid>(), "");
}

TEST(SgemmFragments, EveryElementOnceWarpTilesNarrow) {
  EXPECT_EQ(first_uncovered<WarpTiles<chapter09::kNarrow>>(), "");
}

TEST(SgemmFragments, EveryElementOnceWarpTilesWide) {
  EXPECT_EQ(first_uncovered<WarpTiles<chapter09::kWide>>(), "");
}

/// The 16-byte load each lane of @p warp makes of its fragment's run @p run, from a tile whose
/// rows are @p row_floats long (row p of the tile, any p: every row starts 16-byte aligned).
template <class Arrangement, int kTileN = Arrangement::kTileN>
WarpAccess run_load(int warp, int run, bool of_a, int row_floats, int p) {
  std::vector<SharedAccessRecord> lanes;
  for (int lane = 0; lane < 32; ++lane) {
    const Fragments<kTileN> f = Arrangement::of(warp * 32 + lane);
    SharedAccessRecord r{};
    r.index = p * row_floats + (of_a ? f.rows[run] : f.cols[run]);
    r.address = static_cast<uint32_t>(r.index) * 4;
    r.warp = static_cast<uint8_t>(warp);
    r.lane = static_cast<uint8_t>(lane);
    r.bytes = 16;
    lanes.push_back(r);
  }
  return tutorial::group_warp_accesses(lanes).at(0);
}

/// Turns beyond the fewest, over every warp's loads of A's and B's runs at steps 0 to 7.
template <class Arrangement, int kTileN = Arrangement::kTileN>
int extra_turns() {
  int extra = 0;
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    for (int p = 0; p < 8; ++p) {
      for (int run = 0; run < 2; ++run) {
        const WarpAccess a = run_load<Arrangement>(warp, run, true, kATileStride, p);
        extra += tutorial::bank_turns(a) - tutorial::fewest_turns(a);
      }
      for (int run = 0; run < Fragments<kTileN>::kColRuns; ++run) {
        const WarpAccess b = run_load<Arrangement>(warp, run, false, kTileN, p);
        extra += tutorial::bank_turns(b) - tutorial::fewest_turns(b);
      }
    }
  }
  return extra;
}

TEST(SgemmFragments, WarpTileLoadsWithoutConflicts) {
  EXPECT_EQ(extra_turns<WarpTiles<chapter09::kNarrow>>(), 0);
  EXPECT_EQ(extra_turns<WarpTiles<chapter09::kWide>>(), 0);
  EXPECT_EQ(extra_turns<BlockGrid>(), 0);
}

// sgemm_async copies A one float per lane into the transposed tile: a warp's 32 writes land
// in 32 different banks, whichever warp and copy.
TEST(SgemmFragments, AsyncCopiesOfAWithoutConflicts) {
  constexpr int kDepth = 8;
  int extra = 0;
  for (int e0 = 0; e0 < kTileM * kDepth; e0 += 32) {
    std::vector<SharedAccessRecord> lanes;
    for (int lane = 0; lane < 32; ++lane) {
      const int e = e0 + lane, r = e / kDepth, p = e % kDepth;  // as in sgemm_async
      SharedAccessRecord rec{};
      rec.index = p * kATileStride + r;
      rec.address = static_cast<uint32_t>(rec.index) * 4;
      rec.lane = static_cast<uint8_t>(lane);
      rec.bytes = 4;
      rec.store = 1;
      lanes.push_back(rec);
    }
    const WarpAccess access = tutorial::group_warp_accesses(lanes).at(0);
    extra += tutorial::bank_turns(access) - tutorial::fewest_turns(access);
  }
  EXPECT_EQ(extra, 0);
}

// The test can fail: a warp tile whose lanes of one row are 4 floats apart instead of
// neighbouring float4 is caught by the model (a hand-made access, 8 lanes 32 floats apart).
TEST(SgemmFragments, ModelSeesAConflict) {
  std::vector<SharedAccessRecord> lanes;
  for (int lane = 0; lane < 8; ++lane) {
    SharedAccessRecord r{};
    r.index = lane * 32;
    r.address = static_cast<uint32_t>(r.index) * 4;
    r.lane = static_cast<uint8_t>(lane);
    r.bytes = 16;
    lanes.push_back(r);
  }
  const WarpAccess access = tutorial::group_warp_accesses(lanes).at(0);
  EXPECT_GT(tutorial::bank_turns(access), tutorial::fewest_turns(access));
}

}  // namespace
