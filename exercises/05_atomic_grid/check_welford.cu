// Checker of exercise 5.1: random inputs of awkward sizes, near 0 and near 100000, against a
// double CPU reference.
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

void check_mean_variance(const CheckRun& run) {
  uint64_t seed = 51;
  for (int64_t n : run.sizes({1, 2, 3, 255, 257, 1000, 4099, 65537, 100003, 1 << 20})) {
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

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "5.1", "mean and variance in one pass", check_mean_variance);
}
