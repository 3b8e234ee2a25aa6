/**
 * @file chapters/04_divergence_free/block_reduce.cuh
 * @brief Sums in layers, as CUB builds them: a warp sums with register shuffles, and a block
 *        sums with one shuffle round per warp and one barrier.
 *
 * Chapter 04 derives warp_reduce_sum() and block_reduce_sum(); chapters 05, 08 and 11 and
 * exercise 8.3 build their sums on them (#include "04_divergence_free/block_reduce.cuh").
 */
#pragma once

#include <cuda_runtime.h>

#include "tutorial/harness/device_facts.cuh"  // kWarpThreads

namespace chapter04 {

using tutorial::kWarpThreads;

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

}  // namespace chapter04
