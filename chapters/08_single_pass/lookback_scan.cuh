/**
 * @file chapters/08_single_pass/lookback_scan.cuh
 * @brief A scan in one pass over the data: each block scans one tile and gets the sum of all
 *        tiles before it from their published status words, either by waiting for its
 *        predecessor (chained) or by looking back over a window of predecessors (decoupled
 *        look-back, Merrill & Garland 2016). Tiles are taken from a counter, not blockIdx.x,
 *        and arranged striped (floats) or blocked (int64), whichever measured faster.
 */
#pragma once

#include <cstdint>

#include "tile_status.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace chapter08 {

/// How the threads of a block hold the elements of a tile. Section 6 of the page measures both.
enum class Arrangement {
  /// Round by round: in each round, thread t holds the kPerThread elements after t's place in
  /// the round, so every load and store of a warp is contiguous; one warp scan per round.
  kStriped,
  /// Thread t holds kItems consecutive elements: one warp scan per tile, and the outputs go
  /// through shared memory so that the stores are contiguous again.
  kBlocked,
};

/// The elements one 16-byte load or store of T moves (4 int32 or floats, 2 int64).
template <typename T>
constexpr int kPerThread = 16 / sizeof(T);

//! [tile_shape]
/// The shape of a scan's tile for each output type, measured on the H100 (sections 5 and 6):
/// threads per block, elements per thread (a tile is their product), and the blocks the
/// compiler must fit on one SM (it limits the registers per thread to match: while one block
/// waits for its prefix, the others keep loads in flight). Floats: 16 rounds of 4, striped.
/// int64: 16 consecutive elements a thread, blocked: its 64-bit warp scans cost twice the
/// shuffles, and one per tile instead of one per round pays for the trip through shared memory.
template <typename Out>
struct TileShape;
template <>
struct TileShape<float> {
  static constexpr Arrangement kArrangement = Arrangement::kStriped;
  static constexpr int kThreads = 256, kItems = 64, kBlocksPerSm = 3;
};
template <>
struct TileShape<int64_t> {
  static constexpr Arrangement kArrangement = Arrangement::kBlocked;
  static constexpr int kThreads = 384, kItems = 16, kBlocksPerSm = 4;
};
//! [tile_shape]

template <typename Out>
constexpr int kScanTile = TileShape<Out>::kThreads* TileShape<Out>::kItems;
template <typename Out>
constexpr int kScanWarps = TileShape<Out>::kThreads / 32;
/// Rounds of a striped tile: each thread loads kPerThread elements per round.
template <typename Out>
constexpr int kRounds = TileShape<Out>::kItems / kPerThread<Out>;

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

/// The warp totals of a tile: kRounds per warp when striped, one when blocked.
template <typename Out>
constexpr int kWarpTotals =
    TileShape<Out>::kArrangement == Arrangement::kStriped ? kRounds<Out>* kScanWarps<Out>
                                                          : kScanWarps<Out>;
/// The consecutive warp totals each lane of warp 0 adds up before the warp scans them.
template <typename Out>
constexpr int kTotalsPerLane = (kWarpTotals<Out> + 31) / 32;
/// The consecutive elements a thread adds up one after another: one group of a round when
/// striped, all its elements when blocked.
template <typename Out>
constexpr int kSerial =
    TileShape<Out>::kArrangement == Arrangement::kStriped ? kPerThread<Out>
                                                          : TileShape<Out>::kItems;

/// The depth of the additions of a tile's aggregate (verify.hpp's k, for floats): a thread's
/// serial sum, its warp's scan (5), a lane's warp totals, the scan of the lanes' sums (5).
template <typename Out>
constexpr int64_t kAggregateDepth = (kSerial<Out> - 1) + 5 + (kTotalsPerLane<Out> - 1) + 5;

/// The depth of element @p i of a single-pass scan. By induction over tiles, tile T's inclusive
/// prefix has depth at most A + 7 (T + 1), A the aggregate's: finding a prefix through k tiles
/// adds at most 5 (the warp sum) + ceil(k / 32) (the windows) + 1 (the aggregate) <= 7k. An
/// element adds the prefix to its warp's offset in the tile (kTotalsPerLane), its warp's
/// exclusive scan (1), and up to kSerial of its own.
template <typename Out>
int64_t single_pass_depth(int64_t i) {
  return kAggregateDepth<Out> + 7 * (i / kScanTile<Out> + 1) + kTotalsPerLane<Out> + 1 +
         kSerial<Out>;
}

