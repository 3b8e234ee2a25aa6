// Checker of exercise 4.2: random inputs of awkward sizes and block sizes against a CPU
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
using check04::expect_blocks;

void check_block_sums_shuffle(const CheckRun& run) {
  uint64_t seed = 42;
  for (int threads : {32, 96, 160, 256, 544, 1024}) {
    for (int64_t n : run.sizes({1, 2, 31, 33, 1023, 1024, 1025, 4099, 100003, 1 << 19})) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 30), 1 << 30);
      const DeviceBuffer<int32_t> d_in(h_in);
      const int64_t group = 4 * int64_t{threads};
      std::vector<int64_t> want;
      for (int64_t begin = 0; begin < n; begin += group) {
        int64_t sum = 0;
        for (int64_t i = begin; i < std::min(n, begin + group); ++i) sum += h_in[i];
        want.push_back(sum);
      }
      expect_blocks(
          exercise04::block_sums_shuffle(d_in.data(), n, threads), want,
          std::to_string(threads) + " threads, n = " + std::to_string(n),
          [](int64_t a, int64_t b) { return a == b; }, [](int64_t v) { return std::to_string(v); });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "4.2", "shuffle block sum for any whole number of warps",
                          check_block_sums_shuffle);
}
