/**
 * @file chapters/12_histogram/main.cu
 * @brief Chapter 12: a histogram of 256 bins, the first step of a radix sort. One global atomic
 *        per sample, warp aggregation, a histogram per block in shared memory, 16-byte loads and
 *        a copy of the histogram per lane, each next to cub::DeviceHistogram::HistogramEven.
 *
 * Shows: why one global atomicAdd per sample is slow, and slower again when the samples pile
 * into one bin (the adds to one address in L2 are served one after another); `__match_any_sync`,
 * which finds the lanes of a warp that hold the same bin so that one lane adds them all, and
 * where it pays (global atomics on skewed data) and where it does not (shared atomics, where
 * the hardware already merges a warp's increments of one address); a block-private histogram in
 * shared memory; 16-byte loads; bank conflicts between the lanes of a warp, removed by a copy of
 * the histogram per lane. Two inputs: 8-bit samples (an image's pixels: the sample is its bin)
 * and 32-bit keys binned by one 8-bit digit (what each pass of chapter 13's radix sort counts);
 * three distributions: uniform, skewed (one value) and hot (about 90% of the samples in 4
 * bins). Counts are exact for any n: the result is 64-bit, a block's shared counters are 32-bit
 * and the grid is large enough that no block counts 2^31 samples. The bodies are in
 * histogram.cuh. Leaves out: more bins than a block's shared memory holds as 32-bit counters
 * (exercise 12.2: 65536 bins of 16-bit samples), several digits in one pass (chapter 13's
 * upfront histogram).
 */
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_histogram.cuh>

#include "12_histogram/histogram.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/host_threads.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter12;

/// The most samples one block may count (grid_size()): its 32-bit shared counters hold them.
constexpr int64_t kMaxBlockSamples = (int64_t{1} << 31) - 1;

/// Blocks an SM at most for the steps with 16-byte loads. Every block pays for its private
/// histogram: it zeroes its counters and merges them with up to 256 global atomics, on the same
/// 256 addresses as every other block. With 4 loads in flight a thread, fewer blocks keep the
/// memory busy, and fewer pay that cost: in a probe on an H100 (2026-11-26, the page) 3 was
/// within 6% of the fastest count at 2^24 and 2^28 for both inputs, and the 6 that fit up to
/// 26% slower. The steps that load one sample at a time get kAllThatFit, more than ever fit: at
/// 3 an SM the shared step took 0.978 ms at 2^28 against 0.386 (most likely the latency of
/// their loads, which only more warps hide).
constexpr int kWideBlocksPerSm = 3;
constexpr int kAllThatFit = 1 << 30;

/// The kernel of each body of histogram.cuh, as the harness launches it (block_cycles.cuh).
template <auto kBody>
constexpr auto block_kernel = clocked_kernel<kBody>;

//! [grid_size]
/// Chapter 05's grid: as many blocks of @p kernel as fit on the GPU at once, at most
/// @p max_per_sm an SM, capped at one 16-byte vector per thread so that a small input does not
/// start idle blocks, and raised, only for n past 2^31 times that many blocks, so that no block
/// counts 2^31 samples or more (its shared counters are 32-bit; the merge of
/// histogram_lane_private() adds 32 of them).
template <typename T, typename Kernel>
int grid_size(Kernel kernel, int max_per_sm, const DeviceFacts& device, int64_t n) {
  int blocks_per_sm = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kBlockThreads, 0));
  const int64_t blocks = int64_t{std::min(blocks_per_sm, max_per_sm)} * device.sm_count;
  const int64_t per_block = kBlockThreads * int64_t{16 / sizeof(T)};
  const int64_t useful = (n + per_block - 1) / per_block;
  const int64_t exact = (n + kMaxBlockSamples - 1) / kMaxBlockSamples;
  return static_cast<int>(std::max({int64_t{1}, std::min(blocks, useful), exact}));
}
//! [grid_size]

/// The distributions of the input (--dist).
enum class Dist { kUniform, kSkewed, kHot };

/// --dist's value, or a UsageError.
Dist parse_dist(const std::string& text) {
  if (text == "uniform") return Dist::kUniform;
  if (text == "skewed") return Dist::kSkewed;
  if (text == "hot") return Dist::kHot;
  throw UsageError("bad --dist '" + text + "': expected uniform, skewed or hot");
}

