// Exercise 5.1: mean and variance in one pass, merging moments pairwise (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise05 {

constexpr int kThreads = 256;

/// The moments of the union of two groups of values, from the moments of each group.
__host__ __device__ Moments merge(Moments a, Moments b) {
  // TODO(5.1): return the count, mean and M2 of the union of the two groups, as if computed
  // from all of its values (the pairwise merge of Chan, Golub and LeVeque). Either group, or
  // both, may be empty (count 0).
  return a;
}

/// The moments of the 32 lanes' moments, valid in lane 0.
/// @pre all 32 lanes call it.
__device__ Moments warp_merge(Moments m) {
  // TODO(5.1): return, in lane 0, the moments of all 32 lanes' moments, merged with
  // __shfl_down_sync and merge().
  return m;
}

/// The moments of the block's kThreads threads, valid in thread 0.
/// @pre every thread of a block of kThreads threads calls it.
__device__ Moments block_merge(Moments m) {
  __shared__ Moments warp_moments[kThreads / 32];
  m = warp_merge(m);
  if (threadIdx.x % 32 == 0) warp_moments[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < kThreads / 32 ? warp_moments[threadIdx.x] : Moments{0, 0, 0};
    m = warp_merge(m);
  }
  return m;
}

/// Pass 1: each thread walks the input with the grid's stride, adding one value at a time
/// (a merge with the moments {1, x, 0} of a single value); block b writes its moments to
/// out[b].
__global__ void moments_per_block(const float* in, int64_t n, Moments* out) {
  Moments m{0, 0, 0};
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) {
    m = merge(m, Moments{1, in[i], 0});
  }
  m = block_merge(m);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

/// Pass 2: one block merges the @p count block moments (deterministic: a fixed order).
__global__ void merge_block_moments(const Moments* block_moments, int count, Moments* out) {
  Moments m{0, 0, 0};
  for (int i = threadIdx.x; i < count; i += kThreads) m = merge(m, block_moments[i]);
  m = block_merge(m);
  if (threadIdx.x == 0) *out = m;
}

Moments mean_variance(const float* d_in, int64_t n) {
  throw tutorial::Todo(
      "write merge and warp_merge in exercises/05_atomic_grid/welford.cu, "
      "then delete this line");
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, moments_per_block, kThreads, 0));
  const int blocks = per_sm * sms;
  tutorial::DeviceBuffer<Moments> d_blocks(blocks), d_out(1);
  d_out.poison();
  moments_per_block<<<blocks, kThreads>>>(d_in, n, d_blocks.data());
  merge_block_moments<<<1, kThreads>>>(d_blocks.data(), blocks, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host()[0];
}

}  // namespace exercise05
