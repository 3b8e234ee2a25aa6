#include "tutorial/harness/poison.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tutorial {
namespace {

/// What a buffer of T reads after cudaMemset(poison_byte<T>(which)), made on the host.
template <typename T>
T memset_value(Poison which) {
  T value{};
  std::memset(&value, poison_byte<T>(which), sizeof value);
  return value;
}

TEST(Poison, FloatsAreNaNAfterEitherPoison) {
  for (const Poison which : kBothPoisons) {
    EXPECT_TRUE(std::isnan(poison_value<float>(which)));
    EXPECT_TRUE(std::isnan(poison_value<double>(which)));
    // The checks' comparisons are false for it, so it never passes.
    EXPECT_FALSE(std::fabs(poison_value<float>(which) - 1.0f) <= 1e30f);
  }
}

TEST(Poison, IntegersAreNeitherMinusOneNorAnySumOfTheInputs) {
  // 0xFF bytes, the old poison, read -1: a sum or a scan takes that value.
  EXPECT_NE(poison_value<int32_t>(), -1);
  EXPECT_NE(poison_value<int64_t>(), -1);
  EXPECT_EQ(poison_value<int32_t>(), int32_t{0x7F7F7F7F});
  EXPECT_EQ(poison_value<int32_t>(Poison::kSecond), int32_t(0x80808080u));
  EXPECT_EQ(poison_value<int64_t>(), int64_t{0x7F7F7F7F7F7F7F7F});
  // int32 outputs here stay within +-2^30; int64 sums within +-2^62 (poison.hpp's reasons).
  for (const Poison which : kBothPoisons) {
    EXPECT_GT(std::abs(int64_t{poison_value<int32_t>(which)}), int64_t{1} << 30);
    EXPECT_GT(std::abs(static_cast<double>(poison_value<int64_t>(which))), 0x1p62);
    EXPECT_GT(std::abs(static_cast<double>(poison_value<long long>(which))), 0x1p62);
  }
}

TEST(Poison, TheTwoPoisonsDifferWhereAValueCanBeAnyAnswer) {
  EXPECT_NE(poison_value<int32_t>(Poison::kFirst), poison_value<int32_t>(Poison::kSecond));
  EXPECT_NE(poison_value<uint32_t>(Poison::kFirst), poison_value<uint32_t>(Poison::kSecond));
  EXPECT_NE(poison_value<int64_t>(Poison::kFirst), poison_value<int64_t>(Poison::kSecond));
}

TEST(Poison, ValueIsWhatTheBytesOfAMemsetRead) {
  for (const Poison which : kBothPoisons) {
    EXPECT_EQ(poison_value<int32_t>(which), memset_value<int32_t>(which));
    EXPECT_EQ(poison_value<uint32_t>(which), memset_value<uint32_t>(which));
    EXPECT_EQ(poison_value<int64_t>(which), memset_value<int64_t>(which));
    EXPECT_EQ(poison_value<uint64_t>(which), memset_value<uint64_t>(which));
    EXPECT_EQ(poison_value<int8_t>(which), memset_value<int8_t>(which));
  }
  // A struct of integers (an index and a value, say) gets the integers' bytes: an index of
  // 0x7F7F7F7F7F7F7F7F is past every input.
  struct Pair {
    int32_t value;
    int64_t index;
  };
  const Pair pair = poison_value<Pair>();
  EXPECT_EQ(pair.value, poison_value<int32_t>());
  EXPECT_EQ(pair.index, poison_value<int64_t>());
}

// Usable where a constant is needed (a kernel's constant, a static_assert).
static_assert(poison_value<int32_t>() == 0x7F7F7F7F);
static_assert(poison_byte<float>(Poison::kSecond) == 0xFF);

}  // namespace
}  // namespace tutorial
