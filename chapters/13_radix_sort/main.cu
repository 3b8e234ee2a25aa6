/**
 * @file chapters/13_radix_sort/main.cu
 * @brief Chapter 13: sorting by counting. The split by one bit with a scan, LSD radix sort with
 *        8-bit digits in three kernels a pass, the upfront histogram, Onesweep on chapter 08's
 *        decoupled look-back, and Onesweep with early counts, each next to
 *        cub::DeviceRadixSort::SortKeys; then (--sort pairs, keys64) the last of them for
 *        key-value pairs and 64-bit keys, next to SortPairs and SortKeys.
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
 * Step 6 sorts pairs, each value its key's input index, so that the check shows stability
 * (which equal keys alone cannot), and 64-bit keys. Floats are exercise 13.2.
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
template <typename Key>
std::vector<Key> host_sorted(std::vector<Key> keys) {
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
template <typename Key>
struct Input {
  std::vector<Key> keys, sorted;
  std::string describe;
};

//! [make_input]
/// @p n keys: uniform over all their bits; few, each one of 16 values drawn from the seed (most
/// digits then hold few values, and a tile's keys pile into few counters); sorted, the uniform
/// keys ascending; reverse, descending.
template <typename Key>
Input<Key> make_input(int64_t n, uint64_t seed, Dist dist) {
  Input<Key> input;
  input.keys.resize(static_cast<size_t>(n));
  if (dist == Dist::kFew) {
    SplitMix64 rng(seed ^ 0x534F5254u);  // its own stream, apart from the keys'
    Key values[16];
    for (Key& v : values) v = static_cast<Key>(rng.next() >> (64 - 8 * sizeof(Key)));
    fill_random(input.keys, seed, [&](SplitMix64& r) { return values[r.next() >> 60]; });
    input.describe = "few (16 distinct values)";
  } else {
    fill_random(input.keys, seed, [](SplitMix64& r) { return static_cast<Key>(r.next()); });
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

//! [upfront_starts]
/// How steps 3 to 6 begin a sort: every pass's digit counts in one read of the keys
/// (upfront_histogram), then where each pass's digits start in its output (digit_starts).
template <typename Key>
class UpfrontStarts {
 public:
  UpfrontStarts(const DeviceFacts& device, int64_t n)
      : n_(n),
        grid_(resident_grid(kernel_of<upfront_histogram<Key>>, device,
                            (n / int64_t{16 / sizeof(Key)} + kThreads - 1) / kThreads,
                            (n + kMaxBlockKeys - 1) / kMaxBlockKeys)) {}
  /// Enqueues the counts of the n keys at @p in and the starts they give.
  void operator()(const Key* in) {
    CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, counts_.bytes()));
    kernel_of<upfront_histogram<Key>><<<grid_, kThreads>>>({}, in, n_, counts_.data());
    kernel_of<digit_starts<kKeyPasses>><<<1, kThreads>>>({}, counts_.data(), starts_.data());
  }
  /// Where the keys of each of the 256 digits of pass @p pass start in its output.
  const int64_t* starts(int pass) const { return starts_.data() + pass * kDigits; }
  /// The histogram's blocks (a note of the report).
  int grid() const { return grid_; }

 private:
  static constexpr int kKeyPasses = kPassesOf<Key>;
  int64_t n_;
  int grid_;
  DeviceBuffer<Count> counts_{kKeyPasses * kDigits};
  DeviceBuffer<int64_t> starts_{kKeyPasses * kDigits};
};
//! [upfront_starts]

/// The report's note of each row's rate: n / its median time, in G @p unit a second.
std::string rates_note(const Report& report, int64_t n, const std::string& unit) {
  std::string rates;
  for (const Row& row : report.rows) {
    rates += (rates.empty() ? "" : ", ") + row.name + " " +
             detail::fixed(double(n) / (row.ms.median * 1e6), 2);
  }
  return "G" + unit + "/s (n / median time): " + rates;
}

//! [ping_pong]
/// Where pass p of an even number of passes reads and writes: in -> tmp -> out -> tmp -> ...
/// -> out. The input is never written, so every timed run sorts the same keys.
template <typename T>
struct PingPong {
  const T* in;
  T* tmp;
  T* out;
  const T* src(int pass) const { return pass == 0 ? in : pass % 2 == 1 ? tmp : out; }
  T* dst(int pass) const { return pass % 2 == 0 ? tmp : out; }
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
/// The yardstick: cub::DeviceRadixSort::SortKeys from @p d_in to @p d_out (SortPairs where
/// there are values, each moved with its key), its temporary storage (which holds the other
/// buffers of its passes) allocated once.
template <typename Key, typename Value = NoValues>
class CubSort {
 public:
  CubSort(const Key* d_in, Key* d_out, int64_t n, const Value* d_values_in = nullptr,
          Value* d_values_out = nullptr)
      : d_in_(d_in), d_out_(d_out), d_values_in_(d_values_in), d_values_out_(d_values_out), n_(n) {
    size_t bytes = 0;
    CUDA_CHECK(sort(nullptr, bytes));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(sort(temp_.data(), bytes));
  }

 private:
  cudaError_t sort(void* temp, size_t& bytes) {
    if constexpr (std::is_same_v<Value, NoValues>) {
      return cub::DeviceRadixSort::SortKeys(temp, bytes, d_in_, d_out_, n_);
    } else {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, d_in_, d_out_, d_values_in_,
                                             d_values_out_, n_);
    }
  }
  const Key* d_in_;
  Key* d_out_;
  const Value* d_values_in_;
  Value* d_values_out_;
  int64_t n_;
  DeviceBuffer<unsigned char> temp_;
};
//! [cub_sort]

const ChapterInfo kChapter{"13_radix_sort",
                           "radix sort of 32-bit keys: split by a bit, LSD with three kernels a "
                           "pass, the upfront histogram, Onesweep, early counts",
                           "sort_onesweep_early_counts"};

/// What is sorted (--sort).
enum class Sort { kKeys, kPairs, kKeys64 };

Sort parse_sort(const std::string& text) {
  if (text == "keys") return Sort::kKeys;
  if (text == "pairs") return Sort::kPairs;
  if (text == "keys64") return Sort::kKeys64;
  throw UsageError("bad --sort '" + text + "': expected keys, pairs or keys64");
}

//! [pairs_reference]
/// The reference of a stable sort of pairs (key i, value i): each key and its index in one
/// 64-bit word, key high, sorted. Equal keys then stay in the order of their indices, so the
/// low words are the input places in the order a stable sort leaves them.
std::vector<uint64_t> stable_order(const std::vector<uint32_t>& keys) {
  std::vector<uint64_t> key_and_index(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) key_and_index[i] = uint64_t{keys[i]} << 32 | i;
  return host_sorted(std::move(key_and_index));
}
//! [pairs_reference]

/**
 * @brief Step 6: Onesweep with early counts for 64-bit keys (8 passes), or for 32-bit keys each
 *        with a 32-bit value (its index in the input, so that the check sees stability), next to
 *        CUB's SortKeys or SortPairs. Only that step runs: the steps before it are for 32-bit
 *        keys alone.
 */
