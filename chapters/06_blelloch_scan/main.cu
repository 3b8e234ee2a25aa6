/**
 * @file chapters/06_blelloch_scan/main.cu
 * @brief Chapter 06: the work-efficient (Blelloch) prefix sum, for any length.
 *
 * Shows: exclusive and inclusive scan and how one becomes the other; the up-sweep and
 * down-sweep of the Blelloch tree in shared memory; the bank conflicts of its strided
 * accesses and the padding that removes them (blelloch_tree.cuh); more elements per thread;
 * any length through tile totals that are scanned recursively and added back
 * (scan_drivers.cuh); integer scans checked exactly and float scans element by element
 * within a rounding bound derived from the depth of the summation tree.
 * Leaves out: the single-pass scan with decoupled look-back that CUB uses (Part II, chapter
 * 08, planned), warp shuffles and vector loads.
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scan_drivers.cuh"
#include "tutorial/explain/explain.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/vendor/cub_scan.cuh"

namespace {

using namespace tutorial;
using namespace chapter06;

/// The chapter's steps, in the order the page teaches them.
enum class Step { kNaive, kPadded, kCoarse, kReduceThenScan };
constexpr Step kSteps[] = {Step::kNaive, Step::kPadded, Step::kCoarse, Step::kReduceThenScan};

std::string step_name(Step step) {
  switch (step) {
    case Step::kNaive:
      return "scan_blelloch_naive";
    case Step::kPadded:
      return "scan_blelloch_padded";
    case Step::kCoarse:
      return "scan_blelloch_coarse";
    case Step::kReduceThenScan:
      return "scan_reduce_then_scan";
  }
  return "";
}

bool uses_pair_tiles(Step step) {
  return step == Step::kNaive || step == Step::kPadded;
}

int64_t step_tile(Step step) {
  return uses_pair_tiles(step) ? kPairTile : kCoarseTile;
}

/// Bytes per element each step's loads and stores ask for (counted, not measured; the tile
/// totals, 1/1024 as many, left out). The page sets the DRAM bytes Nsight Compute measured
/// beside them.
double step_bytes_per_element(Step step, double in_bytes, double out_bytes) {
  if (step == Step::kReduceThenScan) return in_bytes + in_bytes + out_bytes;  // sum, scan
  return in_bytes + out_bytes + 2 * out_bytes;  // scan the tiles, then add the offsets back
}

int log2_of(int power_of_two) {
  int log = 0;
  while ((1 << log) < power_of_two) ++log;
  return log;
}

//! [scan_depth]
/**
 * @brief How many additions (at most) any input passes through on its way to any output of
 *        @p step scanning @p n values: the depth k of the float bound in verify.hpp.
 *
 * Inside a tile: the Blelloch tree over 2^L leaves adds at most L times going up and L times
 * coming down, +1 for inclusive; a coarse thread adds up to 8 values before the tree (over
 * 256 thread sums) and 8 after it. Across tiles: the tile's offset, whose inputs went through
 * a tile total (the up-sweep's depth) and then through the scan of the totals (the same
 * bound, one level up), is added once more.
 */
int64_t scan_depth(Step step, int64_t n) {
  const int64_t tile = step_tile(step);
  int64_t in_tile = 0, tile_total = 0;
  if (uses_pair_tiles(step)) {
    in_tile = 2 * log2_of(kPairTile) + 1;
    tile_total = log2_of(kPairTile);
  } else {
    in_tile = (kItemsPerThread - 1) + 2 * log2_of(kCoarseThreads) + kItemsPerThread;
    tile_total = (kItemsPerThread - 1) + log2_of(kCoarseThreads);
  }
  if (n <= tile) return in_tile;
  return in_tile + 1 + tile_total + scan_depth(step, tile_count(n, tile));
}
//! [scan_depth]

// A depth bound (float checks only) is a function object: depth(i) bounds the additions
// element i of a scan went through, depth.text() is how the check's rule prints it. A plain
// object, not a std::function, so the check of billions of elements can inline the call.

