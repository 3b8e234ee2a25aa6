/**
 * @file chapters/04_divergence_free/main.cu
 * @brief Chapter 04: the tree of chapter 03 made fast one step at a time: sequential
 *        addressing, the first add during the load, and the last warp without barriers.
 *
 * Shows, each step a kernel timed in the same run:
 *   1. sequential addressing (tid < stride): the active threads are contiguous, so warps are
 *      either fully on or fully off, and a warp reads one contiguous run of shared memory;
 *      first with chapter 03's run-time loop bound (1a), then with a compile-time one (1b);
 *   2. the first add during the load: each thread starts from 2, then 8, elements, so fewer
 *      blocks do the tree;
 *   3. the last warp: the legacy volatile unrolling, made correct with __syncwarp();
 *   4. the last warp with __shfl_down_sync: registers instead of shared memory;
 *   5. every warp with __shfl_down_sync, one barrier per block (block_reduce.cuh).
 * And why the legacy unrolling without __syncwarp() is wrong since Volta: the reasoning is on
 * the chapter page; the kernel runs only when asked for (TUTORIAL_UNSAFE_WARP_DEMO=1), since
 * a race detector rightly reports it.
 * Leaves out: combining the block sums well (still relaunches, as in chapter 03; chapter 05
 * uses one atomic per block) and sizing the grid to the GPU (chapter 05).
 */
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "02_single_block_sum/reduction_input.cuh"
#include "03_tree_bitmask/reduce_in_passes.cuh"
#include "block_reduce.cuh"
#include "tutorial/explain/explain_block_sum.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter04;
using chapter03::BlockSumKernel;
using chapter03::ReduceInPasses;
using chapter03::step_in_passes;

/// Threads per block. The trees halve the active threads each step, and the last-warp steps
/// take over at 64 values, so the block is a power of two and at least two warps.
constexpr int kBlockThreads = 256;
static_assert((kBlockThreads & (kBlockThreads - 1)) == 0 && kBlockThreads >= 2 * kWarpThreads,
              "the trees need a power-of-two block of at least 64 threads");

/// Elements each thread adds while loading, in the steps after the first-add step.
constexpr int kLoadsPerThread = 8;

//! [load_and_add]
/// The first add during the load: block b covers kLoads * kBlockThreads consecutive elements,
/// and each thread adds kLoads of them, kBlockThreads apart, in a register. In every one of
/// the kLoads rounds the block reads kBlockThreads consecutive ints (coalesced), and the tree
/// that follows has kLoads times fewer blocks to run.
template <int kLoads, typename T>
__device__ long long load_and_add(const T* in, int64_t n) {
  const int64_t first = int64_t{blockIdx.x} * (kLoads * kBlockThreads) + threadIdx.x;
  long long sum = 0;
#pragma unroll
  for (int j = 0; j < kLoads; ++j) {
    const int64_t i = first + int64_t{j} * kBlockThreads;
    if (i < n) sum += in[i];  // the loads are independent: all kLoads are in flight at once
  }
  return sum;
}
//! [load_and_add]

//! [tree_sequential]
/// Sequential addressing: in the step with distance `stride`, threads 0 .. stride-1 add the
/// element `stride` places to their right. The active threads are the first `stride`, so a
/// warp is either fully active or fully idle (no divergence inside active warps), and lane i
/// reads value i of a contiguous run: 32 lanes x 8 bytes take two shared-memory wavefronts
/// (each bank serves 4 bytes a turn), the fewest 8-byte values allow: no bank conflicts.
/// Stops when `down_to` values are left in partial[0, down_to).
/// @pre called by every thread of the block, after partial[] was written and a barrier.
template <typename Shared>
__device__ void tree_sequential(Shared partial, int down_to) {
  for (int stride = kBlockThreads / 2; stride >= down_to; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();  // the next step reads what this step wrote
  }
}
//! [tree_sequential]

/// The start of every tree kernel below: the first add during the load into partial[], a
/// barrier, and the tree down to @p down_to values.
/// @pre called by every thread of a block of kBlockThreads threads.
template <int kLoads, typename T, typename Shared>
__device__ void load_then_tree(const T* in, int64_t n, Shared partial, int down_to) {
  partial[threadIdx.x] = load_and_add<kLoads>(in, n);
  __syncthreads();  // the tree reads the other threads' sums
  tree_sequential(partial, down_to);
}

