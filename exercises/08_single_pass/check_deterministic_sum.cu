// Checker of exercise 8.3: sums of awkward sizes, each summed with many grids (1 block to
// kSumMaxBlocks): every sum within the error bound of any summation order and with the bits of
// the size's first sum, the ticket back at 0 and no slot past d_partials' kSumMaxBlocks written
// after each call. Then that the function launches the grid it is given (one block must be much
// slower than 2 x SMs blocks), and the speed at 2^20 with 2 x SMs blocks against
// cub::DeviceReduce::Sum in the same run.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;

/// How much faster than CUB the exercise asks for, at n = 2^20 with 2 x SMs blocks: as fast.
/// Before the exercise gave the grid, its solution (one launch, a grid of its own choosing)
/// measured 1.08x and 1.09x of CUB on an H200 (2026-11-25); the grid-invariant solution makes
/// the same loads at 2^20 as that one did, so the target stays.
constexpr double kShare = 1.0;

/// Slots after d_partials' kSumMaxBlocks, poisoned, that no call may write: a chunk count that
/// outgrows the workspace shows here, not only under compute-sanitizer.
constexpr int kGuardSlots = 1024;

/// How much slower a call with one block must be than one with 2 x SMs blocks at n = 2^22 + 3:
/// one SM cannot read 16 MiB nearly as fast as all of them. A function that ignores `blocks`
/// and picks a grid of its own runs both calls in the same time.
constexpr double kOneBlockSlower = 4;

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// "1.234567891 (bits 0x3f9e0652)".
std::string with_bits(float value) {
  char bits[16];
  std::snprintf(bits, sizeof bits, "0x%08x", bits_of(value));
  return format_number(value) + " (bits " + bits + ")";
}

/// The buffers of every call: the result, the partials with their guard slots, the ticket.
struct Workspace {
  DeviceBuffer<float> d_sum{1};
  DeviceBuffer<float> d_partials{exercise08::kSumMaxBlocks + kGuardSlots};
  DeviceBuffer<unsigned int> d_ticket{1};

  Workspace() {
    CUDA_CHECK(cudaMemset(d_ticket.data(), 0, d_ticket.bytes()));  // once, for all the calls
    d_partials.poison();
  }

  void sum(const float* d_in, int64_t n, int blocks) {
    exercise08::deterministic_sum(d_in, n, d_sum.data(), d_partials.data(), d_ticket.data(),
                                  blocks);
  }

  /// Expects the ticket back at 0 (the next call needs it so) and the guard slots unwritten.
  void expect_reset(const std::string& what) const {
    const unsigned int ticket = d_ticket.to_host()[0];
    expect(ticket == 0, what + ": the ticket is " + std::to_string(ticket) +
                            " after the call; the next call needs 0");
    const std::vector<float> partials = d_partials.to_host();
    for (int slot = exercise08::kSumMaxBlocks; slot < int(partials.size()); ++slot) {
      expect(bits_of(partials[size_t(slot)]) == bits_of(poison_value<float>()),
             what + ": d_partials[" + std::to_string(slot) + "] was written; it has " +
                 std::to_string(exercise08::kSumMaxBlocks) + " slots (kSumMaxBlocks)");
    }
  }
};

/// The grids each size is summed with: the timed grid first and last, one block, a few odd
/// counts, one block per SM, and up to kSumMaxBlocks. Under --small a few of them.
std::vector<int> grids(const CheckRun& run, int timed) {
  if (run.small) return {timed, 1, 3, 64};
  constexpr int kMax = exercise08::kSumMaxBlocks;
  return {timed, 1, 2, 3, 7, 64, 132, 264, timed / 2, 1000, kMax - 1, kMax, timed};
}

void check_deterministic_sum(const CheckRun& run) {
  const int sms = query_device().sm_count;
  const int timed_blocks = std::min(2 * sms, exercise08::kSumMaxBlocks);  // the grid timed below
  Workspace work;
  uint64_t seed = 83;
  for (int64_t n : run.sizes({1, 2, 3, 4, 5, 255, 257, 1023, 4097, 4099, 65537, 100003, 1 << 20,
                              (1 << 22) + 3, (int64_t{1} << 24) + 5})) {
    const std::vector<float> h_in = random_floats(n, ++seed, -1.0f, 1.0f);
    const DeviceBuffer<float> d_in(h_in);
    float first = 0.0f;
    int first_blocks = 0;
    for (int blocks : grids(run, timed_blocks)) {
      work.d_sum.poison();
      work.sum(d_in.data(), n, blocks);
      const float got = work.d_sum.to_host()[0];
      const std::string what = "n = " + std::to_string(n) + ", blocks = " + std::to_string(blocks);
      expect_float_sum(got, h_in, what);
      if (first_blocks == 0) {
        first = got;
        first_blocks = blocks;
      }
      expect(bits_of(got) == bits_of(first),
             what + " gave " + with_bits(got) + ", but blocks = " + std::to_string(first_blocks) +
                 " gave " + with_bits(first) + " for the same input: the bits depend on the grid");
      work.expect_reset(what);
    }
  }
  if (run.small) return;

  // The grid it is given: one block reads 16 MiB much more slowly than 2 x SMs blocks.
  {
    const int64_t n = (int64_t{1} << 22) + 3;
    DeviceBuffer<float> d_in(n);
    fill_random_floats(d_in.data(), n, 8301, -1.0f, 1.0f);
    Timer timer(query_device());
    const double one_ms = timer.time_ms(5, [&] { work.sum(d_in.data(), n, 1); }).median;
    const double full_ms = timer.time_ms(5, [&] { work.sum(d_in.data(), n, timed_blocks); }).median;
    work.expect_reset("n = 2^22 + 3, the grid's timing");
    char line[160];
    std::snprintf(line, sizeof line, "%.4f ms with 1 block, %.4f ms with %d blocks", one_ms,
                  full_ms, timed_blocks);
    std::cout << "      at n = 2^22 + 3: " << line << std::endl;
    expect(one_ms >= kOneBlockSlower * full_ms,
           std::string("n = 2^22 + 3: ") + line + "; one block should take at least " +
               format_number(kOneBlockSlower) +
               " times as long. Does your function launch `blocks` blocks?");
  }

  // Each timed call sums fresh floats (seed 830 + call); its sum and the ticket are checked.
  const int64_t n = int64_t{1} << 20;
  const int blocks = timed_blocks;
  DeviceBuffer<float> d_in(n);
  DeviceBuffer<float> d_cub_sum(1);
  CubSum<float, float> cub_sum(d_in.data(), d_cub_sum.data(), n);
  const EveryCall every{[&](int call) {
                          fill_random_floats(d_in.data(), n, 830 + call, -1.0f, 1.0f);
                          work.d_sum.poison();
                        },
                        [&](int call) {
                          const std::string what = "n = 2^20, " + timed_call(call);
                          expect_float_sum(work.d_sum.to_host()[0],
                                           random_floats(n, 830 + call, -1.0f, 1.0f), what);
                          work.expect_reset(what);
                        }};
  std::cout << "      speed at n = 2^20, blocks = 2 x " << sms << " SMs = " << blocks << ":"
            << std::endl;
  expect_speed(4.0 * n, Timed{"yours", [&] { work.sum(d_in.data(), n, blocks); }},
               Timed{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}, kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "8.3",
                          "a float sum whose bits do not depend on the grid (performance)",
                          check_deterministic_sum);
}