/// --digit's value (0 to 3), or a UsageError.
int parse_digit(const std::string& text) {
  if (text.size() != 1 || text[0] < '0' || text[0] > '3') {
    throw UsageError("bad --digit '" + text + "': expected 0, 1, 2 or 3");
  }
  return text[0] - '0';
}

//! [draw_bin]
/// Where the samples fall: uniform over the 256 bins; skewed, all in one bin; hot, 9 in 10 in
/// four bins and the rest uniform. The one bin and the four are drawn from the seed, so a
/// kernel that counts into a fixed bin shows.
class Distribution {
 public:
  Distribution(Dist dist, uint64_t seed) : dist_(dist) {
    SplitMix64 rng(seed ^ 0x48495354u);  // its own stream, apart from the samples'
    for (int h = 0; h < 4; ++h) {
      bool fresh = false;
      while (!fresh) {  // four different bins
        hot_[h] = static_cast<uint8_t>(rng.next());
        fresh = std::find(hot_, hot_ + h, hot_[h]) == hot_ + h;
      }
    }
  }
  /// The bin of a draw @p r: its byte at @p shift where the bin is uniform, and above bit 32
  /// (which the samples and keys do not use) the choice between a hot bin and a uniform one.
  uint8_t bin(uint64_t r, int shift) const {
    const auto uniform = static_cast<uint8_t>(r >> shift);
    switch (dist_) {
      case Dist::kSkewed:
        return hot_[0];
      case Dist::kHot:
        return (r >> 32) % 10 == 0 ? uniform : hot_[(r >> 40) % 4];
      default:
        return uniform;
    }
  }
  std::string describe() const {
    const std::string one = std::to_string(hot_[0]);
    switch (dist_) {
      case Dist::kSkewed:
        return "skewed (every bin " + one + ")";
      case Dist::kHot:
        return "hot (about 90% in bins " + one + ", " + std::to_string(hot_[1]) + ", " +
               std::to_string(hot_[2]) + ", " + std::to_string(hot_[3]) + "; the rest uniform)";
      default:
        return "uniform";
    }
  }

 private:
  Dist dist_;
  uint8_t hot_[4] = {};
};
//! [draw_bin]

/// @p n samples of @p T: random bits, with the 8 bits at @p shift replaced by the drawn bin. An
/// 8-bit sample (shift 0) is its bin; a key's other three digits stay uniform whatever the
/// distribution, so a kernel that reads the wrong digit fails on every distribution.
template <typename T>
std::vector<T> make_input(int64_t n, uint64_t seed, const Distribution& dist, int shift) {
  std::vector<T> values(static_cast<size_t>(n));
  fill_random(values, seed, [&](SplitMix64& rng) {
    const uint64_t r = rng.next();
    const uint32_t bin = dist.bin(r, shift);
    return static_cast<T>((static_cast<uint32_t>(r) & ~(0xFFu << shift)) | (bin << shift));
  });
  return values;
}

/// The CPU reference: the 256 counts of the bins of @p values, in 64 bits, one partial
/// histogram per host core added at the end. Its own digit arithmetic, not bin_of().
template <typename T>
std::vector<uint64_t> reference_histogram(const std::vector<T>& values, int shift) {
  std::vector<std::vector<uint64_t>> partial(chunk_count(values.size()),
                                             std::vector<uint64_t>(kBins, 0));
  for_each_chunk(values.size(), [&](size_t chunk, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) ++partial[chunk][(uint64_t{values[i]} >> shift) % 256];
  });
  std::vector<uint64_t> total(kBins, 0);
  for (const std::vector<uint64_t>& p : partial) {
    for (int b = 0; b < kBins; ++b) total[b] += p[b];
  }
  return total;
}

//! [cub_histogram]
/// The yardstick: cub::DeviceHistogram::HistogramEven, 256 even bins over [0, 256). An 8-bit
/// sample is its own bin. For 32-bit keys CUB has no digit option, so it reads the keys through
/// an iterator that returns the digit (the same 4 bytes a key read, one key per load). Its
/// counters are 32-bit below kCub32BitLimit samples, 64-bit from there.
template <typename Samples, typename Counter>
class CubHistogram {
 public:
  CubHistogram(Samples d_samples, int64_t n) : d_samples_(d_samples), n_(n), d_bins_(kBins) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d_samples_, d_bins_.data(),
                                                   kBins + 1, 0, kBins, n_));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp_.data(), bytes, d_samples_, d_bins_.data(),
                                                   kBins + 1, 0, kBins, n_));
  }
  void poison() { d_bins_.poison(); }
  /// The counts, widened to 64 bits for the check.
  std::vector<uint64_t> counts() const {
    const std::vector<Counter> got = d_bins_.to_host();
    return {got.begin(), got.end()};
  }

 private:
  Samples d_samples_;
  int64_t n_;
  DeviceBuffer<Counter> d_bins_;
  DeviceBuffer<unsigned char> temp_;
};
//! [cub_histogram]

