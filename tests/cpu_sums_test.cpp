#include "cpu_sums.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"
#include "tutorial/verify.hpp"

namespace chapter01 {
namespace {

TEST(IntSums, ExactAtAwkwardSizes) {
  for (int64_t n : {1, 2, 3, 4, 5, 7, 1000, 1001, 1002, 1003}) {
    const auto x = tutorial::random_ints(n, n, -(1 << 30), 1 << 30);
    EXPECT_EQ(sum_int64(x), tutorial::reference_sum(x)) << n;
    EXPECT_EQ(sum_int64_unrolled(x), tutorial::reference_sum(x)) << n;
  }
}

TEST(Int32Wrapping, WrapsLikeTwosComplementAndCounts) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  const Int32Sum s = sum_int32_wrapping({max, 1});
  EXPECT_EQ(s.wrapped, std::numeric_limits<int32_t>::min());
  EXPECT_EQ(s.overflows, 1);
  const Int32Sum fine = sum_int32_wrapping({5, -3, 10});
  EXPECT_EQ(fine.wrapped, 12);
  EXPECT_EQ(fine.overflows, 0);
  const auto x = tutorial::random_ints(10000, 2, -(1 << 30), 1 << 30);
  EXPECT_EQ(uint32_t(sum_int32_wrapping(x).wrapped), uint32_t(tutorial::reference_sum(x)));
}

TEST(FloatSums, PairwiseAndKahanBeatSerial) {
  const auto x = tutorial::random_floats(1 << 22, 5, 0.0f, 1.0f);
  const double want = tutorial::reference_sum(x);
  const double serial_error = std::fabs(sum_float_serial(x) - want);
  const double pairwise_error = std::fabs(sum_float_pairwise(x.data(), x.size()) - want);
  const double kahan_error = std::fabs(sum_float_kahan(x) - want);
  EXPECT_GT(serial_error, 100 * pairwise_error);
  EXPECT_GT(serial_error, 100 * kahan_error);
  // Both within a couple of roundings of the final value (ulp of 2^21 is 0.25).
  EXPECT_LE(pairwise_error, 0.5);
  EXPECT_LE(kahan_error, 0.5);
}

TEST(FloatSums, SmallSizes) {
  for (size_t n : {1u, 2u, 8u, 9u, 17u}) {
    const auto x = tutorial::random_floats(int64_t(n), n, -1.0f, 1.0f);
    const double want = tutorial::reference_sum(x);
    const double tol = tutorial::sum_tolerance(int64_t(n), tutorial::reference_sum_abs(x));
    EXPECT_NEAR(sum_float_pairwise(x.data(), n), want, tol) << n;
    EXPECT_NEAR(sum_float_kahan(x), want, tol) << n;
  }
}

}  // namespace
}  // namespace chapter01
