// Checker of exercise 12.1: histograms of a float range with 1, 7, 256 and 1024 bins, of random
// floats that spread past both ends, with the edges, NaN and the infinities among them, at
// awkward sizes; every count exact against a CPU reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

/// The bin counts the exercises asks for: 1 (everything in range in one bin), 7 (bins whose
/// width is not a power of two), 256, and 1024 (more counters than a block of 256 threads has
/// threads).
constexpr int kBinCounts[] = {1, 7, 256, 1024};

/// A range [lo, hi).
struct Range {
  float lo, hi;
};

/// Two ranges. In [-2.5, 7.5) the float just under hi is binned at bins, for each bin count
/// above (x - lo rounds up to hi - lo), and must count in bin bins - 1; [100, 356) has no such
/// rounding.
constexpr Range kRanges[] = {{-2.5f, 7.5f}, {100.0f, 356.0f}};

/// The values at and around the edges of @p r, and those that count nowhere.
std::vector<float> edge_values(const Range& r) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  return {r.lo,
          r.hi,
          std::nextafter(r.hi, r.lo),
          std::nextafter(r.lo, -kInf),
          std::nextafter(r.lo, r.hi),
          std::numeric_limits<float>::quiet_NaN(),
          kInf,
          -kInf,
          0.5f * (r.lo + r.hi)};
}

/// The CPU reference: the rule of exercise.cuh, in the checker's own words.
std::vector<uint64_t> reference_histogram(const std::vector<float>& samples, const Range& r,
                                          int bins) {
  std::vector<uint64_t> counts(static_cast<size_t>(bins), 0);
  for (const float x : samples) {
    if (std::isnan(x) || x < r.lo || x >= r.hi) continue;
    const float scaled = (x - r.lo) / (r.hi - r.lo) * static_cast<float>(bins);  // in float
    const int bin = static_cast<int>(scaled);
    ++counts[static_cast<size_t>(bin < bins ? bin : bins - 1)];
  }
  return counts;
}

/// Bins @p samples with exercise12::range_histogram into poisoned counts, from dirty shared
/// memory, and checks every count.
void check_one(const std::vector<float>& samples, const Range& r, int bins,
               const std::string& what) {
  const DeviceBuffer<float> d_in(samples);
  DeviceBuffer<unsigned long long> d_bins(bins);
  d_bins.poison();
  check12::dirty_shared_memory();
  exercise12::range_histogram(d_in.data(), static_cast<int64_t>(samples.size()), r.lo, r.hi, bins,
                              d_bins.data());
  const std::string where = what + ", " + std::to_string(bins) + " bins over [" +
                            format_number(r.lo) + ", " + format_number(r.hi) + ")";
  check12::expect_counts(d_bins.to_host(), reference_histogram(samples, r, bins), where,
                         [](size_t b) { return "bin " + std::to_string(b); });
}

void check_range_histogram(const CheckRun& run) {
  // One sample: each edge value alone, so that a value wrongly counted (or not) shows by itself.
  for (const Range& r : kRanges) {
    for (const int bins : kBinCounts) {
      for (const float x : edge_values(r)) {
        check_one({x}, r, bins, "n = 1, the sample " + format_number(x));
      }
    }
  }
  // Random samples a quarter of the range past each end, the edge values spread among them.
  uint64_t seed = 120;
  for (const int64_t n : run.sizes({2, 3, 31, 257, 4099, 65537, 1000003, (1 << 20) + 3})) {
    for (const Range& r : kRanges) {
      for (const int bins : kBinCounts) {
        const float margin = 0.25f * (r.hi - r.lo);
        std::vector<float> samples = random_floats(n, ++seed, r.lo - margin, r.hi + margin);
        const std::vector<float> edges = edge_values(r);
        const size_t step = std::max<size_t>(1, samples.size() / edges.size());
        for (size_t e = 0; e < edges.size() && e < samples.size(); ++e) {
          samples[e * step] = edges[e];
        }
        check_one(samples, r, bins, "n = " + std::to_string(n));
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "12.1", "a histogram of a float range",
                          check_range_histogram);
}
