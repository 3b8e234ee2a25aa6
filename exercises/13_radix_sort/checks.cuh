// What the checkers of exercises 13.1 to 13.3 share: the sizes they check (small, odd, prime,
// the edges of the solutions' 256-key tile, and one past 2^20), the keys they make, and the
// exact check of an array of 32-bit words against a CPU reference.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/random.hpp"

namespace check13 {

/// The sizes every checker of this chapter grades (those up to CheckRun::kSmallLimit under
/// --small): 1, 2; a warp and one either side; a tile of the solutions (256 keys) and one either
/// side; primes; and 2^20 + 3.
inline std::vector<int64_t> sizes(const tutorial::CheckRun& run) {
  return run.sizes({1, 2, 31, 32, 33, 255, 256, 257, 4099, 65537, 1000003, (1 << 20) + 3});
}

/// @p n keys with every 32-bit pattern equally likely.
inline std::vector<uint32_t> uniform_keys(int64_t n, uint64_t seed) {
  std::vector<uint32_t> keys(static_cast<size_t>(n));
  tutorial::fill_random(
      keys, seed, [](tutorial::SplitMix64& rng) { return static_cast<uint32_t>(rng.next()); });
  return keys;
}

/// @p n keys, each one of 16 values drawn from @p seed: every key is equal to many others.
inline std::vector<uint32_t> few_keys(int64_t n, uint64_t seed) {
  tutorial::SplitMix64 rng(seed ^ 0x46455721u);  // the values' own stream, apart from the picks
  uint32_t values[16];
  for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next() >> 32);
  std::vector<uint32_t> keys(static_cast<size_t>(n));
  tutorial::fill_random(keys, seed,
                        [&](tutorial::SplitMix64& r) { return values[r.next() >> 60]; });
  return keys;
}

/// A 32-bit word in hex: "0x7f800001".
inline std::string hex(uint32_t word) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", word);
  return text;
}

/// Expects the words @p got to equal @p want exactly, place by place; the message names how
/// many places are wrong and the first of them, each word as @p show(word) writes it, and says
/// where that place still holds @p poison, the word the output was filled with.
template <typename Show>
void expect_words(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want,
                  const std::string& what, const Show& show, uint32_t poison) {
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i] && wrong++ == 0) first = i;
  }
  if (wrong == 0) return;
  throw tutorial::ExerciseFailure(
      what + ": " + std::to_string(wrong) + " of " + std::to_string(want.size()) +
      " places wrong, the first " + std::to_string(first) + ": got " + show(got[first]) +
      ", want " + show(want[first]) + (got[first] == poison ? " (the poison: never written)" : ""));
}

}  // namespace check13
