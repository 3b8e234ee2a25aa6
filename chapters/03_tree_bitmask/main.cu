/**
 * @file chapters/03_tree_bitmask/main.cu
 * @brief Chapter 03: many blocks, each adding its slice as a tree in shared memory, chosen by
 *        the bitmask test (tid & mask) == 0.
 *
 * Shows: a grid of blocks with one element per thread; the interleaved tree (pairs at distance
 * 1, 2, 4, ...) with the bitmask test, next to the same tree with the test tid % (2 * offset)
 * (what the bitmask buys) and with compact thread indices (the same adds in fewer warps, which
 * is not faster); block sums combined by relaunching the kernel on them.
 * Leaves out: the fixes. Contiguous active threads and loads that add (chapter 04), the warp
 * shuffle (chapter 04), and combining block sums with atomics (chapter 05).
 */
#include <cstdint>
#include <string>
#include <vector>

#include "02_single_block_sum/cub_sum.cuh"
#include "02_single_block_sum/reduction_input.cuh"
#include "reduce_in_passes.cuh"
#include "tutorial/explain/explain_block_sum.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using chapter03::BlockSumKernel;
using chapter03::ReduceInPasses;
using chapter03::step_in_passes;

/// Threads per block, one element each. The trees below pair thread tid with tid + offset for
/// offsets up to half the block, so the block must be a power of two.
constexpr int kBlockThreads = 256;
static_assert((kBlockThreads & (kBlockThreads - 1)) == 0, "the trees need a power-of-two block");

//! [load_one_per_thread]
/// Each thread copies its element into shared memory (0, the identity of +, past the end) and
/// waits for the whole block, so that the tree can read its neighbours' elements.
/// @pre called by every thread of a block of kBlockThreads threads.
template <typename T, typename Shared>
__device__ void load_one_per_thread(const T* in, int64_t n, Shared partial) {
  const int64_t i = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x;  // n may pass 2^31
  partial[threadIdx.x] = i < n ? static_cast<long long>(in[i]) : 0;
  __syncthreads();
}
//! [load_one_per_thread]

