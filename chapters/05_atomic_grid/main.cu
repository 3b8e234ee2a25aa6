/**
 * @file chapters/05_atomic_grid/main.cu
 * @brief Chapter 05: the whole GPU on one sum. A grid sized to fill the GPU once, a
 *        grid-stride loop, a block sum with warp shuffles, and one atomicAdd per block.
 *
 * Shows: the grid sized from the SM count and the occupancy, not from n; each thread walking
 * the input with the grid's stride (coalesced) against a contiguous chunk per thread (not);
 * 16-byte vector loads with several in flight; one block per tile instead of the grid-stride
 * loop, so that the block scheduler keeps every SM busy until the end; the three ways to combine
 * block sums (atomics, a second launch on the block sums, the CPU), all measured; integer sums in
 * 64 bits, exact and deterministic; float sums, whose atomics are not deterministic, with a
 * deterministic two-pass step next to them. Leaves out: a single-pass deterministic float sum (the
 * "last block" pattern) and anything past the sum (scans: chapter 06).
 */
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "02_single_block_sum/reduction_input.cuh"
#include "04_divergence_free/block_reduce.cuh"
#include "sum_traits.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter04;
using namespace chapter05;

/// Threads per block: whole warps, for block_reduce_sum().
constexpr int kBlockThreads = 256;

/// 16-byte loads each thread keeps in flight per loop iteration: enough bytes on their way
/// from DRAM to cover its latency when every SM is full of threads.
constexpr int kVectorsInFlight = 4;

/// How a block hands over its sum: one atomicAdd into the result, or one slot per block that
/// a second step (a launch or the CPU) adds up.
enum class Combine { kAtomic, kPerBlock };

//! [finish_block]
/// The end of every kernel below: the block's threads meet in block_reduce_sum(), and thread
/// 0 hands the block's sum over, with one atomicAdd or into its block's slot.
template <Combine kCombine, typename Acc>
__device__ void finish_block(Acc sum, Acc* out) {
  sum = block_reduce_sum<kBlockThreads>(sum);
  if (threadIdx.x == 0) {
    if constexpr (kCombine == Combine::kAtomic) {
      atomic_add(out, sum);  // one atomic per block, not one per element
    } else {
      out[blockIdx.x] = sum;
    }
  }
}
//! [finish_block]

//! [reduce_global_stride]
/// Grid-stride loop: thread t of the grid adds elements t, t + T, t + 2T, ... where T is the
/// number of threads in the grid. At every step the warp's 32 lanes read 32 consecutive ints:
/// coalesced, whatever n is, and the grid's size no longer depends on n.
/// @pre run by every thread of blocks of kBlockThreads threads; *out is 0 before the launch.
template <typename T>
__device__ void reduce_global_stride(const T* __restrict__ in, int64_t n, SumOf<T>* out) {
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  SumOf<T> sum = 0;
  for (int64_t i = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x; i < n; i += stride) {
    sum += in[i];
  }
  finish_block<Combine::kAtomic>(sum, out);
}
//! [reduce_global_stride]

//! [reduce_local_stride]
/// The other way to coarsen: thread t adds its own contiguous chunk of ceil(n / T) elements.
/// Same work, same threads; but at every step the 32 lanes of a warp read 32 addresses a
/// chunk apart: 32 sectors of 32 bytes for 32 useful ints, where the global stride needs 4.
/// A lane's next 7 ints are in the sector it has just loaded, so L1 serves most of them: the
/// cost is the extra L1 traffic, not 8 times the DRAM bytes (the page shows the counters).
/// @pre run by every thread of blocks of kBlockThreads threads; *out is 0 before the launch.
template <typename T>
__device__ void reduce_local_stride(const T* __restrict__ in, int64_t n, SumOf<T>* out) {
  const int64_t threads = int64_t{gridDim.x} * kBlockThreads;
  const int64_t chunk = (n + threads - 1) / threads;
  const int64_t begin = (int64_t{blockIdx.x} * kBlockThreads + threadIdx.x) * chunk;
  const int64_t end = std::min(begin + chunk, n);
  SumOf<T> sum = 0;
  for (int64_t i = begin; i < end; ++i) sum += in[i];
  finish_block<Combine::kAtomic>(sum, out);
}
//! [reduce_local_stride]

