// Checker of exercise 8.1: random inputs of awkward sizes and ranges (ties, all negative, the
// extremes) against a CPU reference, two calls each on the same workspace; after every call
// the ticket must be back at 0.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using exercise08::ArgMax;

void check_argmax_one_pass(const CheckRun& run) {
  DeviceBuffer<ArgMax> d_out(1), d_partials(exercise08::kArgMaxMaxBlocks);
  DeviceBuffer<unsigned int> d_ticket(1);
  CUDA_CHECK(cudaMemset(d_ticket.data(), 0, d_ticket.bytes()));  // once, for all the calls
  d_partials.poison();
  uint64_t seed = 81;
  for (int64_t n : run.sizes({1, 2, 3, 255, 257, 1000, 4099, 65537, 100003, 1 << 20, 5000011})) {
    // A narrow range makes ties common (the smallest index must win); all negative catches a
    // start at 0; the full range checks the extremes.
    for (auto [lo, hi] :
         {std::pair{-5, 5}, std::pair{-1000000, -1}, std::pair{INT32_MIN, INT32_MAX}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      const auto best = std::max_element(h_in.begin(), h_in.end());  // the first maximum
      const int64_t index = best - h_in.begin();
      const std::string what = "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) +
                               ", " + std::to_string(hi) + "]";
      for (int call = 1; call <= 2; ++call) {
        d_out.poison();
        exercise08::argmax_one_pass(d_in.data(), n, d_out.data(), d_partials.data(),
                                    d_ticket.data());
        const ArgMax got = d_out.to_host()[0];
        expect(got.value == *best && got.index == index,
               what + ", call " + std::to_string(call) + ": got " + std::to_string(got.value) +
                   " at " + std::to_string(got.index) + ", want " + std::to_string(*best) + " at " +
                   std::to_string(index));
        const unsigned int ticket = d_ticket.to_host()[0];
        expect(ticket == 0, what + ", call " + std::to_string(call) + ": the ticket is " +
                                std::to_string(ticket) + " after the call; the next call needs 0");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "8.1", "argmax in one launch (the last block)",
                          check_argmax_one_pass);
}
