// Checker of exercise 8.2: max-scans of awkward sizes (up to many more tiles than a warp looks
// back over) against a CPU reference. Each size gets three calls on the same status words and
// counter, with the parity flipped and a different input each time (all negative, mixed, a
// narrow range), so stale words from the previous call or a wrong identity show.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

void check_max_scan_one_pass(const CheckRun& run) {
  using exercise08::kMaxScanTile;
  uint64_t seed = 82;
  for (int64_t n : run.sizes({1, 2, 3, 5, 1023, 1024, 1025, 4097, 33 * kMaxScanTile + 1, 65537,
                              1000003, (1 << 22) + 7})) {
    DeviceBuffer<uint64_t> d_status(exercise08::max_scan_tiles(n));
    DeviceBuffer<unsigned int> d_next_tile(1);
    CUDA_CHECK(cudaMemset(d_status.data(), 0, d_status.bytes()));  // once for the three calls
    CUDA_CHECK(cudaMemset(d_next_tile.data(), 0, d_next_tile.bytes()));
    DeviceBuffer<int32_t> d_out(n);
    uint32_t parity = 0;
    for (auto [lo, hi] :
         {std::pair{-1000000000, -1}, std::pair{-1000000000, 1000000000}, std::pair{-3, 3}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      d_out.poison();
      exercise08::max_scan_one_pass(d_in.data(), n, d_out.data(), d_status.data(),
                                    d_next_tile.data(), parity);
      const std::vector<int32_t> got = d_out.to_host();
      int32_t want = INT32_MIN;
      for (int64_t i = 0; i < n; ++i) {
        want = std::max(want, h_in[i]);
        if (got[i] != want) {
          expect(false, "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "], parity " + std::to_string(parity) +
                            ": element [" + std::to_string(i) + "] is " + std::to_string(got[i]) +
                            ", want " + std::to_string(want));
        }
      }
      parity ^= 1;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "8.2", "a max-scan in one pass (decoupled look-back)",
                          check_max_scan_one_pass);
}
