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
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "02_single_block_sum/reduction_input.cuh"
#include "cub_scan.cuh"
#include "host_pin.cuh"
#include "scan_drivers.cuh"
#include "scan_types.hpp"
#include "tutorial/explain/explain.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter06;

/// How a step cuts the input: tiles of 1024 elements, two a thread, every element a leaf of
/// the tree (steps 1 and 2), or tiles of 2048, eight a thread, whose sums are the leaves
/// (steps 3 and 4).
enum class TileShape { kPairs, kCoarse };

int64_t tile_size(TileShape tiles) {
  return tiles == TileShape::kPairs ? kPairTile : kCoarseTile;
}

int log2_of(int power_of_two) {
  int log = 0;
  while ((1 << log) < power_of_two) ++log;
  return log;
}

//! [scan_depth]
/**
 * @brief How many additions (at most) any input passes through on its way to any output of a
 *        scan of @p n values in @p tiles: the depth k of the float bound in verify.hpp.
 *
 * Inside a tile: the Blelloch tree over 2^L leaves adds at most L times going up and L times
 * coming down, +1 for inclusive; a coarse thread adds up to 8 values before the tree (over
 * 256 thread sums) and 8 after it. Across tiles: the tile's offset, whose inputs went through
 * a tile total (the up-sweep's depth) and then through the scan of the totals (the same
 * bound, one level up), is added once more.
 */
