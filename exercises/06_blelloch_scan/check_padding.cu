// Checker of exercise 6.1: the Blelloch tree with padded slots: exclusive scans against a CPU
// reference, and a count of the bank conflicts of every step of the tree.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"

namespace {

using namespace tutorial;
using namespace check06;

/// How many distinct elements the worst bank serves for one warp's accesses to @p slots.
/// 4-byte elements: 32 banks, the whole warp at once. 8-byte elements: each half-warp at
/// once, and an element covers two banks, so 16 "banks" of 8 bytes.
int conflict_degree(const std::vector<int>& slots, int element_bytes) {
  const int lanes = element_bytes == 8 ? 16 : 32;
  int worst = 1;
  for (size_t start = 0; start < slots.size(); start += lanes) {
    std::vector<std::vector<int>> per_bank(lanes);
    for (size_t k = start; k < std::min(slots.size(), start + lanes); ++k) {
      std::vector<int>& bank = per_bank[slots[k] % lanes];
      if (std::find(bank.begin(), bank.end(), slots[k]) == bank.end()) bank.push_back(slots[k]);
    }
    for (const auto& bank : per_bank) worst = std::max(worst, static_cast<int>(bank.size()));
  }
  return worst;
}

/// Expects padded_slot() to be increasing, to waste little, and to give every step of the
/// up- and down-sweep over @p count elements of @p element_bytes bytes no bank conflict.
void expect_conflict_free(int count, int element_bytes) {
  const std::string of =
      std::to_string(element_bytes) + "-byte elements, tree of " + std::to_string(count) + ": ";
  for (int i = 0; i + 1 < count; ++i) {
    expect(
        exercise06::padded_slot(i + 1, element_bytes) > exercise06::padded_slot(i, element_bytes),
        of + "padded_slot(" + std::to_string(i + 1) + ") must come after padded_slot(" +
            std::to_string(i) + ")");
  }
  const int last = exercise06::padded_slot(count - 1, element_bytes);
  expect(last < count + count / 8, of + "padded_slot(" + std::to_string(count - 1) + ") = " +
                                       std::to_string(last) + " wastes more than 1 slot in 8");
  // The steps touch elements right = 2 s (t + 1) - 1 and right - s, for stride s.
  for (int stride = 1; stride < count; stride *= 2) {
    const int active = count / (2 * stride);
    for (int warp = 0; warp < active; warp += 32) {
      for (int shift : {0, stride}) {
        std::vector<int> slots;
        for (int t = warp; t < std::min(active, warp + 32); ++t) {
          slots.push_back(exercise06::padded_slot(2 * stride * (t + 1) - 1 - shift, element_bytes));
        }
        const int degree = conflict_degree(slots, element_bytes);
        expect(degree == 1, of + "the step with stride " + std::to_string(stride) + " has a " +
                                std::to_string(degree) +
                                "-way bank conflict in the warp of thread " + std::to_string(warp));
      }
    }
  }
}

void check_padding(const CheckRun& run) {
  uint64_t seed = 61;
  for (int64_t n : sizes_up_to(2048, 610, run)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -1000000, 1000000);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int64_t> d_out(n);
    d_out.poison();
    exercise06::exclusive_scan_padded(d_in.data(), static_cast<int>(n), d_out.data());
    expect_prefix_equal(d_out.to_host(), exclusive_reference(h_in),
                        "exclusive scan, n = " + std::to_string(n));
  }
  for (int element_bytes : {4, 8}) {
    for (int count : {64, 256, 1024, 2048}) expect_conflict_free(count, element_bytes);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "6.1", "bank-conflict padding", check_padding);
}
