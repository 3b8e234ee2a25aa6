/**
 * @file chapters/08_single_pass/tile_status.cuh
 * @brief What a tile of the single-pass scan publishes for the tiles after it: a kind
 *        (nothing yet, its own sum, or its inclusive prefix) and a value, packed in one 64-bit
 *        word, so that one load sees both.
 */
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace chapter08 {

/// What a tile's status word says, in its two low bits.
enum TileKind : uint32_t {
  kEmpty = 0,      ///< nothing published yet (in this call)
  kAggregate = 1,  ///< the sum of the tile alone (CUB calls it PARTIAL)
  kInclusive = 2,  ///< the sum of this tile and every tile before it
};

/**
 * @brief Packing a kind, the call's parity and a value in one word.
 *
 * Bits 0-1: the kind. Bit 2: the parity of the call that wrote it; a word of the other parity
 * was left by the previous call and reads as kEmpty, so the words never need resetting
 * between calls (every call writes every tile's word; see SinglePassScan). The value takes
 * the rest: the upper 32 bits for a float, the upper 61 bits for an int64, which therefore
 * must lie in [-2^60, 2^60 - 1] (the chapter's prefixes do for n < 2^40: each input is at
 * most 2^20 in size, and (2^40 - 1) x 2^20 < 2^60).
 */
template <typename T>
struct StatusWord;

template <>
struct StatusWord<int64_t> {
  __device__ static uint64_t pack(int64_t value, uint32_t kind, uint32_t parity) {
    return (static_cast<uint64_t>(value) << 3) | (parity << 2) | kind;
  }
  __device__ static int64_t value(uint64_t word) {
    return static_cast<int64_t>(word) >> 3;  // arithmetic shift: the sign comes back
  }
};

template <>
struct StatusWord<float> {
  __device__ static uint64_t pack(float value, uint32_t kind, uint32_t parity) {
    return (uint64_t{__float_as_uint(value)} << 32) | (parity << 2) | kind;
  }
  __device__ static float value(uint64_t word) {
    return __uint_as_float(static_cast<uint32_t>(word >> 32));
  }
};

/// The kind @p word has for the call of @p parity: kEmpty if another call wrote it.
__device__ inline uint32_t kind_for_call(uint64_t word, uint32_t parity) {
  return ((word >> 2) & 1) == parity ? static_cast<uint32_t>(word & 3) : kEmpty;
}

//! [status_access]
/// The status words are read and written with device-scope atomics: the load goes to L2, the
/// point every SM sees alike, never to a stale line in this SM's L1. Relaxed order is enough
/// because a word carries the kind and the value together: nothing else is read on the
/// strength of it. (With the kind and value in separate words, the writer would store the
/// kind with release order after the value, and the reader load it with acquire order, which
/// under the PTX memory model also orders its later plain load of the value; CUB instead puts
/// a __threadfence() between loads and stores that go to L2, ld.cg and st.cg.)
__device__ inline uint64_t load_status(const uint64_t* status) {
  return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*const_cast<uint64_t*>(status))
      .load(cuda::std::memory_order_relaxed);
}
__device__ inline void store_status(uint64_t* status, uint64_t word) {
  cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*status).store(
      word, cuda::std::memory_order_relaxed);
}
//! [status_access]

}  // namespace chapter08
