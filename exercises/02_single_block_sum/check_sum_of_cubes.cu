// Checker of exercise 2.2: random inputs of awkward sizes and block sizes against a CPU
// reference.
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

void check_sum_of_cubes(const CheckRun& run) {
  uint64_t seed = 22;
  for (int threads : {1, 32, 96, 250, 1000, 1024}) {
    for (int64_t n : run.sizes({1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 20})) {
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

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "2.2", "sum of cubes, any block size", check_sum_of_cubes);
}
