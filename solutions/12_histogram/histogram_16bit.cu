// Exercise 12.2, solved: a histogram of 16-bit samples into 65536 bins. Each block counts in
// shared memory with 16-bit counters, two to a 32-bit word (128 KiB for all 65536), and pays
// every wrap of a counter into the result; 16-byte loads, 8 samples a load.
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise12 {

constexpr int kThreads = 1024;
/// Bins: one for each 16-bit value.
constexpr int kBins = 65536;
/// What one wrap of a 16-bit counter leaves out.
constexpr unsigned long long kWrap = 65536;
/// 16-byte vectors (8 samples each) that each thread loads before it counts any.
constexpr int kVectorsInFlight = 4;

/// The bins of one block: all 65536, or one of kParts equal ranges of them where a block may not
/// have the 128 KiB that all of them take (histogram_16bit() picks).
template <int kParts>
constexpr int kPartBins = kBins / kParts;
/// The block's counters, 2 bytes each.
template <int kParts>
constexpr int kSharedBytes = kPartBins<kParts> * 2;

/**
 * @brief Counts one sample into the block's counters: bin 2w of the block's part is the low
 *        half of words[w], bin 2w + 1 the high half. A block may count any number of samples of
 *        one value, far past 65535, so a half wraps; the thread whose add makes it wrap pays
 *        the wrap into the result, so that the counts stay exact.
 *
 * Why this is exact for any number of samples, threads and blocks, in any order of the adds:
 * every add is 1 (low half) or 65536 (high half), so words[w] is one 32-bit counter of
 * c_lo + 65536 c_hi modulo 2^32, c_lo and c_hi being the samples of bins 2w and 2w + 1 the
 * block has counted. Its low half is c_lo mod 65536 exactly (adds of 65536 leave the low 16
 * bits alone), so c_lo = low half + 65536 L, where L is the number of adds of 1 that found the
 * low half at 65535: each took it to 0 and carried 1 into the high half. The high half is
 * (c_hi + L) mod 65536, so c_hi = high half + 65536 K - L, where K is the number of adds that
 * carried out of the word's bit 31 (the word after the add below the word before it). Each
 * atomicAdd returns the word just before its own add, so the thread whose add is one of the L
 * or one of the K knows it: it adds 65536 to bin 2w's result for each L and 65536 to bin
 * 2w + 1's for each K, and takes 1 from bin 2w + 1's for each L (it adds 2^64 - 1, which is -1
 * in unsigned long long arithmetic, modulo 2^64; the final count is never below 0). The merge
 * then adds the two halves as they are.
 */
template <int kParts>
__device__ void add_sample(uint32_t* words, uint32_t sample, unsigned long long* counts_out) {
  if constexpr (kParts > 1) {
    if (sample / kPartBins<kParts> != blockIdx.y) return;  // another part's block counts it
  }
  const uint32_t bin = sample % kPartBins<kParts>;  // within the block's part
  const uint32_t add = bin % 2 == 0 ? 1u : 0x10000u;
  const uint32_t old = atomicAdd(&words[bin / 2], add);
  // The rare wraps, each paid by the one thread whose add made it (see above).
  if (old + add < old) atomicAdd(&counts_out[sample | 1], kWrap);  // out of bit 31: one of K
  if (add == 1 && (old & 0xFFFFu) == 0xFFFFu) {
    // The low half wrapped (one of L): 65536 to bin 2w, and the 1 it carried into the high
    // half taken back from bin 2w + 1.
    atomicAdd(&counts_out[sample], kWrap);
    atomicAdd(&counts_out[sample + 1], ~0ull);
  }
}

/// The two samples of a 32-bit word of the input.
template <int kParts>
__device__ void add_pair(uint32_t* words, uint32_t pair, unsigned long long* counts_out) {
  add_sample<kParts>(words, pair & 0xFFFFu, counts_out);
  add_sample<kParts>(words, pair >> 16, counts_out);
}

/// Each block counts its samples into its own counters in shared memory (blockIdx.y picks its
/// part of the bins), reading its vectors with 16-byte loads (8 samples a load,
/// kVectorsInFlight loads on their way per thread); at the end, one global atomic per counter
/// that is not zero. The n % 8 samples after the last whole vector go to the first threads of
/// the blocks with blockIdx.x 0, one sample each.
/// @pre counts_out holds kBins zeros; the launch gives the block kSharedBytes<kParts> bytes of
///      dynamic shared memory and has gridDim.y = kParts.
template <int kParts>
__global__ void __launch_bounds__(kThreads)
    histogram_16bit_kernel(const uint16_t* __restrict__ samples, int64_t n,
                           unsigned long long* counts_out) {
  constexpr int kWords = kPartBins<kParts> / 2;
  extern __shared__ uint32_t words[];  // kWords words, two 16-bit counters each
  for (int w = threadIdx.x; w < kWords; w += kThreads) words[w] = 0;
  __syncthreads();  // no thread adds before every counter is zero

  const uint4* vectors = reinterpret_cast<const uint4*>(samples);
  const int64_t vector_count = n / 8;
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
      if (first + k * stride < vector_count) {  // a vector past the end is not 8 samples of 0
        add_pair<kParts>(words, v[k].x, counts_out);
        add_pair<kParts>(words, v[k].y, counts_out);
        add_pair<kParts>(words, v[k].z, counts_out);
        add_pair<kParts>(words, v[k].w, counts_out);
      }
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 8) {
    add_sample<kParts>(words, samples[8 * vector_count + threadIdx.x], counts_out);
  }

  __syncthreads();  // every add of the block is in before a counter is read
  const int64_t first_bin = int64_t{blockIdx.y} * kPartBins<kParts>;
  for (int w = threadIdx.x; w < kWords; w += kThreads) {
    const uint32_t word = words[w], low = word & 0xFFFFu, high = word >> 16;
    if (low != 0) atomicAdd(&counts_out[first_bin + 2 * w], static_cast<unsigned long long>(low));
    if (high != 0) {
      atomicAdd(&counts_out[first_bin + 2 * w + 1], static_cast<unsigned long long>(high));
    }
  }
}

