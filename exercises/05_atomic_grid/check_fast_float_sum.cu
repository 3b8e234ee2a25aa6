// Checker of exercise 5.3: sums of awkward sizes within the error bound of any summation
// order, then the speed at 2^20 and 2^24 against cub::DeviceReduce::Sum in the same run.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/verify.hpp"

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
    expect_float_sum(d_sum.to_host()[0], h_in, "n = " + std::to_string(n));
  }
  if (run.small) return;

  // Each timed call sums fresh floats (seed 530 + call), and its sum is checked.
  for (const auto& size : {std::pair{int64_t{1} << 20, "2^20"}, {int64_t{1} << 24, "2^24"}}) {
    const int64_t n = size.first;
    DeviceBuffer<float> d_in(n);
    DeviceBuffer<float> d_sum(1), d_cub_sum(1);
    CubSum<float, float> cub_sum(d_in.data(), d_cub_sum.data(), n);
    const EveryCall every{[&](int call) {
                            fill_random_floats(d_in.data(), n, 530 + call, -1.0f, 1.0f);
                            d_sum.poison();
                          },
                          [&](int call) {
                            expect_float_sum(
                                d_sum.to_host()[0], random_floats(n, 530 + call, -1.0f, 1.0f),
                                std::string("n = ") + size.second + ", " + timed_call(call));
                          }};
    std::cout << "      speed at n = " << size.second << ":" << std::endl;
    expect_speed(4.0 * n,
                 Timed{"yours", [&] { exercise05::fast_float_sum(d_in.data(), n, d_sum.data()); }},
                 Timed{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}, kShare, every);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "5.3",
                          "a float sum in one launch, as fast as CUB (performance)",
                          check_fast_float_sum);
}
