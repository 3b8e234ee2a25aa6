/**
 * @file chapters/08_single_pass/main.cu
 * @brief Chapter 08: one pass over the data. A sum in one launch with the last-block pattern
 *        (deterministic, no memset), and a scan in one launch: chained, then with decoupled
 *        look-back, each next to CUB and to a plain copy of the same bytes.
 *
 * Shows: a release/acquire ticket that tells a block it is the last; partials added in a
 * fixed order, so a float sum has the same bits every run; what one launch costs; tiles that
 * publish a status word (kind and value in one word) for the tiles after them; why waiting for
 * the predecessor serializes a scan, and how looking back over a window of predecessors does
 * not; tiles taken from a counter, so no block waits for one that has not started; tiles
 * arranged per type (striped for floats, blocked with outputs staged in shared memory for int64).
 * Leaves out: other operators than +, and the tuning of CUB's policies per architecture.
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "02_single_block_sum/reduction_input.cuh"
#include "06_blelloch_scan/cub_scan.cuh"
#include "06_blelloch_scan/host_pin.cuh"
#include "06_blelloch_scan/scan_types.hpp"
#include "last_block_reduce.cuh"
#include "lookback_scan.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter08;

const ChapterInfo kChapter{"08_single_pass",
                           "one pass over the data: last-block sum, decoupled look-back scan",
                           "scan_decoupled_lookback"};

/// How many times the float results are recomputed to count their distinct bit patterns.
constexpr int kDeterminismRuns = 20;

/// The grid of the reductions: as many blocks as fit on the GPU at once (chapter 05), and no
/// more than kVectorsInFlight 4-element vectors per thread need: at small n, fewer blocks
/// mean fewer partials and fewer tickets for the last block to wait for.
int reduce_grid(const DeviceFacts& device, int64_t n) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, reduce_one_pass_kernel<Finish::kLastBlock, int32_t>, kReduceThreads, 0));
  constexpr int64_t kPerBlock = 4 * kVectorsInFlight * kReduceThreads;
  const int64_t useful = (n + kPerBlock - 1) / kPerBlock;
  return static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(int64_t{per_sm} * device.sm_count, useful)));
}

/// The two ways to finish a sum of T, with their buffers: chapter 05's memset + atomics, and
/// the last block. Both leave the sum in result().
template <typename T>
class OnePassSums {
 public:
  using Acc = SumOf<T>;
  OnePassSums(const DeviceFacts& device, const T* in, int64_t n)
      : in_(in), n_(n), grid_(reduce_grid(device, n)), result_(1), partials_(grid_), ticket_(1) {
    CUDA_CHECK(cudaMemset(ticket_.data(), 0, ticket_.bytes()));  // once: then it resets itself
  }
  int grid() const { return grid_; }
  Acc* result() const { return result_.data(); }

  /// Chapter 05's way: two operations, a memset of the result and a kernel with atomics.
  void atomic(BlockCycleSlots slots) {
    CUDA_CHECK(cudaMemsetAsync(result_.data(), 0, sizeof(Acc)));
    reduce_one_pass_kernel<Finish::kAtomic, T>
        <<<grid_, kReduceThreads>>>(slots, in_, n_, result_.data(), state());
  }
  /// This chapter's: one launch.
  void last_block(BlockCycleSlots slots) {
    reduce_one_pass_kernel<Finish::kLastBlock, T>
        <<<grid_, kReduceThreads>>>(slots, in_, n_, result_.data(), state());
  }

  /// Each as a step of the table: its row named with @p prefix ("" or "float: ") and compared
  /// with CUB's sum of the same type.
  Step atomic_step(const std::string& prefix) {
    return {prefix + "reduce + memset + atomicAdd",
            "chapter 05's finish: a memset of the sum, then one atomicAdd per block",
            reinterpret_cast<const void*>(reduce_one_pass_kernel<Finish::kAtomic, T>),
            grid_,
            double(n_),
            [this](BlockCycleSlots slots) { atomic(slots); },
            prefix + "cub::DeviceReduce::Sum"};
  }
  Step last_block_step(const std::string& prefix) {
    return {prefix + "reduce_last_block",
            "one launch: the last block to take a ticket adds the partials, in a fixed order",
            reinterpret_cast<const void*>(reduce_one_pass_kernel<Finish::kLastBlock, T>),
            grid_,
            double(n_),
            [this](BlockCycleSlots slots) { last_block(slots); },
            prefix + "cub::DeviceReduce::Sum"};
  }

 private:
  LastBlockState<Acc> state() const { return {partials_.data(), ticket_.data()}; }
  const T* in_;
  int64_t n_;
  int grid_;
  DeviceBuffer<Acc> result_, partials_;
  DeviceBuffer<unsigned int> ticket_;
};

/// Runs @p launch @p runs times and counts the distinct bit patterns of the device bytes
/// [@p data, + @p bytes) it leaves (by a 64-bit hash of each: equal bits, equal hashes).
template <typename Launch>
size_t distinct_bit_patterns(int runs, const void* data, size_t bytes, Launch launch) {
  std::set<uint64_t> seen;
  std::vector<unsigned char> host(bytes);
  for (int r = 0; r < runs; ++r) {
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host.data(), data, bytes, cudaMemcpyDeviceToHost));
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (unsigned char byte : host) hash = (hash ^ byte) * 1099511628211ull;
    seen.insert(hash);
  }
  return seen.size();
}

/// A check that @p count runs gave @p distinct bit patterns where one is promised.
Check check_deterministic(const std::string& what, size_t distinct) {
  return Check{what + ", " + std::to_string(kDeterminismRuns) + " runs",
               std::to_string(distinct) + " distinct bit pattern(s)", "1",
               "the same bits every run", distinct == 1};
}

/// Reads one value back.
template <typename T>
T read_back(const T* d_value) {
  T value{};
  CUDA_CHECK(cudaMemcpy(&value, d_value, sizeof(T), cudaMemcpyDeviceToHost));
  return value;
}

/// The reductions: chapter 05's finish, the last block, CUB; ints exact, floats within the
/// bound of their summation depth; the float last-block sum the same bits every run.
void run_reductions(const Options& opt, const DeviceFacts& device, Timer& timer, Report& report) {
  const int64_t n = opt.n;
  const DeviceReductionInput ints_in = upload_reduction_input(n, opt.seed);
  DeviceBuffer<float> d_floats(n);
  const std::vector<float> h_floats = random_floats(n, opt.seed + 1, 0.5f, 1.5f);
  d_floats.copy_from(h_floats);
  const double float_reference = reference_sum(h_floats);

  OnePassSums<int32_t> ints(device, ints_in.values.data(), n);
  OnePassSums<float> floats(device, d_floats.data(), n);
  CubSum<int32_t, long long> cub_ints(ints_in.values.data(), ints.result(), n);
  CubSum<float, float> cub_floats(d_floats.data(), floats.result(), n);

  // The ints: every step and CUB checked exactly on a poisoned sum, then all timed in one run.
  // The rate counts the 4 bytes of each input element (an int32 or a float).
  const double bytes = 4.0 * n;
  const size_t first_row = report.rows.size();
  run_steps(report, timer, opt.reps, bytes, {ints.atomic_step(""), ints.last_block_step("")},
            {{"cub::DeviceReduce::Sum", [&] { cub_ints(); }, "cub::DeviceReduce::Sum"}},
            [&](const std::string& id, const std::function<void()>& run) {
              return check_device_sum(id, ints.result(), ints_in.sum, run);
            });

  // The floats, within the bound of their summation depth. Float depth: a thread's serial
  // adds, log2(256) in the block, then the finish: up to one add per block with atomics; the
  // last block adds ceil(grid / 256) partials per thread and log2(256) more.
  const Step float_atomic = floats.atomic_step("float: ");
  const Step float_last = floats.last_block_step("float: ");
  const VendorStep cub_float_sum{"float: cub::DeviceReduce::Sum", [&] { cub_floats(); },
                                 "float: cub::DeviceReduce::Sum"};
  const int64_t threads = int64_t{floats.grid()} * kReduceThreads;
  const int64_t serial = 4 * ((n / 4 + threads - 1) / threads) + 1;
  const int64_t depth_atomic = serial + 8 + floats.grid();
  const int64_t depth_last = serial + 8 + (floats.grid() + kReduceThreads - 1) / kReduceThreads + 8;
  const std::map<std::string, int64_t> depth = {
      {float_atomic.id, depth_atomic},
      {float_last.id, depth_last},
      {cub_float_sum.id, summation_depth(n, 128) + 64}};  // CUB's order is its own: an estimate
  run_steps(report, timer, opt.reps, bytes, {float_atomic, float_last}, {cub_float_sum},
            [&](const std::string& id, const std::function<void()>& run) {
              const bool estimated = id == cub_float_sum.id;
              const std::string name = estimated ? id + ", estimated" : id;
              CUDA_CHECK(cudaMemset(floats.result(), poison_byte<float>(), sizeof(float)));  // NaN
              run();
              CUDA_CHECK(cudaGetLastError());
              Check check =
                  check_close("sum (" + name + ", depth " + std::to_string(depth.at(id)) + ")",
                              read_back(floats.result()), float_reference,
                              sum_tolerance(depth.at(id), float_reference));
              check.informative = estimated;  // an estimate (chapter 05): not in the verdict
              return check;
            });
  for (size_t i = first_row; i < report.rows.size(); ++i) {
    report.rows[i].ops_per_byte = 1.0 / 4;  // one add per 4-byte input
  }

  //! [determinism]
  const auto distinct = [&](const std::function<void()>& launch) {
    return distinct_bit_patterns(kDeterminismRuns, floats.result(), sizeof(float), launch);
  };
  report.checks.push_back(
      check_deterministic("float: reduce_last_block", distinct([&] { floats.last_block({}); })));
  report.notes.push_back(
      "float sums, " + std::to_string(kDeterminismRuns) + " runs each, distinct bit patterns: " +
      "memset + atomicAdd " + std::to_string(distinct([&] { floats.atomic({}); })) +
      ", reduce_last_block " + std::to_string(distinct([&] { floats.last_block({}); })) +
      ", cub::DeviceReduce::Sum " + std::to_string(distinct([&] { cub_floats(); })));
  //! [determinism]
  report.notes.push_back("reductions: " + std::to_string(ints.grid()) + " blocks of " +
                         std::to_string(kReduceThreads) + " threads (the GPU full once, at most " +
                         "four int4 per thread); float depths: atomics " +
                         std::to_string(depth_atomic) + ", last block " +
                         std::to_string(depth_last));

  // What bounds a one-launch sum at small n: one launch, plus reading the bytes.
  const Summary empty = timer.time_ms(opt.reps, [] { empty_kernel<<<1, 32>>>(); });
  const Summary read = timer.time_ms(opt.reps, [&] {
    read_input_only<<<ints.grid(), kReduceThreads>>>(ints_in.values.data(), n, ints.result(),
                                                     false);
  });
  report.notes.push_back(
      "timed the same way (medians): an empty launch " + format_number(empty.median) +
      " ms; reduce_last_block's loads of the ints and nothing else (read_input_only, " +
      std::to_string(ints.grid()) + " blocks) " + format_number(read.median) +
      " ms: no one-launch sum that reads the input this way can be faster");
}

// ---- Scans --------------------------------------------------------------------------------

// The scans and their checks are chapter 06's (scan_types.hpp): int32 -> int64 exactly, and
// float -> float within gamma(depth(i)) times each prefix.
using chapter06::FloatScan;
using chapter06::IntegerScan;
using chapter06::reference_inclusive_scan;

/// Our scans' depth bound (single_pass_depth); CUB's is estimated (cub_scan.cuh).
template <typename Out>
struct OurDepth {
  int64_t operator()(int64_t i) const { return single_pass_depth<Out>(i); }
  std::string text() const {
    return "7 (i / " + std::to_string(kScanTile<Out>) + " + 1) + " +
           std::to_string(single_pass_depth<Out>(0) - 7);
  }
};

/// Verifies the chained and decoupled scans (inclusive and exclusive), CUB's and the copy on
/// poisoned outputs, times them, verifies the decoupled scan again after all those calls, and
/// counts the distinct results of repeated float scans.
template <typename Scan>
void run_scans(const Options& opt, const DeviceFacts& device, Timer& timer, Report& report) {
  using In = typename Scan::In;
  using Out = typename Scan::Out;
  const int64_t n = opt.n;
  const std::string prefix = Scan::kPrefix;

  DeviceBuffer<In> d_in(n);
  DeviceBuffer<Out> d_out(n);
  const std::vector<In> h_in = Scan::input(n, opt.seed);
  d_in.copy_from(h_in);
  // One reference, inclusive; turned into the exclusive one in place for the last checks.
  auto reference = reference_inclusive_scan(h_in);
  std::vector<Out> h_out(static_cast<size_t>(n));
  const HostPin pin(h_out);

  SinglePassScan<Out> scan(n);
  CubScan<In, Out> cub_inclusive(d_in.data(), d_out.data(), n, CubCall::kInclusiveSum);
  CubScan<In, Out> cub_exclusive(d_in.data(), d_out.data(), n, CubCall::kExclusiveSum);
  constexpr int64_t kRoundSize = kPerThread<Out> * kCopyThreads;  // one copy thread's elements
  int copy_grid = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&copy_grid, copy_elements<In, Out>,
                                                           kCopyThreads, 0));
  copy_grid =
      static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(int64_t{copy_grid} * device.sm_count,
                                                              (n + kRoundSize - 1) / kRoundSize)));

  const auto chained = [&](bool inclusive, BlockCycleSlots s) {
    scan.template run<Wait::kChained>(d_in.data(), d_out.data(), inclusive, s);
  };
  const auto decoupled = [&](bool inclusive, BlockCycleSlots s) {
    scan.template run<Wait::kDecoupled>(d_in.data(), d_out.data(), inclusive, s);
  };
  const auto copy = [&] {
    copy_elements<<<copy_grid, kCopyThreads>>>(d_in.data(), n, d_out.data());
  };

  // The steps, each compared with the CUB call that does its work.
  const std::string cub_in = prefix + "cub::DeviceScan::InclusiveSum";
  const std::string cub_ex = prefix + "cub::DeviceScan::ExclusiveSum";
  const auto step = [&](std::string name, std::string teaches, const void* kernel,
                        std::string baseline, std::function<void(BlockCycleSlots)> launch) {
    return Step{prefix + name,     std::move(teaches), kernel, scan.tiles(), double(n),
                std::move(launch), std::move(baseline)};
  };
  const Step chained_scan = step(
      "scan_chained", "one launch: each tile waits for the one before it to publish its prefix",
      single_pass_kernel<Wait::kChained, In, Out>(), cub_in,
      [&](BlockCycleSlots s) { chained(true, s); });
  const Step decoupled_scan =
      step("scan_decoupled_lookback",
           "each tile publishes its own sum at once, then looks back over a window of tiles",
           single_pass_kernel<Wait::kDecoupled, In, Out>(), cub_in,
           [&](BlockCycleSlots s) { decoupled(true, s); });
  const Step decoupled_exclusive =
      step("scan_decoupled_lookback, exclusive",
           "the same scan, exclusive: each output leaves out its own element",
           single_pass_kernel<Wait::kDecoupled, In, Out>(), cub_ex,
           [&](BlockCycleSlots s) { decoupled(false, s); });
  const VendorStep cub_inclusive_sum{cub_in, [&] { cub_inclusive(); }, cub_in};
  const VendorStep cub_exclusive_sum{cub_ex, [&] { cub_exclusive(); }, cub_ex};

  // Each inclusive scan and the copy checked on a poisoned output (the exclusive ones after the
  // timed calls, below).
  const auto check = [&](const std::string& name, const auto& want, const auto& depth,
                         const std::function<void()>& run) {
    d_out.poison();
    run();
    CUDA_CHECK(cudaGetLastError());
    d_out.copy_to(h_out);
    report.checks.push_back(Scan::check(prefix + name, h_out, want, depth));
  };
  check("inclusive scan (scan_chained)", reference, OurDepth<Out>{},
        [&] { chained_scan.launch({}); });
  check("inclusive scan (scan_decoupled_lookback)", reference, OurDepth<Out>{},
        [&] { decoupled_scan.launch({}); });
  check("cub::DeviceScan::InclusiveSum", reference, CubDepthEstimate{},
        [&] { cub_inclusive_sum.launch(); });
  report.checks.back().informative = std::is_floating_point_v<Out>;  // an estimated depth
  d_out.poison();
  copy();
  d_out.copy_to(h_out);
  report.checks.push_back(check_elements(
      prefix + "copy_elements", h_out, h_in, [](size_t) { return 0.0; }, "exact"));

  // Time all in one run, in the table's order: each scan next to the CUB call it is compared
  // with (run_steps would put all of ours first), the copy last. The exclusive scan is checked
  // below, after these timed calls. The rate counts the bytes a scan must move: n in, n out.
  const double bytes = double(n) * (sizeof(In) + sizeof(Out));
  const auto add_row = [&](Row row) {
    row.ops_per_byte = 1.0 / (sizeof(In) + sizeof(Out));
    report.rows.push_back(std::move(row));
  };
  add_row(measure_step(timer, opt.reps, bytes, chained_scan));
  add_row(measure_step(timer, opt.reps, bytes, decoupled_scan));
  add_row(measure_vendor_step(timer, opt.reps, bytes, cub_inclusive_sum));
  add_row(measure_step(timer, opt.reps, bytes, decoupled_exclusive));
  add_row(measure_vendor_step(timer, opt.reps, bytes, cub_exclusive_sum));
  Row floor = measure_vendor(timer, opt.reps, prefix + "copy_elements (the floor)", bytes, copy);
  floor.vendor = false;  // ours, but not a scan: no cycles recorded
  floor.symbol = kernel_symbol(reinterpret_cast<const void*>(copy_elements<In, Out>));
  floor.baseline = cub_in;
  add_row(std::move(floor));

  // Every call above left the status words and the counter for the next: still right?
  check("inclusive scan (scan_decoupled_lookback) again, after the timed calls", reference,
        OurDepth<Out>{}, [&] { decoupled_scan.launch({}); });
  // Inclusive to exclusive on the CPU: shift right by one, the identity in front.
  std::rotate(reference.rbegin(), reference.rbegin() + 1, reference.rend());
  reference[0] = 0;
  check("exclusive scan (scan_decoupled_lookback)", reference, OurDepth<Out>{},
        [&] { decoupled_exclusive.launch({}); });
  check("cub::DeviceScan::ExclusiveSum", reference, CubDepthEstimate{},
        [&] { cub_exclusive_sum.launch(); });
  report.checks.back().informative = std::is_floating_point_v<Out>;
  // Whole outputs, hashed on the host: past 2^24 elements that would take minutes.
  if (std::is_floating_point_v<Out> && n <= (int64_t{1} << 24)) {
    const auto distinct = [&](const std::function<void()>& launch) {
      return distinct_bit_patterns(kDeterminismRuns, d_out.data(), d_out.bytes(), launch);
    };
    report.notes.push_back(
        "float scans, " + std::to_string(kDeterminismRuns) +
        " runs each, distinct bit patterns of the whole output: scan_decoupled_lookback " +
        std::to_string(distinct([&] { decoupled(true, {}); })) +
        ", cub::DeviceScan::InclusiveSum " + std::to_string(distinct([&] { cub_inclusive(); })));
  }
  constexpr bool kStriped = TileShape<Out>::kArrangement == Arrangement::kStriped;
  report.notes.push_back(prefix + "scans: " + std::to_string(scan.tiles()) + " tiles of " +
                         std::to_string(kScanTile<Out>) + " elements, one block of " +
                         std::to_string(TileShape<Out>::kThreads) + " threads each, " +
                         (kStriped ? "striped" : "blocked") +
                         "; copy_elements: " + std::to_string(copy_grid) + " blocks");
}

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  report.problem = describe_reduction_input(opt.n, opt.seed) +
                   "; sums into int64, scans into int64; and float in [0.5, 1.5) (the rows "
                   "named float:)";
  report.ops_per_byte = 1.0 / (sizeof(int32_t) + sizeof(int64_t));  // the headline: the scan
  report.op_name = "add";
  Timer timer(device);
  run_reductions(opt, device, timer, report);
  run_scans<IntegerScan>(opt, device, timer, report);
  run_scans<FloatScan>(opt, device, timer, report);
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  const OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  return run_main(argc, argv, spec, run_lesson);
}
