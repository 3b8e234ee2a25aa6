// Checker of exercise 5.3: sums of awkward sizes within the error bound of any summation
// order, then the speed at 2^20 and 2^24 against cub::DeviceReduce::Sum in the same run.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/cub_sum.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/exercise_gpu.cuh"
#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"
#include "tutorial/verify.hpp"

namespace {

using namespace tutorial;

/// The share of CUB's speed the exercise asks for, at each size timed.
constexpr double kShare = 0.9;

void check_fast_float_sum(const CheckRun& run) {
  uint64_t seed = 53;
  for (int64_t n :
       run.sizes({1, 2, 3, 4, 5, 255, 257, 1023, 4099, 65537, 100003, 1 << 20, (1 << 22) + 3})) {
    const std::vector<float> h_in = random_floats(n, ++seed, -1.0f, 1.0f);
    const DeviceBuffer<float> d_in(h_in);
    DeviceBuffer<float> d_sum(1);
    d_sum.poison();
    exercise05::fast_float_sum(d_in.data(), n, d_sum.data());
    const double want = reference_sum(h_in);
    // Any order of n - 1 float additions is within gamma(n - 1) sum |x| of the exact sum.
    const double bound = rounding_gamma(n) * reference_sum_abs(h_in);
    const float got = d_sum.to_host()[0];
    expect(std::fabs(got - want) <= bound,
           "n = " + std::to_string(n) + ": got " + format_number(got) + ", want " +
               format_number(want) + " within " + format_number(bound) +
               (std::isnan(got) ? " (NaN: never written?)" : ""));
  }
  if (run.small) return;

  for (const auto& size : {std::pair{int64_t{1} << 20, "2^20"}, {int64_t{1} << 24, "2^24"}}) {
    const int64_t n = size.first;
    const DeviceBuffer<float> d_in(random_floats(n, 530, -1.0f, 1.0f));
    DeviceBuffer<float> d_sum(1);
    CubSum<float, float> cub_sum(d_in.data(), d_sum.data(), n);
    std::cout << "      speed at n = " << size.second << ":" << std::endl;
    expect_speed(4.0 * n,
                 Timed{"yours", [&] { exercise05::fast_float_sum(d_in.data(), n, d_sum.data()); }},
                 Timed{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}, kShare);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "5.3",
                          "a float sum in one launch, as fast as CUB (performance)",
                          check_fast_float_sum);
}
