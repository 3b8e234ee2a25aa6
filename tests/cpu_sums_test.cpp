// Chapter 01's sums against references that share no code with them: closed forms, a 128-bit
// accumulator, inputs whose int32 sum is known to wrap, and exact sums of floats on a grid.
#include "cpu_sums.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace chapter01 {
namespace {

constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();

/// first, first + step, ..., n terms. @pre every term fits in int32.
std::vector<int32_t> progression(int64_t n, int32_t first, int32_t step) {
  std::vector<int32_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<int32_t>(first + i * step);
  return values;
}

/// A 128-bit accumulator: 2^64 values of 2^31 cannot overflow it, so it is exact here.
__int128 sum_int128(const std::vector<int32_t>& values) {
  __int128 sum = 0;
  for (int32_t v : values) sum += v;
  return sum;
}

/// The int32 that holds @p sum modulo 2^32 (two's complement wrap-around).
int32_t wrapped(__int128 sum) {
  return static_cast<int32_t>(static_cast<uint32_t>(sum));
}

/// Exact sum of floats that are all multiples of 2^-24 (random_floats over [lo, hi) with lo
/// and hi small multiples of it gives those): scaled by 2^24 they are integers, summed exactly.
double exact_sum(const std::vector<float>& values) {
  int64_t scaled_sum = 0;
  for (float v : values) {
    const double scaled = std::ldexp(static_cast<double>(v), 24);
    EXPECT_EQ(scaled, std::trunc(scaled)) << v << " is not a multiple of 2^-24";
    scaled_sum += static_cast<int64_t>(scaled);
  }
  return std::ldexp(static_cast<double>(scaled_sum), -24);
}

TEST(IntSums, ArithmeticProgressionsMatchTheirClosedForm) {
  struct Case {
    int64_t n;
    int32_t first, step;
  };
  // Negative and positive terms, sums that cross zero, and one whose int32 sum would wrap.
  for (const Case c :
       {Case{1, -7, 3}, Case{2, kMin, 1}, Case{5, -2, 1}, Case{1001, -500, 1},
        Case{1003, 1000000, -2000}, Case{100003, -(1 << 30), 21473}, Case{65536, kMax, -32768}}) {
    const auto x = progression(c.n, c.first, c.step);
    // n * first + step * n (n - 1) / 2, in 128 bits so that the formula cannot overflow.
    const __int128 want = __int128{c.n} * c.first + __int128{c.step} * c.n * (c.n - 1) / 2;
    EXPECT_EQ(sum_int64(x), static_cast<int64_t>(want)) << c.n << " from " << c.first;
    EXPECT_EQ(sum_int64_unrolled(x), static_cast<int64_t>(want)) << c.n << " from " << c.first;
    EXPECT_EQ(sum_int32_wrapping(x).wrapped, wrapped(want)) << c.n << " from " << c.first;
  }
}

TEST(IntSums, RandomInputsMatchA128BitSumAtAwkwardSizes) {
  for (int64_t n : {1, 2, 3, 4, 5, 7, 1000, 1001, 1002, 1003, 1 << 20}) {
    const auto x = tutorial::random_ints(n, uint64_t(n), kMin, kMax);
    const __int128 want = sum_int128(x);
    EXPECT_EQ(sum_int64(x), static_cast<int64_t>(want)) << n;
    EXPECT_EQ(sum_int64_unrolled(x), static_cast<int64_t>(want)) << n;
    EXPECT_EQ(sum_int32_wrapping(x).wrapped, wrapped(want)) << n;
  }
}

// 2^20 copies of INT32_MAX: the int32 sum wraps 2^19 times (every other addition), the int64
// sum is exactly 2^20 (2^31 - 1) = 2^51 - 2^20.
TEST(IntSums, ExactWhereInt32WrapsManyTimes) {
  const std::vector<int32_t> x(1 << 20, kMax);
  const int64_t want = (int64_t{1} << 51) - (int64_t{1} << 20);
  EXPECT_EQ(sum_int64(x), want);
  EXPECT_EQ(sum_int64_unrolled(x), want);
  const Int32Sum s = sum_int32_wrapping(x);
  EXPECT_EQ(s.wrapped, -(1 << 20));  // 2^51 - 2^20 modulo 2^32
  EXPECT_EQ(s.overflows, 1 << 19);
}

// Alternating extremes: each pair adds MAX + MIN = -1, so n values sum to -n/2. Starting with
// MAX, the running int32 sum never leaves the range; starting with MIN, every addition from
// the third on leaves it.
TEST(IntSums, AlternatingExtremes) {
  constexpr int64_t n = 1 << 20;
  std::vector<int32_t> max_first(n), min_first(n);
  for (int64_t i = 0; i < n; ++i) {
    max_first[i] = i % 2 ? kMin : kMax;
    min_first[i] = i % 2 ? kMax : kMin;
  }
  for (const auto* x : {&max_first, &min_first}) {
    EXPECT_EQ(sum_int64(*x), -n / 2);
    EXPECT_EQ(sum_int64_unrolled(*x), -n / 2);
    EXPECT_EQ(sum_int32_wrapping(*x).wrapped, -n / 2);  // |-n/2| fits: no net wrap
  }
  EXPECT_EQ(sum_int32_wrapping(max_first).overflows, 0);
  EXPECT_EQ(sum_int32_wrapping(min_first).overflows, n - 2);
}

TEST(Int32Wrapping, WrapsLikeTwosComplementAndCounts) {
  const Int32Sum s = sum_int32_wrapping({kMax, 1});
  EXPECT_EQ(s.wrapped, kMin);
  EXPECT_EQ(s.overflows, 1);
  const Int32Sum down = sum_int32_wrapping({kMin, -1});
  EXPECT_EQ(down.wrapped, kMax);
  EXPECT_EQ(down.overflows, 1);
  const Int32Sum fine = sum_int32_wrapping({5, -3, 10});
  EXPECT_EQ(fine.wrapped, 12);
  EXPECT_EQ(fine.overflows, 0);
  const Int32Sum back = sum_int32_wrapping({kMax, 1, -1});  // wraps up, then back down
  EXPECT_EQ(back.wrapped, kMax);
  EXPECT_EQ(back.overflows, 2);
}

TEST(FloatSums, PairwiseAndKahanBeatSerial) {
  // Values in [0, 1) on a grid of 2^-24: their exact sum is known (exact_sum).
  const auto x = tutorial::random_floats(1 << 22, 5, 0.0f, 1.0f);
  const double want = exact_sum(x);
  const double serial_error = std::fabs(sum_float_serial(x) - want);
  const double pairwise_error = std::fabs(sum_float_pairwise(x.data(), x.size()) - want);
  const double kahan_error = std::fabs(sum_float_kahan(x) - want);
  EXPECT_GT(serial_error, 100 * pairwise_error);
  EXPECT_GT(serial_error, 100 * kahan_error);
  // Both within a couple of roundings of the final value (ulp of 2^21 is 0.25).
  EXPECT_LE(pairwise_error, 0.5);
  EXPECT_LE(kahan_error, 0.5);
}

TEST(FloatSums, WithinTheirRoundingBoundsAtSmallSizes) {
  for (size_t n : {1u, 2u, 8u, 9u, 17u, 1000u, 1025u}) {
    const auto x = tutorial::random_floats(int64_t(n), n, -1.0f, 1.0f);
    const double want = exact_sum(x);
    double sum_abs = 0;
    for (float v : x) sum_abs += std::fabs(v);
    const int64_t depth = pairwise_depth(int64_t(n), int64_t(kPairwiseLeaf));
    EXPECT_NEAR(sum_float_serial(x), want, tutorial::sum_tolerance(int64_t(n) - 1, sum_abs)) << n;
    EXPECT_NEAR(sum_float_pairwise(x.data(), n), want, tutorial::sum_tolerance(depth, sum_abs))
        << n;
    EXPECT_NEAR(sum_float_kahan(x), want, kahan_tolerance(int64_t(n), sum_abs)) << n;
  }
}

}  // namespace
}  // namespace chapter01