//! [warp_offsets]
/**
 * @brief Run by warp 0 when the kTotals warp totals of a tile are in @p totals, in tile order:
 *        finds the tile's prefix (look_back) and replaces each total by the sum of everything
 *        before it, that prefix included.
 *
 * Lane l adds up kPerLane consecutive totals, the warp scans the lanes' sums, which gives the
 * tile's aggregate, and each lane walks its totals again with what comes before them.
 */
template <Wait kWait, int kTotals, typename Out>
__device__ void warp_offsets(const ScanState& state, int64_t tile, Out* totals) {
  constexpr int kPerLane = (kTotals + 31) / 32;
  const int lane = threadIdx.x % 32;
  Out mine[kPerLane];
  Out inclusive_total = 0;
  for (int j = 0; j < kPerLane; ++j) {
    const int at = lane * kPerLane + j;
    mine[j] = at < kTotals ? totals[at] : Out(0);
    inclusive_total += mine[j];
  }
  for (int offset = 1; offset < 32; offset *= 2) {
    const Out up = __shfl_up_sync(0xffffffffu, inclusive_total, offset);
    if (lane >= offset) inclusive_total += up;
  }
  const Out before = __shfl_up_sync(0xffffffffu, inclusive_total, 1);
  const Out aggregate = __shfl_sync(0xffffffffu, inclusive_total, 31);
  const Out prefix = look_back<kWait>(state, tile, aggregate);  // the same in every lane
  Out running = prefix + (lane == 0 ? Out(0) : before);
  for (int j = 0; j < kPerLane; ++j) {
    const int at = lane * kPerLane + j;
    if (at < kTotals) totals[at] = running;
    running += mine[j];
  }
}
//! [warp_offsets]

//! [scan_single_pass]
/**
 * @brief Scans tile take_tile() of @p in into @p out (inclusive or exclusive) in one pass,
 *        striped: round r of the tile is kPerThread<Out> elements per thread, thread by thread.
 *
 * Each thread loads its kRounds groups at once; sums each group; the warps scan those sums
 * with shuffles, round by round, and each thread keeps what comes before its group in the warp
 * in shared memory (in registers, kRounds of them would force the block count down); one
 * barrier. Warp 0 turns the warp totals into offsets (warp_offsets), while the other warps
 * wait at the second barrier; every thread then writes its elements as that offset +
 * everything before them in its warp.
 * @pre TileShape<Out>::kThreads threads, state.tiles = ceil(n / kScanTile<Out>) blocks; in and
 *      out 16-byte aligned; *state.next_tile is 0.
 */
