/**
 * @file exercises/13_radix_sort/tile_counts.cuh
 * @brief Given to exercise 13.1 (not to edit): the first two kernels of a pass of chapter 13's
 *        step 2, kept simple. The counts of each tile's digits, and their exclusive scan in
 *        digit-major order, which says where each tile's keys of each digit start. The third
 *        kernel, the stable scatter, is yours.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tutorial/harness/cuda_check.cuh"

namespace exercise13 {

/// Threads of a block; a tile is one key a thread; a digit is 8 bits.
constexpr int kThreads = 256;
constexpr int kTileKeys = kThreads;
constexpr int kDigits = 256;
/// Passes of an LSD sort of 32-bit keys, one per 8-bit digit.
constexpr int kPasses = 4;

/// The tiles of @p n keys: the last one may be partial.
__host__ __device__ inline int64_t tile_count(int64_t n) {
  return (n + kTileKeys - 1) / kTileKeys;
}

/// Tile blockIdx.x's count of each digit (@p digit_of gives a key's digit, 0 to 255), written
/// digit-major: starts[d * tiles + t].
template <typename DigitOf>
__global__ void tile_digit_counts_kernel(const uint32_t* keys, int64_t n, DigitOf digit_of,
                                         int64_t* starts) {
  __shared__ uint32_t counts[kDigits];
  counts[threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any add
  const int64_t i = int64_t{blockIdx.x} * kTileKeys + threadIdx.x;
  if (i < n) atomicAdd(&counts[digit_of(keys[i])], 1u);
  __syncthreads();  // every add is in before the counts are read
  starts[threadIdx.x * tile_count(n) + blockIdx.x] = counts[threadIdx.x];
}

/// One block: the @p m values at @p values replaced by their exclusive sums. Thread t adds up a
/// contiguous chunk, thread 0 scans the kThreads chunk sums, then each thread rewrites its chunk.
__global__ inline void exclusive_scan_kernel(int64_t* values, int64_t m) {
  __shared__ int64_t chunk_start[kThreads];
  const int64_t chunk = (m + kThreads - 1) / kThreads;
  const int64_t begin = threadIdx.x * chunk;
  const int64_t end = begin + chunk < m ? begin + chunk : m;
  int64_t sum = 0;
  for (int64_t i = begin; i < end; ++i) sum += values[i];
  chunk_start[threadIdx.x] = sum;
  __syncthreads();  // every chunk sum is in
  if (threadIdx.x == 0) {
    int64_t running = 0;
    for (int t = 0; t < kThreads; ++t) {
      const int64_t s = chunk_start[t];
      chunk_start[t] = running;
      running += s;
    }
  }
  __syncthreads();  // every chunk's start is in
  int64_t running = chunk_start[threadIdx.x];
  for (int64_t i = begin; i < end; ++i) {
    const int64_t v = values[i];
    values[i] = running;
    running += v;
  }
}

/**
 * @brief The first two kernels of a pass: @p d_starts (kDigits x tile_count(n) words) ends with
 *        d_starts[d * tiles + t] = where tile t's first key of digit d goes in the pass's output:
 *        every key of a smaller digit, plus the keys of digit d in tiles before t. Enqueued on
 *        the default stream.
 * @param digit_of a copyable object whose `__device__ uint32_t operator()(uint32_t key) const`
 *        gives the key's digit of this pass, 0 to 255.
 */
template <typename DigitOf>
void tile_digit_starts(const uint32_t* d_keys, int64_t n, DigitOf digit_of, int64_t* d_starts) {
  const int64_t tiles = tile_count(n);
  tile_digit_counts_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(d_keys, n, digit_of,
                                                                       d_starts);
  CUDA_CHECK(cudaGetLastError());
  exclusive_scan_kernel<<<1, kThreads>>>(d_starts, kDigits * tiles);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise13
