// Exercise 5.3, solved: a float sum in one launch, against CUB.
#include <cuda_runtime.h>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise05 {

constexpr int kThreads = 256;

/// The sum of @p value over the block, valid in thread 0: shuffles within each warp, the warp
/// sums through shared memory, shuffles again in the first warp.
__device__ float block_sum(float value) {
  __shared__ float warp_sums[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32) {
    for (int offset = 16; offset > 0; offset /= 2) {
      value += __shfl_down_sync(0xffffffffu, value, offset);
    }
  }
  return value;
}

/// As many blocks as fit on the GPU at once, each walking the input with the grid's stride in
/// 16-byte loads, then one atomicAdd per block: n / 4 loads per thread group instead of n
/// atomics on one address.
__global__ void __launch_bounds__(kThreads)
    fast_float_sum_kernel(const float* in, int64_t n, float* sum) {
  const float4* vectors = reinterpret_cast<const float4*>(in);
  const int64_t vector_count = n / 4;
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  float mine = 0.0f;
  for (int64_t v = int64_t{blockIdx.x} * kThreads + threadIdx.x; v < vector_count; v += stride) {
    const float4 x = vectors[v];
    mine += (x.x + x.y) + (x.z + x.w);
  }
  // The 0 to 3 floats after the last whole vector go to the first threads of block 0.
  if (blockIdx.x == 0 && threadIdx.x < n - 4 * vector_count)
    mine += in[4 * vector_count + threadIdx.x];
  mine = block_sum(mine);
  if (threadIdx.x == 0) atomicAdd(sum, mine);
}

void fast_float_sum(const float* d_in, int64_t n, float* d_sum) {
  // Enough blocks to fill every SM, found once (the queries cost more than the sum of 2^20).
  static const int blocks = [] {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_float_sum_kernel, kThreads, 0));
    return sms * per_sm;
  }();
  CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(float)));
  fast_float_sum_kernel<<<blocks, kThreads>>>(d_in, n, d_sum);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise05