/// One of our steps: every element has the same bound, scan_depth(), worked out once.
struct UniformDepth {
  int64_t depth;
  int64_t operator()(int64_t) const { return depth; }
  std::string text() const { return std::to_string(depth); }
};

/// Every step for one pair of types, with the device scratch of both tile sizes.
template <typename In, typename Out>
class Steps {
 public:
  explicit Steps(int64_t n) : n_(n), pair_levels_(n, kPairTile), coarse_levels_(n, kCoarseTile) {}

  void run(Step step, const In* in, Out* out, bool inclusive, BlockCycleSlots slots) const {
    switch (step) {
      case Step::kNaive:
        return scan_then_propagate<PairTiles<false>>(in, n_, out, inclusive, pair_levels_, 0,
                                                     slots);
      case Step::kPadded:
        return scan_then_propagate<PairTiles<true>>(in, n_, out, inclusive, pair_levels_, 0, slots);
      case Step::kCoarse:
        return scan_then_propagate<CoarseTiles>(in, n_, out, inclusive, coarse_levels_, 0, slots);
      case Step::kReduceThenScan:
        return reduce_then_scan(in, n_, out, inclusive, coarse_levels_, 0, slots);
    }
  }

 private:
  int64_t n_;
  TileLevels<Out> pair_levels_, coarse_levels_;
};

/// The integer scan: int32 in, int64 out. |x| <= 2^20 and n < 2^42 keep every prefix below
/// 2^62: int64 cannot overflow, so the check is exact.
struct IntegerScan {
  using In = int32_t;
  using Out = int64_t;
  static constexpr const char* kType = "int64";
  static constexpr bool kEstimatedForVendor = false;  ///< CUB's integer scan is checked exactly
  static std::vector<In> input(int64_t n, uint64_t seed) {
    return random_ints(n, seed, -(1 << 20), 1 << 20);
  }
  template <typename Depth>
  static Check check(std::string what, const std::vector<Out>& got,
                     const std::vector<int64_t>& want, const Depth&) {
    return check_scan_exact(std::move(what), got, want);
  }
};

/// The float scan: float in and out, inputs in [0.5, 1.5). All positive, so the prefix of
/// |x| in the rounding bound is the reference itself; each prefix of such floats (multiples
/// of 2^-24 below 2^53 * 2^-24) is exact in the double reference.
struct FloatScan {
  using In = float;
  using Out = float;
  static constexpr const char* kType = "float";
  static constexpr bool kEstimatedForVendor = true;  ///< CUB's bound rests on CubDepthEstimate
  static std::vector<In> input(int64_t n, uint64_t seed) {
    return random_floats(n, seed, 0.5f, 1.5f);
  }
  template <typename Depth>
  static Check check(std::string what, const std::vector<Out>& got, const std::vector<double>& want,
                     const Depth& depth) {
    return check_positive_scan(std::move(what), got, want, depth);
  }
};

/// What one type's run adds to the report.
struct TypeResult {
  std::vector<Row> rows;
  std::vector<std::string> notes;
};

/**
 * @brief Verifies every step and CUB on poisoned outputs (inclusive, then exclusive for the
 *        last step and CUB), then times them all in one run.
 */
