/**
 * @file exercises/08_single_pass/exercise.cuh
 * @brief The functions of exercises 8.1 to 8.3, shared by the learner's files and the checker,
 *        and the small pieces they build on.
 */
#pragma once

#include <cuda/atomic>

#include <climits>
#include <cstdint>

namespace exercise08 {

/// A maximum and where it first occurs.
struct ArgMax {
  int32_t value;
  int64_t index;
};

/// The better of two candidates: the larger value, and for equal values the smaller index.
/// Any order of combining gives the same answer.
__host__ __device__ inline ArgMax better(ArgMax a, ArgMax b) {
  if (a.value != b.value) return a.value > b.value ? a : b;
  return a.index < b.index ? a : b;
}

/// The most blocks exercise 8.1 may launch: d_partials has this many slots.
constexpr int kArgMaxMaxBlocks = 4096;

//! [exercise_8_1]
/// Exercise 8.1: the largest of the @p n ints at @p d_in and the smallest index holding it,
/// into *@p d_out, in one launch: no memset, no second launch, no copy to the host. The
/// workspace: @p d_partials, kArgMaxMaxBlocks slots in any state, and *@p d_ticket, 0 before
/// the first call, which must be 0 again when each call has finished.
/// @pre n >= 1.
void argmax_one_pass(const int32_t* d_in, int64_t n, ArgMax* d_out, ArgMax* d_partials,
                     unsigned int* d_ticket);
//! [exercise_8_1]

/// Elements per tile of exercise 8.2 (one block of kMaxScanThreads threads, 4 each).
constexpr int kMaxScanThreads = 256;
constexpr int kMaxScanTile = 4 * kMaxScanThreads;

/// Tiles of exercise 8.2 for @p n elements: one status word each.
constexpr int64_t max_scan_tiles(int64_t n) {
  return (n + kMaxScanTile - 1) / kMaxScanTile;
}

/// What a tile's status word says: nothing yet, the tile's own maximum, or the maximum of
/// the tile and every tile before it.
enum TileKind : uint32_t { kEmpty = 0, kAggregate = 1, kInclusive = 2 };

/// A status word: the value in the upper 32 bits, the call's parity in bit 2, the kind in
/// bits 0-1. A word written by a call of the other parity reads as kEmpty.
__host__ __device__ inline uint64_t pack_status(int32_t value, uint32_t kind, uint32_t parity) {
  return (uint64_t{static_cast<uint32_t>(value)} << 32) | (parity << 2) | kind;
}
__host__ __device__ inline int32_t status_value(uint64_t word) {
  return static_cast<int32_t>(static_cast<uint32_t>(word >> 32));
}
__host__ __device__ inline uint32_t status_kind(uint64_t word, uint32_t parity) {
  return ((word >> 2) & 1) == parity ? static_cast<uint32_t>(word & 3) : kEmpty;
}

/// Device-scope atomic access to a status word (relaxed: the word carries kind and value).
__device__ inline uint64_t load_status(uint64_t* word) {
  return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*word).load(
      cuda::std::memory_order_relaxed);
}
__device__ inline void store_status(uint64_t* word, uint64_t value) {
  cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*word).store(
      value, cuda::std::memory_order_relaxed);
}

//! [exercise_8_2]
/// Exercise 8.2: out[i] = max(in[0], ..., in[i]) for any @p n >= 1, in one launch: each block
/// takes a tile from *@p d_next_tile (0 between calls) and finds the maximum of the tiles
/// before it by decoupled look-back over @p d_status (max_scan_tiles(n) words, all 0 before the
/// first call). The caller flips @p parity (0, 1, 0, ...) from one call to the next on the same
/// words, so nothing needs resetting.
void max_scan_one_pass(const int32_t* d_in, int64_t n, int32_t* d_out, uint64_t* d_status,
                       unsigned int* d_next_tile, uint32_t parity);
//! [exercise_8_2]

/// The most blocks exercise 8.3 may launch, and the slots of its d_partials.
constexpr int kSumMaxBlocks = 4096;

//! [exercise_8_3]
/// Exercise 8.3 (performance): the float sum of the @p n floats at @p d_in into *@p d_sum, in
/// one launch of exactly @p blocks blocks, with the same bits for every value of @p blocks and
/// on every call: the bits may depend on n and the input, never on the grid. As fast as the
/// checker's target. Only enqueues the work on the default stream: no allocation, no memset, no
/// copy, no synchronization. The workspace: @p d_partials, kSumMaxBlocks slots in any state, and
/// *@p d_ticket, 0 before the first call, which must be 0 again when each call has finished.
/// @pre n >= 1; 1 <= blocks <= kSumMaxBlocks; d_in is 16-byte aligned (as cudaMalloc returns it).
void deterministic_sum(const float* d_in, int64_t n, float* d_sum, float* d_partials,
                       unsigned int* d_ticket, int blocks);
//! [exercise_8_3]

}  // namespace exercise08
