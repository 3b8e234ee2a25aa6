// Checker of exercises 3.1 and 3.2: random inputs of awkward sizes against a CPU reference,
// block by block.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"

namespace {

using namespace tutorial;

const int64_t kSizes[] = {1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 18};

/// The reduction of each group of @p group consecutive values with @p combine.
template <typename Out, typename Combine>
std::vector<Out> reference_groups(const std::vector<int32_t>& in, int64_t group, Out first,
                                  Combine combine) {
  std::vector<Out> out;
  for (size_t begin = 0; begin < in.size(); begin += group) {
    Out value = first;
    for (size_t i = begin; i < std::min(in.size(), begin + size_t(group)); ++i) {
      value = combine(value, Out{in[i]});
    }
    out.push_back(value);
  }
  return out;
}

/// Fails with the first block whose value differs.
template <typename T>
void expect_groups(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  expect(got.size() == want.size(), what + ": " + std::to_string(got.size()) +
                                        " block results, want " + std::to_string(want.size()));
  for (size_t b = 0; b < want.size(); ++b) {
    expect(got[b] == want[b], what + ": block " + std::to_string(b) + " gave " +
                                  std::to_string(got[b]) + ", want " + std::to_string(want[b]));
  }
}

void check_block_maxima() {
  uint64_t seed = 31;
  for (int64_t n : kSizes) {
    // All-negative inputs catch an identity of 0; then mixed signs.
    for (auto [lo, hi] : {std::pair{-1000000, -1}, std::pair{-1000000, 1000000}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      const std::vector<int32_t> want = reference_groups<int32_t>(
          h_in, 256, INT32_MIN, [](int32_t a, int32_t b) { return std::max(a, b); });
      expect_groups(exercise03::block_maxima(d_in.data(), n), want,
                    "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]");
    }
  }
}

void check_block_sums_any_size() {
  uint64_t seed = 32;
  for (int threads : {1, 3, 32, 96, 250, 256, 1000, 1024}) {
    for (int64_t n : kSizes) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 30), 1 << 30);
      const DeviceBuffer<int32_t> d_in(h_in);
      const std::vector<int64_t> want =
          reference_groups<int64_t>(h_in, threads, 0, [](int64_t a, int64_t b) { return a + b; });
      expect_groups(exercise03::block_sums_any_size(d_in.data(), n, threads), want,
                    std::to_string(threads) + " threads, n = " + std::to_string(n));
    }
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("3.1", "block maxima with the bitmask tree", check_block_maxima);
    grader.exercise("3.2", "bitmask tree for any block size", check_block_sums_any_size);
  });
}
