// Checker of exercise 2.3: exact sums for awkward sizes, then the speed of one block against
// the fastest a block of 1024 threads reads the same bytes (no adds at all), in the same run.
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"

namespace {

using namespace tutorial;

/// The share of the one-block read's speed the exercise asks for: all of it. (On an H100,
/// chapter 02's kernel, the exercise's start, reaches about 90% of it; the solution 115%.)
constexpr double kShare = 1.0;

void check_fast_block_sum(const CheckRun& run) {
  uint64_t seed = 23;
  for (int64_t n : run.sizes({1, 2, 3, 4, 5, 7, 255, 1023, 1024, 1025, 4099, 65539, 1 << 20})) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 30), 1 << 30);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<long long> d_sum(1);
    d_sum.poison();
    exercise02::fast_block_sum(d_in.data(), n, d_sum.data());
    expect_int_sum(d_sum.to_host()[0], h_in, "n = " + std::to_string(n));
  }
  if (run.small) return;

  // Each timed call sums fresh ints (seed 230 + call), and its sum is checked.
  constexpr int64_t kN = int64_t{1} << 24;
  constexpr int32_t kLo = -(1 << 30), kHi = 1 << 30;
  DeviceBuffer<int32_t> d_in(kN);
  DeviceBuffer<long long> d_sum(1);
  DeviceBuffer<int> sink(1);
  const EveryCall every{[&](int call) {
                          fill_random_ints(d_in.data(), kN, 230 + call, kLo, kHi);
                          d_sum.poison();
                        },
                        [&](int call) {
                          expect_int_sum(d_sum.to_host()[0], random_ints(kN, 230 + call, kLo, kHi),
                                         "n = 2^24, " + timed_call(call));
                        }};
  std::cout << "      speed at n = 2^24 (one block):" << std::endl;
  expect_speed(4.0 * kN,
               Timed{"yours", [&] { exercise02::fast_block_sum(d_in.data(), kN, d_sum.data()); }},
               Timed{"1024 threads reading it, 16 B a load",
                     [&] {
                       read_only_pass<<<1, 1024>>>(reinterpret_cast<const int4*>(d_in.data()),
                                                   kN / 4, sink.data());
                     }},
               kShare, every, 10);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "2.3", "one block, as fast as it goes (performance)",
                          check_fast_block_sum);
}
