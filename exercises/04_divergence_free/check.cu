// Checker of exercises 4.1 and 4.2: random inputs of awkward sizes against a CPU reference,
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

const int64_t kSizes[] = {1, 2, 31, 33, 1023, 1024, 1025, 4099, 100003, 1 << 19};

/// Fails with the first block whose result differs from the reference.
template <typename T, typename Same, typename Show>
void expect_blocks(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                   Same same, Show show) {
  expect(got.size() == want.size(), what + ": " + std::to_string(got.size()) +
                                        " block results, want " + std::to_string(want.size()));
  for (size_t b = 0; b < want.size(); ++b) {
    expect(same(got[b], want[b]), what + ": block " + std::to_string(b) + " gave " + show(got[b]) +
                                      ", want " + show(want[b]));
  }
}

void check_block_min_max() {
  using exercise04::MinMax;
  uint64_t seed = 41;
  constexpr int64_t kGroup = exercise04::kMinMaxThreads * exercise04::kMinMaxLoads;
  for (int64_t n : kSizes) {
    // One-signed ranges catch identities of 0; then mixed signs.
    for (auto [lo, hi] :
         {std::pair{-1000000, -1}, std::pair{1, 1000000}, std::pair{INT32_MIN, INT32_MAX}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      std::vector<MinMax> want;
      for (int64_t begin = 0; begin < n; begin += kGroup) {
        const auto [low, high] =
            std::minmax_element(h_in.begin() + begin, h_in.begin() + std::min(n, begin + kGroup));
        want.push_back({*low, *high});
      }
      expect_blocks(
          exercise04::block_min_max(d_in.data(), n), want,
          "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "]",
          [](MinMax a, MinMax b) { return a.min == b.min && a.max == b.max; },
          [](MinMax m) {
            return "(" + std::to_string(m.min) + ", " + std::to_string(m.max) + ")";
          });
    }
  }
}

void check_block_sums_shuffle() {
  uint64_t seed = 42;
  for (int threads : {32, 96, 160, 256, 544, 1024}) {
    for (int64_t n : kSizes) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, -(1 << 30), 1 << 30);
      const DeviceBuffer<int32_t> d_in(h_in);
      const int64_t group = 4 * int64_t{threads};
      std::vector<int64_t> want;
      for (int64_t begin = 0; begin < n; begin += group) {
        int64_t sum = 0;
        for (int64_t i = begin; i < std::min(n, begin + group); ++i) sum += h_in[i];
        want.push_back(sum);
      }
      expect_blocks(
          exercise04::block_sums_shuffle(d_in.data(), n, threads), want,
          std::to_string(threads) + " threads, n = " + std::to_string(n),
          [](int64_t a, int64_t b) { return a == b; }, [](int64_t v) { return std::to_string(v); });
    }
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("4.1", "block minimum and maximum in one pass", check_block_min_max);
    grader.exercise("4.2", "shuffle block sum for any whole number of warps",
                    check_block_sums_shuffle);
  });
}
