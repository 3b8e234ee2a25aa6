// Checker of exercises 2.1 and 2.2: random inputs of awkward sizes against a CPU reference.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"

namespace {

using namespace tutorial;

const int64_t kSizes[] = {1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 20};

void check_block_max() {
  uint64_t seed = 21;
  for (int64_t n : kSizes) {
    // All-negative inputs catch a maximum that starts at 0; then mixed signs.
    for (auto [lo, hi] : {std::pair{-1000000, -1}, std::pair{-1000000, 1000000}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      const int32_t want = *std::max_element(h_in.begin(), h_in.end());
      const int32_t got = exercise02::block_max(d_in.data(), n);
      expect(got == want, "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                              std::to_string(hi) + "]: got " + std::to_string(got) + ", want " +
                              std::to_string(want));
    }
  }
}

void check_sum_of_cubes() {
  uint64_t seed = 22;
  for (int threads : {1, 32, 96, 250, 1000, 1024}) {
    for (int64_t n : kSizes) {
      // |x|^3 <= 1e12 needs 64 bits; 2^20 of them (1e18) still fit in int64.
      const std::vector<int32_t> h_in = random_ints(n, ++seed, -10000, 10000);
      const DeviceBuffer<int32_t> d_in(h_in);
      int64_t want = 0;
      for (int32_t x : h_in) want += int64_t{x} * x * x;
      const int64_t got = exercise02::block_sum_of_cubes(d_in.data(), n, threads);
      expect(got == want, std::to_string(threads) + " threads, n = " + std::to_string(n) +
                              ": got " + std::to_string(got) + ", want " + std::to_string(want));
    }
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("2.1", "block maximum", check_block_max);
    grader.exercise("2.2", "sum of cubes, any block size", check_sum_of_cubes);
  });
}