template <typename Scan>
TypeResult run_type(const Options& opt, Timer& timer, Report& report) {
  using In = typename Scan::In;
  using Out = typename Scan::Out;
  const int64_t n = opt.n;
  const std::string type = Scan::kType;

  // Device memory first: a size that cannot fit fails here (exit 3), before the host works.
  DeviceBuffer<In> d_in(n);
  DeviceBuffer<Out> d_out(n);
  const std::vector<In> h_in = Scan::input(n, opt.seed);
  d_in.copy_from(h_in);
  auto reference = reference_inclusive_scan(h_in);  // one pass; int64 or double
  const Steps<In, Out> steps(n);
  CubScan<In, Out> cub_inclusive(d_in.data(), d_out.data(), n, CubCall::kInclusiveSum);
  CubScan<In, Out> cub_exclusive(d_in.data(), d_out.data(), n, CubCall::kExclusiveSum);
  CubScan<In, Out> cub_scan_init(d_in.data(), d_out.data(), n, CubCall::kInclusiveScanInit);
  // One host copy of the output for every check: allocated once, and page-locked if the system
  // allows, so that copying billions of elements back runs at the bus's full speed.
  std::vector<Out> h_out(static_cast<size_t>(n));
  const HostPin pin(h_out);

  const auto check_step = [&](Step step, bool inclusive, const std::string& kind) {
    d_out.poison();
    steps.run(step, d_in.data(), d_out.data(), inclusive, BlockCycleSlots{});
    CUDA_CHECK(cudaGetLastError());
    d_out.copy_to(h_out);
    report.checks.push_back(Scan::check(type + " " + kind + " scan (" + step_name(step) + ")",
                                        h_out, reference, UniformDepth{scan_depth(step, n)}));
  };
  const auto check_cub = [&](CubScan<In, Out>& cub, const std::string& name) {
    d_out.poison();
    cub();
    d_out.copy_to(h_out);
    report.checks.push_back(Scan::check(type + " " + name, h_out, reference, CubDepthEstimate{}));
    // Integers are exact, a proof; a float bound from an estimated depth is not (see
    // CubDepthEstimate): shown, but CUB's float scan does not decide the verdict.
    report.checks.back().informative = Scan::kEstimatedForVendor;
  };
  for (Step step : kSteps) check_step(step, true, "inclusive");
  check_cub(cub_inclusive, "cub::DeviceScan::InclusiveSum");
  check_cub(cub_scan_init, "cub::DeviceScan::InclusiveScanInit");
  //! [exclusive_reference]
  // Inclusive to exclusive on the CPU: shift right by one and put the identity in front.
  std::rotate(reference.rbegin(), reference.rbegin() + 1, reference.rend());
  reference[0] = 0;
  //! [exclusive_reference]
  check_step(Step::kReduceThenScan, false, "exclusive");
  check_cub(cub_exclusive, "cub::DeviceScan::ExclusiveSum");

  // Time all in one run. The rate counts the bytes every scan must move: n in, n out.
  TypeResult result;
  const double bytes = double(n) * (sizeof(In) + sizeof(Out));
  for (Step step : kSteps) {
    const auto launch = [&](BlockCycleSlots slots) {
      steps.run(step, d_in.data(), d_out.data(), true, slots);
    };
    result.rows.push_back(measure_kernel(timer, opt.reps, step_name(step), bytes,
                                         tile_count(n, step_tile(step)), double(n), launch));
  }
  result.rows.push_back(
      measure_vendor(timer, opt.reps, "cub::DeviceScan::InclusiveSum", bytes, cub_inclusive));
  result.rows.push_back(
      measure_vendor(timer, opt.reps, "cub::DeviceScan::InclusiveScanInit", bytes, cub_scan_init));

  std::string moved = type + ": bytes per element, counted (in " + std::to_string(sizeof(In)) +
                      " B, out " + std::to_string(sizeof(Out)) + " B):";
  for (Step step : kSteps) {
    moved += " " + step_name(step) + " " +
             format_number(step_bytes_per_element(step, sizeof(In), sizeof(Out)));
  }
  result.notes.push_back(moved + "; CUB " + format_number(double(sizeof(In) + sizeof(Out))) +
                         ", the minimum the rate column counts");
  return result;
}

/// The float rows join the table named "float: ...", each compared with CUB's float scan.
void append_float_rows(std::vector<Row> float_rows, std::vector<Row>& table) {
  const std::string yardstick = "float: cub::DeviceScan::InclusiveSum";
  for (Row& row : float_rows) {
    row.name = "float: " + row.name;
    row.baseline = yardstick;
    row.ops_per_byte = 1.0 / (2 * sizeof(float));  // the roofline: one add per float in and out
    table.push_back(row);
  }
}

