// Checker of exercise 13.3: the key of rank k of uniform keys, of keys from 16 values and of
// keys all equal, at awkward sizes and at ranks from the first to the last, judged by counting
// the keys below the answer and at or below it; then the speed at 2^24 and 2^26 keys against
// cub::DeviceRadixSort::SortKeys followed by reading element k, in the same run.
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/host_threads.hpp"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

/// The share of the target's speed the exercise asks for, at each size timed: twice as fast as
/// the full sort and the read. On an H100 (2026-11-26) the solution was 3.37x the target at 2^24
/// keys and 3.73x at 2^26, the given start 0.014x at 2^24.
constexpr double kShare = 2.0;

/**
 * @brief Expects @p got to be the key of rank @p k of @p keys: at most k keys are below it and
 *        more than k are at or below it (with equal keys, several places have the same key).
 *        The counts are made on every host core; a sort of the keys only where it fails, for
 *        the message.
 */
void expect_rank(uint32_t got, const std::vector<uint32_t>& keys, int64_t k,
                 const std::string& what) {
  std::vector<int64_t> below(chunk_count(keys.size()), 0), at_or_below(below.size(), 0);
  for_each_chunk(keys.size(), [&](size_t chunk, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      below[chunk] += keys[i] < got;
      at_or_below[chunk] += keys[i] <= got;
    }
  });
  int64_t less = 0, less_or_equal = 0;
  for (size_t c = 0; c < below.size(); ++c) {
    less += below[c];
    less_or_equal += at_or_below[c];
  }
  if (less <= k && k < less_or_equal) return;
  std::vector<uint32_t> sorted = keys;
  std::nth_element(sorted.begin(), sorted.begin() + k, sorted.end());
  throw ExerciseFailure(what + ", k = " + std::to_string(k) + ": got " + std::to_string(got) +
                        (got == poison_value<uint32_t>() ? " (the poison: never written)" : "") +
                        ", which has " + std::to_string(less) + " keys below it and " +
                        std::to_string(less_or_equal) + " at or below it; want " +
                        std::to_string(sorted[static_cast<size_t>(k)]));
}

/// Finds the key of each rank of @p ranks among @p keys with exercise13::kth_smallest, its
/// result and scratch poisoned before each call, and checks it.
void check_one(const std::vector<uint32_t>& keys, const std::vector<int64_t>& ranks,
               const std::string& what) {
  const int64_t n = static_cast<int64_t>(keys.size());
  const DeviceBuffer<uint32_t> d_keys(keys);
  DeviceBuffer<uint32_t> d_result(1);
  DeviceBuffer<unsigned long long> d_scratch(exercise13::kKthScratchWords);
  for (const int64_t k : ranks) {
    d_result.poison();
    d_scratch.poison();
    exercise13::kth_smallest(d_keys.data(), n, k, d_result.data(), d_scratch.data());
    expect_rank(d_result.to_host()[0], keys, k, what);
  }
}

/// The target: cub::DeviceRadixSort::SortKeys of the keys, then element k of the sorted keys
/// copied to the result, its temporary storage allocated once.
class CubSortThenRead {
 public:
  CubSortThenRead(const uint32_t* d_keys, int64_t n)
      : d_keys_(d_keys), n_(n), d_sorted_(n), d_result_(1) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, d_keys_, d_sorted_.data(), n_));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()(int64_t k) {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, d_keys_, d_sorted_.data(), n_));
    CUDA_CHECK(cudaMemcpyAsync(d_result_.data(), d_sorted_.data() + k, sizeof(uint32_t),
                               cudaMemcpyDeviceToDevice));
  }
  /// The key the last call read: the key of rank k.
  uint32_t result() const { return d_result_.to_host()[0]; }

 private:
  const uint32_t* d_keys_;
  int64_t n_;
  DeviceBuffer<uint32_t> d_sorted_, d_result_;
  DeviceBuffer<unsigned char> temp_;
};

void check_kth_smallest(const CheckRun& run) {
  uint64_t seed = 133;
  for (const int64_t n : check13::sizes(run)) {
    const std::string size = "n = " + std::to_string(n);
    SplitMix64 rng(++seed);
    const std::vector<int64_t> ranks = {0, n - 1, n / 2, int64_t(rng.next() % uint64_t(n)),
                                        int64_t(rng.next() % uint64_t(n))};
    const std::vector<uint32_t> keys = check13::uniform_keys(n, ++seed);
    check_one(keys, ranks, size + ", uniform keys");
    check_one(check13::few_keys(n, ++seed), ranks, size + ", keys from 16 values");
    check_one(std::vector<uint32_t>(static_cast<size_t>(n), keys[0]), ranks,
              size + ", every key " + std::to_string(keys[0]));
  }
  if (run.small) return;

  // Each timed call has fresh keys (seed 1330 + call) and a fresh rank, and its key is checked
  // against element k of CUB's sort of the same keys, on the GPU. (Made again and checked on
  // the host after every call, the keys took the checker to 76.7 s under the README's test
  // command on an H100, 2026-11-26: past the grader's 60 s.)
  for (const auto& size : {std::pair{int64_t{1} << 24, "2^24"}, {int64_t{1} << 26, "2^26"}}) {
    const int64_t n = size.first;
    DeviceBuffer<uint32_t> d_keys(n), d_result(1);
    DeviceBuffer<unsigned long long> d_scratch(exercise13::kKthScratchWords);
    CubSortThenRead cub(d_keys.data(), n);
    int64_t k = 0;
    const EveryCall every{
        [&](int call) {
          fill_random_ints(reinterpret_cast<int32_t*>(d_keys.data()), n, 1330 + call, INT32_MIN,
                           INT32_MAX);
          k = static_cast<int64_t>(SplitMix64(1330 + call).next() % uint64_t(n));
          d_result.poison();
          d_scratch.poison();
        },
        [&](int call) {
          const uint32_t got = d_result.to_host()[0];
          cub(k);
          if (got == cub.result()) return;
          throw ExerciseFailure(
              std::string("n = ") + size.second + ", " + timed_call(call) +
              ", k = " + std::to_string(k) + ": got " + std::to_string(got) +
              (got == poison_value<uint32_t>() ? " (the poison: never written)" : "") + ", want " +
              std::to_string(cub.result()) +
              " (element k of cub::DeviceRadixSort::SortKeys's sort)");
        }};
    std::cout << "      speed at n = " << size.second << " keys:" << std::endl;
    // The GB/s printed are those of one read of the keys.
    expect_speed(4.0 * double(n),
                 Timed{"yours",
                       [&] {
                         exercise13::kth_smallest(d_keys.data(), n, k, d_result.data(),
                                                  d_scratch.data());
                       }},
                 Timed{"cub::DeviceRadixSort::SortKeys + read", [&] { cub(k); }}, kShare, every);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "13.3",
                          "the k-th smallest key by radix selection "
                          "(performance)",
                          check_kth_smallest);
}
