// Exercise 2.3, solved: the fastest sum one block can do.
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise02 {

constexpr int kThreads = 1024;
constexpr int kVectors = 4;  ///< 16-byte loads each thread has in flight per step

/// One block keeps as many bytes in flight as it can: each thread issues kVectors independent
/// 16-byte loads (4 ints each) before it adds any of them, so a step of the block has
/// 1024 x 64 bytes on their way from memory instead of 1024 x 4. The final sum is a tree of
/// warp shuffles instead of thread 0's 1024 dependent adds.
__global__ void __launch_bounds__(kThreads)
    fast_block_sum_kernel(const int32_t* in, int64_t n, long long* out) {
  const int4* vectors = reinterpret_cast<const int4*>(in);
  const int64_t vector_count = n / 4;
  long long sum = 0;
  int64_t v = threadIdx.x;
  for (; v + (kVectors - 1) * kThreads < vector_count; v += kVectors * kThreads) {
    int4 loaded[kVectors];
#pragma unroll
    for (int j = 0; j < kVectors; ++j) loaded[j] = vectors[v + j * kThreads];
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      sum += (long long)loaded[j].x + loaded[j].y + (long long)loaded[j].z + loaded[j].w;
    }
  }
  for (; v < vector_count; v += kThreads) {
    const int4 x = vectors[v];
    sum += (long long)x.x + x.y + (long long)x.z + x.w;
  }
  // The 0 to 3 ints after the last whole vector.
  if (threadIdx.x < n - 4 * vector_count) sum += in[4 * vector_count + threadIdx.x];

  __shared__ long long warp_sums[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();  // every warp's sum is written before the first warp reads them
  if (threadIdx.x < 32) {
    sum = warp_sums[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (threadIdx.x == 0) *out = sum;
  }
}

void fast_block_sum(const int32_t* d_in, int64_t n, long long* d_sum) {
  fast_block_sum_kernel<<<1, kThreads>>>(d_in, n, d_sum);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise02
