// Checker of exercise 12.2: the histogram of 16-bit samples, uniform, all equal, and 90% in four
// bins, at awkward sizes and at sizes where a block of any grid that fits on the GPU counts far
// more than 65535 samples of one value, exact against a CPU count; then the speed at 2^24 and
// 2^26 uniform samples against cub::DeviceHistogram::HistogramEven in the same run, each timed
// call's counts checked against CUB's count of the same samples.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cub/device/device_histogram.cuh>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/host_threads.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

/// The share of the target's speed the exercise asks for, at each size timed: 3.5 times as fast
/// as HistogramEven. On an H100 (2026-11-26) the given start was 2.0 times as fast as the target
/// at 2^24 and 2^26 samples (CUB's histograms per block in global memory cost about what one
/// global atomic per sample does), and the solution 5.65 and 14.4 times: the given start fails
/// by 1.7 times at 2^24, and the solution passes with a margin of 1.6.
constexpr double kShare = 3.5;

constexpr int kBins = 65536;

/// @p n samples with every 16-bit value equally likely: random_ints(n, seed, 0, 65535), which
/// fill_random_ints makes on the device.
std::vector<uint16_t> uniform_samples(int64_t n, uint64_t seed) {
  const std::vector<int32_t> ints = random_ints(n, seed, 0, kBins - 1);
  return {ints.begin(), ints.end()};
}

/// @p n samples of which about 90% fall in four bins drawn from @p seed, the rest uniform. Two of
/// the four are neighbours, 2k and 2k + 1: where counters are packed two to a 32-bit word, both
/// halves of one word are busy.
std::vector<uint16_t> hot_samples(int64_t n, uint64_t seed) {
  SplitMix64 rng(seed);
  const uint16_t pair = static_cast<uint16_t>(rng.next() & 0xFFFEu);
  const uint16_t hot[4] = {pair, static_cast<uint16_t>(pair + 1), static_cast<uint16_t>(rng.next()),
                           static_cast<uint16_t>(rng.next())};
  std::vector<uint16_t> samples(static_cast<size_t>(n));
  fill_random(samples, seed + 1, [&hot](SplitMix64& draw) {
    const uint64_t bits = draw.next();
    return bits % 10 < 9 ? hot[(bits >> 32) % 4] : static_cast<uint16_t>(bits >> 48);
  });
  return samples;
}

/// The CPU count: counts[b] = the samples equal to b, one partial count per host core added at
/// the end.
std::vector<uint64_t> reference_counts(const std::vector<uint16_t>& samples) {
  std::vector<std::vector<uint64_t>> partial(chunk_count(samples.size()),
                                             std::vector<uint64_t>(kBins, 0));
  for_each_chunk(samples.size(), [&](size_t chunk, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) ++partial[chunk][samples[i]];
  });
  std::vector<uint64_t> total(kBins, 0);
  for (const std::vector<uint64_t>& p : partial) {
    for (size_t b = 0; b < total.size(); ++b) total[b] += p[b];
  }
  return total;
}

std::string bin_name(size_t b) {
  return "bin " + std::to_string(b);
}

/// Counts @p samples with exercise12::histogram_16bit into poisoned counters, from dirty shared
/// memory, and checks them against the CPU count.
void check_one(const std::vector<uint16_t>& samples, const std::string& what) {
  const DeviceBuffer<uint16_t> d_samples(samples);
  DeviceBuffer<unsigned long long> d_counts(kBins);
  d_counts.poison();
  check12::dirty_shared_memory();
  exercise12::histogram_16bit(d_samples.data(), static_cast<int64_t>(samples.size()),
                              d_counts.data());
  check12::expect_counts(d_counts.to_host(), reference_counts(samples), what, bin_name);
}

/// The target: cub::DeviceHistogram::HistogramEven, 65536 even bins over [0, 65536), its
/// temporary storage allocated once. The levels are floats: a sample's bin is then one float
/// multiplication (by 1, exact for every 16-bit value), where int levels would have CUB
/// multiply and divide in 64-bit integers (ScaleTransform, cub/device/dispatch/
/// dispatch_histogram.cuh). 32-bit counters: every count here is below 2^32.
class CubHistogram {
 public:
  CubHistogram(const uint16_t* d_samples, int64_t n)
      : d_samples_(d_samples), n_(n), d_counts_(kBins) {
    size_t bytes = 0;
    CUDA_CHECK(histogram(nullptr, bytes));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(histogram(temp_.data(), bytes));
  }
  /// The counts of the last call, widened to 64 bits.
  std::vector<uint64_t> counts() const {
    const std::vector<unsigned int> counts = d_counts_.to_host();
    return {counts.begin(), counts.end()};
  }

