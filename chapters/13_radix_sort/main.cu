/**
 * @file chapters/13_radix_sort/main.cu
 * @brief Chapter 13: sorting 32-bit keys by counting. The split by one bit with a scan, LSD radix
 *        sort with 8-bit digits in three kernels a pass, the upfront histogram, and Onesweep on
 *        chapter 08's decoupled look-back, each next to cub::DeviceRadixSort::SortKeys.
 *
 * Shows: why a sort by one bit a pass is slow (32 passes over the keys, each a scan of flags);
 * a pass of an 8-bit digit as chapter 12's histogram per tile, a scan of the counts (chapter
 * 08's single-pass scan) and a stable scatter in which each warp ranks its keys with
 * `__match_any_sync` (a warp-level multisplit); counting all four digits in one read before the
 * passes, so that a pass scans each digit's counts apart; Onesweep, one kernel a pass, in which
 * each tile finds where its keys of each digit go by looking back at the tiles before it, as
 * chapter 08's scan does for one value; the peers from ballots; the tile staged in shared
 * memory in digit order, so that the writes are coalesced; and the tile's digits counted and
 * published before its keys are ranked (early counts). Every step and CUB are checked element
 * by element against a sort of the input on the host, each after both poisons.
 * Leaves out (later steps of the chapter): pairs (and with them a test of stability, which
 * equal keys cannot show) and 64-bit keys. Signed keys and floats are exercise 13.2.
 */
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "08_single_pass/lookback_scan.cuh"
#include "13_radix_sort/radix_sort.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/host_threads.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter13;
using chapter08::SinglePassScan;
using chapter08::Wait;

/// The kernel of each body of radix_sort.cuh, as the harness launches it (block_cycles.cuh).
template <auto kBody>
constexpr auto kernel_of = clocked_kernel<kBody, kThreads>;

/// Bytes a key moves in an 8-bit LSD sort at best: each of 4 passes reads it and writes it.
constexpr double kFloorBytesPerKey = 2.0 * kPasses * sizeof(uint32_t);

/// The largest n split_by_bit runs at: 32 passes, each writing a flag and an 8-byte scan entry
/// per key and reading them back, put it far behind the other steps; past this size it would
/// take most of the run's time and memory, and it is left out with a note.
constexpr int64_t kSplitMaxN = int64_t{1} << 28;

/// The most keys one block of upfront_histogram() may count: its 32-bit counters hold them.
constexpr int64_t kMaxBlockKeys = (int64_t{1} << 31) - 1;

/// The inputs (--dist).
enum class Dist { kUniform, kFew, kSorted, kReverse };

Dist parse_dist(const std::string& text) {
  if (text == "uniform") return Dist::kUniform;
  if (text == "few") return Dist::kFew;
  if (text == "sorted") return Dist::kSorted;
  if (text == "reverse") return Dist::kReverse;
  throw UsageError("bad --dist '" + text + "': expected uniform, few, sorted or reverse");
}

//! [host_sort]
/// The CPU reference: @p keys sorted with std::sort, one contiguous chunk per host core, then
/// merged pairwise (std::inplace_merge), the merges of one level on threads of their own.
std::vector<uint32_t> host_sorted(std::vector<uint32_t> keys) {
  const size_t chunks = chunk_count(keys.size());
  std::vector<size_t> bound(chunks + 1);
  for (size_t c = 0; c <= chunks; ++c) bound[c] = keys.size() * c / chunks;  // for_each_chunk's
  for_each_chunk(keys.size(), [&](size_t, size_t begin, size_t end) {
    std::sort(keys.begin() + begin, keys.begin() + end);
  });
  for (size_t width = 1; width < chunks; width *= 2) {
    std::vector<std::thread> merges;
    for (size_t c = 0; c + width < chunks; c += 2 * width) {
      const auto first = keys.begin() + bound[c], middle = keys.begin() + bound[c + width],
                 last = keys.begin() + bound[std::min(c + 2 * width, chunks)];
      merges.emplace_back([=] { std::inplace_merge(first, middle, last); });
    }
    for (std::thread& merge : merges) merge.join();
  }
  return keys;
}
//! [host_sort]

/// The input keys and what the sort must give.
struct Input {
  std::vector<uint32_t> keys, sorted;
  std::string describe;
};

