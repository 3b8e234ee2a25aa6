#include "tutorial/harness/reference.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <vector>

#include "06_blelloch_scan/scan_types.hpp"
#include "tutorial/harness/random.hpp"

namespace tutorial {
namespace {

TEST(ReferenceSum, IntegersDoNotOverflow) {
  const int32_t big = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(reference_sum(std::vector<int32_t>(1000, big)), int64_t{1000} * big);
  EXPECT_EQ(reference_sum(std::vector<int32_t>{3, -5, 7}), 5);
}

TEST(ReferenceSum, FloatsAccurateWhereFloatIsNot) {
  // 1 + 2^-30 repeated: a float accumulator never moves past 1; the reference keeps it all.
  std::vector<float> values(1 << 20, 0x1p-30f);
  values[0] = 1.0f;
  EXPECT_DOUBLE_EQ(reference_sum(values), 1.0 + double((1 << 20) - 1) * 0x1p-30);
  EXPECT_DOUBLE_EQ(reference_sum_abs(std::vector<float>{-1, 2, -3}), 6.0);
}

TEST(ReferenceScan, InclusiveAndWide) {
  using chapter06::reference_inclusive_scan;
  EXPECT_EQ(reference_inclusive_scan(std::vector<int32_t>{1, 2, 3, -4}),
            (std::vector<int64_t>{1, 3, 6, 2}));
  const auto wide = reference_inclusive_scan(std::vector<int32_t>(3, 1 << 30));
  EXPECT_EQ(wide.back(), int64_t{3} << 30);
  EXPECT_EQ(reference_inclusive_scan(std::vector<float>{0.5f, 0.25f}),
            (std::vector<double>{0.5, 0.75}));
}

TEST(Random, SeededRangedAndNotConstant) {
  const auto a = random_ints(1000, 7, -5, 5), b = random_ints(1000, 7, -5, 5);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, random_ints(1000, 8, -5, 5));
  const std::set<int32_t> seen(a.begin(), a.end());
  EXPECT_EQ(seen.size(), 11u);  // every value of [-5, 5] drawn
  EXPECT_EQ(*seen.begin(), -5);
  EXPECT_EQ(*seen.rbegin(), 5);
  for (float f : random_floats(1000, 1, 2.0f, 3.0f)) {
    EXPECT_GE(f, 2.0f);
    EXPECT_LT(f, 3.0f);
  }
  const auto extremes = random_ints(1000, 1, std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max());
  EXPECT_NE(std::set<int32_t>(extremes.begin(), extremes.end()).size(), 1u);
}

}  // namespace
}  // namespace tutorial