/// The four values of a 16-byte vector added into @p sum, one at a time.
template <typename Acc, typename Vector>
__device__ Acc add_vector(Acc sum, const Vector& v) {
  sum += v.x;
  sum += v.y;
  sum += v.z;
  sum += v.w;
  return sum;
}

//! [reduce_vectorized]
/// The grid-stride loop with 16-byte loads (int4: four ints per instruction, a quarter of the
/// load instructions) and kVectorsInFlight independent loads per iteration, so each thread
/// has 64 bytes on their way at once. The n % 4 ints past the last whole vector are added by
/// the first threads of the grid, one each.
/// @pre run by every thread of blocks of kBlockThreads threads; @p in is 16-byte aligned
/// (cudaMalloc
///      gives 256); for Combine::kAtomic *out is 0 before the launch, for kPerBlock out has
///      one slot per block.
template <Combine kCombine, typename T>
__device__ void reduce_vectorized(const T* __restrict__ in, int64_t n, SumOf<T>* out) {
  using Vector = typename SumTraits<T>::Vector;
  const Vector* in4 = reinterpret_cast<const Vector*>(in);
  const int64_t vectors = n / 4;
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  const int64_t thread = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x;

  SumOf<T> sum = 0;
  int64_t i = thread;
  for (; i + (kVectorsInFlight - 1) * stride < vectors; i += kVectorsInFlight * stride) {
    Vector v[kVectorsInFlight];
#pragma unroll
    for (int j = 0; j < kVectorsInFlight; ++j) v[j] = in4[i + j * stride];  // all loads first
#pragma unroll
    for (int j = 0; j < kVectorsInFlight; ++j) sum = add_vector(sum, v[j]);
  }
  for (; i < vectors; i += stride) sum = add_vector(sum, in4[i]);
  if (thread < n % 4) sum += in[4 * vectors + thread];
  finish_block<kCombine>(sum, out);
}
//! [reduce_vectorized]

/// Vectors one block of reduce_tile_per_block() adds: kVectorsInFlight per thread, the loads
/// in flight of reduce_vectorized(), and no more (in a probe the page quotes, more vectors a
/// thread were slower).
constexpr int kTileVectors = kBlockThreads * kVectorsInFlight;
static_assert(kTileVectors * 16 == 16 * 1024, "the step's text and the page say 16 KiB");

//! [reduce_tile_per_block]
/// No grid-stride loop: block b adds tile b (kTileVectors vectors) and exits; the grid has one
/// block per tile. A grid-stride loop fixes each block's share at launch, and SMs that finish
/// early wait idle for the last; here the block scheduler starts the next tile on whichever SM
/// has room, so every SM reads until the end. The price: a block and an atomicAdd per 16 KiB.
/// The n % 4 ints past the last whole vector are added by block 0's first threads, one each.
/// @pre run by every thread of blocks of kBlockThreads threads, one block per tile (at least
/// one); @p in is 16-byte aligned; *out is 0 before the launch.
template <typename T>
__device__ void reduce_tile_per_block(const T* __restrict__ in, int64_t n, SumOf<T>* out) {
  using Vector = typename SumTraits<T>::Vector;
  const Vector* in4 = reinterpret_cast<const Vector*>(in);
  const int64_t vectors = n / 4;
  const int64_t first = int64_t{blockIdx.x} * kTileVectors + threadIdx.x;

  Vector v[kVectorsInFlight];
#pragma unroll
  for (int j = 0; j < kVectorsInFlight; ++j) {
    const int64_t i = first + j * kBlockThreads;  // a coalesced 4 KiB sweep of the block per j,
    v[j] = i < vectors ? in4[i] : Vector{};       // all 4 issued before any add; zeros past n
  }
  SumOf<T> sum = 0;
#pragma unroll
  for (int j = 0; j < kVectorsInFlight; ++j) sum = add_vector(sum, v[j]);
  if (blockIdx.x == 0 && threadIdx.x < n % 4) sum += in[4 * vectors + threadIdx.x];
  finish_block<Combine::kAtomic>(sum, out);
}
//! [reduce_tile_per_block]

