/**
 * @file chapters/12_histogram/histogram.cuh
 * @brief The counting bodies of chapter 12: 256 bins of 8-bit samples, or of one 8-bit digit of
 *        32-bit keys, from one global atomic per sample to a copy of the histogram per lane.
 *
 * Each body is a `__device__` function that the chapter wraps in the harness's clocked kernel
 * (main.cu); chapter 13's radix sort counts its digits with the same code (#include
 * "12_histogram/histogram.cuh"). Every body adds its counts to @p bins, 256 64-bit counters
 * that hold zeros before the launch, and works for any grid: the bodies with shared counters
 * need a grid in which no block counts 2^31 samples or more (main.cu's grid_size()).
 */
#pragma once

#include <cstdint>

namespace chapter12 {

/// Threads per block: whole warps, so that every warp has 32 lanes for __match_any_sync.
constexpr int kBlockThreads = 256;
/// Bins of every histogram here: one per value of an 8-bit sample or digit.
constexpr int kBins = 256;
/// What a lane with no sample (past the end of the input) passes as its bin: it adds nothing.
constexpr uint32_t kNoBin = kBins;
/// 16-byte loads each thread keeps in flight, as chapter 05's vectorized sum.
constexpr int kVectorsInFlight = 4;
/// Copies of the histogram in histogram_lane_private(): one per lane of a warp.
constexpr int kLaneCopies = 32;

static_assert(kBlockThreads % 32 == 0, "__match_any_sync needs every warp whole");
static_assert(kBlockThreads == kBins, "the merges give each thread one bin");

/// A bin's count in the result: 64 bits, exact for any n a GPU can hold.
using Count = unsigned long long;

/// The bin of an 8-bit sample: the sample itself (@p shift is 0 for samples).
__host__ __device__ inline uint32_t bin_of(uint8_t sample, int) {
  return sample;
}
/// The bin of a 32-bit key: its 8-bit digit at bit @p shift (0, 8, 16 or 24).
__host__ __device__ inline uint32_t bin_of(uint32_t key, int shift) {
  return (key >> shift) & 0xFFu;
}

//! [histogram_global_atomics]
/// One global atomicAdd per sample, with chapter 05's grid-stride loop. The adds travel to L2,
/// where the adds to one address are served one after another: on skewed data, where every
/// sample is in one bin, they all queue on one counter.
template <typename T>
__device__ void histogram_global_atomics(const T* __restrict__ in, int64_t n, int shift,
                                         Count* bins) {
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  for (int64_t i = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x; i < n; i += stride) {
    atomicAdd(&bins[bin_of(in[i], shift)], Count{1});
  }
}
//! [histogram_global_atomics]

//! [add_warp_aggregated]
/// One atomic per distinct bin of the warp, not one per lane: __match_any_sync gives each lane
/// the mask of the lanes that hold the same bin, and the lowest of them (the leader) adds their
/// number. 32 equal bins: one add of 32; 32 different ones: 32 adds of 1, and the match was
/// extra work. @p counts is the result in global memory or a block's counters in shared memory.
/// @pre called by all 32 lanes of the warp together; a lane with no sample passes kNoBin.
template <typename Counter>
__device__ void add_warp_aggregated(Counter* counts, uint32_t bin) {
  const unsigned peers = __match_any_sync(0xFFFFFFFFu, bin);
  const int leader = __ffs(peers) - 1;
  if (bin != kNoBin && int(threadIdx.x % 32) == leader) {
    atomicAdd(&counts[bin], static_cast<Counter>(__popc(peers)));
  }
}
//! [add_warp_aggregated]

//! [for_each_warp_turn]
/// The grid-stride loop for __match_any_sync, which needs the whole warp: the warp walks the
/// input together, its lanes read 32 consecutive samples a turn, and the lanes past n take part
/// with kNoBin instead of leaving the loop early. Calls @p add(bin) once per lane and turn.
template <typename T, typename Add>
__device__ void for_each_warp_turn(const T* __restrict__ in, int64_t n, int shift, Add add) {
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  const int lane = threadIdx.x % 32;
  const int64_t warp_first = int64_t{blockIdx.x} * kBlockThreads + (threadIdx.x - lane);
  for (int64_t first = warp_first; first < n; first += stride) {  // the same turns for all lanes
    const int64_t i = first + lane;
    add(i < n ? bin_of(in[i], shift) : kNoBin);
  }
}
//! [for_each_warp_turn]

//! [histogram_global_aggregated]
/// Global atomics with warp aggregation: at most 32 adds a turn, one per distinct bin.
template <typename T>
__device__ void histogram_global_aggregated(const T* __restrict__ in, int64_t n, int shift,
                                            Count* bins) {
  for_each_warp_turn(in, n, shift, [&](uint32_t bin) { add_warp_aggregated(bins, bin); });
}
//! [histogram_global_aggregated]

//! [block_histogram]
/// The start and the end of the steps with a histogram per block: the block's kBins counters
/// in shared memory are zeroed, and at the end each one that is not zero goes to the result in
/// one global atomicAdd: kBins global atomics per block at most, whatever n is.
__device__ inline void zero_block_histogram(uint32_t* counts) {
  counts[threadIdx.x] = 0;  // kBlockThreads == kBins: a counter each
  __syncthreads();          // no thread adds before every counter is zero
}
__device__ inline void merge_block_histogram(const uint32_t* counts, Count* bins) {
  __syncthreads();  // every add of the block is in before a counter is read
  if (counts[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], Count{counts[threadIdx.x]});
}
//! [block_histogram]

//! [histogram_shared_private]
/// The same loop, but each sample goes into the block's own histogram in shared memory: the
/// atomic is served in the SM, not in L2, and the blocks do not share counters.
/// @pre a block counts fewer than 2^31 samples (its counters are 32-bit).
template <typename T>
__device__ void histogram_shared_private(const T* __restrict__ in, int64_t n, int shift,
                                         Count* bins) {
  __shared__ uint32_t counts[kBins];
  zero_block_histogram(counts);
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  for (int64_t i = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x; i < n; i += stride) {
    atomicAdd(&counts[bin_of(in[i], shift)], 1u);
  }
  merge_block_histogram(counts, bins);
}
//! [histogram_shared_private]

//! [histogram_shared_aggregated]
/// The histogram per block with warp aggregation in front of its shared atomics.
/// @pre as histogram_shared_private().
template <typename T>
__device__ void histogram_shared_aggregated(const T* __restrict__ in, int64_t n, int shift,
                                            Count* bins) {
  __shared__ uint32_t counts[kBins];
  zero_block_histogram(counts);
  for_each_warp_turn(in, n, shift, [&](uint32_t bin) { add_warp_aggregated(counts, bin); });
  merge_block_histogram(counts, bins);
}
//! [histogram_shared_aggregated]

/// Sample @p j of a 16-byte vector: byte j for 8-bit samples, word j for 32-bit keys.
template <typename T>
__device__ T sample_of(const uint4& v, int j) {
  constexpr int kPerWord = 4 / sizeof(T);
  const int w = j / kPerWord;
  const uint32_t word = w == 0 ? v.x : w == 1 ? v.y : w == 2 ? v.z : v.w;
  return static_cast<T>(word >> (8 * sizeof(T) * (j % kPerWord)));
}

//! [for_each_wide_load]
/// The grid-stride loop with 16-byte loads: one load brings 16 samples (or 4 keys), and each
/// thread has kVectorsInFlight loads on their way before it counts any. Calls @p add(bin) once
/// per sample: the n % (16 / sizeof(T)) samples past the last whole vector are counted by the
/// first threads of block 0.
/// @pre @p in is 16-byte aligned (cudaMalloc gives 256).
template <typename T, typename Add>
__device__ void for_each_wide_load(const T* __restrict__ in, int64_t n, int shift, Add add) {
  constexpr int kPerVector = 16 / sizeof(T);
  const uint4* __restrict__ in16 = reinterpret_cast<const uint4*>(in);
  const int64_t vectors = n / kPerVector;
  const int64_t stride = int64_t{gridDim.x} * kBlockThreads;
  for (int64_t first = int64_t{blockIdx.x} * kBlockThreads + threadIdx.x; first < vectors;
       first += kVectorsInFlight * stride) {
    uint4 v[kVectorsInFlight];
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) {  // all loads first
      if (first + k * stride < vectors) v[k] = in16[first + k * stride];
    }
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) {
      if (first + k * stride >= vectors) break;
#pragma unroll
      for (int j = 0; j < kPerVector; ++j) add(bin_of(sample_of<T>(v[k], j), shift));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % kPerVector) {  // the tail
    add(bin_of(in[kPerVector * vectors + threadIdx.x], shift));
  }
}
//! [for_each_wide_load]

