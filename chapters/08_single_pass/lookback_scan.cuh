/**
 * @file chapters/08_single_pass/lookback_scan.cuh
 * @brief A scan in one pass over the data: each block scans one tile and gets the sum of all
 *        tiles before it from their published status words, either by waiting for its
 *        predecessor (chained) or by looking back over a window of predecessors (decoupled
 *        look-back, Merrill & Garland 2016). Tiles are taken from a counter, not blockIdx.x.
 */
#pragma once

#include <cstdint>

#include "tile_status.cuh"
#include "tutorial/block_cycles.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/device_buffer.cuh"

namespace chapter08 {

/// Threads of a scan block, and its warps.
constexpr int kScanThreads = 256;
constexpr int kScanWarps = kScanThreads / 32;

/// The consecutive elements a thread takes per round: one 16-byte store of Out (2 int64 or 4
/// floats). A round is kScanThreads such groups, so every warp's loads and stores are
/// contiguous; a tile is kRounds rounds (8192 int64 or 16384 floats), loaded all at once.
template <typename Out>
constexpr int kPerThread = 16 / sizeof(Out);
constexpr int kRounds = 16;
// clang-format off
template <typename Out>
constexpr int kScanTile = kRounds * kScanThreads * kPerThread<Out>;
// clang-format on
/// Blocks the compiler must fit on one SM (it limits the registers per thread to match, here
/// 80): while one block waits for its prefix, the others keep loads in flight. The page
/// measures the tile sizes and block counts tried.
constexpr int kScanBlocksPerSm = 3;

/// How a tile learns the sum of the tiles before it.
enum class Wait {
  kChained,    ///< wait until the tile just before has published its inclusive prefix
  kDecoupled,  ///< publish the tile's own sum at once, then look back over a window
};

/// Where the tiles of one scan meet: one status word per tile, the counter that hands out
/// tiles (0 between calls: the block that takes the last tile puts it back), and the parity
/// of this call (tile_status.cuh).
struct ScanState {
  uint64_t* status;
  unsigned int* next_tile;
  int64_t tiles;
  uint32_t parity;
};

/// kCount consecutive values, aligned so that one vector instruction loads or stores them
/// all (8 bytes: LDG.64; 16 bytes: LDG.128).
template <typename T, int kCount>
struct alignas(sizeof(T) * kCount) Pack {
  T at[kCount];
};

/// Elements i .. i + kCount - 1 of @p in, 0 past n: one vector load where all exist.
template <int kCount, typename In>
__device__ Pack<In, kCount> load_pack(const In* __restrict__ in, int64_t n, int64_t i) {
  if (i + kCount <= n) return *reinterpret_cast<const Pack<In, kCount>*>(in + i);
  Pack<In, kCount> pack;
  for (int k = 0; k < kCount; ++k) pack.at[k] = i + k < n ? in[i + k] : In(0);
  return pack;
}

/// Writes @p pack to out[i ..] (the elements below n): one vector store where all exist.
template <int kCount, typename Out>
__device__ void store_pack(Out* __restrict__ out, int64_t n, int64_t i,
                           const Pack<Out, kCount>& pack) {
  if (i + kCount <= n) {
    *reinterpret_cast<Pack<Out, kCount>*>(out + i) = pack;
    return;
  }
  for (int k = 0; k < kCount && i + k < n; ++k) out[i + k] = pack.at[k];
}

//! [take_tile]
/// The tile this block scans: the next one from the counter, so tiles are handed out in the
/// order blocks start. A block waits only for tiles handed out before its own, whose blocks
/// are already running; with blockIdx.x, block 1000 could be running and spinning while block
/// 999 has not been scheduled, and if spinning blocks filled every SM, never would be.
__device__ inline int64_t take_tile(const ScanState& state) {
  __shared__ unsigned int taken;
  if (threadIdx.x == 0) {
    taken = atomicAdd(state.next_tile, 1u);
    if (taken == state.tiles - 1) {  // the last tile: every block has drawn, reset for next call
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*state.next_tile)
          .store(0, cuda::std::memory_order_relaxed);
    }
  }
  __syncthreads();
  return taken;
}
//! [take_tile]

