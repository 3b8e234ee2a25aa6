/**
 * @file chapters/13_radix_sort/radix_sort.cuh
 * @brief The kernels of chapter 13: keys sorted ascending, first one bit a pass with a scan,
 *        then 8-bit digits, from three kernels a pass to Onesweep with early counts, which
 *        step 6 runs for 64-bit keys and for keys with values too.
 *
 * Every body here is a `__device__` function that main.cu wraps in the harness's clocked kernel.
 * The scans come from chapter 08 (lookback_scan.cuh, tile_status.cuh); the digit counting is
 * chapter 12's histogram per block, one tile at a time. Steps 1 to 5 sort 32-bit keys alone;
 * floats are exercise 13.2.
 */
#pragma once

#include <cstdint>
#include <type_traits>

#include "08_single_pass/lookback_scan.cuh"
#include "08_single_pass/tile_status.cuh"

namespace chapter13 {

/// Threads per block of every kernel here: one per digit value where a kernel works per digit.
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
/// Bits of a digit, and the values a digit takes.
constexpr int kDigitBits = 8;
constexpr int kDigits = 1 << kDigitBits;
/// Passes of an 8-bit LSD sort of 32-bit keys.
constexpr int kPasses = 32 / kDigitBits;
/// Keys of a tile: a block's share of one pass. Each warp owns kWarpKeys consecutive keys of the
/// tile and reads them in kRounds rounds of 32, lane l taking key l of each round.
constexpr int kKeysPerThread = 24;
constexpr int kTileKeys = kThreads * kKeysPerThread;
constexpr int kWarpKeys = kTileKeys / kWarps;
constexpr int kRounds = kWarpKeys / 32;
/// The digit of a place past the end of the input in the last tile in steps 2 to 4: no digit a
/// key can have, so it is never counted and never written. (Steps 5 and 6 pad with the largest
/// key instead, kPadKeyOf: counted and ranked, never written.)
constexpr uint32_t kNoDigit = kDigits;

static_assert(kThreads == kDigits, "the per-digit steps give each thread one digit");
static_assert(kThreads % 32 == 0, "__match_any_sync needs every warp whole");
static_assert(32 % kDigitBits == 0, "whole digits in a 32-bit key");

/// A 64-bit global digit count, as chapter 12's bins.
using Count = unsigned long long;

/// The digit of @p key at bit @p shift.
__host__ __device__ inline uint32_t digit_of(uint32_t key, int shift) {
  return (key >> shift) & (kDigits - 1);
}
/// The digit of a 64-bit key (step 6).
__host__ __device__ inline uint32_t digit_of(uint64_t key, int shift) {
  return static_cast<uint32_t>(key >> shift) & (kDigits - 1);
}

/// Passes of an 8-bit LSD sort of @p Key: 4 for 32-bit keys, 8 for 64-bit ones.
template <typename Key>
constexpr int kPassesOf = 8 * sizeof(Key) / kDigitBits;

/// No values: a sort of keys alone (step 6 sorts pairs too).
struct NoValues {};

/// The tiles of @p n keys: the last one may be partial.
__host__ __device__ inline int64_t tile_count(int64_t n) {
  return (n + kTileKeys - 1) / kTileKeys;
}

// ---------------------------------------------------------------------------------------------
// Step 1: split by one bit.
// ---------------------------------------------------------------------------------------------

//! [split_flags]
/// The textbook split, first kernel: zero[i] = 1 where bit @p bit of key i is 0. Its exclusive
/// scan (chapter 08's single-pass scan, in main.cu) is where each such key goes.
__device__ void split_flags(const uint32_t* __restrict__ in, int64_t n, int bit,
                            uint8_t* __restrict__ zero) {
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) {
    zero[i] = ((in[i] >> bit) & 1u) == 0;
  }
}
//! [split_flags]

