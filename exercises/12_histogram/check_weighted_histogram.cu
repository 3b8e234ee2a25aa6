// Checker of exercise 12.3: weighted histograms of uniform bins and of bins all equal, at
// awkward sizes, each sum within the error bound of any order of float additions of a double
// CPU reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;

constexpr int kBins = 256;

/// The reference of one bin: the exact sum of its weights, and how many samples it has. Each
/// weight is a multiple of 2^-24 below 1 (random_floats), so a double, with 53 bits, adds up to
/// 2^29 of them without rounding.
struct BinSum {
  double sum = 0;
  int64_t count = 0;
};

std::vector<BinSum> reference_sums(const std::vector<uint8_t>& bins_of,
                                   const std::vector<float>& weights) {
  std::vector<BinSum> bins(kBins);
  for (size_t i = 0; i < bins_of.size(); ++i) {
    bins[bins_of[i]].sum += weights[i];
    ++bins[bins_of[i]].count;
  }
  return bins;
}

/// Sums @p weights by @p bins_of with exercise12::weighted_histogram into poisoned sums (NaN),
/// from dirty shared memory, and checks each sum. A bin of m samples takes m - 1 float additions
/// that matter (an addition to the starting 0 is exact), in an order the checker cannot know:
/// in any order they are within gamma(m - 1) times the sum of the weights (all positive) of the
/// exact sum. So a bin with one sample or none must be exact.
void check_one(const std::vector<uint8_t>& bins_of, const std::vector<float>& weights,
               const std::string& what) {
  const DeviceBuffer<uint8_t> d_bins_of(bins_of);
  const DeviceBuffer<float> d_weights(weights);
  DeviceBuffer<float> d_sums(kBins);
  d_sums.poison();
  check12::dirty_shared_memory();
  exercise12::weighted_histogram(d_bins_of.data(), d_weights.data(),
                                 static_cast<int64_t>(weights.size()), d_sums.data());
  const std::vector<float> got = d_sums.to_host();
  const std::vector<BinSum> want = reference_sums(bins_of, weights);
  for (int b = 0; b < kBins; ++b) {
    const double bound = rounding_gamma(std::max<int64_t>(0, want[b].count - 1)) * want[b].sum;
    expect(std::fabs(got[b] - want[b].sum) <= bound,  // false for NaN
           what + ": bin " + std::to_string(b) + " (" + std::to_string(want[b].count) +
               " samples): got " + format_number(got[b]) + ", want " + format_number(want[b].sum) +
               " within " + format_number(bound) +
               (std::isnan(got[b]) ? " (NaN: the poison, never written?)" : ""));
  }
}

void check_weighted_histogram(const CheckRun& run) {
  uint64_t seed = 123;
  for (const int64_t n : run.sizes({1, 2, 3, 31, 255, 257, 4099, 65537, 1000003, (1 << 20) + 3})) {
    const std::string size = "n = " + std::to_string(n);
    const std::vector<float> weights = random_floats(n, ++seed, 0.0f, 1.0f);
    std::vector<uint8_t> bins_of(static_cast<size_t>(n));
    fill_random(bins_of, ++seed, [](SplitMix64& rng) { return static_cast<uint8_t>(rng.next()); });
    check_one(bins_of, weights, size + ", uniform bins");
    // Every sample in one bin: the other 255 sums must be exactly 0.
    const uint8_t one = bins_of[0];
    check_one(std::vector<uint8_t>(static_cast<size_t>(n), one), weights,
              size + ", every sample in bin " + std::to_string(one));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "12.3", "a weighted histogram", check_weighted_histogram);
}
