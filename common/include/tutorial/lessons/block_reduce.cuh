/**
 * @file block_reduce.cuh
 * @brief Sums in layers, as CUB builds them: a warp sums with register shuffles, a block sums
 *        with one shuffle round per warp and one barrier, and reduce_in_passes() turns the
 *        per-block sums of a grid into one value by relaunching a kernel on them.
 *
 * Chapter 04 derives warp_reduce_sum() and block_reduce_sum(); chapter 05 builds its grid-wide
 * sum on them. Chapters 03 and 04 combine their block sums with reduce_in_passes().
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace tutorial {

/// Threads of a warp: the shuffles below exchange registers among exactly this many lanes.
constexpr int kWarpThreads = 32;

//! [warp_reduce_sum]
/**
 * @brief The sum of @p value over the 32 lanes of the calling warp, in registers.
 *
 * Five shuffle-down steps: lane i adds the value of lane i + 16, then i + 8, ..., i + 1. Each
 * __shfl_down_sync is one instruction that reads another lane's register; the mask 0xffffffff
 * says all 32 lanes take part, and the instruction itself makes them meet, so no shared memory
 * and no barrier are needed.
 *
 * - @pre all 32 lanes of the warp call it together (with converged control flow).
 * - The return value is the full sum only in lane 0; other lanes hold partial sums.
 *
 * Example: lanes holding 0, 1, ..., 31 -> lane 0 returns 496.
 */
template <typename T>
__device__ T warp_reduce_sum(T value) {
  for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}
//! [warp_reduce_sum]

//! [block_reduce_sum]
/**
 * @brief The sum of @p value over all kBlockThreads threads of the block.
 *
 * Every warp sums its 32 values with warp_reduce_sum(); lane 0 of each warp stores its warp's
 * sum in shared memory; after one barrier the first warp sums those (at most 32) values the
 * same way. One barrier in all, against log2(kBlockThreads) for a tree in shared memory.
 *
 * - @pre every thread of the block calls it, and blockDim.x == kBlockThreads.
 * - The return value is the block's sum only in thread 0; it is undefined in other threads.
 * - A second call in the same kernel reuses the same shared memory: put a __syncthreads()
 *   between the two calls.
 *
 * Example: 256 threads holding 1, 2, ..., 256 -> thread 0 returns 32896.
 */
template <int kBlockThreads, typename T>
__device__ T block_reduce_sum(T value) {
  static_assert(kBlockThreads % kWarpThreads == 0 && kBlockThreads <= 1024,
                "block_reduce_sum needs whole warps and at most 1024 threads");
  constexpr int kWarps = kBlockThreads / kWarpThreads;
  __shared__ T warp_sums[kWarps];
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;

  value = warp_reduce_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();  // the first warp reads every warp's sum next
  if (warp == 0) {
    value = lane < kWarps ? warp_sums[lane] : T{};  // T{} = 0, the identity of +
    value = warp_reduce_sum(value);
  }
  return value;
}
//! [block_reduce_sum]

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

  /// Enqueues every pass on the default stream; the sum of d_in[0, n) lands in *d_out.
  void operator()(const int32_t* d_in, long long* d_out, BlockCycleSlots slots) {
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

}  // namespace tutorial
