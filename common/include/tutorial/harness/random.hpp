/**
 * @file random.hpp
 * @brief Seeded random inputs, the same on every machine (never zeros, never all ones, so a
 *        wrong index or an unwritten element shows).
 */
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tutorial/harness/host_threads.hpp"

namespace tutorial {

/// SplitMix64: tiny, fast and the same on every compiler, unlike std::uniform_*_distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  /// The generator @p count draws into the sequence of SplitMix64(seed): the state is a
  /// counter that next() advances by a fixed step, so any place is one multiplication away.
  static SplitMix64 at(uint64_t seed, uint64_t count) { return SplitMix64(seed + count * kStep); }
  uint64_t next() {
    uint64_t z = (state_ += kStep);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 24 random bits: exactly representable as a float.
  float next_unit_float() { return static_cast<float>(next() >> 40) * 0x1p-24f; }

 private:
  static constexpr uint64_t kStep = 0x9E3779B97F4A7C15ull;  // 2^64 / the golden ratio
  uint64_t state_;
};

/**
 * @brief Sets values[i] = draw(rng) with rng standing i draws into SplitMix64(seed): the values
 *        of one serial loop, made in contiguous chunks, one per host core, when there are many.
 * @param draw takes a SplitMix64& and makes one value from one next() (random_ints shows how).
 */
template <typename T, typename Draw>
void fill_random(std::vector<T>& values, uint64_t seed, Draw draw) {
  for_each_chunk(values.size(), [&](size_t, size_t begin, size_t end) {
    SplitMix64 rng = SplitMix64::at(seed, begin);
    for (size_t i = begin; i < end; ++i) values[i] = draw(rng);
  });
}

/// @p n integers drawn uniformly from [lo, hi]. @pre lo <= hi.
inline std::vector<int32_t> random_ints(int64_t n, uint64_t seed, int32_t lo, int32_t hi) {
  const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo) + 1;
  std::vector<int32_t> values(static_cast<size_t>(n));
  fill_random(values, seed, [lo, span](SplitMix64& rng) {
    return static_cast<int32_t>(lo + static_cast<int64_t>(rng.next() % span));
  });
  return values;
}

/// @p n floats drawn uniformly from [lo, hi).
inline std::vector<float> random_floats(int64_t n, uint64_t seed, float lo, float hi) {
  std::vector<float> values(static_cast<size_t>(n));
  fill_random(values, seed,
              [lo, hi](SplitMix64& rng) { return lo + (hi - lo) * rng.next_unit_float(); });
  return values;
}

}  // namespace tutorial
