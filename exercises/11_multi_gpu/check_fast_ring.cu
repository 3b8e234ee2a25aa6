// Checker of exercise 11.3: the all-reduce of 1 to 4 ranks at awkward sizes, as 11.1's checker
// does; then 4 ranks of 2^24 ints on GPU 0, checked, and timed against copies of the bytes a
// ring moves, on the same GPU in the same run.
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using namespace check11;

/// The share of the copies' speed the exercise asks for.
constexpr double kShare = 0.5;

/// The seed of rank @p r's input in timed call @p call: new values for every call.
uint64_t timed_seed(int call, int r) {
  return 11320 + 8 * uint64_t(call) + uint64_t(r);
}

/// Overwrites every rank's input with the values of timed call @p call, and poisons every
/// output and its guard: the checker owns the buffers (the learner's code only reads `in`).
void fresh_inputs(const std::vector<exercise11::Rank>& ranks, int64_t n, int call) {
  for (int r = 0; r < int(ranks.size()); ++r) {
    const exercise11::Rank& rank = ranks[size_t(r)];
    DeviceScope scope(rank.device);
    fill_random_ints(const_cast<int32_t*>(rank.in), n, timed_seed(call, r), -kInputBound,
                     kInputBound);
    CUDA_CHECK(cudaMemset(rank.out, kPoisonByte, size_t(n + check11::kGuard) * sizeof(int32_t)));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
}

/// Expects every rank's n outputs to hold the sum of timed call @p call's inputs, and the
/// kGuard elements after them the poison.
void expect_reduced(const std::vector<exercise11::Rank>& ranks, int64_t n, int call) {
  std::vector<int32_t> sum(size_t(n), 0);
  for (int r = 0; r < int(ranks.size()); ++r) {
    const std::vector<int32_t> in = random_ints(n, timed_seed(call, r), -kInputBound, kInputBound);
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += in[i];
  }
  std::vector<int32_t> out(size_t(n + check11::kGuard));
  for (int r = 0; r < int(ranks.size()); ++r) {
    CUDA_CHECK(cudaMemcpy(out.data(), ranks[size_t(r)].out, out.size() * sizeof(int32_t),
                          cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < out.size(); ++i) {
      const int32_t want = i < sum.size() ? sum[i] : kPoison;
      if (out[i] == want) continue;
      throw ExerciseFailure(std::to_string(ranks.size()) + " ranks, n = 2^24, " + timed_call(call) +
                            ": rank " + std::to_string(r) + "'s out[" + std::to_string(i) +
                            "] = " + std::to_string(out[i]) +
                            (i < sum.size() ? ", want " + std::to_string(want)
                                            : ", past the end of its n elements, was written") +
                            (out[i] == kPoison ? " (the poison: never written)" : ""));
    }
  }
}

void check_fast_ring(const CheckRun& run) {
  uint64_t seed = 1130;
  for_each_placement({1, 2, 3, 4}, [&](const Placement& placement) {
    for (int64_t n : run.sizes({1, 2, 3, 5, 9, 31, 1000, 4099, 65537, 1000003})) {
      RankSet set(placement, n, seed += 10);
      set.run(exercise11::fast_ring_all_reduce);
      set.expect_all_reduced();
    }
  });
  if (run.small) return;

  constexpr int kRanks = 4;
  const int64_t n = int64_t{1} << 24;
  RankSet set(on_gpu_zero(kRanks), n, 1131);
  set.run(exercise11::fast_ring_all_reduce);
  set.expect_all_reduced();
  // The target: what a ring's receivers get, each as one device-to-device copy. In a ring each
  // rank receives (N - 1) / N of its n ints in the reduce-scatter and as many in the
  // all-gather; here from rank r - 1's input into rank r's output and scratch.
  const std::vector<exercise11::Rank>& ranks = set.ranks();
  const size_t received = size_t(n / kRanks * (kRanks - 1)) * sizeof(int32_t);
  const auto copies = [&] {
    for (int r = 0; r < kRanks; ++r) {
      const exercise11::Rank& sender = ranks[size_t((r + kRanks - 1) % kRanks)];
      CUDA_CHECK(
          cudaMemcpyAsync(ranks[size_t(r)].out, sender.in, received, cudaMemcpyDeviceToDevice));
      CUDA_CHECK(
          cudaMemcpyAsync(ranks[size_t(r)].scratch, sender.in, received, cudaMemcpyDeviceToDevice));
    }
  };
  // Each timed call reduces fresh inputs, and every rank's output is checked.
  const EveryCall every{[&](int call) { fresh_inputs(ranks, n, call); },
                        [&](int call) { expect_reduced(ranks, n, call); }};
  std::cout << "      speed of 4 ranks x 2^24 int32 on GPU 0 (GB/s counts the 2 (N - 1) / N x "
               "64 MiB each rank receives):"
            << std::endl;
  expect_speed(2.0 * double(received) * kRanks,
               Timed{"yours", [&] { set.enqueue(exercise11::fast_ring_all_reduce); }},
               Timed{"cudaMemcpyAsync of the same bytes", copies}, kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "11.3",
                          "an all-reduce at half the speed of copies (performance)",
                          check_fast_ring);
}
