// Checker of exercise 6.4: random inputs of random awkward sizes (all negative, then mixed) against
// a CPU reference.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"

namespace {

using namespace tutorial;
using namespace check06;

void check_max_scan(const CheckRun& run) {
  uint64_t seed = 64;
  for (int64_t n : sizes_up_to(300007, 640, run)) {
    // All negative catches a max-scan that starts from 0; then mixed signs.
    for (auto [lo, hi] : {std::pair{-1000000000, -1}, std::pair{-1000000000, 1000000000}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      std::vector<int32_t> want(h_in.size());
      int32_t running = h_in[0];
      for (size_t i = 0; i < h_in.size(); ++i) want[i] = running = std::max(running, h_in[i]);
      const DeviceBuffer<int32_t> d_in(h_in);
      DeviceBuffer<int32_t> d_out(n);
      d_out.poison();
      exercise06::inclusive_max_scan(d_in.data(), n, d_out.data());
      expect_prefix_equal(d_out.to_host(), want,
                          "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                              std::to_string(hi) + "]");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "6.4", "inclusive max-scan of any length", check_max_scan);
}
