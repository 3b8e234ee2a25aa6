// Exercise 12.2, solved: all four digit histograms in one read of the keys, 16-byte loads and
// 4 x 256 counters per block in shared memory.
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise12 {

constexpr int kThreads = 256;
/// Digits of a 32-bit key, bins of one digit, and the counters of all four histograms.
constexpr int kDigits = 4;
constexpr int kBins = 256;
constexpr int kCounters = kDigits * kBins;
/// 16-byte vectors (4 keys each) that each thread loads before it counts any.
constexpr int kVectorsInFlight = 4;
/// The most keys one block may count: its shared counters are 32-bit.
constexpr int64_t kMaxBlockKeys = int64_t{1} << 31;

/// One key into the block's four histograms: digit d goes to counts[d * 256 + digit].
__device__ void add_key(uint32_t* counts, uint32_t key) {
#pragma unroll
  for (int d = 0; d < kDigits; ++d) atomicAdd(&counts[d * kBins + ((key >> (8 * d)) & 0xFFu)], 1u);
}

/// Each block counts its keys into its own 1024 counters in shared memory, reading each key once
/// with 16-byte loads (four keys a load, kVectorsInFlight loads on their way per thread); at the
/// end, one global atomic per counter that is not zero. The n % 4 keys after the last whole
/// vector go to the first threads of block 0, one key each.
/// @pre counts holds kCounters zeros; a block counts fewer than 2^32 keys.
__global__ void __launch_bounds__(kThreads)
    digit_histograms_kernel(const uint32_t* __restrict__ keys, int64_t n,
                            unsigned long long* counts_out) {
  __shared__ uint32_t counts[kCounters];
  for (int c = threadIdx.x; c < kCounters; c += kThreads) counts[c] = 0;
  __syncthreads();  // no thread adds before every counter is zero

  const uint4* vectors = reinterpret_cast<const uint4*>(keys);
  const int64_t vector_count = n / 4;
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t first = int64_t{blockIdx.x} * kThreads + threadIdx.x; first < vector_count;
       first += kVectorsInFlight * stride) {
    uint4 v[kVectorsInFlight];
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) {  // all loads first
      const int64_t i = first + k * stride;
      v[k] = i < vector_count ? vectors[i] : uint4{};
    }
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) {
      if (first + k * stride < vector_count) {  // a vector past the end is not four keys of 0
        add_key(counts, v[k].x);
        add_key(counts, v[k].y);
        add_key(counts, v[k].z);
        add_key(counts, v[k].w);
      }
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) add_key(counts, keys[4 * vector_count + threadIdx.x]);

  __syncthreads();  // every add of the block is in before a counter is read
  for (int c = threadIdx.x; c < kCounters; c += kThreads) {
    if (counts[c] != 0) atomicAdd(&counts_out[c], static_cast<unsigned long long>(counts[c]));
  }
}

void digit_histograms(const uint32_t* d_keys, int64_t n, unsigned long long* d_counts) {
  // As many blocks as fit on the GPU at once, found once; fewer for a small input (one vector a
  // thread), more only where a block would otherwise count 2^31 keys or more.
  static const int64_t resident = [] {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, digit_histograms_kernel,
                                                             kThreads, 0));
    return int64_t{per_sm} * tutorial::query_device().sm_count;
  }();
  const int64_t useful = (n / 4 + kThreads - 1) / kThreads;
  const int64_t blocks =
      std::max({int64_t{1}, std::min(resident, useful), (n + kMaxBlockKeys - 1) / kMaxBlockKeys});
  CUDA_CHECK(cudaMemsetAsync(d_counts, 0, kCounters * sizeof(unsigned long long)));
  digit_histograms_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(d_keys, n, d_counts);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise12