//! [split_scatter]
/// The split's scatter: a key whose bit is 0 goes to the number of zeros before it; a key whose
/// bit is 1 goes after all the zeros, to the number of ones before it. Both keep the order of
/// equal bits, so the split is stable and 32 of them, bit 0 first, sort the keys.
/// @p zeros_before is the exclusive scan of split_flags()'s flags.
__device__ void split_scatter(const uint32_t* __restrict__ in, int64_t n, int bit,
                              const int64_t* __restrict__ zeros_before,
                              uint32_t* __restrict__ out) {
  const int64_t all_zeros = zeros_before[n - 1] + (((in[n - 1] >> bit) & 1u) == 0);
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) {
    const uint32_t key = in[i];
    const bool is_zero = ((key >> bit) & 1u) == 0;
    out[is_zero ? zeros_before[i] : all_zeros + (i - zeros_before[i])] = key;
  }
}
//! [split_scatter]

// ---------------------------------------------------------------------------------------------
// Step 2: 8-bit digits, three kernels a pass.
// ---------------------------------------------------------------------------------------------

//! [tile_digit_counts]
/// Per pass, first kernel: block t counts the digits of tile t in shared memory (chapter 12's
/// histogram per block, on one tile) and writes them in digit-major order, counts[d * tiles +
/// t]. Scanned in that order, entry (d, t) becomes every key of a smaller digit plus the keys
/// of digit d in earlier tiles: where tile t's first key of digit d goes.
__device__ void tile_digit_counts(const uint32_t* __restrict__ in, int64_t n, int shift,
                                  uint32_t* __restrict__ counts) {
  __shared__ uint32_t tile_counts[kDigits];
  const int64_t tiles = tile_count(n);
  const int64_t first = int64_t{blockIdx.x} * kTileKeys;
  tile_counts[threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any add
  for (int k = 0; k < kKeysPerThread; ++k) {
    const int64_t i = first + k * kThreads + threadIdx.x;  // coalesced: a warp reads 128 bytes
    if (i < n) atomicAdd(&tile_counts[digit_of(in[i], shift)], 1u);
  }
  __syncthreads();  // every add is in before the counts are read
  counts[threadIdx.x * tiles + blockIdx.x] = tile_counts[threadIdx.x];
}
//! [tile_digit_counts]

/// A tile's keys as its warps rank them: key r of a lane is the tile's key warp * kWarpKeys +
/// r * 32 + lane and, once ranked, its place among the tile's keys of the same digit. The digit
/// is worked out again where it is needed, not kept: 24 registers fewer a thread.
template <typename Key>
struct TileOf {
  Key key[kRounds];
  uint32_t rank[kRounds];
  int shift;       ///< the digit's bit
  int first;       ///< the lane's first key in the tile: warp * kWarpKeys + lane
  int tile_valid;  ///< keys in the tile: kTileKeys but in the last tile
  /// The digit of key r, kNoDigit past the end of the input.
  __device__ uint32_t digit(int r) const {
    return first + r * 32 < tile_valid ? digit_of(key[r], shift) : kNoDigit;
  }
};
/// The 32-bit keys of steps 2 to 5.
using TileKeys = TileOf<uint32_t>;

/// What the places past the end of the input in the last tile hold: the largest key, whose
/// digits are all the largest digit, so that a stable rank puts them after every key of the
/// tile (step 5 counts and ranks them, and never writes them; steps 2 to 4 skip them).
template <typename Key>
constexpr Key kPadKeyOf = ~Key{0};
constexpr uint32_t kPadKey = kPadKeyOf<uint32_t>;

/// Loads tile @p tile's keys in TileKeys' order: each round, a warp reads 32 consecutive keys;
/// places past the end of the input get kPadKey.
template <typename Key>
__device__ inline void load_tile(const Key* __restrict__ in, int64_t n, int shift, int64_t tile,
                                 TileOf<Key>& keys) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t first = tile * kTileKeys + int64_t{warp} * kWarpKeys + lane;
  const int64_t left = n - tile * kTileKeys;
  if (left >= kTileKeys) {  // every tile but the last: no test of the end per key
#pragma unroll
    for (int r = 0; r < kRounds; ++r) keys.key[r] = in[first + r * 32];
  } else {
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const int64_t i = first + r * 32;
      keys.key[r] = i < n ? in[i] : kPadKeyOf<Key>;
    }
  }
  keys.shift = shift;
  keys.first = warp * kWarpKeys + lane;
  keys.tile_valid = left < kTileKeys ? static_cast<int>(left) : kTileKeys;
}

/// How a warp finds the lanes of a round whose keys have its lane's digit.
enum class Match {
  kMatchAny,  ///< one __match_any_sync
  kBallots,   ///< a __ballot_sync per bit of the digit, the lanes that agree on every bit
};

