#include "tutorial/verify.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"

namespace tutorial {
namespace {

TEST(CheckExact, MatchesOnlyEqualValues) {
  EXPECT_TRUE(check_exact("x", 5, 5).ok);
  EXPECT_FALSE(check_exact("x", 5, 6).ok);
  EXPECT_FALSE(check_exact("x", -1, int64_t{1} << 40).ok);
}

TEST(CheckClose, ToleranceAndNaN) {
  EXPECT_TRUE(check_close("x", 1.0, 1.0 + 1e-7, 1e-6).ok);
  EXPECT_FALSE(check_close("x", 1.0, 1.0 + 1e-5, 1e-6).ok);
  EXPECT_FALSE(check_close("x", std::nan(""), 1.0, 1e9).ok);
}

TEST(SumTolerance, GrowsWithDepthAndGivesUp) {
  EXPECT_DOUBLE_EQ(sum_tolerance(0, 100.0), 0.0);
  EXPECT_LT(sum_tolerance(10, 100.0), sum_tolerance(20, 100.0));
  EXPECT_NEAR(rounding_gamma(1), kFloatUnitRoundoff, kFloatUnitRoundoff * 1e-6);
  EXPECT_TRUE(std::isinf(rounding_gamma(int64_t{1} << 24)));
}

TEST(SummationDepth, SerialPartPlusTree) {
  EXPECT_EQ(summation_depth(1, 1), 1);
  EXPECT_EQ(summation_depth(1024, 256), 4 + 8);
  EXPECT_EQ(summation_depth(1025, 256), 5 + 8);
  EXPECT_EQ(summation_depth(100, 1000), 1 + 10);
}

// The bound is rigorous: a float tree sum of random data must land inside it, and a sum that
// lost one element must not.
TEST(SumTolerance, HoldsForAFloatTreeAndCatchesALostElement) {
  const std::vector<float> x = random_floats(1 << 16, 3, -1.0f, 1.0f);
  std::vector<float> level(x);
  int depth = 0;
  while (level.size() > 1) {
    std::vector<float> next((level.size() + 1) / 2);
    for (size_t i = 0; i < next.size(); ++i) {
      next[i] = level[2 * i] + (2 * i + 1 < level.size() ? level[2 * i + 1] : 0.0f);
    }
    level.swap(next);
    ++depth;
  }
  const double want = reference_sum(x), tol = sum_tolerance(depth, reference_sum_abs(x));
  EXPECT_TRUE(check_close("tree", level[0], want, tol).ok);
  EXPECT_FALSE(check_close("lost", level[0] - x[7], want, tol).ok);
}

TEST(CheckElements, CountsAndLocatesMismatches) {
  const std::vector<int64_t> want{1, 2, 3, 4};
  const auto exact = [](size_t) { return 0.0; };
  EXPECT_TRUE(check_elements("s", std::vector<int64_t>{1, 2, 3, 4}, want, exact, "exact").ok);
  const Check bad = check_elements("s", std::vector<int64_t>{1, 9, 3, 7}, want, exact, "exact");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.got.find("2 differ, first at [1]"), std::string::npos) << bad.got;
  EXPECT_FALSE(check_elements("s", std::vector<int64_t>{1, 2}, want, exact, "exact").ok);
  const std::vector<float> nan_out{1, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_FALSE(check_elements(
                   "s", nan_out, std::vector<double>{1, 2}, [](size_t) { return 1e9; }, "tol")
                   .ok);
}

}  // namespace
}  // namespace tutorial
