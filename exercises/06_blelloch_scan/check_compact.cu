// Checker of exercise 6.3: random inputs of random awkward sizes against std::copy_if.
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

void check_compact(const CheckRun& run) {
  uint64_t seed = 63;
  for (int64_t n : sizes_up_to(300007, 630, run)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -1000, 1000);
    std::vector<int32_t> want;
    std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(want), exercise06::keep);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int32_t> d_out(n);
    d_out.poison();
    const int64_t count = exercise06::compact(d_in.data(), n, d_out.data());
    const std::string what = "n = " + std::to_string(n);
    expect(count == static_cast<int64_t>(want.size()),
           what + ": returned " + std::to_string(count) + ", want " + std::to_string(want.size()));
    expect_prefix_equal(d_out.to_host(), want, what);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "6.3", "stream compaction on a scan", check_compact);
}
