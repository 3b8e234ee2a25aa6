/**
 * @file chapters/11_multi_gpu/producer.cuh
 * @brief The work before each timed collective, as the layer before an all-reduce would do it:
 *        it writes the call's input in place, and checks the sum the call before left.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "04_divergence_free/block_reduce.cuh"
#include "all_reduce.cuh"

namespace chapter11 {

//! [producer]
/**
 * @brief Before call @p call of a collective, on one GPU: counts in *@p wrong the elements of
 *        @p out that do not hold the sum the call before left there (sum[i] + gpus x
 *        @p previous; none counted where @p check is false, on a GPU that gets no sum), then
 *        writes this call's input, in[i] = source[i] + call.
 *
 * Every call sums other numbers than the call before, in the buffers the collective reads and
 * writes: a collective that reads an input before its producer has rewritten it, or lets a GPU
 * go on (to its next producer) while another GPU still reads its input, leaves a wrong sum,
 * and the next producer counts it.
 */
__global__ void __launch_bounds__(kCopyThreads)
    produce_input(const int32_t* __restrict__ source, const int32_t* __restrict__ sum,
                  const int32_t* out, int32_t* in, int64_t n, int32_t call, int32_t previous,
                  int32_t gpus, bool check, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (int64_t i = int64_t{blockIdx.x} * kCopyThreads + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * kCopyThreads) {
    if (check && out[i] != sum[i] + gpus * previous) ++mine;
    in[i] = source[i] + call;
  }
  mine = chapter04::block_reduce_sum<kCopyThreads>(mine);
  if (threadIdx.x == 0 && mine > 0) atomicAdd(wrong, mine);
}
//! [producer]

}  // namespace chapter11