const ChapterInfo kChapter{"06_blelloch_scan", "work-efficient (Blelloch) prefix sum of any length",
                           step_name(Step::kReduceThenScan)};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t n = opt.n;
  Report report = start_report(kChapter, device, opt);
  report.problem = "n = " + std::to_string(n) +
                   ": int32 in [-2^20, 2^20] -> int64, "
                   "and float in [0.5, 1.5) -> float (the rows named float:), seed " +
                   std::to_string(opt.seed);
  // The roofline's intensity: one add per element, which must be read (4 B) and written (8 B).
  report.ops_per_byte = 1.0 / (sizeof(int32_t) + sizeof(int64_t));
  report.op_name = "add";

  Timer timer(device);
  TypeResult integers = run_type<IntegerScan>(opt, timer, report);
  TypeResult floats = run_type<FloatScan>(opt, timer, report);
  report.rows = integers.rows;

  const Summary& naive = *report.rows[0].block_cycles;
  const Summary& padded = *report.rows[1].block_cycles;
  report.notes.push_back("bank conflicts: padding the tree took the median block from " +
                         format_number(naive.median) + " to " + format_number(padded.median) +
                         " cycles (int64 elements, 1024 per tile)");
  report.notes.insert(report.notes.end(), integers.notes.begin(), integers.notes.end());
  report.notes.insert(report.notes.end(), floats.notes.begin(), floats.notes.end());
  append_float_rows(floats.rows, report.rows);
  return report;
}

//! [explain_tree_scan]
/// --explain: one warp scans 64 int64 values with the tree of steps 1 and 2 (the same
/// tree_exclusive_scan as scan_tile_pairs, on a tile small enough to read step by step).
constexpr int kExplainThreads = 32;
constexpr int kExplainCount = 2 * kExplainThreads;

template <bool Padded, bool kRecord>
__global__ void explain_tree_scan(const int32_t* in, long long* out) {
  __shared__ long long tree_memory[tree_slots<Padded, long long>(kExplainCount)];
  const auto tree = shared_array<kRecord>(tree_memory, 0);
  const int t = threadIdx.x;
  tree[tree_slot<Padded, long long>(t)] = in[t];
  tree[tree_slot<Padded, long long>(t + kExplainThreads)] = in[t + kExplainThreads];
  tree_exclusive_scan<Padded>(tree, kExplainCount);
  out[t] = tree[tree_slot<Padded, long long>(t)];
  out[t + kExplainThreads] = tree[tree_slot<Padded, long long>(t + kExplainThreads)];
}
//! [explain_tree_scan]

/// The tree of step 1 (Padded = false) or 2 for --explain, checked against the CPU's scan.
template <bool Padded>
ExplainedKernel explain_tree(uint64_t seed) {
  const std::vector<int32_t> host =
      random_ints(kExplainCount, seed, -kReductionInputBound, kReductionInputBound);
  std::vector<long long> want(kExplainCount);
  const std::vector<int64_t> inclusive = reference_inclusive_scan(host);
  for (int i = 0; i < kExplainCount; ++i) want[i] = inclusive[i] - host[i];  // exclusive
  const auto in = std::make_shared<DeviceBuffer<int32_t>>(host);
  const auto out = std::make_shared<DeviceBuffer<long long>>(kExplainCount);
  ExplainedKernel k;
  k.kernel = std::string("tree_exclusive_scan<") + (Padded ? "padded" : "not padded") + ">";
  k.launch =
      "one warp scanning " + std::to_string(kExplainCount) + " int64 values (explain_tree_scan)";
  k.arrays = {{"tree", 0}};
  k.run = [=](bool record) {
    out->poison();
    (record ? explain_tree_scan<Padded, true>
            : explain_tree_scan<Padded, false>)<<<1, kExplainThreads>>>(in->data(), out->data());
    CUDA_CHECK(cudaGetLastError());
    const std::vector<long long> got = out->to_host();
    int wrong = 0;
    for (int i = 0; i < kExplainCount; ++i) wrong += got[i] != want[i];
    return ExplainResult{wrong == 0, wrong == 0
                                         ? "all 64 prefix sums = CPU"
                                         : std::to_string(wrong) + " of 64 prefix sums wrong"};
  };
  return k;
}

Explanation explain_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  return explain_kernels(kChapter.id, device,
                         {explain_tree<false>(opt.seed), explain_tree<true>(opt.seed)});
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.extra = {explain_option()};
  return run_main(argc, argv, spec, run_lesson, explain_lesson);
}