//! [reduce_sequential_runtime_bound]
/// Step 1a. Chapter 03's kernel with one thing changed, the addressing: threads 0 .. stride-1
/// add (tree_sequential's pattern). The loop is still bounded by blockDim.x, known only at run
/// time, exactly as in chapter 03, so the compiler keeps it a loop.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <typename T, bool kRecord = false>
__device__ void reduce_sequential_runtime_bound(const T* __restrict__ in, int64_t n,
                                                long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  partial[threadIdx.x] = load_and_add<1>(in, n);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
//! [reduce_sequential_runtime_bound]

//! [reduce_sequential_addressing]
/// Steps 1b and 2. tree_sequential's loop is bounded by kBlockThreads, a compile-time
/// constant, so the compiler unrolls it: with kLoads = 1 this is step 1a with only the bound
/// changed. Step 2 (kLoads = 2 or 8): each thread starts from that many elements.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <int kLoads, typename T, bool kRecord = false>
__device__ void reduce_sequential_addressing(const T* __restrict__ in, int64_t n,
                                             long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_then_tree<kLoads>(in, n, partial, 1);
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
//! [reduce_sequential_addressing]

//! [reduce_last_warp_syncwarp]
/// Step 3. Once 64 values are left, only the first warp works, and a barrier for the whole
/// block is more than it needs: the warp adds the last 64 values alone. Between a lane's
/// write and another lane's read stands __syncwarp(), which makes the 32 lanes meet and their
/// shared-memory writes visible to each other. Since Volta the lanes of a warp are not
/// guaranteed to run in lockstep, so this meeting point must be written out.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <int kLoads, typename T, bool kRecord = false>
__device__ void reduce_last_warp_syncwarp(const T* __restrict__ in, int64_t n,
                                          long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_then_tree<kLoads>(in, n, partial, 2 * kWarpThreads);       // 64 values left
  const int lane = threadIdx.x;
  if (lane < kWarpThreads) {
    long long sum = partial[lane] + partial[lane + kWarpThreads];
    for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) {
      partial[lane] = sum;
      __syncwarp();  // every lane's write lands before any lane reads it
      sum += partial[lane + offset];
      __syncwarp();  // every lane has read before the next round overwrites
    }
    if (lane == 0) out[blockIdx.x] = sum;
  }
}
//! [reduce_last_warp_syncwarp]

//! [reduce_last_warp_volatile]
/// The legacy unrolling (pre-Volta tutorials), kept to show what is wrong with it: it relies
/// on the 32 lanes executing each line together, so that every lane has read partial[lane +
/// offset] before lane + offset overwrites it. Nothing guarantees that since Volta; `volatile`
/// only stops the compiler from keeping values in registers, it does not order the lanes.
/// A data race: run only on request (TUTORIAL_UNSAFE_WARP_DEMO=1).
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <int kLoads, typename T>
__device__ void reduce_last_warp_volatile(const T* __restrict__ in, int64_t n,
                                          long long* __restrict__ out) {
  __shared__ long long partial[kBlockThreads];
  load_then_tree<kLoads>(in, n, partial, 2 * kWarpThreads);
  if (threadIdx.x < kWarpThreads) {
    volatile long long* v = partial;
    const int lane = threadIdx.x;
    v[lane] += v[lane + 32];
    v[lane] += v[lane + 16];
    v[lane] += v[lane + 8];
    v[lane] += v[lane + 4];
    v[lane] += v[lane + 2];
    v[lane] += v[lane + 1];
    if (lane == 0) out[blockIdx.x] = v[0];
  }
}
//! [reduce_last_warp_volatile]

//! [reduce_last_warp_shuffle]
/// Step 4. The last 64 values go into the first warp's registers (two per lane, added) and
/// warp_reduce_sum() finishes with five __shfl_down_sync: no shared memory, and the shuffle
/// itself synchronizes the lanes it names.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <int kLoads, typename T, bool kRecord = false>
__device__ void reduce_last_warp_shuffle(const T* __restrict__ in, int64_t n,
                                         long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_then_tree<kLoads>(in, n, partial, 2 * kWarpThreads);
  if (threadIdx.x < kWarpThreads) {
    const long long sum =
        warp_reduce_sum(partial[threadIdx.x] + partial[threadIdx.x + kWarpThreads]);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
  }
}
//! [reduce_last_warp_shuffle]

//! [reduce_warp_shuffle_block]
/// Step 5. Shuffles from the start: every warp sums its 32 values in registers, and only the
/// 8 warp sums meet in shared memory (block_reduce_sum). One barrier instead of the three of
/// the previous steps (after the load, and two tree steps down to 64) plus the last warp's work.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <int kLoads, typename T>
__device__ void reduce_warp_shuffle_block(const T* __restrict__ in, int64_t n,
                                          long long* __restrict__ out) {
  const long long sum = block_reduce_sum<kBlockThreads>(load_and_add<kLoads>(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
//! [reduce_warp_shuffle_block]

/// One of the block sums above as the harness launches it: in its kernel clocked_blocks, which
/// records the block's cycles when asked (tutorial/harness/block_cycles.cuh).
template <auto kBlockSum>
constexpr auto block_kernel = clocked_kernel<kBlockSum>;

/// @p first and @p later applied in passes until one value is left, each thread of their blocks
/// adding @p loads elements while loading: @p first takes the input, @p later the block sums of
/// the passes after it.
ReduceInPasses in_passes(int loads, BlockSumKernel<int32_t> first, BlockSumKernel<long long> later,
                         int64_t n) {
  return ReduceInPasses(first, later, kBlockThreads, int64_t{loads} * kBlockThreads, n);
}

/// Runs the legacy volatile unrolling @p runs times and counts the wrong sums.
std::string run_unsafe_demo(const int32_t* d_in, int64_t n, int64_t reference, int runs) {
  const ReduceInPasses legacy =
      in_passes(kLoadsPerThread, block_kernel<reduce_last_warp_volatile<kLoadsPerThread, int32_t>>,
                block_kernel<reduce_last_warp_volatile<kLoadsPerThread, long long>>, n);
  DeviceBuffer<long long> d_out(1);
  int wrong = 0;
  for (int r = 0; r < runs; ++r) {
    d_out.poison();
    legacy(d_in, d_out.data(), BlockCycleSlots{});
    CUDA_CHECK(cudaGetLastError());
    if (d_out.to_host()[0] != reference) ++wrong;
  }
  return "TUTORIAL_UNSAFE_WARP_DEMO: the legacy volatile unrolling (no __syncwarp) gave " +
         std::to_string(wrong) + " wrong sums in " + std::to_string(runs) +
         " runs on this GPU and compiler; a race that does not show is still a race";
}

/// ", 8 loads": the suffix of the step names that use kLoadsPerThread loads per thread.
const std::string kLoadsName = ", " + std::to_string(kLoadsPerThread) + " loads";

const ChapterInfo kChapter{"04_divergence_free",
                           "sequential addressing, first add during load, warp shuffles",
                           "reduce_warp_shuffle_block" + kLoadsName};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t n = opt.n;
  Report report = start_reduction_report(kChapter, device, opt);
  report.problem = describe_reduction_input(n, opt.seed) + ", " + std::to_string(kBlockThreads) +
                   " threads per block";
  // Input on the device with its exact 64-bit reference; the result is poisoned before each check.
  const DeviceReductionInput input = upload_reduction_input(n, opt.seed);
  const DeviceBuffer<int32_t>& d_in = input.values;
  DeviceBuffer<long long> d_out(1);

  // The steps: each kernel applied in passes until one sum is left (ReduceInPasses). The steps
  // refer to their passes, which a deque keeps in place as it grows.
  std::deque<ReduceInPasses> passes;
  const auto step = [&](std::string id, std::string teaches, int loads,
                        BlockSumKernel<int32_t> first, BlockSumKernel<long long> later) {
    passes.push_back(in_passes(loads, first, later, n));
    return step_in_passes(std::move(id), std::move(teaches), passes.back(), d_in.data(),
                          d_out.data());
  };
  constexpr int kLoads = kLoadsPerThread;
  const std::vector<Step> steps = {
      step("reduce_sequential_runtime_bound, 1 load",
           "chapter 03's tree with sequential addressing: threads 0 .. stride-1 add", 1,
           block_kernel<reduce_sequential_runtime_bound<int32_t>>,
           block_kernel<reduce_sequential_runtime_bound<long long>>),
      step("reduce_sequential_addressing, 1 load",
           "the tree's loop bounded by a compile-time constant: the compiler unrolls it", 1,
           block_kernel<reduce_sequential_addressing<1, int32_t>>,
           block_kernel<reduce_sequential_addressing<1, long long>>),
      step("reduce_sequential_addressing, 2 loads",
           "the first add during the load: each thread starts from 2 elements", 2,
           block_kernel<reduce_sequential_addressing<2, int32_t>>,
           block_kernel<reduce_sequential_addressing<2, long long>>),
      step("reduce_sequential_addressing" + kLoadsName,
           "each thread starts from " + std::to_string(kLoads) + " elements, all loads in flight",
           kLoads, block_kernel<reduce_sequential_addressing<kLoads, int32_t>>,
           block_kernel<reduce_sequential_addressing<kLoads, long long>>),
      step("reduce_last_warp_syncwarp" + kLoadsName,
           "the last 64 values added by one warp, __syncwarp() instead of block barriers", kLoads,
           block_kernel<reduce_last_warp_syncwarp<kLoads, int32_t>>,
           block_kernel<reduce_last_warp_syncwarp<kLoads, long long>>),
      step("reduce_last_warp_shuffle" + kLoadsName,
           "the last warp adds in registers with __shfl_down_sync, not in shared memory", kLoads,
           block_kernel<reduce_last_warp_shuffle<kLoads, int32_t>>,
           block_kernel<reduce_last_warp_shuffle<kLoads, long long>>),
      step("reduce_warp_shuffle_block" + kLoadsName,
           "every warp shuffles from the start; only the warp sums meet: one barrier", kLoads,
           block_kernel<reduce_warp_shuffle_block<kLoads, int32_t>>,
           block_kernel<reduce_warp_shuffle_block<kLoads, long long>>),
  };
  CubSum<int32_t, long long> cub_sum(d_in.data(), d_out.data(), n);

  // Each step and CUB checked on a poisoned sum, then all timed in the same run.
  Timer timer(device);
  const double bytes = double(n) * sizeof(int32_t);
  run_steps(report, timer, opt.reps, bytes, steps, {{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}},
            [&](const std::string& id, auto run) {
              return check_device_sum(id, d_out.data(), input.sum, run);
            });

  report.notes.push_back(
      "cycles/block are of the first pass; time and GB/s cover all passes "
      "(block sums are still combined by relaunching, as in chapter 03)");
  if (std::getenv("TUTORIAL_UNSAFE_WARP_DEMO") != nullptr) {
    report.notes.push_back(run_unsafe_demo(d_in.data(), n, input.sum, 1000));
    // Timed too, so that what the safe forms cost is measured. Its sum is not checked (the
    // race may or may not show), so the row says UNSAFE.
    report.rows.push_back(measure_step(
        timer, opt.reps, bytes,
        step("reduce_last_warp_volatile" + kLoadsName + " (UNSAFE)",
             "the legacy last warp: volatile without __syncwarp(), a data race (unchecked)", kLoads,
             block_kernel<reduce_last_warp_volatile<kLoads, int32_t>>,
             block_kernel<reduce_last_warp_volatile<kLoads, long long>>)));
  } else {
    report.notes.push_back(
        "the legacy volatile unrolling without __syncwarp() is a data race "
        "and does not run by default; TUTORIAL_UNSAFE_WARP_DEMO=1 runs it "
        "1000 times and counts the wrong sums");
  }
  return report;
}

//! [explain]
/// --explain: the steps that use shared memory, each on one block, recorded (shared_trace.cuh).
Explanation explain_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const auto block = [&](const char* name, int loads, BlockSumKernel<int32_t> plain,
                         BlockSumKernel<int32_t> recorded) {
    return explain_block_sum(name, plain, recorded, kBlockThreads, int64_t{loads} * kBlockThreads,
                             opt.seed);
  };
  constexpr int kLoads = kLoadsPerThread;
  return explain_kernels(kChapter.id, device,
                         {block("reduce_sequential_runtime_bound", 1,
                                block_kernel<reduce_sequential_runtime_bound<int32_t>>,
                                block_kernel<reduce_sequential_runtime_bound<int32_t, true>>),
                          block("reduce_sequential_addressing<1>", 1,
                                block_kernel<reduce_sequential_addressing<1, int32_t>>,
                                block_kernel<reduce_sequential_addressing<1, int32_t, true>>),
                          block("reduce_last_warp_syncwarp<8>", kLoads,
                                block_kernel<reduce_last_warp_syncwarp<kLoads, int32_t>>,
                                block_kernel<reduce_last_warp_syncwarp<kLoads, int32_t, true>>),
                          block("reduce_last_warp_shuffle<8>", kLoads,
                                block_kernel<reduce_last_warp_shuffle<kLoads, int32_t>>,
                                block_kernel<reduce_last_warp_shuffle<kLoads, int32_t, true>>)});
}
//! [explain]

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.extra = {explain_option()};
  return run_main(argc, argv, spec, run_lesson, explain_lesson);
}