template <Wait kWait, typename In, typename Out>
__device__ void scan_single_pass(const In* __restrict__ in, int64_t n, Out* __restrict__ out,
                                 bool inclusive, ScanState state) {
  constexpr int kThreads = TileShape<Out>::kThreads, kCount = kPerThread<Out>;
  constexpr int kRoundElements = kCount * kThreads;
  __shared__ Out warp_totals[kRounds<Out>][kScanWarps<Out>];
  __shared__ Out warp_before[kRounds<Out>][kThreads];  // each thread reads back only its own
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t tile = take_tile(state);
  const int64_t first = tile * kScanTile<Out> + kCount * threadIdx.x;

  Pack<In, kCount> x[kRounds<Out>];
#pragma unroll
  for (int r = 0; r < kRounds<Out>; ++r) {
    x[r] = load_pack<kCount>(in, n, first + r * kRoundElements);
  }

  // Each round: the thread's sum of its kCount, scanned across the warp (inclusive, then
  // shifted by one lane to make it exclusive).
#pragma unroll
  for (int r = 0; r < kRounds<Out>; ++r) {
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
  if (warp == 0) warp_offsets<kWait, kWarpTotals<Out>>(state, tile, &warp_totals[0][0]);
  __syncthreads();

#pragma unroll
  for (int r = 0; r < kRounds<Out>; ++r) {
    Out running = warp_totals[r][warp] + warp_before[r][threadIdx.x];
    Pack<Out, kCount> result;
    for (int k = 0; k < kCount; ++k) {
      const Out exclusive = running;
      running += Out(x[r].at[k]);
      result.at[k] = inclusive ? running : exclusive;
    }
    store_pack<kCount>(out, n, first + r * kRoundElements, result);
  }
}
//! [scan_single_pass]

/// scan_single_pass as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh), with its launch bounds: the tile's threads, and the blocks
/// an SM must hold (TileShape).
template <Wait kWait, typename In, typename Out>
inline constexpr auto scan_single_pass_kernel =
    tutorial::clocked_kernel<scan_single_pass<kWait, In, Out>, TileShape<Out>::kThreads,
                             TileShape<Out>::kBlocksPerSm>;

//! [staged_slot]
/// Where pack @p c of the staged outputs lives in shared memory, each thread owning kPacks
/// consecutive ones: its low 3 bits XOR the owner's. A 16-byte access is served 8 threads at a
/// time (128 bytes, the 32 banks once); unswizzled, the 8 threads writing their pack j would
/// hit kPacks x 16 bytes apart, the same banks. Swizzled, they hit 8 different groups of 4
/// banks, and so do 8 consecutive packs read back in order (one owner, XORed alike).
template <int kPacks>
__device__ int staged_slot(int c) {
  static_assert(kPacks >= 2, "with one pack a thread, the order is already the stores' order");
  return c ^ ((c / kPacks) & 7);
}
//! [staged_slot]

/// The dynamic shared memory scan_single_pass_blocked stages its outputs in: a whole tile.
template <typename Out>
constexpr int kStagingBytes = kScanTile<Out>* int{sizeof(Out)};

//! [scan_single_pass_blocked]
/**
 * @brief The same scan, blocked: thread t holds kItems consecutive elements of the tile.
 *
 * A thread adds up its own elements, so one warp scan per tile gives each thread what comes
 * before it in its warp; warp 0 turns the kScanWarps warp totals into offsets. The loads read
 * 16 bytes a thread straight from global memory, a thread's kItems apart; measured, that is
 * faster than staging them (each line likely stays in L1 between the loads that share it).
 * Stored that way, the scan ran at a third of the speed, so each thread stages its outputs in
 * shared memory and the block stores them in order, every warp's 16-byte stores contiguous.
 * @pre TileShape<Out>::kThreads threads, kStagingBytes<Out> of dynamic shared memory,
 *      state.tiles = ceil(n / kScanTile<Out>) blocks; in and out 16-byte aligned;
 *      *state.next_tile is 0.
 */
template <Wait kWait, typename In, typename Out>
__device__ void scan_single_pass_blocked(const In* __restrict__ in, int64_t n,
                                         Out* __restrict__ out, bool inclusive, ScanState state) {
  constexpr int kThreads = TileShape<Out>::kThreads, kItems = TileShape<Out>::kItems;
  constexpr int kLoads = kItems / kPerThread<In>, kStores = kItems / kPerThread<Out>;
  static_assert(kItems % kPerThread<In> == 0 && kItems % kPerThread<Out> == 0, "whole packs");
  using OutPack = Pack<Out, kPerThread<Out>>;
  extern __shared__ uint4 staging_bytes[];  // kStagingBytes<Out>
  OutPack* staged = reinterpret_cast<OutPack*>(staging_bytes);
  __shared__ Out warp_totals[kScanWarps<Out>];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t tile = take_tile(state);
  const int64_t first = tile * kScanTile<Out>;
  const int64_t mine = first + int64_t{threadIdx.x} * kItems;

  In x[kItems];
#pragma unroll
  for (int j = 0; j < kLoads; ++j) {
    const Pack<In, kPerThread<In>> pack =
        load_pack<kPerThread<In>>(in, n, mine + j * kPerThread<In>);
#pragma unroll
    for (int k = 0; k < kPerThread<In>; ++k) x[j * kPerThread<In> + k] = pack.at[k];
  }

  // The thread's sum, scanned across the warp once (inclusive, then shifted by one lane).
  Out sum = Out(x[0]);
#pragma unroll
  for (int k = 1; k < kItems; ++k) sum += Out(x[k]);
  for (int offset = 1; offset < 32; offset *= 2) {
    const Out up = __shfl_up_sync(0xffffffffu, sum, offset);
    if (lane >= offset) sum += up;
  }
  if (lane == 31) warp_totals[warp] = sum;
  const Out before = __shfl_up_sync(0xffffffffu, sum, 1);
  __syncthreads();
  if (warp == 0) warp_offsets<kWait, kScanWarps<Out>>(state, tile, warp_totals);
  __syncthreads();

  Out running = warp_totals[warp] + (lane == 0 ? Out(0) : before);
#pragma unroll
  for (int j = 0; j < kStores; ++j) {
    OutPack result;
#pragma unroll
    for (int k = 0; k < kPerThread<Out>; ++k) {
      const Out exclusive = running;
      running += Out(x[j * kPerThread<Out> + k]);
      result.at[k] = inclusive ? running : exclusive;
    }
    staged[staged_slot<kStores>(threadIdx.x * kStores + j)] = result;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < kStores; ++r) {
    const int c = r * kThreads + threadIdx.x;  // the tile's packs in order, thread by thread
    store_pack<kPerThread<Out>>(out, n, first + int64_t{c} * kPerThread<Out>,
                                staged[staged_slot<kStores>(c)]);
  }
}
//! [scan_single_pass_blocked]

/// scan_single_pass_blocked as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh), with its launch bounds: the tile's threads, and the blocks
/// an SM must hold (TileShape).
template <Wait kWait, typename In, typename Out>
inline constexpr auto scan_single_pass_blocked_kernel =
    tutorial::clocked_kernel<scan_single_pass_blocked<kWait, In, Out>, TileShape<Out>::kThreads,
                             TileShape<Out>::kBlocksPerSm, tutorial::ClockStart::kShared>;

/// The kernel SinglePassScan::run launches for Out's arrangement: the one whose blocks it clocks.
template <Wait kWait, typename In, typename Out>
const void* single_pass_kernel() {
  if constexpr (TileShape<Out>::kArrangement == Arrangement::kStriped) {
    return reinterpret_cast<const void*>(scan_single_pass_kernel<kWait, In, Out>);
  } else {
    return reinterpret_cast<const void*>(scan_single_pass_blocked_kernel<kWait, In, Out>);
  }
}

/// Threads of a copy block.
constexpr int kCopyThreads = 256;

/// The floor of any scan: read every element once and write one output per element, with
/// coalesced 16-byte stores like the scans' and nothing in between.
template <typename In, typename Out>
__global__ void __launch_bounds__(kCopyThreads)
    copy_elements(const In* __restrict__ in, int64_t n, Out* __restrict__ out) {
  constexpr int kCount = kPerThread<Out>;
  const int64_t stride = kCount * int64_t{gridDim.x} * kCopyThreads;
  for (int64_t i = kCount * (int64_t{blockIdx.x} * kCopyThreads + threadIdx.x); i < n;
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

  /// Enqueues the scan of in[0, n) into out on the default stream: one launch, of the kernel
  /// for Out's arrangement.
  template <Wait kWait, typename In>
  void run(const In* in, Out* out, bool inclusive, tutorial::BlockCycleSlots slots = {}) {
    const ScanState state{status_.data(), next_tile_.data(), tiles_, calls_++ % 2};
    const auto blocks = static_cast<unsigned int>(tiles_);
    constexpr int kThreads = TileShape<Out>::kThreads;
    if constexpr (TileShape<Out>::kArrangement == Arrangement::kStriped) {
      scan_single_pass_kernel<kWait, In, Out>
          <<<blocks, kThreads>>>(slots, in, n_, out, inclusive, state);
    } else {
      static const bool allowed = allow_staging(scan_single_pass_blocked_kernel<kWait, In, Out>);
      (void)allowed;  // once per kernel: past 48 KiB, a launch must ask for it
      constexpr int kBytes = kStagingBytes<Out>;
      scan_single_pass_blocked_kernel<kWait, In, Out>
          <<<blocks, kThreads, kBytes>>>(slots, in, n_, out, inclusive, state);
    }
  }

 private:
  template <typename Kernel>
  static bool allow_staging(Kernel* kernel) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    kStagingBytes<Out>));
    return true;
  }

  int64_t n_, tiles_;
  tutorial::DeviceBuffer<uint64_t> status_;
  tutorial::DeviceBuffer<unsigned int> next_tile_;
  uint32_t calls_ = 0;
};
//! [single_pass_scan_class]

}  // namespace chapter08