/// One of the block bodies above as the harness launches it: in its kernel clocked_blocks,
/// which records the block's cycles when asked (tutorial/harness/block_cycles.cuh).
template <auto kBody>
constexpr auto block_kernel = clocked_kernel<kBody>;

//! [reduce_block_sums]
/// The second launch of the two-pass sum: one block adds the first pass's block sums, in an
/// order fixed by the grid size, so the result is the same bits every time.
/// @pre launched as <<<1, kBlockThreads>>>.
template <typename Acc>
__global__ void reduce_block_sums(const Acc* __restrict__ block_sums, int count,
                                  Acc* __restrict__ out) {
  Acc sum = 0;
  for (int i = threadIdx.x; i < count; i += kBlockThreads) sum += block_sums[i];
  sum = block_reduce_sum<kBlockThreads>(sum);
  if (threadIdx.x == 0) *out = sum;
}
//! [reduce_block_sums]

/// The kernel of the tile step: one block per tile.
template <typename T>
constexpr auto tile_kernel = block_kernel<reduce_tile_per_block<T>>;

//! [grid_size]
/// The grid that fills the GPU once: as many blocks of @p kernel as fit on an SM at the same
/// time (registers, shared memory and thread limits decide), times the SMs. More blocks would
/// wait for a free SM (the tile step puts that to use); fewer would leave some idle. Capped at one
/// 4-int vector per thread, so that a small input does not start hundreds of blocks with nothing to
/// add.
template <typename Kernel>
int grid_size(Kernel kernel, const DeviceFacts& device, int64_t n) {
  int blocks_per_sm = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kBlockThreads, 0));
  const int64_t resident = int64_t{blocks_per_sm} * device.sm_count;
  const int64_t useful = (n + 4 * kBlockThreads - 1) / (4 * kBlockThreads);
  return static_cast<int>(std::max<int64_t>(1, std::min(resident, useful)));
}
//! [grid_size]

/// The ways this chapter sums one array of T, each a launch function of a step (step() makes
/// one), with the buffers they need. Every launch leaves the sum in result() (or, for the CPU
/// finish, in host_sum).
template <typename T>
class GridSums {
 public:
  using Acc = SumOf<T>;
  /// The kernel of two_pass() and cpu_finish(): the blocks store their sums, one slot each.
  static constexpr auto kPerBlockKernel = block_kernel<reduce_vectorized<Combine::kPerBlock, T>>;

  GridSums(const DeviceFacts& device, const T* d_in, int64_t n)
      : d_in_(d_in),
        n_(n),
        grid_(grid_size(block_kernel<reduce_vectorized<Combine::kAtomic, T>>, device, n)),
        tiles_(std::max<int64_t>(1, (n / 4 + kTileVectors - 1) / kTileVectors)),
        d_out_(1),
        d_block_sums_(grid_),
        h_block_sums_(grid_) {}

  int grid() const { return grid_; }
  int64_t tiles() const { return tiles_; }
  Acc* result() const { return d_out_.data(); }

  /// A step of this type's table whose @p launch (a call of one of the functions below) clocks
  /// the blocks of @p kernel: one grid of them over the n elements.
  template <typename Kernel>
  Step step(std::string id, std::string teaches, Kernel kernel,
            std::function<void(BlockCycleSlots)> launch, std::string baseline = {}) const {
    return {std::move(id),
            std::move(teaches),
            reinterpret_cast<const void*>(kernel),
            grid_,
            double(n_),
            std::move(launch),
            std::move(baseline)};
  }
  /// The step of tile_per_block(), whose grid is tiles() blocks, not grid().
  Step tile_step(std::string id, std::string teaches) {
    Step tiled = step(std::move(id), std::move(teaches), tile_kernel<T>,
                      [this](BlockCycleSlots slots) { tile_per_block(slots); });
    tiled.blocks = tiles_;
    return tiled;
  }