/// The digit of a key at bit shift, for CUB's iterator.
struct DigitOf {
  int shift;
  __host__ __device__ uint8_t operator()(uint32_t key) const {
    return static_cast<uint8_t>(bin_of(key, shift));
  }
};

/// CUB's counters are 32-bit below this n, 64-bit from it: a 32-bit count then fits and cannot
/// equal the poison of a 32-bit counter (0x7F7F7F7F), so a bin CUB never wrote shows.
constexpr int64_t kCub32BitLimit = 0x7F7F7F7F;

/// CUB on @p d_in as the table uses it: run it, poison its bins, read them back. Its counter
/// type is chosen at run time from n (CubHistogram).
struct CubYardstick {
  std::function<void()> run, poison;
  std::function<std::vector<uint64_t>()> counts;
};
template <typename Samples>
CubYardstick cub_yardstick(Samples d_samples, int64_t n) {
  const auto wrap = [](auto cub) {
    return CubYardstick{[cub] { (*cub)(); }, [cub] { cub->poison(); },
                        [cub] { return cub->counts(); }};
  };
  if (n < kCub32BitLimit) {
    return wrap(std::make_shared<CubHistogram<Samples, unsigned int>>(d_samples, n));
  }
  return wrap(std::make_shared<CubHistogram<Samples, unsigned long long>>(d_samples, n));
}

/// The samples @p d_in as CUB reads them: 8-bit samples directly, keys through DigitOf.
inline const uint8_t* cub_samples(const uint8_t* d_in, int) {
  return d_in;
}
inline auto cub_samples(const uint32_t* d_in, int shift) {
  return thrust::make_transform_iterator(d_in, DigitOf{shift});
}

/// The launch of one step: the bins zeroed (a memset, part of the step's time), then one grid.
template <typename T, typename Kernel>
std::function<void(BlockCycleSlots)> histogram_launch(Kernel kernel, int grid, const T* d_in,
                                                      int64_t n, int shift, Count* d_bins) {
  return [=](BlockCycleSlots slots) {
    CUDA_CHECK(cudaMemsetAsync(d_bins, 0, kBins * sizeof(Count)));
    kernel<<<grid, kBlockThreads>>>(slots, d_in, n, shift, d_bins);
  };
}

/**
 * @brief One table: the input of @p T (8-bit samples or 32-bit keys) made, every step and CUB
 *        checked against the CPU histogram on poisoned bins, then all timed in the same run.
 * @param prefix the rows' prefix, "" for the 8-bit table, so that no two rows share a name; the
 *               rows of a table with a prefix are compared with its own CUB row.
 */
