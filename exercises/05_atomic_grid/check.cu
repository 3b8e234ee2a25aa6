// Checker of exercises 5.1 and 5.2: random inputs of awkward sizes against a CPU reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"
#include "tutorial/verify.hpp"

namespace {

using namespace tutorial;

const int64_t kSizes[] = {1, 2, 3, 255, 257, 1000, 4099, 65537, 100003, 1 << 20};

void check_mean_variance() {
  uint64_t seed = 51;
  for (int64_t n : kSizes) {
    // Values near 100000 with a spread of 1: the sum of squares minus the squared sum loses
    // about ten digits to cancellation, while merging moments keeps them.
    for (float offset : {0.0f, 100000.0f}) {
      const std::vector<float> h_in = random_floats(n, ++seed, offset - 1, offset + 1);
      const DeviceBuffer<float> d_in(h_in);
      double mean = 0, m2 = 0;
      for (float x : h_in) mean += x;
      mean /= double(n);
      for (float x : h_in) m2 += (x - mean) * (x - mean);
      const exercise05::Moments got = exercise05::mean_variance(d_in.data(), n);
      const std::string where = "n = " + std::to_string(n) + ", values in [" +
                                format_number(offset - 1) + ", " + format_number(offset + 1) + ")";
      expect(got.count == double(n), where + ": count " + format_number(got.count));
      expect(std::fabs(got.mean - mean) <= 1e-12 * (std::fabs(mean) + 1),
             where + ": mean " + format_number(got.mean) + ", want " + format_number(mean));
      const double variance = m2 / double(n), got_variance = got.m2 / got.count;
      expect(std::fabs(got_variance - variance) <= 1e-9 * variance + 1e-15,
             where + ": variance " + format_number(got_variance) + ", want " +
                 format_number(variance) + " (relative error allowed: 1e-9)");
    }
  }
}

void check_grid_argmax() {
  uint64_t seed = 52;
  for (int64_t n : kSizes) {
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

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("5.1", "mean and variance in one pass", check_mean_variance);
    grader.exercise("5.2", "argmax with one atomicMax per block", check_grid_argmax);
  });
}
