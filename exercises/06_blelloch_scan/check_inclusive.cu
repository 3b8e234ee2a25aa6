// Checker of exercise 6.2: one tile, inclusive, against a CPU reference, nothing written past n.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "06_blelloch_scan/scan_types.hpp"
#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using namespace check06;

void check_inclusive(const CheckRun& run) {
  constexpr int64_t kTile = 2048;
  uint64_t seed = 62;
  for (int64_t n : sizes_up_to(kTile, 620, run)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -1000000, 1000000);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int64_t> d_out(kTile);  // room past n, to see writes that should not be
    d_out.poison();
    exercise06::inclusive_scan_tile(d_in.data(), static_cast<int>(n), d_out.data());
    const std::vector<int64_t> got = d_out.to_host();
    const std::string what = "n = " + std::to_string(n);
    expect_prefix_equal(got, chapter06::reference_inclusive_scan(h_in), what);
    for (int64_t i = n; i < kTile; ++i) {
      expect(got[i] == poison_value<int64_t>(),
             what + ": element [" + std::to_string(i) + "] past n was written");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "6.2", "inclusive scan from the exclusive tree, one pass",
                          check_inclusive);
}
