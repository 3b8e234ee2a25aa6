// Exercise 4.1: minimum and maximum in one pass, without divergence (see README.md).
#include <climits>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise04 {

/// One block of kMinMaxThreads threads per group of kMinMaxThreads * kMinMaxLoads elements.
__global__ void block_min_max_kernel(const int32_t* in, int64_t n, MinMax* out) {
  static_assert(kMinMaxThreads >= 64 && (kMinMaxThreads & (kMinMaxThreads - 1)) == 0,
                "the tree stops at 64 values: a power-of-two block of at least two warps");
  __shared__ int32_t low[kMinMaxThreads];
  __shared__ int32_t high[kMinMaxThreads];
  const unsigned tid = threadIdx.x;

  // First comparison during the load; INT_MAX and INT_MIN are the identities of min and max.
  const int64_t first = int64_t{blockIdx.x} * kMinMaxThreads * kMinMaxLoads + tid;
  int32_t my_low = INT_MAX, my_high = INT_MIN;
  for (int j = 0; j < kMinMaxLoads; ++j) {
    const int64_t i = first + int64_t{j} * kMinMaxThreads;
    if (i < n) {
      my_low = min(my_low, in[i]);
      my_high = max(my_high, in[i]);
    }
  }
  low[tid] = my_low;
  high[tid] = my_high;
  __syncthreads();

  // Sequential addressing down to 64 values: the active threads are the first `stride`.
  for (unsigned stride = kMinMaxThreads / 2; stride >= 64; stride /= 2) {
    if (tid < stride) {
      low[tid] = min(low[tid], low[tid + stride]);
      high[tid] = max(high[tid], high[tid + stride]);
    }
    __syncthreads();
  }

  // The last 64 values: two per lane of the first warp, then five shuffles for each.
  if (tid < 32) {
    my_low = min(low[tid], low[tid + 32]);
    my_high = max(high[tid], high[tid + 32]);
    for (int offset = 16; offset > 0; offset /= 2) {
      my_low = min(my_low, __shfl_down_sync(0xffffffffu, my_low, offset));
      my_high = max(my_high, __shfl_down_sync(0xffffffffu, my_high, offset));
    }
    if (tid == 0) out[blockIdx.x] = MinMax{my_low, my_high};
  }
}

void block_min_max(const int32_t* d_in, int64_t n, MinMax* d_out) {
  constexpr int64_t kPerBlock = kMinMaxThreads * kMinMaxLoads;
  const int64_t blocks = (n + kPerBlock - 1) / kPerBlock;
  block_min_max_kernel<<<static_cast<unsigned>(blocks), kMinMaxThreads>>>(d_in, n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise04
