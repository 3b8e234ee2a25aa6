// Tests of the bank model behind --explain (bank_turns.hpp), on hand-made warp accesses whose
// turns can be worked out on paper. Nsight Compute agrees with these rules on the H100
// (tools/explain_check.py); here they are pinned down without a GPU.
#include "tutorial/explain/bank_turns.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using tutorial::SharedAccessRecord;
using tutorial::WarpAccess;

/// A warp access: lane i (for each i in lanes) touches byte address address_of(i).
template <typename Address>
WarpAccess access(const std::vector<int>& lanes, int bytes, bool store, Address address_of,
                  int warp = 0, uint32_t number = 0) {
  std::vector<SharedAccessRecord> records;
  for (int lane : lanes) {
    SharedAccessRecord r{};
    r.warp_access = number;
    r.address = address_of(lane);
    r.index = static_cast<int32_t>(address_of(lane) / bytes);
    r.warp = static_cast<uint8_t>(warp);
    r.lane = static_cast<uint8_t>(lane);
    r.bytes = static_cast<uint8_t>(bytes);
    r.store = store;
    records.push_back(r);
  }
  return tutorial::group_warp_accesses(records).at(0);
}

std::vector<int> lanes_from(int first, int step, int count) {
  std::vector<int> lanes;
  for (int i = 0; i < count; ++i) lanes.push_back(first + i * step);
  return lanes;
}

const std::vector<int> kAllLanes = lanes_from(0, 1, 32);

TEST(BankTurns, ConsecutiveWordsTakeOneTurn) {
  const WarpAccess a = access(kAllLanes, 4, false, [](int lane) { return 4u * lane; });
  EXPECT_EQ(tutorial::bank_turns(a), 1);
  EXPECT_EQ(tutorial::fewest_turns(a), 1);
  EXPECT_EQ(tutorial::bank_map(a), std::string(32, '1'));
}

TEST(BankTurns, OneWordForAllIsABroadcast) {
  const WarpAccess a = access(kAllLanes, 4, false, [](int) { return 64u; });
  EXPECT_EQ(tutorial::bank_turns(a), 1);
}

TEST(BankTurns, StrideOfTwoWordsIsATwoWayConflict) {
  const WarpAccess a = access(kAllLanes, 4, false, [](int lane) { return 8u * lane; });
  EXPECT_EQ(tutorial::bank_turns(a), 2);
  EXPECT_EQ(tutorial::fewest_turns(a), 1);
}

TEST(BankTurns, StrideOf32WordsPutsEveryLaneInOneBank) {
  const WarpAccess a = access(kAllLanes, 4, false, [](int lane) { return 128u * lane; });
  EXPECT_EQ(tutorial::bank_turns(a), 32);
  EXPECT_EQ(tutorial::bank_map(a), "+" + std::string(31, '.'));
}

TEST(BankTurns, EightBytesPerLaneNeedTwoTurnsWithoutConflict) {
  const WarpAccess a = access(kAllLanes, 8, false, [](int lane) { return 8u * lane; });
  EXPECT_EQ(tutorial::bank_turns(a), 2);
  EXPECT_EQ(tutorial::fewest_turns(a), 2);
}

TEST(BankTurns, HalfTheLanesAtEightBytesStride16) {
  // Chapter 03's first tree step: lanes 0, 2, ..., 30 read element 2i + 1 (8 bytes). 32 words
  // fit one turn, but they sit two to a bank: 2 turns for loads, 1 of them a conflict; stores
  // of 8 bytes take a turn per half-warp, so the same pattern stored has no conflict.
  const std::vector<int> even = lanes_from(0, 2, 16);
  const WarpAccess load = access(even, 8, false, [](int lane) { return 8u * (lane + 1); });
  EXPECT_EQ(tutorial::bank_turns(load), 2);
  EXPECT_EQ(tutorial::fewest_turns(load), 1);
  const WarpAccess store = access(even, 8, true, [](int lane) { return 8u * lane; });
  EXPECT_EQ(tutorial::bank_turns(store), 2);
  EXPECT_EQ(tutorial::fewest_turns(store), 2);
}

TEST(BankTurns, SixteenBytesAreServedPerHalfWarp) {
  // All 32 lanes read one float4: one turn per half-warp. Lanes 0-15 and 16-31 each read 16
  // consecutive float4 (64 words): two turns per half-warp.
  const WarpAccess same = access(kAllLanes, 16, false, [](int) { return 0u; });
  EXPECT_EQ(tutorial::bank_turns(same), 2);
  const WarpAccess rows = access(kAllLanes, 16, false, [](int lane) { return 16u * (lane % 16); });
  EXPECT_EQ(tutorial::bank_turns(rows), 4);
  EXPECT_EQ(tutorial::fewest_turns(rows), 4);
}

TEST(BankTurns, TotalsSplitLoadsAndStores) {
  std::vector<WarpAccess> accesses = {
      access(kAllLanes, 4, false, [](int lane) { return 8u * lane; }),  // 2 turns, 1 fewest
      access(kAllLanes, 4, true, [](int lane) { return 4u * lane; })};  // 1 turn
  const tutorial::KernelTotals t = tutorial::sum_turns(accesses);
  EXPECT_EQ(t.loads.instructions, 1);
  EXPECT_EQ(t.loads.turns, 2);
  EXPECT_EQ(t.loads.extra(), 1);
  EXPECT_EQ(t.stores.instructions, 1);
  EXPECT_EQ(t.stores.extra(), 0);
}

TEST(BankTurns, RowsLineUpWarpsByAccessNumber) {
  const auto words = [](int lane) { return 4u * lane; };
  std::vector<WarpAccess> accesses = {access(kAllLanes, 4, false, words, 0, 0),
                                      access(kAllLanes, 4, false, words, 1, 0),
                                      access(kAllLanes, 4, true, words, 0, 1)};
  const std::vector<tutorial::AccessRow> rows = tutorial::table_rows(accesses);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].warps, (std::vector<int>{0, 1}));
  EXPECT_EQ(rows[0].turns_all, 2);
  EXPECT_TRUE(rows[1].store);
  EXPECT_EQ(rows[1].warps, (std::vector<int>{0}));
}

TEST(BankTurns, DescribesElementsCompactly) {
  EXPECT_EQ(tutorial::describe_values({0, 1, 2, 3}), "0..3");
  EXPECT_EQ(tutorial::describe_values({1, 3, 5}), "1,3,..,5");
  EXPECT_EQ(tutorial::describe_values({8, 24}), "8,24");
  EXPECT_EQ(tutorial::describe_values({7}), "7");
  EXPECT_EQ(tutorial::describe_values({0, 1, 4, 5, 8}), "0,1,4,5,..");
  const WarpAccess a = access({0, 1}, 4, false, [](int lane) { return 4u * (16 + lane); });
  EXPECT_EQ(tutorial::describe_elements(a, {"tile", 16}), "tile[1][0,1]");
  EXPECT_EQ(tutorial::lane_map(a), "##" + std::string(30, '.'));
}

}  // namespace