//! [peers_by_ballots]
/// The lanes whose digit equals this lane's, from one ballot per bit: a lane is a peer when it
/// agrees on every bit.
/// @pre called by all 32 lanes of the warp, each with a digit (step 5 pads the last tile).
__device__ inline unsigned peers_by_ballots(uint32_t digit) {
  unsigned peers = 0xFFFFFFFFu;
#pragma unroll
  for (int b = 0; b < kDigitBits; ++b) {
    unsigned agree;  // the lanes whose bit b is this lane's
    asm("{\n\t.reg .pred set;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 set, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
        "@!set not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(digit), "r"(1u << b));
    peers &= agree;
  }
  return peers;
}

/// peers_by_ballots() where lanes past the end hold kNoDigit (steps 2 to 4): they are left out
/// of every valid lane's peers.
__device__ inline unsigned valid_peers_by_ballots(uint32_t digit) {
  return __ballot_sync(0xFFFFFFFFu, digit != kNoDigit) & peers_by_ballots(digit);
}
//! [peers_by_ballots]

//! [warp_multisplit]
/**
 * @brief Ranks a warp's keys stably among its own keys of the same digit (a warp-level
 *        multisplit); @p counts, the warp's kDigits counters in shared memory, end as its count
 *        of each digit.
 *
 * Round by round, `__match_any_sync` gives each lane the lanes of the round with its digit (its
 * peers); its rank is the warp's count of the digit before the round plus its peers in lower
 * lanes. The lowest peer then adds the round's peers to the counter. Lanes, rounds and (in the
 * block's scan) warps are in the order of the keys, so equal digits keep their order.
 * @pre called by all 32 lanes of the warp; @p counts hold zeros.
 */
template <Match kMatch>
__device__ void warp_multisplit(TileKeys& keys, uint32_t* counts) {
  const int lane = threadIdx.x % 32;
  const unsigned lower_lanes = (1u << lane) - 1;
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t digit = keys.digit(r);
    const unsigned peers = kMatch == Match::kMatchAny ? __match_any_sync(0xFFFFFFFFu, digit)
                                                      : valid_peers_by_ballots(digit);
    const uint32_t before = digit != kNoDigit ? counts[digit] : 0;
    keys.rank[r] = before + __popc(peers & lower_lanes);
    __syncwarp();  // every lane has read its counter before the leader moves it on
    if (digit != kNoDigit && lane == __ffs(peers) - 1) counts[digit] = before + __popc(peers);
    __syncwarp();  // the counters are up to date before the next round reads them
  }
}
//! [warp_multisplit]

