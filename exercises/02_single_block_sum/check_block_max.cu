// Checker of exercise 2.1: random inputs of awkward sizes against a CPU reference.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

void check_block_max(const CheckRun& run) {
  uint64_t seed = 21;
  for (int64_t n : run.sizes({1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 20})) {
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

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "2.1", "block maximum", check_block_max);
}
