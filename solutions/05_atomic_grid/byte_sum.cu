// Exercise 5.4, solved: a sum of signed bytes, a tile per block.
#include <cuda_runtime.h>

#include <algorithm>

#include "04_divergence_free/block_reduce.cuh"
#include "05_atomic_grid/sum_traits.cuh"
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise05 {

constexpr int kThreads = 256;
/// 16-byte vectors each thread loads, all before it adds any: 64 bytes in flight a thread.
constexpr int kVectorsPerThread = 4;
/// Vectors one block adds: its tile, 16 KiB (16 bytes a vector).
constexpr int kTileVectors = kThreads * kVectorsPerThread;

/// @p sum plus the 16 signed bytes of @p v. Cast to int8_t, a byte's top bit is its sign:
/// 0xFF adds -1, not 255 (int8_t to int then copies the sign bit up: sign extension).
__device__ int add_bytes(int sum, const int4& v) {
  const uint32_t words[4] = {uint32_t(v.x), uint32_t(v.y), uint32_t(v.z), uint32_t(v.w)};
#pragma unroll
  for (int w = 0; w < 4; ++w) {
#pragma unroll
    for (int k = 0; k < 4; ++k) sum += static_cast<int8_t>(words[w] >> (8 * k));
  }
  return sum;
}

/// Block b adds tile b and exits; the grid has one block per tile, so the block scheduler gives
/// the next tile to whichever SM has room. An int holds a block's sum: at most 2^14 bytes of
/// magnitude at most 2^7. The 0 to 15 bytes after the last whole vector go to the first threads
/// of block 0, one each.
__global__ void __launch_bounds__(kThreads)
    byte_sum_kernel(const int8_t* __restrict__ in, int64_t n, long long* sum) {
  const int4* vectors = reinterpret_cast<const int4*>(in);
  const int64_t vector_count = n / 16;
  const int64_t first = int64_t{blockIdx.x} * kTileVectors + threadIdx.x;

  int4 v[kVectorsPerThread];
#pragma unroll
  for (int j = 0; j < kVectorsPerThread; ++j) {
    const int64_t i = first + j * kThreads;  // a coalesced 4 KiB sweep of the block per j
    v[j] = i < vector_count ? vectors[i] : int4{};
  }
  int mine = 0;
#pragma unroll
  for (int j = 0; j < kVectorsPerThread; ++j) mine = add_bytes(mine, v[j]);
  if (blockIdx.x == 0 && threadIdx.x < n % 16) mine += in[16 * vector_count + threadIdx.x];
  mine = chapter04::block_reduce_sum<kThreads>(mine);
  if (threadIdx.x == 0) chapter05::atomic_add(sum, mine);
}

void byte_sum(const int8_t* d_in, int64_t n, long long* d_sum) {
  // One block per tile, at least one for the tail; 2^31 - 1 tiles would be 32 TiB of bytes.
  const int64_t tiles = std::max<int64_t>(1, (n / 16 + kTileVectors - 1) / kTileVectors);
  CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(long long)));
  byte_sum_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(d_in, n, d_sum);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise05
