// Exercise 6.5, solved: an exclusive scan of any length, against CUB. Chapter 06's step 4
// (reduce, scan the tile sums, scan the tiles from their offsets: 16 bytes moved per element)
// with 16-byte loads, and warp shuffles instead of the tree inside a block.
#include <cuda_runtime.h>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise06 {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRounds = 4;                    // int4 loads per thread and tile
constexpr int kRoundElements = 4 * kThreads;  // one int4 per thread
constexpr int kTile = kRounds * kRoundElements;

/// Elements i .. i+3 (0 past n): one 16-byte load where all four exist.
__device__ int4 load4(const int32_t* in, int64_t n, int64_t i) {
  if (i + 4 <= n) return *reinterpret_cast<const int4*>(in + i);
  return int4{i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0};
}

/// The tile's elements of this thread, one int4 per round: round r covers kRoundElements
/// consecutive elements, four per thread, so every warp load is 512 contiguous bytes. All
/// loads are issued before any is used, so 64 bytes per thread are in flight.
__device__ void load_tile(const int32_t* in, int64_t n, int64_t first, int4 (&x)[kRounds]) {
  for (int r = 0; r < kRounds; ++r)
    x[r] = load4(in, n, first + r * kRoundElements + 4 * threadIdx.x);
}

__device__ int64_t sum4(int4 v) {
  return (int64_t{v.x} + v.y) + (int64_t{v.z} + v.w);
}

/// Inclusive sum of @p value over the lanes of the warp (lane i gets lanes 0..i).
__device__ int64_t warp_inclusive_sum(int64_t value) {
  const int lane = threadIdx.x % 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    const int64_t up = __shfl_up_sync(0xffffffffu, value, offset);
    if (lane >= offset) value += up;
  }
  return value;
}

/// Exclusive sum of @p value over the block, and the block's total in @p total (all threads).
/// One barrier: @p warp_totals must not be written again before the next barrier.
__device__ int64_t block_exclusive_sum(int64_t value, int64_t* warp_totals, int64_t& total) {
  const int warp = threadIdx.x / 32;
  const int64_t inclusive = warp_inclusive_sum(value);
  if (threadIdx.x % 32 == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  int64_t before = 0;
  total = 0;
  for (int w = 0; w < kWarps; ++w) {
    if (w < warp) before += warp_totals[w];
    total += warp_totals[w];
  }
  return before + inclusive - value;
}

/// Pass 1: tile_totals[b] = the sum of tile b, from the input alone.
__global__ void __launch_bounds__(kThreads)
    reduce_tiles(const int32_t* __restrict__ in, int64_t n, int64_t* __restrict__ tile_totals) {
  __shared__ int64_t warp_totals[kWarps];
  int4 x[kRounds];
  load_tile(in, n, int64_t{blockIdx.x} * kTile, x);
  int64_t sum = 0;
  for (int r = 0; r < kRounds; ++r) sum += sum4(x[r]);
  int64_t total;
  block_exclusive_sum(sum, warp_totals, total);
  if (threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

/// Pass 2, one block of kThreads threads: the exclusive scan of the @p count tile totals, in
/// place, four consecutive totals per thread and chunks of 4 * kThreads with a running carry.
__global__ void __launch_bounds__(kThreads) scan_totals(int64_t* totals, int64_t count) {
  __shared__ int64_t warp_totals[2][kWarps];  // two, so one barrier per chunk is enough
  int64_t carry = 0;
  for (int64_t chunk = 0; chunk * 4 * kThreads < count; ++chunk) {
    const int64_t i = chunk * 4 * kThreads + 4 * threadIdx.x;
    int64_t v[4];
    for (int k = 0; k < 4; ++k) v[k] = i + k < count ? totals[i + k] : 0;
    int64_t chunk_total;
    int64_t running = carry + block_exclusive_sum((v[0] + v[1]) + (v[2] + v[3]),
                                                  warp_totals[chunk % 2], chunk_total);
    for (int k = 0; k < 4; ++k) {
      if (i + k < count) totals[i + k] = running;
      running += v[k];
    }
    carry += chunk_total;
  }
}

/// Pass 3: block b scans tile b, starting from offsets[b]; each thread writes its four
/// consecutive results as two 16-byte stores.
__global__ void __launch_bounds__(kThreads)
    scan_tiles(const int32_t* __restrict__ in, int64_t n, int64_t* __restrict__ out,
               const int64_t* __restrict__ offsets) {
  __shared__ int64_t warp_totals[2][kWarps];
  const int64_t first = int64_t{blockIdx.x} * kTile;
  int4 x[kRounds];
  load_tile(in, n, first, x);
  int64_t carry = offsets != nullptr ? offsets[blockIdx.x] : 0;
  for (int r = 0; r < kRounds; ++r) {
    int64_t round_total;
    const int64_t before = block_exclusive_sum(sum4(x[r]), warp_totals[r % 2], round_total);
    const int64_t e0 = carry + before, e1 = e0 + x[r].x, e2 = e1 + x[r].y, e3 = e2 + x[r].z;
    const int64_t i = first + r * kRoundElements + 4 * threadIdx.x;
    if (i + 4 <= n) {
      auto* out2 = reinterpret_cast<longlong2*>(out + i);
      out2[0] = longlong2{e0, e1};
      out2[1] = longlong2{e2, e3};
    } else {
      const int64_t e[4] = {e0, e1, e2, e3};
      for (int k = 0; k < 4 && i + k < n; ++k) out[i + k] = e[k];
    }
    carry += round_total;
  }
}

void fast_exclusive_scan(const int32_t* d_in, int64_t n, int64_t* d_out, int64_t* d_scratch) {
  const int64_t tiles = (n + kTile - 1) / kTile;
  int64_t* offsets = nullptr;
  if (tiles > 1) {  // one tile needs no offsets
    offsets = d_scratch;
    reduce_tiles<<<static_cast<unsigned>(tiles), kThreads>>>(d_in, n, offsets);
    CUDA_CHECK(cudaGetLastError());
    scan_totals<<<1, kThreads>>>(offsets, tiles);
    CUDA_CHECK(cudaGetLastError());
  }
  scan_tiles<<<static_cast<unsigned>(tiles), kThreads>>>(d_in, n, d_out, offsets);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise06