template <typename T>
void histogram_table(Report& report, Timer& timer, const Options& opt, const Distribution& dist,
                     int shift, const std::string& prefix) {
  const int64_t n = opt.n;
  // The device buffer first: a size that cannot fit fails before the input is made.
  DeviceBuffer<T> d_in(n);
  const std::vector<uint64_t> reference = [&] {
    const std::vector<T> h_in = make_input<T>(n, opt.seed, dist, shift);
    d_in.copy_from(h_in);
    return reference_histogram(h_in, shift);
  }();  // the host copy is freed here: the next table needs the memory
  DeviceBuffer<Count> d_bins(kBins);
  const CubYardstick cub = cub_yardstick(cub_samples(d_in.data(), shift), n);
  const std::string cub_id = prefix + "cub::DeviceHistogram::HistogramEven";
  const std::string baseline = prefix.empty() ? "" : cub_id;

  // Each step with its own grid (grid_size()): all its blocks that fit, or kWideBlocksPerSm.
  std::vector<int> grids;
  const auto step = [&](const std::string& id, std::string teaches, auto kernel,
                        int max_per_sm = kAllThatFit) {
    const int grid = grid_size<T>(kernel, max_per_sm, timer.device(), n);
    grids.push_back(grid);
    return Step{prefix + id,
                std::move(teaches),
                reinterpret_cast<const void*>(kernel),
                grid,
                double(n),
                histogram_launch(kernel, grid, d_in.data(), n, shift, d_bins.data()),
                baseline};
  };
  const std::vector<Step> steps = {
      step("histogram_global_atomics", "one global atomicAdd per sample, grid-stride loop",
           block_kernel<histogram_global_atomics<T>>),
      step("histogram_global_aggregated",
           "__match_any_sync: one global atomic per distinct bin of a warp, not per lane",
           block_kernel<histogram_global_aggregated<T>>),
      step("histogram_shared_private",
           "a histogram per block in shared memory, one global atomic per bin at the end",
           block_kernel<histogram_shared_private<T>>),
      step("histogram_shared_aggregated",
           "__match_any_sync in front of the shared atomics of the histogram per block",
           block_kernel<histogram_shared_aggregated<T>>),
      step("histogram_wide_loads",
           "the histogram per block fed by 16-byte loads, " + std::to_string(kVectorsInFlight) +
               " in flight per thread",
           block_kernel<histogram_wide_loads<T>>, kWideBlocksPerSm),
      step("histogram_lane_private",
           "the 16-byte loads with a copy of the histogram per lane: no bank conflicts",
           block_kernel<histogram_lane_private<T>>, kWideBlocksPerSm),
  };

  // Each step and CUB checked bin by bin, exactly, on poisoned bins; then all timed.
  const size_t first_row = report.rows.size();
  run_steps(report, timer, opt.reps, double(n) * sizeof(T), steps, {{cub_id, cub.run, baseline}},
            [&](const std::string& id, auto run) {
              std::vector<uint64_t> got;
              if (id == cub_id) {
                cub.poison();
                run();
                CUDA_CHECK(cudaGetLastError());
                got = cub.counts();
              } else {
                d_bins.poison();
                run();
                CUDA_CHECK(cudaGetLastError());
                const std::vector<Count> bins = d_bins.to_host();
                got.assign(bins.begin(), bins.end());
              }
              return check_elements(
                  "bins (" + id + ")", got, reference, [](size_t) { return 0.0; }, "exact");
            });
  for (size_t i = first_row; i < report.rows.size(); ++i) {
    report.rows[i].ops_per_byte = 1.0 / sizeof(T);  // one bin increment per sample read
  }
  std::string grid_list;
  for (const int grid : grids) grid_list += (grid_list.empty() ? "" : ", ") + std::to_string(grid);
  report.notes.push_back(
      (prefix.empty() ? "uint8 samples" : "uint32 keys") + std::string(": grids of ") +
      std::to_string(kBlockThreads) + " threads, step by step: " + grid_list +
      " blocks (all that fit, at most " + std::to_string(kWideBlocksPerSm) +
      " an SM for the 16-byte loads; capped at one 16-byte vector per thread); bytes per run: n "
      "x " +
      std::to_string(sizeof(T)) + " read (the bins' writes are 2 KiB); CUB's counters " +
      (n < kCub32BitLimit ? "32" : "64") + "-bit");
}

const ChapterInfo kChapter{"12_histogram",
                           "256-bin histograms: global atomics, warp aggregation, shared-memory "
                           "privatization, wide loads, a copy per lane",
                           "histogram_lane_private"};

Report run_lesson(const Options& opt) {
  // The chapter's options before the device: a bad one is a usage error on any machine.
  const Dist dist_kind = parse_dist(opt.value("--dist"));
  const int digit = parse_digit(opt.value("--digit"));
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  report.ops_per_byte = 1.0;  // the headline's table: one increment per 8-bit sample
  report.op_name = "bin increment";
  const Distribution dist(dist_kind, opt.seed);
  report.problem = "n = " + std::to_string(opt.n) + " uint8 samples (" +
                   format_bytes(double(opt.n)) + ") into 256 bins, then n uint32 keys (" +
                   format_bytes(4.0 * double(opt.n)) + ") by digit " + std::to_string(digit) +
                   " (bits " + std::to_string(8 * digit) + ".." + std::to_string(8 * digit + 7) +
                   "); " + dist.describe() + ", seed " + std::to_string(opt.seed);

  Timer timer(device);
  histogram_table<uint8_t>(report, timer, opt, dist, 0, "");
  histogram_table<uint32_t>(report, timer, opt, dist, 8 * digit, "u32 digit: ");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.extra = {
      {"--dist", "D", "where the samples fall: uniform, skewed (one value) or hot", "uniform"},
      {"--digit", "D", "the 8-bit digit of the 32-bit keys that picks the bin, 0 to 3", "0"}};
  return run_main(argc, argv, spec, run_lesson);
}