/// The exclusive sum of @p value over the block's kThreads threads, and their total in @p total
/// (every thread): each warp scans with shuffles, then each thread adds the warps before it.
/// @pre all kThreads threads call it together.
template <typename T>
__device__ T block_exclusive_sum(T value, T& total) {
  __shared__ T warp_totals[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T inclusive = value;
  for (int offset = 1; offset < 32; offset *= 2) {
    const T up = __shfl_up_sync(0xFFFFFFFFu, inclusive, offset);
    if (lane >= offset) inclusive += up;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();  // every warp total is in
  T before = 0;
  total = 0;
  for (int w = 0; w < kWarps; ++w) {
    if (w < warp) before += warp_totals[w];
    total += warp_totals[w];
  }
  __syncthreads();  // every thread has read the totals before the next call writes them
  return before + inclusive - value;
}

//! [write_staged]
/// The write-out of a staged tile: the tile's keys lie in digit order in @p staged, and key i
/// of it, of digit d, goes to @p out_less_tile[d] + i (where the tile's keys of d go in the
/// output, less where they start in the tile). Consecutive threads write consecutive keys,
/// which go to consecutive places wherever they share a digit.
/// With values (step 6), @p staged_values holds value i of the staged tile, and it goes with
/// its key.
/// @pre @p keys_here keys staged (kTileKeys but in the last tile); all kThreads threads.
template <typename Key, typename Value = NoValues>
__device__ inline void write_staged(const Key* staged, const int64_t* out_less_tile, int keys_here,
                                    int shift, Key* __restrict__ out,
                                    const Value* staged_values = nullptr,
                                    Value* __restrict__ values_out = nullptr) {
#pragma unroll
  for (int k = 0; k < kKeysPerThread; ++k) {
    const int i = k * kThreads + threadIdx.x;
    if (i < keys_here) {
      const Key key = staged[i];
      const int64_t at = out_less_tile[digit_of(key, shift)] + i;
      out[at] = key;
      if constexpr (!std::is_same_v<Value, NoValues>) values_out[at] = staged_values[i];
    }
  }
}
//! [write_staged]

//! [stage_and_write]
/**
 * @brief The staged scatter: thread d finds where the tile's keys of digit d start within the
 *        tile (an exclusive sum of the tile's counts over the digits), every key is written to
 *        its place in shared memory, so that the tile's keys lie in digit order, and then the
 *        block writes them out in that order (write_staged()).
 * @pre called by all kThreads threads, thread d with @p count_of_d, after the warp offsets
 *      and @p base are written; @p valid is the tile's keys (kTileKeys but in the last tile).
 */
__device__ inline void stage_and_write(const TileKeys& keys,
                                       const uint32_t (&warp_offsets)[kWarps][kDigits],
                                       const int64_t* base, uint32_t count_of_d, int64_t valid,
                                       int shift, uint32_t* __restrict__ out) {
  __shared__ uint32_t staged[kTileKeys];
  __shared__ uint32_t tile_start[kDigits];
  __shared__ int64_t out_less_tile[kDigits];
  uint32_t total;
  tile_start[threadIdx.x] = block_exclusive_sum(count_of_d, total);  // syncs the block
  __syncthreads();  // every start, warp offset and base is written before any key is placed
  out_less_tile[threadIdx.x] = base[threadIdx.x] - tile_start[threadIdx.x];
  const int warp = threadIdx.x / 32;
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t digit = keys.digit(r);
    if (digit != kNoDigit) {
      staged[tile_start[digit] + warp_offsets[warp][digit] + keys.rank[r]] = keys.key[r];
    }
  }
  __syncthreads();  // every key is staged before any is written out
  write_staged(staged, out_less_tile, valid < kTileKeys ? static_cast<int>(valid) : kTileKeys,
               shift, out);
}
//! [stage_and_write]

/// How a tile writes its ranked keys.
enum class Scatter {
  kDirect,  ///< every key straight to its place in the output
  kStaged,  ///< first in digit order in shared memory, then out in that order
};

//! [rank_and_scatter]
/**
 * @brief The scatter of one tile, shared by steps 2 to 4: ranks the tile's keys (each warp's
 *        multisplit, then a scan over the warps for each digit), asks @p digit_base where the
 *        tile's keys of each digit start in the output, and writes every key to that start +
 *        its rank in the tile.
 *
 * digit_base(d, count) is called by thread d with the tile's count of digit d, and returns a
 * 64-bit position; Onesweep's looks back there.
 * @pre kThreads threads.
 */
template <Match kMatch = Match::kMatchAny, Scatter kScatter = Scatter::kDirect, typename DigitBase>
__device__ void rank_and_scatter(const uint32_t* __restrict__ in, int64_t n, int shift,
                                 int64_t tile, uint32_t* __restrict__ out, DigitBase digit_base) {
  __shared__ uint32_t warp_counts[kWarps][kDigits];
  __shared__ int64_t base[kDigits];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  TileKeys keys;
  load_tile(in, n, shift, tile, keys);
  for (int d = lane; d < kDigits; d += 32) warp_counts[warp][d] = 0;  // the warp's own row
  __syncwarp();
  warp_multisplit<kMatch>(keys, warp_counts[warp]);
  __syncthreads();  // every warp's counts are in

  // Thread d turns digit d's counts of the warps into where each warp's keys of d start in the
  // tile (an exclusive scan over the warps): the tile's ranks are in key order.
  const int d = threadIdx.x;
  uint32_t tile_count_of_d = 0;
  for (int w = 0; w < kWarps; ++w) {
    const uint32_t c = warp_counts[w][d];
    warp_counts[w][d] = tile_count_of_d;
    tile_count_of_d += c;
  }
  base[d] = digit_base(d, tile_count_of_d);
  if constexpr (kScatter == Scatter::kDirect) {
    __syncthreads();  // every warp offset and base is written before the scatter reads them
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const uint32_t digit = keys.digit(r);
      if (digit != kNoDigit) {
        out[base[digit] + warp_counts[warp][digit] + keys.rank[r]] = keys.key[r];
      }
    }
  } else {
    stage_and_write(keys, warp_counts, base, tile_count_of_d, n - tile * kTileKeys, shift, out);
  }
}
//! [rank_and_scatter]