template <typename Key, typename Value>
Report run_wide(const Options& opt, Dist dist) {
  constexpr bool kPairs = !std::is_same_v<Value, NoValues>;
  constexpr int kKeyPasses = kPassesOf<Key>;
  constexpr int kSharedBytes = kStagedDynamicBytes<Key, Value>;
  const int64_t n = opt.n;
  if (kPairs && n > (int64_t{1} << 32)) {
    throw UsageError("--sort pairs: n is at most 2^32 (each value is its key's index, 32 bits)");
  }
  const DeviceFacts device = query_device();
  ChapterInfo step6 = kChapter;  // the same program, its title saying what this run sorts
  step6.title = kPairs ? "radix sort of pairs of a 32-bit key and a 32-bit value: step 6, "
                         "Onesweep with early counts"
                       : "radix sort of 64-bit keys: step 6, Onesweep with early counts";
  Report report = start_report(step6, device, opt);
  const double floor_bytes_per_key =
      2.0 * kKeyPasses * double(sizeof(Key) + (kPairs ? sizeof(uint32_t) : 0));
  report.ops_per_byte = 1.0 / floor_bytes_per_key;
  report.op_name = kPairs ? "pair sorted" : "key sorted";

  DeviceBuffer<Key> d_in(n), d_tmp(n), d_out(n);
  DeviceBuffer<uint32_t> d_values_in(kPairs ? n : 0), d_values_tmp(kPairs ? n : 0),
      d_values_out(kPairs ? n : 0);
  const PingPong<Key> keys{d_in.data(), d_tmp.data(), d_out.data()};
  const PingPong<uint32_t> values{d_values_in.data(), d_values_tmp.data(), d_values_out.data()};
  std::vector<Key> want_keys;
  std::vector<uint32_t> want_values;
  {
    Input<Key> input = make_input<Key>(n, opt.seed, dist);
    d_in.copy_from(input.keys);
    if constexpr (kPairs) {
      std::vector<uint32_t> index(static_cast<size_t>(n));
      for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<uint32_t>(i);
      d_values_in.copy_from(index);
      const std::vector<uint64_t> order = stable_order(input.keys);
      want_values.resize(order.size());
      for (size_t i = 0; i < order.size(); ++i) want_values[i] = static_cast<uint32_t>(order[i]);
    }
    want_keys = std::move(input.sorted);
    report.problem = "n = " + std::to_string(n) +
                     (kPairs ? " pairs of uint32 key and uint32 value (" : " uint64 keys (") +
                     format_bytes(double(sizeof(Key) + (kPairs ? 4 : 0)) * double(n)) +
                     "), ascending; " + input.describe +
                     (kPairs ? ", each value its key's input index" : "") + ", seed " +
                     std::to_string(opt.seed);
  }

  // The pass's kernel; its staged tile lives in dynamic shared memory.
  const auto pass_kernel = kernel_of<onesweep_sort_pass<Key, Value>>;
  CUDA_CHECK(
      cudaFuncSetAttribute(pass_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  const auto value_src = [&](int p) -> const Value* {
    if constexpr (kPairs)
      return values.src(p);
    else
      return nullptr;
  };
  const auto value_dst = [&](int p) -> Value* {
    if constexpr (kPairs)
      return values.dst(p);
    else
      return nullptr;
  };
  UpfrontStarts<Key> upfront(device, n);
  OnesweepState onesweep(n);
  const int64_t tiles = tile_count(n);
  const auto tile_grid = static_cast<unsigned int>(tiles);
  CubSort<Key, Value> cub_sort(d_in.data(), d_out.data(), n, value_src(0),
                               value_dst(kKeyPasses - 1));
  Timer timer(device);

  //! [wide_step]
  const std::vector<Step> steps{
      {"sort_onesweep_early_counts",
       kPairs ? "step 5's pass with each key's value staged and written where the key goes"
              : "step 5's pass on 64-bit keys: 8 passes, twice the bytes a key",
       reinterpret_cast<const void*>(pass_kernel), tiles, double(n), [&](BlockCycleSlots slots) {
         upfront(d_in.data());
         for (int p = 0; p < kKeyPasses; ++p) {
           pass_kernel<<<tile_grid, kThreads, kSharedBytes>>>(
               p == kKeyPasses - 1 ? slots : BlockCycleSlots{}, keys.src(p), value_src(p), n,
               p * kDigitBits, upfront.starts(p), onesweep.next_pass(), keys.dst(p), value_dst(p));
         }
       }}};
  //! [wide_step]

  const std::string cub_id =
      kPairs ? "cub::DeviceRadixSort::SortPairs" : "cub::DeviceRadixSort::SortKeys";
  std::vector<Key> got(static_cast<size_t>(n));
  std::vector<uint32_t> got_values(kPairs ? static_cast<size_t>(n) : 0);
  run_steps(report, timer, opt.reps, floor_bytes_per_key * double(n), steps,
            {{cub_id, [&] { cub_sort(); }}}, [&](const std::string& id, auto run) {
              std::vector<Check> checks;
              for (const Poison poison : kBothPoisons) {
                const std::string how =
                    id + (poison == Poison::kFirst ? ", poison 0x7F)" : ", poison 0x80)");
                d_tmp.poison(poison);
                d_out.poison(poison);
                d_values_tmp.poison(poison);
                d_values_out.poison(poison);
                run();
                CUDA_CHECK(cudaGetLastError());
                d_out.copy_to(got);
                checks.push_back(check_elements(
                    "keys (" + how, got, want_keys, [](size_t) { return 0.0; }, "exact"));
                if constexpr (kPairs) {
                  d_values_out.copy_to(got_values);
                  checks.push_back(check_elements(
                      "values, the input places of a stable sort (" + how, got_values, want_values,
                      [](size_t) { return 0.0; }, "exact"));
                }
              }
              return checks;
            });
  report.notes.push_back(rates_note(report, n, kPairs ? "Pairs" : "Keys"));
  report.notes.push_back("bytes per run: n x " + detail::fixed(floor_bytes_per_key, 0) + " (" +
                         std::to_string(kKeyPasses) + " passes, each reading and writing every " +
                         (kPairs ? "key and value" : "8-byte key") +
                         "), for every row; staged tile " + std::to_string(kSharedBytes / 1024) +
                         " KiB of dynamic shared memory a block");
  return report;
}

Report run_lesson(const Options& opt) {
  // The chapter's options before the device: a bad one is a usage error on any machine.
  const Dist dist = parse_dist(opt.value("--dist"));
  const Sort sort = parse_sort(opt.value("--sort"));
  if (sort == Sort::kPairs) return run_wide<uint32_t, uint32_t>(opt, dist);
  if (sort == Sort::kKeys64) return run_wide<uint64_t, NoValues>(opt, dist);
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  const int64_t n = opt.n;
  report.ops_per_byte = 1.0 / kFloorBytesPerKey;  // one key sorted per 32 bytes of the floor
  report.op_name = "key sorted";

  // The device buffers first: a size that cannot fit fails before the input is made.
  DeviceBuffer<uint32_t> d_in(n), d_tmp(n), d_out(n);
  const PingPong<uint32_t> keys{d_in.data(), d_tmp.data(), d_out.data()};
  const std::vector<uint32_t> reference = [&] {
    Input<uint32_t> input = make_input<uint32_t>(n, opt.seed, dist);
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
  // Steps 3 to 5: the upfront histogram and where each pass's digits start.
  UpfrontStarts<uint32_t> upfront(device, n);
  OnesweepState onesweep(n);
  CubSort<uint32_t> cub_sort(d_in.data(), d_out.data(), n);

  //! [steps]
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
                     upfront(d_in.data());
                     for (int p = 0; p < kPasses; ++p) {
                       const int shift = p * kDigitBits;
                       kernel_of<tile_digit_counts>
                           <<<tile_grid, kThreads>>>({}, keys.src(p), n, shift, d_counts.data());
                       kernel_of<scan_rows>
                           <<<kDigits, kThreads>>>({}, d_counts.data(), tiles, d_scanned.data());
                       kernel_of<scatter_upfront><<<tile_grid, kThreads>>>(
                           last(p, kPasses, slots), keys.src(p), n, shift, upfront.starts(p),
                           d_scanned.data(), keys.dst(p));
                     }
                   }});
  const auto onesweep_step = [&](const std::string& id, std::string teaches, auto kernel) {
    return Step{id,
                std::move(teaches),
                reinterpret_cast<const void*>(kernel),
                tiles,
                double(n),
                [&, kernel](BlockCycleSlots slots) {
                  upfront(d_in.data());
                  for (int p = 0; p < kPasses; ++p) {
                    kernel<<<tile_grid, kThreads>>>(last(p, kPasses, slots), keys.src(p), n,
                                                    p * kDigitBits, upfront.starts(p),
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

  report.notes.push_back(rates_note(report, n, "Keys"));
  report.notes.push_back(
      "bytes per run: n x " + detail::fixed(kFloorBytesPerKey, 0) +
      ", the floor of an LSD sort with 8-bit digits (4 passes, each reading and writing every "
      "4-byte key), for every row: % peak is the share of that floor. Tiles of " +
      std::to_string(kTileKeys) + " keys (" + std::to_string(tiles) + " here), " +
      std::to_string(kThreads) + " threads a block; upfront histogram grid " +
      std::to_string(upfront.grid()) + " blocks");
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
      {"--dist", "D", "the keys: uniform, few (16 distinct values), sorted or reverse", "uniform"},
      {"--sort", "S",
       "keys (32-bit, every step), pairs (32-bit keys with 32-bit values) or keys64 (64-bit "
       "keys): the last two run step 6 alone",
       "keys"}};
  return run_main(argc, argv, spec, run_lesson);
}