//! [reduce_bitmask_tree]
/// The tree of the seed posts. In the step with distance `offset`, the threads whose index has
/// its low bits (mask = 2 * offset - 1) clear add the element `offset` places to their right:
///   offset 1, mask 1: threads 0, 2, 4, ...   offset 2, mask 3: threads 0, 4, 8, ...
/// After log2(kBlockThreads) steps partial[0] holds the block's sum.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <typename T, bool kRecord = false>
__device__ void reduce_bitmask_tree(const T* __restrict__ in, int64_t n,
                                    long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_one_per_thread(in, n, partial);

  const unsigned tid = threadIdx.x;
  // blockDim.x as the bound, as in the seed: a value known only at run time (see the modulo
  // version below for why that matters).
  for (unsigned offset = 1, mask = 1; offset < blockDim.x; offset *= 2, mask += offset) {
    if ((tid & mask) == 0) partial[tid] += partial[tid + offset];
    __syncthreads();  // the next step reads what this step wrote
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
//! [reduce_bitmask_tree]

//! [reduce_modulo_tree]
/// The same tree with the textbook test tid % (2 * offset) == 0. Same threads, same adds; only
/// the test differs. With a divisor known only at run time, % is an integer division, a
/// sequence of a dozen or more instructions where the bitmask test is one AND.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <typename T, bool kRecord = false>
__device__ void reduce_modulo_tree(const T* __restrict__ in, int64_t n,
                                   long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_one_per_thread(in, n, partial);

  const unsigned tid = threadIdx.x;
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    if (tid % (2 * offset) == 0) partial[tid] += partial[tid + offset];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
//! [reduce_modulo_tree]

//! [reduce_compact_threads]
/// The same pairs again, but handed to the FIRST threads of the block: thread t adds pair
/// number t, at index 2 * offset * t. Active threads are now contiguous, so whole warps go
/// idle together instead of every warp issuing the step for a few working lanes. Yet it is
/// slower: lanes of a warp touch addresses 2 * offset elements apart, in the same banks, so
/// each load or store to shared memory takes several passes. The block's passes are as many
/// as in the interleaved tree, but they now come from one to four warps per step, and the
/// rest of the block waits for them at the barrier.
/// @pre run by every thread of blocks of kBlockThreads threads; out has one slot per block.
template <typename T, bool kRecord = false>
__device__ void reduce_compact_threads(const T* __restrict__ in, int64_t n,
                                       long long* __restrict__ out) {
  __shared__ long long partial_memory[kBlockThreads];
  const auto partial = shared_array<kRecord>(partial_memory, 0);  // recorded for --explain
  load_one_per_thread(in, n, partial);

  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    const unsigned index = 2 * offset * threadIdx.x;
    if (index < blockDim.x) partial[index] += partial[index + offset];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
//! [reduce_compact_threads]

/// One of the trees above as the harness launches it: in its kernel clocked_blocks, which
/// records the block's cycles when asked (tutorial/harness/block_cycles.cuh).
template <auto kTree>
constexpr auto block_kernel = clocked_kernel<kTree>;

/// The work of one tree, counted: how many of the thread-steps add something, and how many
/// warp-steps run with at least one lane active, for the interleaved trees and compact threads.
std::string count_idle_work() {
  constexpr int kWarps = kBlockThreads / kWarpThreads;
  int steps = 0, adds = 0, interleaved_warp_steps = 0, compact_warp_steps = 0;
  for (int offset = 1; offset < kBlockThreads; offset *= 2, ++steps) {
    const int active = kBlockThreads / (2 * offset);  // one thread per pair
    adds += active;
    // Interleaved: active threads 0, 2*offset, 4*offset, ...: a warp has one as long as the
    // spacing is at most a warp.
    interleaved_warp_steps += 2 * offset <= kWarpThreads ? kWarps : active;
    compact_warp_steps += (active + kWarpThreads - 1) / kWarpThreads;
  }
  return "counted on the CPU (the profile measures it): per block of " +
         std::to_string(kBlockThreads) + " threads: " + std::to_string(steps) +
         " tree steps = " + std::to_string(steps * kBlockThreads) + " thread-steps, of which " +
         std::to_string(adds) + " add (" + std::to_string(100 * adds / (steps * kBlockThreads)) +
         "%); warp-steps with work: " + std::to_string(interleaved_warp_steps) +
         " interleaved (bitmask, modulo) vs " + std::to_string(compact_warp_steps) +
         " with compact threads, of " + std::to_string(steps * kWarps);
}

/// How the block sums become one: the passes and their block counts.
std::string describe_passes(int64_t n) {
  std::string text = "block sums combined by relaunching the kernel on them: blocks per pass";
  int64_t count = n;
  do {
    count = (count + kBlockThreads - 1) / kBlockThreads;
    text += " " + std::to_string(count);
  } while (count > 1);
  return text +
         "; each pass is a launch and a round trip of the sums through memory, and the "
         "last passes leave most SMs idle (chapter 05 combines with atomics instead)";
}

const ChapterInfo kChapter{"03_tree_bitmask",
                           "many blocks, a tree in shared memory chosen by a bitmask",
                           "reduce_bitmask_tree"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t n = opt.n;
  Report report = start_reduction_report(kChapter, device, opt);
  report.problem = describe_reduction_input(n, opt.seed) + ", " + std::to_string(kBlockThreads) +
                   " threads per block, one element each";

  // Input on the device with its exact 64-bit reference; the result is poisoned before each check.
  const DeviceReductionInput input = upload_reduction_input(n, opt.seed);
  const DeviceBuffer<int32_t>& d_in = input.values;
  DeviceBuffer<long long> d_out(1);

  // The steps: each tree applied in passes until one sum is left (ReduceInPasses).
  const auto in_passes = [&](BlockSumKernel<int32_t> first, BlockSumKernel<long long> later) {
    return ReduceInPasses(first, later, kBlockThreads, kBlockThreads, n);
  };
  const ReduceInPasses bitmask = in_passes(block_kernel<reduce_bitmask_tree<int32_t>>,
                                           block_kernel<reduce_bitmask_tree<long long>>);
  const ReduceInPasses modulo = in_passes(block_kernel<reduce_modulo_tree<int32_t>>,
                                          block_kernel<reduce_modulo_tree<long long>>);
  const ReduceInPasses compact = in_passes(block_kernel<reduce_compact_threads<int32_t>>,
                                           block_kernel<reduce_compact_threads<long long>>);
  const auto step = [&](std::string id, std::string teaches, const ReduceInPasses& passes) {
    return step_in_passes(std::move(id), std::move(teaches), passes, d_in.data(), d_out.data());
  };
  const std::vector<Step> steps = {
      step("reduce_bitmask_tree", "the interleaved tree, active threads chosen by tid & mask",
           bitmask),
      step("reduce_modulo_tree", "the same tree chosen by tid % (2 * offset): an integer division",
           modulo),
      step("reduce_compact_threads", "the same pairs on the first threads: bank conflicts",
           compact),
  };
  CubSum<int32_t, long long> cub_sum(d_in.data(), d_out.data(), n);

  // Each step and CUB checked on a poisoned sum, then all timed in the same run.
  Timer timer(device);
  run_steps(report, timer, opt.reps, double(n) * sizeof(int32_t), steps,
            {{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}}, [&](const std::string& id, auto run) {
              return check_device_sum(id, d_out.data(), input.sum, run);
            });

  report.notes.push_back(count_idle_work());
  report.notes.push_back(describe_passes(n));
  report.notes.push_back("cycles/block are of the first pass; time and GB/s cover all passes");
  return report;
}

//! [explain]
/// --explain: each tree on one block of kBlockThreads ints, recorded (shared_trace.cuh).
Explanation explain_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const auto block = [&](const char* name, BlockSumKernel<int32_t> plain,
                         BlockSumKernel<int32_t> recorded) {
    return explain_block_sum(name, plain, recorded, kBlockThreads, kBlockThreads, opt.seed);
  };
  return explain_kernels(
      kChapter.id, device,
      {block("reduce_bitmask_tree", block_kernel<reduce_bitmask_tree<int32_t>>,
             block_kernel<reduce_bitmask_tree<int32_t, true>>),
       block("reduce_modulo_tree", block_kernel<reduce_modulo_tree<int32_t>>,
             block_kernel<reduce_modulo_tree<int32_t, true>>),
       block("reduce_compact_threads", block_kernel<reduce_compact_threads<int32_t>>,
             block_kernel<reduce_compact_threads<int32_t, true>>)});
}
//! [explain]

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.extra = {explain_option()};
  return run_main(argc, argv, spec, run_lesson, explain_lesson);
}