  /// Zeroes the result (a memset: a tiny second operation), then one kernel with atomics.
  template <typename Kernel>
  void atomic(Kernel kernel, BlockCycleSlots slots) {
    CUDA_CHECK(cudaMemsetAsync(d_out_.data(), 0, sizeof(Acc)));
    kernel<<<grid_, kBlockThreads>>>(slots, d_in_, n_, d_out_.data());
  }
  /// Zeroes the result, then one block per tile, each with one atomic.
  void tile_per_block(BlockCycleSlots slots) {
    if (tiles_ > std::numeric_limits<int32_t>::max()) {  // gridDim.x's limit: n near 2^43
      throw UsageError("n = " + std::to_string(n_) + " needs more than 2^31 - 1 tiles");
    }
    CUDA_CHECK(cudaMemsetAsync(d_out_.data(), 0, sizeof(Acc)));
    tile_kernel<T>
        <<<static_cast<unsigned>(tiles_), kBlockThreads>>>(slots, d_in_, n_, d_out_.data());
  }
  /// Block sums to memory, then a second launch of one block adds them: deterministic.
  void two_pass(BlockCycleSlots slots) {
    kPerBlockKernel<<<grid_, kBlockThreads>>>(slots, d_in_, n_, d_block_sums_.data());
    reduce_block_sums<<<1, kBlockThreads>>>(d_block_sums_.data(), grid_, d_out_.data());
  }
  /// Block sums to memory, copied to the host, added there (in order: deterministic too).
  void cpu_finish(BlockCycleSlots slots) {
    kPerBlockKernel<<<grid_, kBlockThreads>>>(slots, d_in_, n_, d_block_sums_.data());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_block_sums_.data(), d_block_sums_.data(), grid_ * sizeof(Acc),
                          cudaMemcpyDeviceToHost));
    host_sum = 0;
    for (Acc s : h_block_sums_) host_sum += s;
  }
  /// The sum the last cpu_finish() computed.
  Acc host_sum = 0;
  /// Poisons the block sums, so that a check of cpu_finish() cannot pass on stale ones.
  void poison_block_sums() { d_block_sums_.poison(); }

 private:
  const T* d_in_;
  int64_t n_;
  int grid_;
  int64_t tiles_;
  DeviceBuffer<Acc> d_out_;
  DeviceBuffer<Acc> d_block_sums_;
  std::vector<Acc> h_block_sums_;
};

/// Reads one value back.
template <typename Acc>
Acc read_back(const Acc* d_value) {
  Acc value{};
  CUDA_CHECK(cudaMemcpy(&value, d_value, sizeof(Acc), cudaMemcpyDeviceToHost));
  return value;
}

/// Runs @p launch @p runs times and says how many different float results (bit for bit) came.
template <typename Launch>
std::string distinct_results(GridSums<float>& sums, int runs, Launch launch) {
  std::set<uint32_t> bits;
  float low = 0, high = 0;
  for (int r = 0; r < runs; ++r) {
    launch();
    CUDA_CHECK(cudaGetLastError());
    const float value = read_back(sums.result());
    uint32_t pattern;
    std::memcpy(&pattern, &value, sizeof pattern);
    bits.insert(pattern);
    low = r == 0 ? value : std::min(low, value);
    high = r == 0 ? value : std::max(high, value);
  }
  return std::to_string(runs) + " runs, " + std::to_string(bits.size()) +
         " distinct value(s) from " + format_number(low) + " to " + format_number(high);
}