//! [make_input]
/// @p n keys: uniform over the 32 bits; few, each one of 16 values drawn from the seed (most
/// digits then hold few values, and a tile's keys pile into few counters); sorted, the uniform
/// keys ascending; reverse, descending.
Input make_input(int64_t n, uint64_t seed, Dist dist) {
  Input input;
  input.keys.resize(static_cast<size_t>(n));
  if (dist == Dist::kFew) {
    SplitMix64 rng(seed ^ 0x534F5254u);  // its own stream, apart from the keys'
    uint32_t values[16];
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next() >> 32);
    fill_random(input.keys, seed, [&](SplitMix64& r) { return values[r.next() >> 60]; });
    input.describe = "few (16 distinct values)";
  } else {
    fill_random(input.keys, seed, [](SplitMix64& r) { return static_cast<uint32_t>(r.next()); });
    input.describe = "uniform";
  }
  input.sorted = host_sorted(input.keys);
  if (dist == Dist::kSorted) {
    input.keys = input.sorted;
    input.describe = "sorted (uniform keys, ascending)";
  } else if (dist == Dist::kReverse) {
    input.keys.assign(input.sorted.rbegin(), input.sorted.rend());
    input.describe = "reverse (uniform keys, descending)";
  }
  return input;
}
//! [make_input]

/// As many blocks of @p kernel as fit on the GPU at once, no more than @p useful, and at least
/// @p at_least.
template <typename Kernel>
int resident_grid(Kernel kernel, const DeviceFacts& device, int64_t useful, int64_t at_least = 1) {
  int blocks_per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kThreads, 0));
  const int64_t resident = int64_t{blocks_per_sm} * device.sm_count;
  return static_cast<int>(std::max({int64_t{1}, std::min(resident, useful), at_least}));
}

//! [ping_pong]
/// Where pass p of an even number of passes reads and writes: in -> tmp -> out -> tmp -> ...
/// -> out. The input is never written, so every timed run sorts the same keys.
struct PingPong {
  const uint32_t* in;
  uint32_t* tmp;
  uint32_t* out;
  const uint32_t* src(int pass) const { return pass == 0 ? in : pass % 2 == 1 ? tmp : out; }
  uint32_t* dst(int pass) const { return pass % 2 == 0 ? tmp : out; }
};
//! [ping_pong]

//! [onesweep_state]
/// Onesweep's status words, a (tile, digit) each, and its tile counter, zeroed once. As in
/// chapter 08's SinglePassScan, nothing is reset between passes: the counter resets itself,
/// and each pass flips the parity its words carry, so the words of the pass before read as
/// kEmpty. Every pass writes every word (each tile all its digits', zero counts included).
class OnesweepState {
 public:
  explicit OnesweepState(int64_t n)
      : tiles_(tile_count(n)), status_(tiles_ * kDigits), next_tile_(1) {
    CUDA_CHECK(cudaMemset(status_.data(), 0, status_.bytes()));
    CUDA_CHECK(cudaMemset(next_tile_.data(), 0, next_tile_.bytes()));
  }
  /// The state of the next pass.
  chapter08::ScanState next_pass() {
    return {status_.data(), next_tile_.data(), tiles_, passes_++ % 2};
  }

 private:
  int64_t tiles_;
  DeviceBuffer<uint64_t> status_;
  DeviceBuffer<unsigned int> next_tile_;
  uint32_t passes_ = 0;
};
//! [onesweep_state]

//! [cub_sort]
/// The yardstick: cub::DeviceRadixSort::SortKeys from @p d_in to @p d_out, its temporary storage
/// (which holds the other buffer of its passes) allocated once.
class CubSort {
 public:
  CubSort(const uint32_t* d_in, uint32_t* d_out, int64_t n) : d_in_(d_in), d_out_(d_out), n_(n) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, d_in_, d_out_, n_));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, d_in_, d_out_, n_));
  }

 private:
  const uint32_t* d_in_;
  uint32_t* d_out_;
  int64_t n_;
  DeviceBuffer<unsigned char> temp_;
};
//! [cub_sort]

const ChapterInfo kChapter{"13_radix_sort",
                           "radix sort of 32-bit keys: split by a bit, LSD with three kernels a "
                           "pass, the upfront histogram, Onesweep, early counts",
                           "sort_onesweep_early_counts"};

