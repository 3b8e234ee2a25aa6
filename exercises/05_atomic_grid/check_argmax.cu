// Checker of exercise 5.2: random inputs of awkward sizes and ranges (ties, all negative,
// the extremes) against a CPU reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;

void check_grid_argmax(const CheckRun& run) {
  uint64_t seed = 52;
  for (int64_t n : run.sizes({1, 2, 3, 255, 257, 1000, 4099, 65537, 100003, 1 << 20})) {
    // A narrow range makes ties common (the smallest index must win); all-negative values
    // catch a key whose sign bit is not flipped; the full range checks the extremes.
    for (auto [lo, hi] :
         {std::pair{-5, 5}, std::pair{-1000000, -1}, std::pair{INT32_MIN, INT32_MAX}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      const auto best = std::max_element(h_in.begin(), h_in.end());  // the first maximum
      const int64_t index = best - h_in.begin();
      const exercise05::ArgMax got = exercise05::grid_argmax(d_in.data(), n);
      expect(got.value == *best && got.index == index,
             "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "]: got " + std::to_string(got.value) + " at " +
                 std::to_string(got.index) + ", want " + std::to_string(*best) + " at " +
                 std::to_string(index));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "5.2", "argmax with one atomicMax per block",
                          check_grid_argmax);
}