/// Launches the kernel with the bins in kParts parts: kParts blocks side by side (gridDim.y),
/// each x as many as fit on the GPU at once (found once) over kParts, fewer for a small input
/// (one vector a thread), at least one.
template <int kParts>
void launch_histogram_16bit(const uint16_t* d_samples, int64_t n, unsigned long long* d_counts) {
  constexpr int kBytes = kSharedBytes<kParts>;
  static const int64_t resident = [] {
    // Past 48 KiB of dynamic shared memory a launch must ask for it.
    CUDA_CHECK(cudaFuncSetAttribute(histogram_16bit_kernel<kParts>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, histogram_16bit_kernel<kParts>, kThreads, kBytes));
    return int64_t{per_sm} * tutorial::query_device().sm_count;
  }();
  const int64_t useful = (n / 8 + kThreads - 1) / kThreads;
  const int64_t blocks = std::max(int64_t{1}, std::min(resident / kParts, useful));
  const dim3 grid(static_cast<unsigned>(blocks), kParts);
  histogram_16bit_kernel<kParts><<<grid, kThreads, kBytes>>>(d_samples, n, d_counts);
  CUDA_CHECK(cudaGetLastError());
}

void histogram_16bit(const uint16_t* d_samples, int64_t n, unsigned long long* d_counts) {
  // All 65536 counters in one block where the GPU lets a block have their 128 KiB (an H100
  // allows 227 KiB); elsewhere two parts of 64 KiB, which every GPU from compute capability 7.5
  // allows, each reading all the samples.
  static const bool whole = [] {
    int device = 0, most = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return most >= kSharedBytes<1>;
  }();
  CUDA_CHECK(cudaMemsetAsync(d_counts, 0, kBins * sizeof(unsigned long long)));
  if (whole) {
    launch_histogram_16bit<1>(d_samples, n, d_counts);
  } else {
    launch_histogram_16bit<2>(d_samples, n, d_counts);
  }
}

}  // namespace exercise12