/// Depth of the float summation trees (verify.hpp): how many additions one input can pass
/// through on its way to the result, for the atomic and the two-pass steps.
struct FloatDepths {
  int64_t atomic, two_pass;
};
FloatDepths float_depths(int64_t n, int grid) {
  const int64_t threads = int64_t{grid} * kBlockThreads;
  // A thread adds its vectors' values one by one, plus at most one leftover element.
  const int64_t serial = 4 * ((n / 4 + threads - 1) / threads) + 1;
  int64_t block_tree = 0;
  while ((1 << block_tree) < kBlockThreads) ++block_tree;  // warp and block shuffles: log2(256)
  // Atomics add the block sums one after another, in any order: up to `grid` additions.
  // The second pass: each thread adds ceil(grid / 256) block sums, then a block tree.
  return {serial + block_tree + grid,
          serial + block_tree + (grid + kBlockThreads - 1) / kBlockThreads + block_tree};
}

const ChapterInfo kChapter{"05_atomic_grid",
                           "grid-stride loop, block shuffles, one atomicAdd per block",
                           "reduce_tile_per_block + atomicAdd"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t n = opt.n;
  Report report = start_reduction_report(kChapter, device, opt);
  // Positive floats: then sum |x| = |sum x|, and the rounding bound is a relative test that a
  // lost block or an empty result fails (with signs mixed, the bound would outgrow the sum).
  report.problem = describe_reduction_input(n, opt.seed) + ", and n float in [0.5, 1.5)";

  // Inputs on the device and their references: exact for ints, double with Kahan for floats.
  // Each device buffer is allocated before its input is made: a size that cannot fit fails
  // first.
  const DeviceReductionInput int_input = upload_reduction_input(n, opt.seed);
  const DeviceBuffer<int32_t>& d_ints = int_input.values;
  const int64_t int_reference = int_input.sum;
  DeviceBuffer<float> d_floats(n);
  const std::vector<float> h_floats = random_floats(n, opt.seed + 1, 0.5f, 1.5f);
  const double float_reference = reference_sum(h_floats);
  const double float_abs_sum = reference_sum_abs(h_floats);
  d_floats.copy_from(h_floats);

  // The ways to sum each type, and their buffers.
  GridSums<int32_t> ints(device, d_ints.data(), n);
  GridSums<float> floats(device, d_floats.data(), n);
  CubSum<int32_t, long long> cub_ints(d_ints.data(), ints.result(), n);
  CubSum<float, float> cub_floats(d_floats.data(), floats.result(), n);

  // The int table. Each step clocks one grid of its first kernel; its row is compared with CUB
  // on ints.
  constexpr auto global_stride = block_kernel<reduce_global_stride<int32_t>>;
  constexpr auto local_stride = block_kernel<reduce_local_stride<int32_t>>;
  constexpr auto int_vectorized = block_kernel<reduce_vectorized<Combine::kAtomic, int32_t>>;
  const std::string cpu_finish = "reduce_vectorized + CPU finish";
  const std::vector<Step> int_steps = {
      ints.step("reduce_global_stride + atomicAdd",
                "a grid that fills the GPU once, striding by the grid; one atomicAdd per block",
                global_stride, [&](BlockCycleSlots s) { ints.atomic(global_stride, s); }),
      ints.step("reduce_local_stride + atomicAdd",
                "a contiguous chunk per thread instead: the warp's loads are not coalesced",
                local_stride, [&](BlockCycleSlots s) { ints.atomic(local_stride, s); }),
      ints.step("reduce_vectorized + atomicAdd",
                "the grid stride with 16-byte loads, " + std::to_string(kVectorsInFlight) +
                    " in flight per thread",
                int_vectorized, [&](BlockCycleSlots s) { ints.atomic(int_vectorized, s); }),
      ints.tile_step("reduce_tile_per_block + atomicAdd",
                     "no grid-stride loop: one block per 16 KiB tile, as many blocks as tiles; "
                     "the block scheduler keeps every SM reading to the end"),
      ints.step("reduce_vectorized + second launch",
                "block sums to memory, added by a second launch of one block: deterministic",
                ints.kPerBlockKernel, [&](BlockCycleSlots s) { ints.two_pass(s); }),
      ints.step(cpu_finish, "block sums copied to the host and added there", ints.kPerBlockKernel,
                [&](BlockCycleSlots s) { ints.cpu_finish(s); }),
  };

  // Each int step and CUB checked exactly on a poisoned result, then all timed in the same run.
  Timer timer(device);
  const double bytes = double(n) * 4;
  run_steps(report, timer, opt.reps, bytes, int_steps,
            {{"cub::DeviceReduce::Sum", [&] { cub_ints(); }}},
            [&](const std::string& id, auto run) {
              if (id != cpu_finish) return check_device_sum(id, ints.result(), int_reference, run);
              ints.poison_block_sums();  // its sum is on the host: stale block sums must not pass
              run();
              return check_exact("sum (" + id + ")", ints.host_sum, int_reference);
            });

  // The float table: its rows are compared with CUB on floats, whose row is its own baseline.
  // Each check allows the rounding bound of the step's summation depth (verify.hpp), stated in
  // the check's rule: the atomic step's depth, or the two-pass step's.
  constexpr auto float_vectorized = block_kernel<reduce_vectorized<Combine::kAtomic, float>>;
  const std::string float_cub = "float: cub::DeviceReduce::Sum";
  const std::vector<Step> float_steps = {
      floats.step(
          "float: reduce_vectorized + atomicAdd",
          "the atomic sum on floats: the blocks' order of arrival changes the rounding",
          float_vectorized, [&](BlockCycleSlots s) { floats.atomic(float_vectorized, s); },
          float_cub),
      floats.step(
          "float: reduce_vectorized + second launch",
          "the two-pass sum on floats: a fixed order, the same bits every run",
          floats.kPerBlockKernel, [&](BlockCycleSlots s) { floats.two_pass(s); }, float_cub),
  };
  const FloatDepths depth = float_depths(n, floats.grid());
  // CUB does not document its summation order, so no depth of its tree can be proved: its
  // float result is compared with an estimate and shown, but it does not decide the verdict.
  const int64_t cub_depth = summation_depth(n, 128) + 64;
  const auto check_floats = [&](const std::string& name, int64_t k,
                                const std::function<void()>& run) {
    CUDA_CHECK(cudaMemset(floats.result(), poison_byte<float>(), sizeof(float)));  // NaN
    run();
    CUDA_CHECK(cudaGetLastError());
    return check_close("sum (" + name + ", depth " + std::to_string(k) + ")",
                       read_back(floats.result()), float_reference,
                       sum_tolerance(k, float_abs_sum));
  };
  run_steps(report, timer, opt.reps, bytes, float_steps,
            {{float_cub, [&] { cub_floats(); }, float_cub}}, [&](const std::string& id, auto run) {
              if (id == float_cub) {
                Check estimated = check_floats(id + ", estimated", cub_depth, run);
                estimated.informative = true;
                return estimated;
              }
              const int64_t k = id == float_steps[0].id ? depth.atomic : depth.two_pass;
              return check_floats(id, k, run);
            });

  report.notes.push_back(
      "grid: " + std::to_string(ints.grid()) + " blocks of " + std::to_string(kBlockThreads) +
      " threads (occupancy x " + std::to_string(device.sm_count) +
      " SMs, capped at one int4 per "
      "thread), whatever n; reduce_tile_per_block: " +
      std::to_string(ints.tiles()) + " blocks, one per tile of " + std::to_string(kTileVectors) +
      " int4; int sums in 64 bits: n * 2^20 < 2^63 for any n below 2^43");
  report.notes.push_back("float depths: atomics " + std::to_string(depth.atomic) +
                         " = per-thread adds + log2(256) + one per block; two-pass " +
                         std::to_string(depth.two_pass) + "; CUB (an estimate) " +
                         std::to_string(cub_depth));
  constexpr int kRuns = 20;
  report.notes.push_back(
      "float atomics: " + distinct_results(floats, kRuns, [&] { float_steps[0].launch({}); }) +
      "; two-pass: " + distinct_results(floats, kRuns, [&] { float_steps[1].launch({}); }) +
      "; int atomics are exact, so always the same");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  const OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  return run_main(argc, argv, spec, run_lesson);
}