//! [scatter_three_kernels]
/// Per pass, third kernel of step 2: tile blockIdx.x's keys of digit d start at the scanned
/// digit-major count matrix's entry (d, tile).
__device__ void scatter_three_kernels(const uint32_t* __restrict__ in, int64_t n, int shift,
                                      const int64_t* __restrict__ scanned_counts,
                                      uint32_t* __restrict__ out) {
  const int64_t tiles = tile_count(n), tile = blockIdx.x;
  rank_and_scatter(in, n, shift, tile, out,
                   [&](int d, uint32_t) { return scanned_counts[d * tiles + tile]; });
}
//! [scatter_three_kernels]

// ---------------------------------------------------------------------------------------------
// Step 3: the upfront histogram.
// ---------------------------------------------------------------------------------------------

//! [upfront_histogram]
/// All the passes' digit counts in one read of the keys: 16-byte loads (4 keys, or two 64-bit
/// keys), kPassesOf<Key> x 256 shared counters per block, one global atomic per nonzero counter
/// at the end. @p counts holds kPassesOf<Key> x kDigits zeros before the launch, pass-major.
/// @pre no block counts 2^31 keys (main.cu's grid); @p in is 16-byte aligned.
template <typename Key>
__device__ void upfront_histogram(const Key* __restrict__ in, int64_t n,
                                  Count* __restrict__ counts) {
  constexpr int kKeyPasses = kPassesOf<Key>, kKeysPerVector = 16 / sizeof(Key);
  __shared__ uint32_t block_counts[kKeyPasses][kDigits];
  for (int p = 0; p < kKeyPasses; ++p) block_counts[p][threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any add
  const auto add_key = [&](Key key) {
#pragma unroll
    for (int p = 0; p < kKeyPasses; ++p)
      atomicAdd(&block_counts[p][digit_of(key, p * kDigitBits)], 1u);
  };
  const uint4* __restrict__ in4 = reinterpret_cast<const uint4*>(in);
  const int64_t vectors = n / kKeysPerVector, stride = int64_t{gridDim.x} * kThreads;
  for (int64_t v = int64_t{blockIdx.x} * kThreads + threadIdx.x; v < vectors; v += stride) {
    const uint4 four = in4[v];
    if constexpr (sizeof(Key) == 4) {
      add_key(four.x);
      add_key(four.y);
      add_key(four.z);
      add_key(four.w);
    } else {  // little-endian: the low word first
      add_key(uint64_t{four.y} << 32 | four.x);
      add_key(uint64_t{four.w} << 32 | four.z);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % kKeysPerVector) {  // the tail
    add_key(in[kKeysPerVector * vectors + threadIdx.x]);
  }
  __syncthreads();  // every add is in before the counters are read
  for (int p = 0; p < kKeyPasses; ++p) {
    const uint32_t c = block_counts[p][threadIdx.x];
    if (c != 0) atomicAdd(&counts[p * kDigits + threadIdx.x], Count{c});
  }
}
//! [upfront_histogram]

//! [digit_starts]
/// One block: for each of the kKeyPasses passes, where the keys of digit d start in the
/// output, the exclusive sum over the digits of the upfront counts: starts[p * kDigits + d].
template <int kKeyPasses>
__device__ void digit_starts(const Count* __restrict__ counts, int64_t* __restrict__ starts) {
  for (int p = 0; p < kKeyPasses; ++p) {
    int64_t total;
    const int64_t count = static_cast<int64_t>(counts[p * kDigits + threadIdx.x]);
    starts[p * kDigits + threadIdx.x] = block_exclusive_sum(count, total);
  }
}
//! [digit_starts]

/// Consecutive entries of a row each thread of scan_rows() adds up before the block scans.
constexpr int kRowItems = 16;

//! [scan_rows]
/// Per pass, second kernel of step 3: block d scans row d of the digit-major count matrix
/// alone (the keys of digit d in earlier tiles), exclusive. The digit's start comes from the
/// upfront histogram, so the rows need not wait for each other. The block walks its row in
/// chunks of kThreads x kRowItems entries, each thread kRowItems consecutive ones.
__device__ void scan_rows(const uint32_t* __restrict__ counts, int64_t tiles,
                          int64_t* __restrict__ row_before) {
  const uint32_t* row = counts + blockIdx.x * tiles;
  int64_t* out = row_before + blockIdx.x * tiles;
  int64_t carried = 0;  // the row's entries before this chunk
  for (int64_t chunk = 0; chunk < tiles; chunk += kThreads * kRowItems) {
    const int64_t mine = chunk + int64_t{threadIdx.x} * kRowItems;
    uint32_t c[kRowItems];
    int64_t sum = 0;
#pragma unroll
    for (int k = 0; k < kRowItems; ++k) {
      c[k] = mine + k < tiles ? row[mine + k] : 0;
      sum += c[k];
    }
    int64_t chunk_total;
    int64_t running = carried + block_exclusive_sum(sum, chunk_total);
#pragma unroll
    for (int k = 0; k < kRowItems; ++k) {
      if (mine + k < tiles) out[mine + k] = running;
      running += c[k];
    }
    carried += chunk_total;
  }
}
//! [scan_rows]

//! [scatter_upfront]
/// Per pass, third kernel of step 3: tile blockIdx.x's keys of digit d start at the digit's
/// start (upfront histogram) + the keys of digit d in earlier tiles (scan_rows()).
__device__ void scatter_upfront(const uint32_t* __restrict__ in, int64_t n, int shift,
                                const int64_t* __restrict__ starts,
                                const int64_t* __restrict__ row_before,
                                uint32_t* __restrict__ out) {
  const int64_t tiles = tile_count(n), tile = blockIdx.x;
  rank_and_scatter(in, n, shift, tile, out,
                   [&](int d, uint32_t) { return starts[d] + row_before[d * tiles + tile]; });
}
//! [scatter_upfront]

// ---------------------------------------------------------------------------------------------
// Step 4: Onesweep.
// ---------------------------------------------------------------------------------------------

/// Where the tiles of one Onesweep pass meet: a status word per (tile, digit), tile-major, so
/// that a tile's 256 threads publish and read 256 consecutive words; the counter that hands out
/// tiles; the parity of this pass (chapter 08's tile_status.cuh: the words never need clearing).
using chapter08::ScanState;

//! [look_back_digit]
/// Run by thread d of tile @p tile: publishes the tile's count of digit d for the tiles after
/// it, at once, before its prefix is known: tile 0's as an inclusive prefix (nothing is before
/// it), every other tile's as an aggregate (kAggregate).
__device__ inline void publish_count(const ScanState& state, int64_t tile, int d, uint32_t count) {
  using Word = chapter08::StatusWord<int64_t>;
  const uint32_t kind = tile == 0 ? chapter08::kInclusive : chapter08::kAggregate;
  chapter08::store_status(&state.status[tile * kDigits + d], Word::pack(count, kind, state.parity));
}

/**
 * @brief Run by thread d of tile @p tile after publish_count(): the keys of digit d in all
 *        earlier tiles, by chapter 08's decoupled look-back on that digit's words alone; then
 *        publishes the tile's inclusive prefix of d.
 *
 * The thread reads the words of the tiles before it, nearest first, waiting while one is
 * kEmpty, adding aggregates until it meets an inclusive prefix. The value is chapter 08's
 * packing of an int64 (61 bits with the kind and the parity): a count per digit needs no more,
 * and a 32-bit word (CUB's 30-bit counts) would cap n below 2^30.
 */
__device__ inline int64_t look_back_prefix(const ScanState& state, int64_t tile, int d,
                                           uint32_t count) {
  using Word = chapter08::StatusWord<int64_t>;
  if (tile == 0) return 0;
  int64_t prefix = 0;
  for (int64_t t = tile - 1;; --t) {
    uint64_t word;
    uint32_t kind;
    do {  // t was handed out before this tile: its block is running, and never waits for us
      word = chapter08::load_status(&state.status[t * kDigits + d]);
      kind = chapter08::kind_for_call(word, state.parity);
    } while (kind == chapter08::kEmpty);
    prefix += Word::value(word);
    if (kind == chapter08::kInclusive) break;
  }
  chapter08::store_status(&state.status[tile * kDigits + d],
                          Word::pack(prefix + count, chapter08::kInclusive, state.parity));
  return prefix;
}

/// Both halves at once, as step 4 calls them: the tile's count is published only once its keys
/// are ranked, and the look-back follows straight away.
__device__ inline int64_t look_back_digit(const ScanState& state, int64_t tile, int d,
                                          uint32_t count) {
  publish_count(state, tile, d, count);
  return look_back_prefix(state, tile, d, count);
}
//! [look_back_digit]

//! [onesweep_pass]
/// One kernel per pass: the tile comes from chapter 08's counter (take_tile), so a tile only
/// waits for tiles handed out before it; its keys are ranked as in step 2, each digit's count is
/// published and its prefix over earlier tiles found by look_back_digit(), and the keys go to
/// the digit's start (upfront histogram) + that prefix + their rank in the tile. The keys are
/// read once and written once a pass.
/// @pre state.tiles = tile_count(n) blocks of kThreads; *state.next_tile is 0.
template <Match kMatch, Scatter kScatter>
__device__ void onesweep_pass(const uint32_t* __restrict__ in, int64_t n, int shift,
                              const int64_t* __restrict__ starts, ScanState state,
                              uint32_t* __restrict__ out) {
  const int64_t tile = chapter08::take_tile(state);
  rank_and_scatter<kMatch, kScatter>(in, n, shift, tile, out, [&](int d, uint32_t count) {
    return starts[d] + look_back_digit(state, tile, d, count);
  });
}
//! [onesweep_pass]

// ---------------------------------------------------------------------------------------------
// Step 5: early counts.
// ---------------------------------------------------------------------------------------------

/// The dynamic shared memory a block of the early-counts pass needs for its staged tile: none for
/// 32-bit keys alone (a static array of 24 KiB), else the tile's keys and values, which pass
/// the 48 KiB of static shared memory a block may have with the rest.
template <typename Key, typename Value>
constexpr int kStagedDynamicBytes =
    std::is_same_v<Key, uint32_t>&& std::is_same_v<Value, NoValues>
        ? 0
        : kTileKeys* static_cast<int>(sizeof(Key) +
                                      (std::is_same_v<Value, NoValues> ? 0 : sizeof(Value)));

//! [onesweep_early_counts]
/**
 * @brief One Onesweep pass that counts the tile's digits before it ranks them, as CUB's
 *        Onesweep does: the counts are published (publish_count()) before the ranking, so
 *        that a tile after it that looks back finds them sooner; and every key's rank is its
 *        place in the whole tile, so it goes straight to shared memory.
 *
 * The last tile's places past the end of the input hold kPadKey, which is counted and ranked
 * like a key (after every key of the tile) but never written: no test of the end per key.
 * 1. Each warp counts its keys' digits in its own row of shared counters (chapter 12's shared
 *    atomics). 2. Thread d scans digit d's row counts over the warps, publishes the tile's
 *    count of d, and adds where the tile's keys of d start (an exclusive sum over the digits):
 *    each counter now holds where its warp's first key of d goes in the tile. 3. Round by
 *    round, the highest lane of each group of peers moves its warp's counter on by the group's
 *    size with one shared atomic, and hands the old value to its peers with a shuffle; each key
 *    goes to that value + its peers in lower lanes. 4. Thread d looks back. 5. The block writes
 *    the staged tile out.
 * @pre state.tiles = tile_count(n) blocks of kThreads; *state.next_tile is 0.
 */
template <Match kMatch, typename Key, typename Value>
__device__ __forceinline__ void onesweep_early_counts_tile(const Key* __restrict__ in,
                                                           const Value* __restrict__ values_in,
                                                           int64_t n, int shift,
                                                           const int64_t* __restrict__ starts,
                                                           ScanState state, Key* __restrict__ out,
                                                           Value* __restrict__ values_out) {
  constexpr bool kValues = !std::is_same_v<Value, NoValues>;
  __shared__ uint32_t warp_starts[kWarps][kDigits];
  Key* staged;
  Value* staged_values = nullptr;
  if constexpr (kStagedDynamicBytes<Key, Value> == 0) {
    __shared__ uint32_t staged_keys[kTileKeys];
    staged = staged_keys;
  } else {  // past the 48 KiB of static shared memory a block may have: main.cu sizes it
    extern __shared__ __align__(16) unsigned char chapter13_staged[];
    staged = reinterpret_cast<Key*>(chapter13_staged);
    if constexpr (kValues) {
      staged_values = reinterpret_cast<Value*>(chapter13_staged + kTileKeys * sizeof(Key));
    }
  }
  __shared__ int64_t out_less_tile[kDigits];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, d = threadIdx.x;
  const int64_t tile = chapter08::take_tile(state);
  TileOf<Key> keys;
  load_tile(in, n, shift, tile, keys);
  Value values[kRounds];  // each key's value, in the keys' order (none for keys alone)
  if constexpr (kValues) {
    const int64_t first = tile * kTileKeys + int64_t{warp} * kWarpKeys + lane;
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      values[r] = first + r * 32 < n ? values_in[first + r * 32] : Value{};
    }
  }

  for (int i = lane; i < kDigits; i += 32) warp_starts[warp][i] = 0;  // the warp's own row
  __syncwarp();
#pragma unroll
  for (int r = 0; r < kRounds; ++r) atomicAdd(&warp_starts[warp][digit_of(keys.key[r], shift)], 1u);
  __syncthreads();  // every warp's counts are in

  uint32_t count = 0;  // the tile's keys of digit d; the warps' counts become their starts
  for (int w = 0; w < kWarps; ++w) {
    const uint32_t c = warp_starts[w][d];
    warp_starts[w][d] = count;
    count += c;
  }
  publish_count(state, tile, d, count);
  uint32_t total;
  const uint32_t tile_start = block_exclusive_sum(count, total);  // syncs the block
  for (int w = 0; w < kWarps; ++w) warp_starts[w][d] += tile_start;
  __syncthreads();  // every counter holds its start before any key is ranked

  const unsigned lower_lanes = (1u << lane) - 1;
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t digit = digit_of(keys.key[r], shift);
    const unsigned peers =
        kMatch == Match::kMatchAny ? __match_any_sync(0xFFFFFFFFu, digit) : peers_by_ballots(digit);
    const int leader = 31 - __clz(peers);
    uint32_t at = 0;
    if (lane == leader) at = atomicAdd(&warp_starts[warp][digit], __popc(peers));
    at = __shfl_sync(0xFFFFFFFFu, at, leader);
    const uint32_t place = at + __popc(peers & lower_lanes);
    staged[place] = keys.key[r];
    if constexpr (kValues) staged_values[place] = values[r];
  }

  out_less_tile[d] = starts[d] + look_back_prefix(state, tile, d, count) - tile_start;
  __syncthreads();  // every key is staged and every offset written before any key is written
  const int64_t left = n - tile * kTileKeys;
  write_staged(staged, out_less_tile, left < kTileKeys ? static_cast<int>(left) : kTileKeys, shift,
               out, staged_values, values_out);
}

/// Step 5: 32-bit keys alone.
template <Match kMatch>
__device__ void onesweep_early_counts_pass(const uint32_t* __restrict__ in, int64_t n, int shift,
                                           const int64_t* __restrict__ starts, ScanState state,
                                           uint32_t* __restrict__ out) {
  onesweep_early_counts_tile<kMatch, uint32_t, NoValues>(in, nullptr, n, shift, starts, state, out,
                                                         nullptr);
}

/// Step 6: the same pass for any unsigned Key (32 or 64 bits) with a Value or NoValues; each
/// value goes where its key goes.
template <typename Key, typename Value>
__device__ void onesweep_sort_pass(const Key* __restrict__ in, const Value* __restrict__ values_in,
                                   int64_t n, int shift, const int64_t* __restrict__ starts,
                                   ScanState state, Key* __restrict__ out,
                                   Value* __restrict__ values_out) {
  onesweep_early_counts_tile<Match::kBallots, Key, Value>(in, values_in, n, shift, starts, state,
                                                          out, values_out);
}
//! [onesweep_early_counts]

}  // namespace chapter13
