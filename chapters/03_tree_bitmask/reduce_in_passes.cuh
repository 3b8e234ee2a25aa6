/**
 * @file chapters/03_tree_bitmask/reduce_in_passes.cuh
 * @brief reduce_in_passes: the per-block sums of a grid become one value by launching a kernel
 *        on them again, until one block is left. Chapters 03 and 04 combine their block sums
 *        this way; chapter 05 replaces it with atomics.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/steps.cuh"

namespace chapter03 {

using tutorial::BlockCycleSlots;
using tutorial::CudaError;
using tutorial::DeviceBuffer;

/// A kernel that sums each group of consecutive elements of its input into one 64-bit value
/// per block: block b writes the sum of its group to out[b]. It is a lesson's block body as
/// the harness launches it, `clocked_kernel<body, threads>` (block_cycles.cuh).
template <typename In>
using BlockSumKernel = void (*)(BlockCycleSlots, const In*, int64_t, long long*);

//! [reduce_in_passes]
/**
 * @brief Sums n ints into one value by launching block-sum kernels until one value is left.
 *
 * Pass 1 runs `first` on the input and leaves one sum per block; every later pass runs `later`
 * on the previous pass's sums, until a pass has a single block, which writes the result. Each
 * block of either kernel sums `per_block` consecutive elements. The scratch space for the block
 * sums is allocated once, by the constructor, so that a timed call only launches kernels.
 *
 * - @pre n >= 1; per_block >= 2; both kernels work with `block_threads` threads per block.
 * - The slots passed to operator() record the first pass only (the later passes are small).
 * - Not the fast way: every pass is a launch, the block sums go to DRAM and back, and the
 *   last passes have too few blocks to fill the GPU (chapter 05 combines with atomics).
 */
class ReduceInPasses {
 public:
  ReduceInPasses(BlockSumKernel<int32_t> first, BlockSumKernel<long long> later, int block_threads,
                 int64_t per_block, int64_t n)
      : first_(first),
        later_(later),
        block_threads_(block_threads),
        per_block_(per_block),
        n_(n),
        sums_(scratch_size(n)),
        next_(scratch_size(n)) {}

  /// Blocks of the first pass (one cycle slot each).
  int64_t first_blocks() const { return blocks_for(n_); }
  /// The kernel of the first pass, the one the slots clock (its symbol names the profiled row).
  const void* first_kernel() const { return reinterpret_cast<const void*>(first_); }
  /// How many elements the passes sum.
  double elements() const { return double(n_); }

  /// Enqueues every pass on the default stream; the sum of d_in[0, n) lands in *d_out.
  void operator()(const int32_t* d_in, long long* d_out, BlockCycleSlots slots) const {
    unsigned blocks = blocks_for(n_);
    long long* sums = sums_.data();
    long long* next = next_.data();
    first_<<<blocks, block_threads_>>>(slots, d_in, n_, blocks == 1 ? d_out : sums);
    while (blocks > 1) {
      const int64_t count = blocks;
      blocks = blocks_for(count);
      later_<<<blocks, block_threads_>>>(BlockCycleSlots{}, sums, count,
                                         blocks == 1 ? d_out : next);
      std::swap(sums, next);
    }
  }

 private:
  unsigned blocks_for(int64_t count) const {
    const int64_t blocks = (count + per_block_ - 1) / per_block_;
    if (blocks > 0x7fffffff)
      throw CudaError(std::to_string(count) + " elements need too many blocks");
    return static_cast<unsigned>(blocks);
  }
  int64_t scratch_size(int64_t n) const {  // the first pass's sums; later passes need fewer
    const int64_t blocks = (n + per_block_ - 1) / per_block_;
    return blocks > 1 ? blocks : 0;
  }

  BlockSumKernel<int32_t> first_;
  BlockSumKernel<long long> later_;
  int block_threads_;
  int64_t per_block_;
  int64_t n_;
  DeviceBuffer<long long> sums_, next_;
};
//! [reduce_in_passes]

/// The step of a chapter's table (tutorial/harness/steps.cuh) that runs @p passes on @p d_in,
/// its sum landing in *@p d_out. @p passes, @p d_in and @p d_out must outlive the step.
inline tutorial::Step step_in_passes(std::string id, std::string teaches,
                                     const ReduceInPasses& passes, const int32_t* d_in,
                                     long long* d_out) {
  return {std::move(id),
          std::move(teaches),
          passes.first_kernel(),
          passes.first_blocks(),
          passes.elements(),
          [&passes, d_in, d_out](BlockCycleSlots slots) { passes(d_in, d_out, slots); }};
}

}  // namespace chapter03
