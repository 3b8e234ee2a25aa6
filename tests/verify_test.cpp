#include "tutorial/harness/verify.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"

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
// lost one element must not. The inputs are all in [0.5, 1.5), so losing one moves the sum by
// at least 0.5; the bound at this n and depth is far smaller (asserted below), so the lost
// element falls outside it whatever the seed.
TEST(SumTolerance, HoldsForAFloatTreeAndCatchesALostElement) {
  const std::vector<float> x = random_floats(1 << 16, 3, 0.5f, 1.5f);
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
  // |tree - x[7] - want| >= x[7] - |tree - want| >= x[7] - tol, which exceeds tol when
  // x[7] > 2 tol: the precondition that makes the next check fail for every seed.
  ASSERT_GE(x[7], 0.5f);
  ASSERT_GT(0.5, 2 * tol) << "depth " << depth;
  EXPECT_FALSE(check_close("lost", double{level[0]} - x[7], want, tol).ok);
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

// Above 2^22 elements the comparison runs in chunks on several threads. The verdict, the count,
// the first mismatch (the smallest index, whichever chunk finishes first) and the worst ratio
// must be those of one serial loop.
TEST(CheckElements, ThreadedMatchesOneSerialLoop) {
  const size_t n = (size_t{1} << 23) + 13;
  std::vector<int64_t> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = int64_t(i) * 3 - 7;
  std::vector<int64_t> got = want;
  const auto exact = [](size_t) { return 0.0; };
  EXPECT_EQ(check_elements("s", got, want, exact, "exact").got, "all match");
  for (size_t i : {n - 1, n / 2 + 1, n / 3, size_t{4999999}}) got[i] += 1;
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i] && bad++ == 0) first = int64_t(i);
  }
  const Check check = check_elements("s", got, want, exact, "exact");
  EXPECT_FALSE(check.ok);
  const std::string expected = std::to_string(bad) + " differ, first at [" + std::to_string(first) +
                               "]: " + std::to_string(got[size_t(first)]);
  EXPECT_NE(check.got.find(expected), std::string::npos) << check.got;

  // Floats: errors below and above a tolerance that varies with i, and a NaN.
  const auto tolerance = [](size_t i) { return 1e-3 * (i % 7 + 1); };
  std::vector<double> want_f(n);
  std::vector<float> got_f(n);
  for (size_t i = 0; i < n; ++i) {
    want_f[i] = double(i % 1000) + 0.5;
    got_f[i] = float(want_f[i] + (i % 5 == 0 ? 0.5 : 0.2) * tolerance(i));
  }
  for (size_t i : {n - 2, n / 2 + 3, n / 4}) got_f[i] = float(want_f[i] + 2);
  got_f[n / 3 + 1] = std::numeric_limits<float>::quiet_NaN();
  ElementTally serial;
  for (size_t i = 0; i < n; ++i) {
    const double error = std::fabs(double(got_f[i]) - want_f[i]);
    if (error > 0) serial.worst = std::max(serial.worst, error / tolerance(i));
    if (!(error <= tolerance(i)) && serial.bad++ == 0) serial.first_bad = int64_t(i);
  }
  const ElementTally threaded = tally_elements(got_f, want_f, tolerance);
  EXPECT_EQ(threaded.bad, serial.bad);
  EXPECT_EQ(threaded.first_bad, serial.first_bad);
  EXPECT_EQ(threaded.worst, serial.worst);
  EXPECT_EQ(serial.bad, 4);
}

}  // namespace
}  // namespace tutorial