/// The sum of @p value over the warp, in every lane (butterfly: the order is fixed).
template <typename T>
__device__ T warp_all_sum(T value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

//! [look_back]
/**
 * @brief Run by the 32 lanes of warp 0: the sum of all tiles before @p tile, after which the
 *        tile's inclusive prefix (that + @p aggregate) is published.
 *
 * Chained: lane 0 waits for the word of tile - 1 to say kInclusive. Every tile waits for the
 * one before, so the tiles finish one after another, each after a round trip through L2.
 * Decoupled: the tile first publishes its aggregate, which it knows without waiting. Then lane
 * l reads the word of tile - 1 - l: once none of them up to the nearest kInclusive one is
 * kEmpty, the sum of their values is the prefix; with no kInclusive among them, their 32
 * aggregates are added and the window moves 32 tiles further back. A tile waits only for
 * its predecessors to have loaded and summed their tiles, not for them to have finished.
 */
template <Wait kWait, typename Out>
__device__ Out look_back(const ScanState& state, int64_t tile, Out aggregate) {
  using Word = StatusWord<Out>;
  const int lane = threadIdx.x % 32;
  if (tile == 0) {
    if (lane == 0) store_status(&state.status[0], Word::pack(aggregate, kInclusive, state.parity));
    return Out(0);
  }
  Out prefix = 0;
  if constexpr (kWait == Wait::kChained) {
    if (lane == 0) {
      uint64_t word;
      do {
        word = load_status(&state.status[tile - 1]);
      } while (kind_for_call(word, state.parity) != kInclusive);
      prefix = Word::value(word);
    }
    prefix = __shfl_sync(0xffffffffu, prefix, 0);
  } else {
    if (lane == 0)
      store_status(&state.status[tile], Word::pack(aggregate, kAggregate, state.parity));
    for (int64_t end = tile;; end -= 32) {
      const int64_t mine = end - 1 - lane;  // before tile 0: an inclusive 0
      uint64_t word = 0;
      uint32_t kind = kInclusive;
      unsigned int inclusive_lanes, counted;
      for (;;) {
        if (mine >= 0) {
          word = load_status(&state.status[mine]);
          kind = kind_for_call(word, state.parity);
        }
        // The lanes that count: 0 .. the lowest inclusive one (x ^ (x - 1) sets the bits up to
        // x's lowest), or all 32 when there is none. Wait until none of them is empty.
        inclusive_lanes = __ballot_sync(0xffffffffu, kind == kInclusive);
        counted = inclusive_lanes ^ (inclusive_lanes - 1);
        if ((__ballot_sync(0xffffffffu, kind == kEmpty) & counted) == 0) break;
      }
      const bool mine_counts = mine >= 0 && ((counted >> lane) & 1u);
      prefix += warp_all_sum(mine_counts ? Word::value(word) : Out(0));
      if (inclusive_lanes != 0) break;
    }
  }
  if (lane == 0) {
    store_status(&state.status[tile], Word::pack(prefix + aggregate, kInclusive, state.parity));
  }
  return prefix;
}
//! [look_back]

/// Warp totals of a tile (kRounds rounds of kScanWarps warps) that each lane of warp 0 adds up
/// before the warp scans them.
constexpr int kTotalsPerLane = kRounds * kScanWarps / 32;
static_assert(kRounds * kScanWarps % 32 == 0, "warp 0 scans the warp totals, whole lanes each");

/// The depth of the additions of a tile's aggregate (verify.hpp's k, for floats): a thread's
/// group, its warp's scan (5), a lane's warp totals, the scan of the lanes' sums (5).
template <typename Out>
constexpr int64_t kAggregateDepth = (kPerThread<Out> - 1) + 5 + (kTotalsPerLane - 1) + 5;

/// The depth of element @p i of a single-pass scan. By induction over tiles, tile T's inclusive
/// prefix has depth at most A + 7 (T + 1), A the aggregate's: finding a prefix through k tiles
/// adds at most 5 (the warp sum) + ceil(k / 32) (the windows) + 1 (the aggregate) <= 7k. An
/// element adds the prefix to its round and warp's offset in the tile (kTotalsPerLane), its
/// warp's exclusive scan (1), and up to kPerThread of its own.
template <typename Out>
int64_t single_pass_depth(int64_t i) {
  return kAggregateDepth<Out> + 7 * (i / kScanTile<Out> + 1) + kTotalsPerLane + 1 + kPerThread<Out>;
}

//! [scan_single_pass]
/**
 * @brief Scans tile take_tile() of @p in into @p out (inclusive or exclusive) in one pass.
 *
 * Each thread loads its kRounds groups at once; sums each group; the warps scan those sums
 * with shuffles, round by round, and each thread keeps what comes before its group in the warp
 * in shared memory (in registers, kRounds of them would force the block count down); one
 * barrier. Warp 0 scans the warp totals, finds the tile's prefix (look_back) and leaves each
 * round and warp its offset, while the other warps wait at the second barrier; every thread
 * then writes its elements as that offset + everything before them in its warp.
 * @pre kScanThreads threads, state.tiles = ceil(n / kScanTile<Out>) blocks; in and out 16-byte
 *      aligned; *state.next_tile is 0.
 */
template <Wait kWait, typename In, typename Out>
__global__ void __launch_bounds__(kScanThreads, kScanBlocksPerSm)
    scan_single_pass(const In* __restrict__ in, int64_t n, Out* __restrict__ out, bool inclusive,
                     ScanState state, tutorial::BlockCycleSlots slots) {
  constexpr int kCount = kPerThread<Out>;
  constexpr int kRoundElements = kCount * kScanThreads;
  const tutorial::BlockClock started = tutorial::block_clock_start();
  __shared__ Out warp_totals[kRounds][kScanWarps];
  __shared__ Out warp_before[kRounds][kScanThreads];  // each thread reads back only its own
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t tile = take_tile(state);
  const int64_t first = tile * kScanTile<Out> + kCount * threadIdx.x;

  Pack<In, kCount> x[kRounds];
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    x[r] = load_pack<kCount>(in, n, first + r * kRoundElements);
  }

  // Each round: the thread's sum of its kCount, scanned across the warp (inclusive, then
  // shifted by one lane to make it exclusive).
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    Out sum = Out(x[r].at[0]);
    for (int k = 1; k < kCount; ++k) sum += Out(x[r].at[k]);
    for (int offset = 1; offset < 32; offset *= 2) {
      const Out up = __shfl_up_sync(0xffffffffu, sum, offset);
      if (lane >= offset) sum += up;
    }
    if (lane == 31) warp_totals[r][warp] = sum;
    const Out before = __shfl_up_sync(0xffffffffu, sum, 1);
    warp_before[r][threadIdx.x] = lane == 0 ? Out(0) : before;
  }
  __syncthreads();

  // Warp 0 scans the warp totals in tile order (round by round, warp by warp; lane l adds up
  // kTotalsPerLane consecutive ones first), which gives the tile's aggregate, finds the tile's
  // prefix, and leaves in each slot what comes before that round and warp.
  if (warp == 0) {
    Out* slots = &warp_totals[0][0] + lane * kTotalsPerLane;
    Out totals[kTotalsPerLane];
    Out inclusive_total = 0;
    for (int j = 0; j < kTotalsPerLane; ++j) {
      totals[j] = slots[j];
      inclusive_total += totals[j];
    }
    for (int offset = 1; offset < 32; offset *= 2) {
      const Out up = __shfl_up_sync(0xffffffffu, inclusive_total, offset);
      if (lane >= offset) inclusive_total += up;
    }
    const Out before = __shfl_up_sync(0xffffffffu, inclusive_total, 1);
    const Out aggregate = __shfl_sync(0xffffffffu, inclusive_total, 31);
    const Out prefix = look_back<kWait>(state, tile, aggregate);  // the same in every lane
    Out running = prefix + (lane == 0 ? Out(0) : before);
    for (int j = 0; j < kTotalsPerLane; ++j) {
      slots[j] = running;
      running += totals[j];
    }
  }
  __syncthreads();

