// Checker of exercise 4.1: random inputs of awkward sizes against a CPU reference, block by
// block; then its speed against CUB's sum of the same ints, in the same run.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using check04::expect_blocks;
using exercise04::MinMax;

/// The share of CUB's sum speed the exercise asks for: both read every int once.
constexpr double kShare = 0.75;

constexpr int64_t kGroup = exercise04::kMinMaxThreads * exercise04::kMinMaxLoads;

/// Expects d_out to hold the minimum and maximum of each group of kGroup ints of @p h_in.
void expect_min_max(const DeviceBuffer<MinMax>& d_out, const std::vector<int32_t>& h_in,
                    const std::string& what) {
  const auto n = static_cast<int64_t>(h_in.size());
  std::vector<MinMax> want;
  for (int64_t begin = 0; begin < n; begin += kGroup) {
    const auto [low, high] =
        std::minmax_element(h_in.begin() + begin, h_in.begin() + std::min(n, begin + kGroup));
    want.push_back({*low, *high});
  }
  expect_blocks(
      d_out.to_host(), want, what,
      [](MinMax a, MinMax b) { return a.min == b.min && a.max == b.max; },
      [](MinMax m) { return "(" + std::to_string(m.min) + ", " + std::to_string(m.max) + ")"; });
}

void check_block_min_max(const CheckRun& run) {
  uint64_t seed = 41;
  for (int64_t n : run.sizes({1, 2, 31, 33, 1023, 1024, 1025, 4099, 100003, 1 << 19})) {
    // One-signed ranges catch identities of 0; then mixed signs.
    for (auto [lo, hi] :
         {std::pair{-1000000, -1}, std::pair{1, 1000000}, std::pair{INT32_MIN, INT32_MAX}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      DeviceBuffer<MinMax> d_out((n + kGroup - 1) / kGroup);
      // Over the whole int32 range a group's (min, max) can be the poison's (P, P), a group of
      // one element equal to P: so each input is checked after both poisons, and a group never
      // written fails at least once.
      for (const Poison poison : kBothPoisons) {
        d_out.poison(poison);
        exercise04::block_min_max(d_in.data(), n, d_out.data());
        expect_min_max(d_out, h_in,
                       "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
      }
    }
  }
  if (run.small) return;

  // One pass over the data, like a sum: as fast as CUB's sum of the same ints, nearly. Each
  // timed call gets fresh ints (seed 410 + call), and its minima and maxima are checked.
  constexpr int64_t kN = int64_t{1} << 24;
  DeviceBuffer<int32_t> d_in(kN);
  DeviceBuffer<MinMax> d_out(kN / kGroup);
  DeviceBuffer<long long> d_sum(1);
  CubSum<int32_t, long long> cub_sum(d_in.data(), d_sum.data(), kN);
  const EveryCall every{
      [&](int call) {
        fill_random_ints(d_in.data(), kN, 410 + call, INT32_MIN, INT32_MAX);
        d_out.poison(kBothPoisons[call % 2]);  // the whole int32 range: alternate the poisons
      },
      [&](int call) {
        expect_min_max(d_out, random_ints(kN, 410 + call, INT32_MIN, INT32_MAX),
                       "n = 2^24, " + timed_call(call));
      }};
  std::cout << "      speed at n = 2^24:" << std::endl;
  expect_speed(4.0 * kN,
               Timed{"yours", [&] { exercise04::block_min_max(d_in.data(), kN, d_out.data()); }},
               Timed{"cub::DeviceReduce::Sum of the same ints", [&] { cub_sum(); }}, kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "4.1", "block minimum and maximum in one pass (performance)",
                          check_block_min_max);
}
