// Checker of exercise 6.5: exclusive scans of awkward sizes (the scratch poisoned, as it may be
// left by anything), every element exact; then the speed at 2^24 against
// cub::DeviceScan::ExclusiveSum in the same run.
#include <cstdint>
#include <string>
#include <vector>

#include "06_blelloch_scan/cub_scan.cuh"
#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using namespace check06;

/// The share of CUB's speed the exercise asks for.
constexpr double kShare = 0.7;

void check_fast_scan(const CheckRun& run) {
  uint64_t seed = 65;
  for (int64_t n : sizes_up_to((1 << 22) + 5, 650, run)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 20), 1 << 20);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int64_t> d_out(n), d_scratch(exercise06::fast_scan_scratch_elements(n));
    d_out.poison();
    d_scratch.poison();
    exercise06::fast_exclusive_scan(d_in.data(), n, d_out.data(), d_scratch.data());
    expect_prefix_equal(d_out.to_host(), exclusive_reference(h_in), "n = " + std::to_string(n));
  }
  if (run.small) return;

  // The timed size is checked too, at every timed call, each on fresh ints (seed 651 + call):
  // past 4 * 2^20 elements a scan may take paths (more tile totals, deeper recursion) that the
  // sizes above never reach. The scratch is left as the previous call left it.
  const int64_t n = int64_t{1} << 24;
  constexpr int32_t kLo = -(1 << 20), kHi = 1 << 20;
  DeviceBuffer<int32_t> d_in(n);
  DeviceBuffer<int64_t> d_out(n), d_cub_out(n),
      d_scratch(exercise06::fast_scan_scratch_elements(n));
  d_scratch.poison();
  CubScan<int32_t, int64_t> cub_scan(d_in.data(), d_cub_out.data(), n, CubCall::kExclusiveSum);
  const EveryCall every{[&](int call) {
                          fill_random_ints(d_in.data(), n, 651 + call, kLo, kHi);
                          d_out.poison();
                        },
                        [&](int call) {
                          expect_prefix_equal(
                              d_out.to_host(),
                              exclusive_reference(random_ints(n, 651 + call, kLo, kHi)),
                              "n = 2^24, " + timed_call(call));
                        }};
  std::cout << "      speed at n = 2^24 (int32 in, int64 out: 12 bytes per element):" << std::endl;
  expect_speed(
      12.0 * n,
      Timed{
          "yours",
          [&] { exercise06::fast_exclusive_scan(d_in.data(), n, d_out.data(), d_scratch.data()); }},
      Timed{"cub::DeviceScan::ExclusiveSum", [&] { cub_scan(); }}, kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "6.5",
                          "an exclusive scan of any length, at 70% of CUB (performance)",
                          check_fast_scan);
}