int64_t scan_depth(TileShape tiles, int64_t n) {
  const int64_t tile = tile_size(tiles);
  int64_t in_tile = 0, tile_total = 0;
  if (tiles == TileShape::kPairs) {
    in_tile = 2 * log2_of(kPairTile) + 1;
    tile_total = log2_of(kPairTile);
  } else {
    in_tile = (kItemsPerThread - 1) + 2 * log2_of(kCoarseThreads) + kItemsPerThread;
    tile_total = (kItemsPerThread - 1) + log2_of(kCoarseThreads);
  }
  if (n <= tile) return in_tile;
  return in_tile + 1 + tile_total + scan_depth(tiles, tile_count(n, tile));
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

/**
 * @brief One type's table: every step and CUB verified on poisoned outputs and timed in one
 *        run (run_steps), then the last step and CUB verified exclusive.
 * @return the note of the bytes per element each step's loads and stores ask for.
 */
template <typename Scan>
std::string run_type(const Options& opt, Timer& timer, Report& report) {
  using In = typename Scan::In;
  using Out = typename Scan::Out;
  const int64_t n = opt.n;
  const std::string type = Scan::kType, prefix = Scan::kPrefix;

  // Device memory first: a size that cannot fit fails here (exit 3), before the host works.
  DeviceBuffer<In> d_in(n);
  DeviceBuffer<Out> d_out(n);
  const std::vector<In> h_in = Scan::input(n, opt.seed);
  d_in.copy_from(h_in);
  auto reference = reference_inclusive_scan(h_in);  // one pass; int64 or double
  const TileLevels<Out> pair_levels(n, kPairTile), coarse_levels(n, kCoarseTile);
  CubScan<In, Out> cub_inclusive(d_in.data(), d_out.data(), n, CubCall::kInclusiveSum);
  CubScan<In, Out> cub_exclusive(d_in.data(), d_out.data(), n, CubCall::kExclusiveSum);
  CubScan<In, Out> cub_scan_init(d_in.data(), d_out.data(), n, CubCall::kInclusiveScanInit);
  // One host copy of the output for every check: allocated once, and page-locked if the system
  // allows, so that copying billions of elements back runs at the bus's full speed.
  std::vector<Out> h_out(static_cast<size_t>(n));
  const HostPin pin(h_out);

  // The steps, in the order the page teaches them, each an inclusive scan of d_in into d_out.
  // Tiles (PairTiles, CoarseTiles) gives the tile kernel whose blocks a step clocks, and its tile.
  const In* in = d_in.data();
  Out* out = d_out.data();
  const auto step = [&](auto tiles, std::string name, std::string teaches,
                        std::function<void(BlockCycleSlots)> scan) {
    using Tiles = decltype(tiles);
    return Step{prefix + name,
                std::move(teaches),
                reinterpret_cast<const void*>(Tiles::template kernel<In, Out>),
                tile_count(n, Tiles::kTile),
                double(n),
                std::move(scan),
                Scan::kBaseline};
  };
  // Steps 1-3 scan the tiles and add the offsets back; step 4 sums the tiles first.
  const auto propagate = [&](auto tiles, const TileLevels<Out>& levels) {
    using Tiles = decltype(tiles);
    return [in, out, n, &levels](BlockCycleSlots slots) {
      scan_then_propagate<Tiles>(in, n, out, true, levels, 0, slots);
    };
  };
  const std::vector<Step> steps = {
      step(PairTiles<false>{}, "scan_blelloch_naive",
           "the Blelloch tree over tiles of 1024; tile totals scanned likewise, added back",
           propagate(PairTiles<false>{}, pair_levels)),
      step(PairTiles<true>{}, "scan_blelloch_padded",
           "the same tree with pad slots: its strided accesses spread over all banks",
           propagate(PairTiles<true>{}, pair_levels)),
      step(CoarseTiles{}, "scan_blelloch_coarse",
           "8 elements a thread, scanned in registers; the tree only over 256 thread sums",
           propagate(CoarseTiles{}, coarse_levels)),
      step(CoarseTiles{}, "scan_reduce_then_scan",
           "the tiles summed first, then scanned from their offsets: the output written once",
           [&](BlockCycleSlots slots) {
             reduce_then_scan(in, n, out, true, coarse_levels, 0, slots);
           }),
  };
  const std::vector<VendorStep> vendors = {
      {prefix + "cub::DeviceScan::InclusiveSum", [&] { cub_inclusive(); }, Scan::kBaseline},
      {prefix + "cub::DeviceScan::InclusiveScanInit", [&] { cub_scan_init(); }, Scan::kBaseline},
  };

  // The float bound of a step is that of its tiles: those of the coarse kernel, or pairs.
  const auto depth_of = [&](const Step& step) {
    const bool coarse = step.kernel == reinterpret_cast<const void*>(CoarseTiles::kernel<In, Out>);
    return UniformDepth{scan_depth(coarse ? TileShape::kCoarse : TileShape::kPairs, n)};
  };
  const auto check = [&](const std::string& what, const auto& depth,
                         const std::function<void()>& run) {
    d_out.poison();
    run();
    CUDA_CHECK(cudaGetLastError());
    d_out.copy_to(h_out);
    return Scan::check(type + " " + what, h_out, reference, depth);
  };
  const auto check_cub = [&](const std::string& name, const std::function<void()>& run) {
    Check result = check(name, CubDepthEstimate{}, run);
    // Integers are exact, a proof; a float bound from an estimated depth is not (see
    // CubDepthEstimate): shown, but CUB's float scan does not decide the verdict.
    result.informative = Scan::kEstimatedForVendor;
    return result;
  };

  // Every step and CUB checked inclusive, then all timed in one run. The rate counts the bytes
  // every scan must move: n in, n out.
  const size_t first_row = report.rows.size();
  run_steps(report, timer, opt.reps, double(n) * (sizeof(In) + sizeof(Out)), steps, vendors,
            [&](const std::string& id, const std::function<void()>& run) {
              const std::string name = id.substr(prefix.size());
              const Step* step = find_step(steps, id);
              return step ? check("inclusive scan (" + name + ")", depth_of(*step), run)
                          : check_cub(name, run);
            });
  for (size_t i = first_row; i < report.rows.size(); ++i) {
    report.rows[i].ops_per_byte = Scan::kOpsPerByte;
  }

  //! [exclusive_reference]
  // Inclusive to exclusive on the CPU: shift right by one and put the identity in front.
  std::rotate(reference.rbegin(), reference.rbegin() + 1, reference.rend());
  reference[0] = 0;
  //! [exclusive_reference]
  const Step& last = steps.back();
  report.checks.push_back(
      check("exclusive scan (" + last.id.substr(prefix.size()) + ")", depth_of(last),
            [&] { reduce_then_scan(in, n, out, false, coarse_levels, 0, BlockCycleSlots{}); }));
  report.checks.push_back(check_cub("cub::DeviceScan::ExclusiveSum", [&] { cub_exclusive(); }));

  // Bytes per element each step's loads and stores ask for (counted, not measured; the tile
  // totals, 1/1024 as many, left out): steps 1-3 read the input and write the output, then read
  // and write it again to add the offsets; step 4, the last, reads the input twice (sum, scan)
  // and writes once. The page sets the DRAM bytes Nsight Compute measured beside them.
  const double in_bytes = sizeof(In), out_bytes = sizeof(Out);
  std::string moved = type + ": bytes per element, counted (in " + std::to_string(sizeof(In)) +
                      " B, out " + std::to_string(sizeof(Out)) + " B):";
  for (const Step& step : steps) {
    const double bytes =
        &step == &last ? in_bytes + in_bytes + out_bytes : in_bytes + out_bytes + 2 * out_bytes;
    moved += " " + step.id.substr(prefix.size()) + " " + format_number(bytes);
  }
  return moved + "; CUB " + format_number(in_bytes + out_bytes) +
         ", the minimum the rate column counts";
}

const ChapterInfo kChapter{"06_blelloch_scan", "work-efficient (Blelloch) prefix sum of any length",
                           "scan_reduce_then_scan"};

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
  const std::string integer_bytes = run_type<IntegerScan>(opt, timer, report);
  const std::string float_bytes = run_type<FloatScan>(opt, timer, report);

  const Summary& naive = *report.rows[0].block_cycles;
  const Summary& padded = *report.rows[1].block_cycles;
  report.notes.push_back("bank conflicts: padding the tree took the median block from " +
                         format_number(naive.median) + " to " + format_number(padded.median) +
                         " cycles (int64 elements, 1024 per tile)");
  report.notes.push_back(integer_bytes);
  report.notes.push_back(float_bytes);
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
