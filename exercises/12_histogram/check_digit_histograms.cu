// Checker of exercise 12.2: the four digit histograms of uniform keys and of keys all equal, at
// awkward sizes, exact against a CPU reference; then the speed at 2^24 and 2^26 keys against
// four calls of cub::DeviceHistogram::HistogramEven (one per digit) in the same run.
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_histogram.cuh>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/host_threads.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

/// The share of the target's speed the exercise asks for, at each size timed: 2.5 times as fast
/// as the four calls. On an H100 (2026-11-26) one read with 16-byte loads and 4 x 256 shared
/// counters was 3.12x the four calls at 2^26 keys, the given start 0.03x. (The sizes are 2^24
/// and 2^26, not 2^28: every timed call makes its keys and their reference on the host, and at
/// 2^28 keys that alone took the checker past the grader's 60 s.)
constexpr double kShare = 2.5;

constexpr int kDigits = 4;
constexpr int kBins = 256;

/// @p n keys with every 32-bit pattern equally likely: random_ints(n, seed, INT32_MIN,
/// INT32_MAX) read as unsigned, which fill_random_ints makes on the device.
std::vector<uint32_t> random_keys(int64_t n, uint64_t seed) {
  const std::vector<int32_t> ints = random_ints(n, seed, INT32_MIN, INT32_MAX);
  return {ints.begin(), ints.end()};  // int32 to uint32 keeps the bits
}

/// The CPU reference: counts[d * 256 + b] = keys whose byte d is b, one partial histogram per
/// host core added at the end.
std::vector<uint64_t> reference_digit_counts(const std::vector<uint32_t>& keys) {
  std::vector<std::vector<uint64_t>> partial(chunk_count(keys.size()),
                                             std::vector<uint64_t>(kDigits * kBins, 0));
  for_each_chunk(keys.size(), [&](size_t chunk, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      uint32_t key = keys[i];
      for (int d = 0; d < kDigits; ++d, key /= 256) ++partial[chunk][d * kBins + key % 256];
    }
  });
  std::vector<uint64_t> total(kDigits * kBins, 0);
  for (const std::vector<uint64_t>& p : partial) {
    for (size_t c = 0; c < total.size(); ++c) total[c] += p[c];
  }
  return total;
}

/// Expects the 1024 counts @p got to be those of @p keys.
void expect_digit_counts(const std::vector<unsigned long long>& got,
                         const std::vector<uint32_t>& keys, const std::string& what) {
  check12::expect_counts(got, reference_digit_counts(keys), what, [](size_t c) {
    return "digit " + std::to_string(c / kBins) + ", bin " + std::to_string(c % kBins);
  });
}

/// Counts @p keys with exercise12::digit_histograms into poisoned counters, from dirty shared
/// memory, and checks them.
void check_one(const std::vector<uint32_t>& keys, const std::string& what) {
  const DeviceBuffer<uint32_t> d_keys(keys);
  DeviceBuffer<unsigned long long> d_counts(kDigits * kBins);
  d_counts.poison();
  check12::dirty_shared_memory();
  exercise12::digit_histograms(d_keys.data(), static_cast<int64_t>(keys.size()), d_counts.data());
  expect_digit_counts(d_counts.to_host(), keys, what);
}

/// The digit at bit @p shift of a key, for CUB's iterator.
struct DigitOf {
  int shift;
  __host__ __device__ uint8_t operator()(uint32_t key) const {
    return static_cast<uint8_t>(key >> shift);
  }
};

/// The target: the four histograms with cub::DeviceHistogram::HistogramEven, one call per digit,
/// each reading the keys through an iterator that returns that digit (CUB has no digit option;
/// chapter 12 times one such call). 256 even bins over [0, 256); 32-bit counters, CUB's fastest,
/// since every count here is below 2^32.
class CubDigitHistograms {
 public:
  CubDigitHistograms(const uint32_t* d_keys, int64_t n)
      : d_keys_(d_keys), n_(n), d_counts_(kDigits * kBins) {
    size_t bytes = 0;
    CUDA_CHECK(histogram(nullptr, bytes, 0));  // the same temporary space for every digit
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()() {
    for (int d = 0; d < kDigits; ++d) {
      size_t bytes = temp_.bytes();
      CUDA_CHECK(histogram(temp_.data(), bytes, d));
    }
  }

 private:
  cudaError_t histogram(void* temp, size_t& bytes, int digit) {
    const auto digits = thrust::make_transform_iterator(d_keys_, DigitOf{8 * digit});
    return cub::DeviceHistogram::HistogramEven(
        temp, bytes, digits, d_counts_.data() + digit * kBins, kBins + 1, 0, kBins, n_);
  }

  const uint32_t* d_keys_;
  int64_t n_;
  DeviceBuffer<unsigned int> d_counts_;
  DeviceBuffer<unsigned char> temp_;
};

void check_digit_histograms(const CheckRun& run) {
  uint64_t seed = 122;
  for (const int64_t n :
       run.sizes({1, 3, 4, 5, 7, 1023, 1024, 1025, 4099, 65537, 1000003, (1 << 20) + 3})) {
    const std::string size = "n = " + std::to_string(n);
    const std::vector<uint32_t> keys = random_keys(n, ++seed);
    check_one(keys, size + ", uniform keys");
    // Every key the same: each of the four histograms has all n keys in one bin.
    check_one(std::vector<uint32_t>(static_cast<size_t>(n), keys[0]),
              size + ", every key " + std::to_string(keys[0]));
  }
  if (run.small) return;

  // Each timed call counts fresh keys (seed 1220 + call), and its counts are checked.
  for (const auto& size : {std::pair{int64_t{1} << 24, "2^24"}, {int64_t{1} << 26, "2^26"}}) {
    const int64_t n = size.first;
    DeviceBuffer<uint32_t> d_keys(n);
    DeviceBuffer<unsigned long long> d_counts(kDigits * kBins);
    CubDigitHistograms cub(d_keys.data(), n);
    const EveryCall every{[&](int call) {
                            fill_random_ints(reinterpret_cast<int32_t*>(d_keys.data()), n,
                                             1220 + call, INT32_MIN, INT32_MAX);
                            d_counts.poison();
                          },
                          [&](int call) {
                            expect_digit_counts(
                                d_counts.to_host(), random_keys(n, 1220 + call),
                                std::string("n = ") + size.second + ", " + timed_call(call));
                          }};
    std::cout << "      speed at n = " << size.second << " keys:" << std::endl;
    expect_speed(
        4.0 * double(n),
        Timed{"yours", [&] { exercise12::digit_histograms(d_keys.data(), n, d_counts.data()); }},
        Timed{"4 x cub::DeviceHistogram::HistogramEven", [&] { cub(); }}, kShare, every);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "12.2", "all four digit histograms in one read (performance)",
                          check_digit_histograms);
}
