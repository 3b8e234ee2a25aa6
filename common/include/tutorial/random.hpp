/**
 * @file random.hpp
 * @brief Seeded random inputs, the same on every machine (never zeros, never all ones, so a
 *        wrong index or an unwritten element shows).
 */
#pragma once

#include <cstdint>
#include <vector>

namespace tutorial {

/// SplitMix64: tiny, fast and the same on every compiler, unlike std::uniform_*_distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 24 random bits: exactly representable as a float.
  float next_unit_float() { return static_cast<float>(next() >> 40) * 0x1p-24f; }

 private:
  uint64_t state_;
};

/// @p n integers drawn uniformly from [lo, hi]. @pre lo <= hi.
inline std::vector<int32_t> random_ints(int64_t n, uint64_t seed, int32_t lo, int32_t hi) {
  SplitMix64 rng(seed);
  const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo) + 1;
  std::vector<int32_t> values(static_cast<size_t>(n));
  for (auto& v : values) v = static_cast<int32_t>(lo + static_cast<int64_t>(rng.next() % span));
  return values;
}

/// @p n floats drawn uniformly from [lo, hi).
inline std::vector<float> random_floats(int64_t n, uint64_t seed, float lo, float hi) {
  SplitMix64 rng(seed);
  std::vector<float> values(static_cast<size_t>(n));
  for (auto& v : values) v = lo + (hi - lo) * rng.next_unit_float();
  return values;
}

}  // namespace tutorial
