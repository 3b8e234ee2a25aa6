// Exercise 12.1, solved: a histogram of a float range, a histogram per block in shared memory.
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise12 {

constexpr int kThreads = 256;
/// The most samples one block may count: its shared counters are 32-bit.
constexpr int64_t kMaxBlockSamples = int64_t{1} << 31;

/// The bin of @p x among @p bins equal-width bins over [lo, hi), or -1 where x counts in none.
__device__ int bin_of(float x, float lo, float hi, int bins) {
  // Written so that NaN fails: every comparison with a NaN is false.
  if (!(x >= lo && x < hi)) return -1;
  // In [0, bins]: x - lo <= hi - lo once rounded, so the quotient is at most 1. It is bins where
  // x - lo, just under hi - lo, rounds up to it.
  const int bin = static_cast<int>((x - lo) / (hi - lo) * bins);
  return min(bin, bins - 1);
}

/// A histogram per block in shared memory, merged into @p out at the end.
/// @pre out holds bins zeros; the launch gives the block bins * 4 bytes of dynamic shared memory.
__global__ void range_histogram_kernel(const float* in, int64_t n, float lo, float hi, int bins,
                                       unsigned long long* out) {
  extern __shared__ uint32_t counts[];  // bins counters, as many as the launch gives
  for (int b = threadIdx.x; b < bins; b += kThreads) counts[b] = 0;  // up to 1024, 4 a thread
  __syncthreads();  // no thread adds before every counter is zero
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) {
    const int bin = bin_of(in[i], lo, hi, bins);
    if (bin >= 0) atomicAdd(&counts[bin], 1u);
  }
  __syncthreads();  // every add of the block is in before a counter is read
  for (int b = threadIdx.x; b < bins; b += kThreads) {
    if (counts[b] != 0) atomicAdd(&out[b], static_cast<unsigned long long>(counts[b]));
  }
}

void range_histogram(const float* d_in, int64_t n, float lo, float hi, int bins,
                     unsigned long long* d_bins) {
  const size_t shared_bytes = bins * sizeof(uint32_t);
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, range_histogram_kernel,
                                                           kThreads, shared_bytes));
  // As many blocks as fit on the GPU at once, fewer for a small input, and more only where a
  // block would otherwise count 2^31 samples or more.
  const int64_t resident = int64_t{per_sm} * tutorial::query_device().sm_count;
  const int64_t blocks = std::max({int64_t{1}, std::min(resident, (n + kThreads - 1) / kThreads),
                                   (n + kMaxBlockSamples - 1) / kMaxBlockSamples});
  CUDA_CHECK(cudaMemsetAsync(d_bins, 0, bins * sizeof(unsigned long long)));
  range_histogram_kernel<<<static_cast<unsigned>(blocks), kThreads, shared_bytes>>>(d_in, n, lo, hi,
                                                                                    bins, d_bins);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise12
