// Checker of exercise 3.2: random inputs of awkward sizes and block sizes against a CPU
// reference, block by block.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using check03::expect_groups;
using check03::reference_groups;

void check_block_sums_any_size(const CheckRun& run) {
  uint64_t seed = 32;
  for (int threads : {1, 3, 32, 96, 250, 256, 1000, 1024}) {
    for (int64_t n : run.sizes({1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 18})) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 30), 1 << 30);
      const DeviceBuffer<int32_t> d_in(h_in);
      const std::vector<int64_t> want =
          reference_groups<int64_t>(h_in, threads, 0, [](int64_t a, int64_t b) { return a + b; });
      expect_groups(exercise03::block_sums_any_size(d_in.data(), n, threads), want,
                    std::to_string(threads) + " threads, n = " + std::to_string(n));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "3.2", "bitmask tree for any block size",
                          check_block_sums_any_size);
}