Report run_lesson(const Options& opt) {
  // The chapter's option before the device: a bad one is a usage error on any machine.
  const Dist dist = parse_dist(opt.value("--dist"));
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  const int64_t n = opt.n;
  report.ops_per_byte = 1.0 / kFloorBytesPerKey;  // one key sorted per 32 bytes of the floor
  report.op_name = "key sorted";

  // The device buffers first: a size that cannot fit fails before the input is made.
  DeviceBuffer<uint32_t> d_in(n), d_tmp(n), d_out(n);
  const PingPong keys{d_in.data(), d_tmp.data(), d_out.data()};
  const std::vector<uint32_t> reference = [&] {
    Input input = make_input(n, opt.seed, dist);
    d_in.copy_from(input.keys);
    report.problem = "n = " + std::to_string(n) + " uint32 keys (" + format_bytes(4.0 * double(n)) +
                     "), ascending; " + input.describe + ", seed " + std::to_string(opt.seed);
    return std::move(input.sorted);
  }();  // the input's host copy is freed here
  const int64_t tiles = tile_count(n);
  const auto tile_grid = static_cast<unsigned int>(tiles);
  Timer timer(device);

  // Step 1: a flag and a 64-bit scan entry per key, chapter 08's scan.
  const bool split_runs = n <= kSplitMaxN;
  DeviceBuffer<uint8_t> d_zero(split_runs ? n : 0);
  DeviceBuffer<int64_t> d_zeros_before(split_runs ? n : 0);
  std::unique_ptr<SinglePassScan<int64_t>> zero_scan;
  if (split_runs) zero_scan = std::make_unique<SinglePassScan<int64_t>>(n);
  const int split_grid =
      resident_grid(kernel_of<split_scatter>, device, (n + kThreads - 1) / kThreads);

  // Steps 2 and 3: the digit-major count matrix and its scan (all of it, or row by row).
  DeviceBuffer<uint32_t> d_counts(kDigits * tiles);
  DeviceBuffer<int64_t> d_scanned(kDigits * tiles);
  SinglePassScan<int64_t> matrix_scan(kDigits * tiles);
  // Steps 3 and 4: the upfront histogram and where each pass's digits start.
  DeviceBuffer<Count> d_upfront(kPasses * kDigits);
  DeviceBuffer<int64_t> d_starts(kPasses * kDigits);
  const int histogram_grid =
      resident_grid(kernel_of<upfront_histogram>, device, (n / 4 + kThreads - 1) / kThreads,
                    (n + kMaxBlockKeys - 1) / kMaxBlockKeys);
  OnesweepState onesweep(n);
  CubSort cub_sort(d_in.data(), d_out.data(), n);

  //! [steps]
  const auto upfront = [&] {
    CUDA_CHECK(cudaMemsetAsync(d_upfront.data(), 0, d_upfront.bytes()));
    kernel_of<upfront_histogram>
        <<<histogram_grid, kThreads>>>({}, d_in.data(), n, d_upfront.data());
    kernel_of<digit_starts><<<1, kThreads>>>({}, d_upfront.data(), d_starts.data());
  };
  // Each step's launch enqueues the whole sort; the last pass's last kernel records cycles.
  const auto last = [](int pass, int passes, BlockCycleSlots slots) {
    return pass == passes - 1 ? slots : BlockCycleSlots{};
  };
  std::vector<Step> steps;
  if (split_runs) {
    steps.push_back(
        {"sort_split_by_bit",
         "one bit a pass: flags, chapter 08's scan of the zeros, a stable scatter; "
         "32 passes",
         reinterpret_cast<const void*>(kernel_of<split_scatter>), split_grid, double(n),
         [&](BlockCycleSlots slots) {
           for (int bit = 0; bit < 32; ++bit) {
             kernel_of<split_flags>
                 <<<split_grid, kThreads>>>({}, keys.src(bit), n, bit, d_zero.data());
             zero_scan->run<Wait::kDecoupled>(d_zero.data(), d_zeros_before.data(), false);
             kernel_of<split_scatter><<<split_grid, kThreads>>>(
                 last(bit, 32, slots), keys.src(bit), n, bit, d_zeros_before.data(), keys.dst(bit));
           }
         }});
  }
  steps.push_back({"sort_lsd_three_kernels",
                   "8-bit digits, 4 passes of three kernels: counts per tile, chapter 08's scan "
                   "of the digit-major counts, a scatter ranked by a warp multisplit",
                   reinterpret_cast<const void*>(kernel_of<scatter_three_kernels>), tiles,
                   double(n), [&](BlockCycleSlots slots) {
                     for (int p = 0; p < kPasses; ++p) {
                       const int shift = p * kDigitBits;
                       kernel_of<tile_digit_counts>
                           <<<tile_grid, kThreads>>>({}, keys.src(p), n, shift, d_counts.data());
                       matrix_scan.run<Wait::kDecoupled>(d_counts.data(), d_scanned.data(), false);
                       kernel_of<scatter_three_kernels>
                           <<<tile_grid, kThreads>>>(last(p, kPasses, slots), keys.src(p), n, shift,
                                                     d_scanned.data(), keys.dst(p));
                     }
                   }});
  steps.push_back({"sort_upfront_histogram",
                   "all four digits counted in one read first; a pass scans each digit's tile "
                   "counts apart",
                   reinterpret_cast<const void*>(kernel_of<scatter_upfront>), tiles, double(n),
                   [&](BlockCycleSlots slots) {
                     upfront();
                     for (int p = 0; p < kPasses; ++p) {
                       const int shift = p * kDigitBits;
                       kernel_of<tile_digit_counts>
                           <<<tile_grid, kThreads>>>({}, keys.src(p), n, shift, d_counts.data());
                       kernel_of<scan_rows>
                           <<<kDigits, kThreads>>>({}, d_counts.data(), tiles, d_scanned.data());
                       kernel_of<scatter_upfront><<<tile_grid, kThreads>>>(
                           last(p, kPasses, slots), keys.src(p), n, shift,
                           d_starts.data() + p * kDigits, d_scanned.data(), keys.dst(p));
                     }
                   }});
  const auto onesweep_step = [&](const std::string& id, std::string teaches, auto kernel) {
    return Step{id,
                std::move(teaches),
                reinterpret_cast<const void*>(kernel),
                tiles,
                double(n),
                [&, kernel](BlockCycleSlots slots) {
                  upfront();
                  for (int p = 0; p < kPasses; ++p) {
                    kernel<<<tile_grid, kThreads>>>(last(p, kPasses, slots), keys.src(p), n,
                                                    p * kDigitBits, d_starts.data() + p * kDigits,
                                                    onesweep.next_pass(), keys.dst(p));
                  }
                }};
  };
  steps.push_back(onesweep_step("sort_onesweep",
                                "one kernel a pass: each tile ranks its keys and finds its digits' "
                                "offsets by chapter 08's decoupled look-back, one digit a thread",
                                kernel_of<onesweep_pass<Match::kMatchAny, Scatter::kDirect>>));
  steps.push_back(onesweep_step("sort_onesweep + ballots",
                                "the warp's peers from 8 ballots, one a bit, not __match_any_sync",
                                kernel_of<onesweep_pass<Match::kBallots, Scatter::kDirect>>));
  steps.push_back(onesweep_step("sort_onesweep + ballots + staged",
                                "the tile's keys put in digit order in shared memory, then "
                                "written out in that order",
                                kernel_of<onesweep_pass<Match::kBallots, Scatter::kStaged>>));
  steps.push_back(onesweep_step("sort_onesweep_early_counts",
                                "the tile's digits counted and published before its keys are "
                                "ranked; each key ranked straight to its place in the tile",
                                kernel_of<onesweep_early_counts_pass<Match::kBallots>>));
  steps.push_back(onesweep_step("sort_onesweep_early_counts + match_any",
                                "the same with __match_any_sync for the peers: its cost grows "
                                "with the distinct digits of a warp",
                                kernel_of<onesweep_early_counts_pass<Match::kMatchAny>>));
  //! [steps]

  // Each step and CUB checked element by element after each poison; then all timed.
  const std::string cub_id = "cub::DeviceRadixSort::SortKeys";
  std::vector<uint32_t> got(static_cast<size_t>(n));
  run_steps(
      report, timer, opt.reps, kFloorBytesPerKey * double(n), steps,
      {{cub_id, [&] { cub_sort(); }}}, [&](const std::string& id, auto run) {
        std::vector<Check> checks;
        for (const Poison poison : kBothPoisons) {
          d_tmp.poison(poison);
          d_out.poison(poison);
          run();
          CUDA_CHECK(cudaGetLastError());
          d_out.copy_to(got);
          checks.push_back(check_elements(
              "keys (" + id + (poison == Poison::kFirst ? ", poison 0x7F)" : ", poison 0x80)"), got,
              reference, [](size_t) { return 0.0; }, "exact"));
        }
        return checks;
      });

  std::string rates;
  for (const Row& row : report.rows) {
    rates += (rates.empty() ? "" : ", ") + row.name + " " +
             detail::fixed(double(n) / (row.ms.median * 1e6), 2);
  }
  report.notes.push_back("GKeys/s (n / median time): " + rates);
  report.notes.push_back(
      "bytes per run: n x " + detail::fixed(kFloorBytesPerKey, 0) +
      ", the floor of an LSD sort with 8-bit digits (4 passes, each reading and writing every "
      "4-byte key), for every row: % peak is the share of that floor. Tiles of " +
      std::to_string(kTileKeys) + " keys (" + std::to_string(tiles) + " here), " +
      std::to_string(kThreads) + " threads a block; upfront histogram grid " +
      std::to_string(histogram_grid) + " blocks");
  if (split_runs) {
    report.notes.push_back(
        "sort_split_by_bit moves far more than the floor: 32 passes, each "
        "reading the keys twice, writing a flag and reading it in the scan, "
        "writing and reading an 8-byte scan entry, writing the keys; grid " +
        std::to_string(split_grid) + " blocks");
  } else {
    report.notes.push_back(
        "sort_split_by_bit skipped: it runs up to n = 2^28 (32 passes of "
        "flags, scan and scatter take most of the run's time and memory)");
  }
  report.notes.push_back(
      "keys only: equal keys cannot show whether a sort is stable; the pairs "
      "of a later step will");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.extra = {
      {"--dist", "D", "the keys: uniform, few (16 distinct values), sorted or reverse", "uniform"}};
  return run_main(argc, argv, spec, run_lesson);
}