#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    Out running = warp_totals[r][warp] + warp_before[r][threadIdx.x];
    Pack<Out, kCount> result;
    for (int k = 0; k < kCount; ++k) {
      const Out exclusive = running;
      running += Out(x[r].at[k]);
      result.at[k] = inclusive ? running : exclusive;
    }
    store_pack<kCount>(out, n, first + r * kRoundElements, result);
  }
  tutorial::block_clock_stop(slots, started);
}
//! [scan_single_pass]

/// The floor of any scan: read every element once and write one output per element, with the
/// same loads and stores as scan_single_pass and nothing in between.
template <typename In, typename Out>
__global__ void __launch_bounds__(kScanThreads)
    copy_elements(const In* __restrict__ in, int64_t n, Out* __restrict__ out) {
  constexpr int kCount = kPerThread<Out>;
  const int64_t stride = kCount * int64_t{gridDim.x} * kScanThreads;
  for (int64_t i = kCount * (int64_t{blockIdx.x} * kScanThreads + threadIdx.x); i < n;
       i += stride) {
    const Pack<In, kCount> x = load_pack<kCount>(in, n, i);
    Pack<Out, kCount> y;
    for (int k = 0; k < kCount; ++k) y.at[k] = Out(x.at[k]);
    store_pack<kCount>(out, n, i, y);
  }
}

//! [single_pass_scan_class]
/**
 * @brief The status words and tile counter of a scan of @p n elements, zeroed once.
 *
 * Nothing is reset between calls: the counter resets itself (take_tile), and each call flips
 * the parity that its status words carry, so the words the last call left read as kEmpty.
 * That needs every call to write every tile's word, hence one object per n.
 */
template <typename Out>
class SinglePassScan {
 public:
  explicit SinglePassScan(int64_t n)
      : n_(n), tiles_((n + kScanTile<Out> - 1) / kScanTile<Out>), status_(tiles_), next_tile_(1) {
    CUDA_CHECK(cudaMemset(status_.data(), 0, status_.bytes()));
    CUDA_CHECK(cudaMemset(next_tile_.data(), 0, next_tile_.bytes()));
  }
  int64_t tiles() const { return tiles_; }

  /// Enqueues the scan of in[0, n) into out on the default stream: one launch.
  template <Wait kWait, typename In>
  void run(const In* in, Out* out, bool inclusive, tutorial::BlockCycleSlots slots = {}) {
    const ScanState state{status_.data(), next_tile_.data(), tiles_, calls_++ % 2};
    scan_single_pass<kWait>
        <<<static_cast<unsigned int>(tiles_), kScanThreads>>>(in, n_, out, inclusive, state, slots);
  }

 private:
  int64_t n_, tiles_;
  tutorial::DeviceBuffer<uint64_t> status_;
  tutorial::DeviceBuffer<unsigned int> next_tile_;
  uint32_t calls_ = 0;
};
//! [single_pass_scan_class]

}  // namespace chapter08
