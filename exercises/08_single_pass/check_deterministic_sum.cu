// Checker of exercise 8.3: sums of awkward sizes within the error bound of any summation order,
// five calls each with the same bits and the ticket back at 0 after each; then the speed at
// 2^20 against cub::DeviceReduce::Sum in the same run.
#include <cmath>
#include <cstdint>
#include <cstring>
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

/// How much faster than CUB the exercise asks for, at n = 2^20: as fast. It asked 1.1x until the
/// checker gave every timed call fresh input and checked its output: then the solution measured
/// 1.08x and 1.09x of CUB on an H200 (2026-11-25), too close to a 1.1x line to pass every time.
constexpr double kShare = 1.0;

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Expects the ticket back at 0 after a call: the next call needs it so.
void expect_ticket_reset(const DeviceBuffer<unsigned int>& d_ticket, const std::string& what) {
  const unsigned int ticket = d_ticket.to_host()[0];
  expect(ticket == 0, what + ": the ticket is " + std::to_string(ticket) +
                          " after the call; the next call needs 0");
}

void check_deterministic_sum(const CheckRun& run) {
  DeviceBuffer<float> d_sum(1), d_partials(exercise08::kSumMaxBlocks);
  DeviceBuffer<unsigned int> d_ticket(1);
  CUDA_CHECK(cudaMemset(d_ticket.data(), 0, d_ticket.bytes()));  // once, for all the calls
  d_partials.poison();
  uint64_t seed = 83;
  for (int64_t n :
       run.sizes({1, 2, 3, 4, 5, 255, 257, 1023, 4099, 65537, 100003, 1 << 20, (1 << 22) + 3})) {
    const std::vector<float> h_in = random_floats(n, ++seed, -1.0f, 1.0f);
    const DeviceBuffer<float> d_in(h_in);
    uint32_t first_bits = 0;
    for (int call = 1; call <= 5; ++call) {
      d_sum.poison();
      exercise08::deterministic_sum(d_in.data(), n, d_sum.data(), d_partials.data(),
                                    d_ticket.data());
      const float got = d_sum.to_host()[0];
      const std::string what = "n = " + std::to_string(n) + ", call " + std::to_string(call);
      expect_float_sum(got, h_in, what);
      if (call == 1) first_bits = bits_of(got);
      expect(bits_of(got) == first_bits,
             what + ": " + format_number(got) + " differs in its bits from call 1's result");
      expect_ticket_reset(d_ticket, what);
    }
  }
  if (run.small) return;

  // Each timed call sums fresh floats (seed 830 + call); its sum and the ticket are checked.
  const int64_t n = int64_t{1} << 20;
  DeviceBuffer<float> d_in(n);
  DeviceBuffer<float> d_cub_sum(1);
  CubSum<float, float> cub_sum(d_in.data(), d_cub_sum.data(), n);
  const EveryCall every{[&](int call) {
                          fill_random_floats(d_in.data(), n, 830 + call, -1.0f, 1.0f);
                          d_sum.poison();
                        },
                        [&](int call) {
                          const std::string what = "n = 2^20, " + timed_call(call);
                          expect_float_sum(d_sum.to_host()[0],
                                           random_floats(n, 830 + call, -1.0f, 1.0f), what);
                          expect_ticket_reset(d_ticket, what);
                        }};
  std::cout << "      speed at n = 2^20:" << std::endl;
  expect_speed(4.0 * n,
               Timed{"yours",
                     [&] {
                       exercise08::deterministic_sum(d_in.data(), n, d_sum.data(),
                                                     d_partials.data(), d_ticket.data());
                     }},
               Timed{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}, kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "8.3",
                          "a deterministic float sum in one launch, as fast as CUB (performance)",
                          check_deterministic_sum);
}
