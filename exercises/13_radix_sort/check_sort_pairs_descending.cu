// Checker of exercise 13.1: pairs sorted by key, largest first, stable. The values are the
// input indices, so the values out say exactly where each pair came from: a sort that moves
// equal keys out of their input order, or leaves a value behind, shows. Keys uniform, from 16
// values, ascending and descending, at awkward sizes, against std::stable_sort on the host.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/poison.hpp"

namespace {

using namespace tutorial;

/// Sorts (@p keys, 0 ... n - 1) with exercise13::sort_pairs_descending into poisoned outputs
/// (the temporary arrays poisoned too) and checks keys and values against the host's stable sort.
void check_one(const std::vector<uint32_t>& keys, const std::string& what) {
  const int64_t n = static_cast<int64_t>(keys.size());
  std::vector<uint32_t> index(keys.size());
  std::iota(index.begin(), index.end(), 0u);
  const DeviceBuffer<uint32_t> d_keys(keys), d_values(index);
  DeviceBuffer<uint32_t> d_keys_out(n), d_values_out(n), d_temp_keys(n), d_temp_values(n);
  for (DeviceBuffer<uint32_t>* b : {&d_keys_out, &d_values_out, &d_temp_keys, &d_temp_values}) {
    b->poison();
  }
  exercise13::sort_pairs_descending(d_keys.data(), d_values.data(), n, d_keys_out.data(),
                                    d_values_out.data(), d_temp_keys.data(), d_temp_values.data());

  // The reference: the input indices in the order of a stable sort by key, largest first.
  std::vector<uint32_t> order = index;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] > keys[b]; });
  std::vector<uint32_t> want_keys(keys.size());
  for (size_t i = 0; i < order.size(); ++i) want_keys[i] = keys[order[i]];
  const uint32_t poison = poison_value<uint32_t>();
  check13::expect_words(
      d_keys_out.to_host(), want_keys, what + ", keys",
      [](uint32_t key) { return std::to_string(key); }, poison);
  const auto show_pair = [&](uint32_t value) {
    return value < keys.size() ? "the value of input " + std::to_string(value) + " (key " +
                                     std::to_string(keys[value]) + ")"
                               : std::to_string(value);
  };
  check13::expect_words(d_values_out.to_host(), order,
                        what +
                            ", values (each the index of its pair in the input; equal keys "
                            "keep their input order)",
                        show_pair, poison);
}

void check_sort_pairs_descending(const CheckRun& run) {
  uint64_t seed = 131;
  for (const int64_t n : check13::sizes(run)) {
    const std::string size = "n = " + std::to_string(n);
    std::vector<uint32_t> keys = check13::uniform_keys(n, ++seed);
    check_one(keys, size + ", uniform keys");
    check_one(check13::few_keys(n, ++seed), size + ", keys from 16 values");
    std::sort(keys.begin(), keys.end());
    check_one(keys, size + ", uniform keys ascending");
    std::reverse(keys.begin(), keys.end());
    check_one(keys, size + ", uniform keys descending");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "13.1", "a stable descending sort of pairs",
                          check_sort_pairs_descending);
}