 private:
  cudaError_t histogram(void* temp, size_t& bytes) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, d_samples_, d_counts_.data(), kBins + 1,
                                               0.0f, float(kBins), n_);
  }

  const uint16_t* d_samples_;
  int64_t n_;
  DeviceBuffer<unsigned int> d_counts_;
  DeviceBuffer<unsigned char> temp_;
};

void check_histogram_16bit(const CheckRun& run) {
  uint64_t seed = 122;
  for (const int64_t n :
       run.sizes({1, 2, 7, 8, 9, 1023, 65535, 65536, 65537, 1000003, (int64_t{1} << 20) + 3})) {
    const std::string size = "n = " + std::to_string(n);
    const std::vector<uint16_t> samples = uniform_samples(n, ++seed);
    check_one(samples, size + ", uniform samples");
    check_one(std::vector<uint16_t>(static_cast<size_t>(n), samples[0]),
              size + ", every sample " + std::to_string(samples[0]));
    check_one(hot_samples(n, ++seed), size + ", 90% of the samples in 4 bins");
  }
  if (run.small) return;

  check_one(uniform_samples((int64_t{1} << 24) + 1, ++seed), "n = 2^24 + 1, uniform samples");
  check_one(hot_samples((int64_t{1} << 24) + 1, ++seed),
            "n = 2^24 + 1, 90% of the samples in 4 bins");
  // Every sample the same, 2^26 + 3 of them: in any grid of at most 1024 blocks (one block an
  // SM, or all the blocks that fit on the GPU at once) some block counts more than 65535 of
  // the value, so a 16-bit counter must wrap and be paid for. Once an even value and once an
  // odd one: packed two to a 32-bit word, the first is the low half, whose wrap carries into
  // its neighbour, the second the high half, whose wrap carries out of the word.
  const uint16_t even = static_cast<uint16_t>(SplitMix64(++seed).next() & 0xFFFEu);
  for (const uint16_t value : {even, static_cast<uint16_t>(even + 1)}) {
    check_one(std::vector<uint16_t>((size_t{1} << 26) + 3, value),
              "n = 2^26 + 3, every sample " + std::to_string(value));
  }

  // Each timed call counts fresh samples (seed 1220 + call), made on the GPU, and its counts are
  // checked against CUB's count of the same samples, on the GPU; CUB's count is itself checked
  // against the CPU's once, on the warm-up call's samples. (Exercise 13.3's checker, which made
  // every call's 2^26 keys again on the host to check them, ran past the grader's 60 s.)
  for (const auto& size : {std::pair{int64_t{1} << 24, "2^24"}, {int64_t{1} << 26, "2^26"}}) {
    const int64_t n = size.first;
    DeviceBuffer<uint16_t> d_samples(n);
    DeviceBuffer<unsigned long long> d_counts(kBins);
    CubHistogram cub(d_samples.data(), n);
    const EveryCall every{
        [&](int call) {
          fill_random_ints(d_samples.data(), n, 1220 + call, 0, kBins - 1);
          d_counts.poison();
        },
        [&](int call) {
          const std::string what = std::string("n = ") + size.second + ", " + timed_call(call);
          const std::vector<unsigned long long> got = d_counts.to_host();
          cub();
          const std::vector<uint64_t> want = cub.counts();
          if (call == 0) {
            const std::vector<uint64_t> cpu = reference_counts(uniform_samples(n, 1220));
            if (want != cpu) {
              throw ExerciseFailure(what + ": the checker's reference, " +
                                    "cub::DeviceHistogram::HistogramEven, disagrees with the CPU's "
                                    "count: a fault of the checker or of CUB, not of your code");
            }
          }
          check12::expect_counts(got, want, what, bin_name);
        }};
    std::cout << "      speed at n = " << size.second << " samples:" << std::endl;
    expect_speed(
        2.0 * double(n),
        Timed{"yours", [&] { exercise12::histogram_16bit(d_samples.data(), n, d_counts.data()); }},
        Timed{"cub::DeviceHistogram::HistogramEven", [&] { cub(); }}, kShare, every);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "12.2", "a histogram of 16-bit samples (performance)",
                          check_histogram_16bit);
}