//! [histogram_wide_loads]
/// The histogram per block, fed by 16-byte loads.
/// @pre as histogram_shared_private() and for_each_wide_load().
template <typename T>
__device__ void histogram_wide_loads(const T* __restrict__ in, int64_t n, int shift, Count* bins) {
  __shared__ uint32_t counts[kBins];
  zero_block_histogram(counts);
  for_each_wide_load(in, n, shift, [&](uint32_t bin) { atomicAdd(&counts[bin], 1u); });
  merge_block_histogram(counts, bins);
}
//! [histogram_wide_loads]

//! [histogram_lane_private]
/// The 16-byte loads with a copy of the histogram per lane: bin b of lane l's copy is the word
/// b * 32 + l, in bank l. The 32 lanes of a warp add in 32 different banks whatever their bins
/// are; the block's warps still share the copies, so the adds stay atomic. The merge reads bin
/// b's 32 copies starting at a different copy in each lane, so that those reads too fall in 32
/// banks. 32 KiB of shared memory a block instead of 1 KiB.
/// @pre as histogram_wide_loads().
template <typename T>
__device__ void histogram_lane_private(const T* __restrict__ in, int64_t n, int shift,
                                       Count* bins) {
  __shared__ uint32_t counts[kBins * kLaneCopies];
  const uint32_t lane = threadIdx.x % 32;
  for (int w = threadIdx.x; w < kBins * kLaneCopies; w += kBlockThreads) counts[w] = 0;
  __syncthreads();  // no thread adds before every counter is zero
  for_each_wide_load(in, n, shift,
                     [&](uint32_t bin) { atomicAdd(&counts[bin * kLaneCopies + lane], 1u); });
  __syncthreads();                   // every add of the block is in before a counter is read
  const uint32_t bin = threadIdx.x;  // kBlockThreads == kBins: a bin each
  uint32_t total = 0;
  for (uint32_t c = 0; c < kLaneCopies; ++c) total += counts[bin * kLaneCopies + (c + lane) % 32];
  if (total != 0) atomicAdd(&bins[bin], Count{total});
}
//! [histogram_lane_private]

}  // namespace chapter12
