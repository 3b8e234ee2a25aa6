// Checker of exercises 6.1-6.4: random inputs of random awkward sizes against CPU references,
// and, for the padding, a count of the bank conflicts of every step of the tree.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"

namespace {

using namespace tutorial;

/// The sizes an exercise is graded on: awkward ones up to @p max, then four random ones.
std::vector<int64_t> sizes_up_to(int64_t max, uint64_t seed) {
  std::vector<int64_t> sizes;
  for (int64_t n : {1, 2, 3, 31, 1023, 1024, 1025, 2047, 2048, 2049, 4097, 65537, 300007}) {
    if (n <= max) sizes.push_back(n);
  }
  SplitMix64 rng(seed);
  for (int k = 0; k < 4; ++k) sizes.push_back(1 + static_cast<int64_t>(rng.next() % max));
  return sizes;
}

/// Expects the first want.size() elements of @p got to equal @p want, naming the first miss.
template <typename Got, typename Want>
void expect_prefix_equal(const std::vector<Got>& got, const std::vector<Want>& want,
                         const std::string& what) {
  for (size_t i = 0; i < want.size(); ++i) {
    expect(static_cast<int64_t>(got[i]) == static_cast<int64_t>(want[i]),
           what + ": element [" + std::to_string(i) + "] is " + std::to_string(got[i]) + ", want " +
               std::to_string(want[i]));
  }
}

std::vector<int64_t> exclusive_reference(const std::vector<int32_t>& in) {
  std::vector<int64_t> out = reference_inclusive_scan(in);
  std::rotate(out.rbegin(), out.rbegin() + 1, out.rend());
  out[0] = 0;
  return out;
}

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

void check_padding() {
  uint64_t seed = 61;
  for (int64_t n : sizes_up_to(2048, 610)) {
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

void check_inclusive() {
  constexpr int64_t kTile = 2048;
  uint64_t seed = 62;
  for (int64_t n : sizes_up_to(kTile, 620)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -1000000, 1000000);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int64_t> d_out(kTile);  // room past n, to see writes that should not be
    d_out.poison();
    exercise06::inclusive_scan_tile(d_in.data(), static_cast<int>(n), d_out.data());
    const std::vector<int64_t> got = d_out.to_host();
    const std::string what = "n = " + std::to_string(n);
    expect_prefix_equal(got, reference_inclusive_scan(h_in), what);
    for (int64_t i = n; i < kTile; ++i) {
      expect(got[i] == -1, what + ": element [" + std::to_string(i) + "] past n was written");
    }
  }
}

void check_compact() {
  uint64_t seed = 63;
  for (int64_t n : sizes_up_to(300007, 630)) {
    const std::vector<int32_t> h_in = random_ints(n, ++seed, -1000, 1000);
    std::vector<int32_t> want;
    std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(want), exercise06::keep);
    const DeviceBuffer<int32_t> d_in(h_in);
    DeviceBuffer<int32_t> d_out(n);
    d_out.poison();
    const int64_t count = exercise06::compact(d_in.data(), n, d_out.data());
    const std::string what = "n = " + std::to_string(n);
    expect(count == static_cast<int64_t>(want.size()),
           what + ": returned " + std::to_string(count) + ", want " + std::to_string(want.size()));
    expect_prefix_equal(d_out.to_host(), want, what);
  }
}

void check_max_scan() {
  uint64_t seed = 64;
  for (int64_t n : sizes_up_to(300007, 640)) {
    // All negative catches a max-scan that starts from 0; then mixed signs.
    for (auto [lo, hi] : {std::pair{-1000000000, -1}, std::pair{-1000000000, 1000000000}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      std::vector<int32_t> want(h_in.size());
      int32_t running = h_in[0];
      for (size_t i = 0; i < h_in.size(); ++i) want[i] = running = std::max(running, h_in[i]);
      const DeviceBuffer<int32_t> d_in(h_in);
      DeviceBuffer<int32_t> d_out(n);
      d_out.poison();
      exercise06::inclusive_max_scan(d_in.data(), n, d_out.data());
      expect_prefix_equal(d_out.to_host(), want,
                          "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                              std::to_string(hi) + "]");
    }
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("6.1", "bank-conflict padding", check_padding);
    grader.exercise("6.2", "inclusive scan from the exclusive tree, one pass", check_inclusive);
    grader.exercise("6.3", "stream compaction on a scan", check_compact);
    grader.exercise("6.4", "inclusive max-scan of any length", check_max_scan);
  });
}
