/**
 * @file exercises/10_tensor_cores/tma_store_ring.cuh
 * @brief Exercise 10.6's shared parts: a block of one warpgroup that holds a 64 x 256 tile of C
 *        in registers and stores it through a ring of 64 x 32-float boxes of shared memory and
 *        TMA, as chapter 10's step 7 stores its accumulators; and the given steps of the kernel
 *        around the learner's.
 *
 * The given steps make the mistakes of such an epilogue show on every run, not now and then:
 * - enter_buffers() poisons the buffers (kFreshPoison) before the first box: a store that
 *   reads a buffer before its box is in it copies the poison to C;
 * - leave_buffers() poisons them again (kLeftPoison) once the block is done, as the next block
 *   the SM gives that shared memory would overwrite them: a store still reading then copies
 *   that poison to C;
 * - the checker runs the ring with 1 buffer too, where each box is written into the buffer
 *   the box before it was stored from, right after that store was issued: a rewrite that does
 *   not wait for TMA to read the buffer out overtakes it.
 * None of them changes a right answer. On an H100 (2026-11-27) every known-wrong answer of
 * tests/wrong_answers failed every one of its runs (26 to 51 each).
 *
 * TMA's tiled store, its bulk groups and the proxy fence are plain sm_90 (chapter 10's
 * tma_store.cuh), which later GPUs run too: the learner's device code is compiled where
 * __CUDA_ARCH__ >= 900 and runs on compute capability 9.0 and newer.
 */
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"      // ceil_div
#include "10_tensor_cores/tensor_map.cuh"  // plain_c_tensor_map, kCBoxCols
#include "10_tensor_cores/tma_store.cuh"   // the TMA store, its bulk groups, the proxy fence

namespace exercise10 {

/// A box of C: 64 rows of 32 floats (128 bytes, the width of the 128-byte swizzle), 8 KiB.
constexpr int kBoxRows = 64, kBoxCols = int(chapter10::kCBoxCols);
constexpr int kBoxFloats = kBoxRows * kBoxCols;
/// A block's tile of C: 64 rows x 256 columns, kTileBoxes boxes side by side (a consumer
/// warpgroup's tile in chapter 10).
constexpr int kTileBoxes = 8, kTileCols = kTileBoxes * kBoxCols;
/// A block is one warpgroup: thread t holds, of each box, row t / 2, and of it the 16-byte
/// pieces (4 floats each) kPiecesPerThread (t % 2) to kPiecesPerThread (t % 2) + 3.
constexpr int kStoreThreads = 128;
constexpr int kPiecesPerThread = kBoxCols / 4 / 2;
/// The 128-byte swizzle repeats every 8 rows of 128 bytes: each buffer starts at a multiple.
constexpr int kSwizzleBytes = 1024;
/// Buffers in the ring: the checker runs 1, 2 (chapter 10's) and 3.
constexpr int kMaxBuffers = 3;
/// What the buffers hold before the block writes its first box, and after the block is done.
/// No value of C is either (the checker's values lie in [-1, 1)).
constexpr float kFreshPoison = -1024.0f, kLeftPoison = -2048.0f;

static_assert(kBoxRows * 2 == kStoreThreads, "two threads a row of each box");
static_assert(kBoxFloats * int(sizeof(float)) % kSwizzleBytes == 0, "boxes start where it does");

/// A thread's part of its block's tile: piece[b][q] is piece kPiecesPerThread (t % 2) + q of row
/// t / 2 of box b (floats 4 piece to 4 piece + 3 of that row of the box).
struct TileValues {
  float4 piece[kTileBoxes][kPiecesPerThread];
};

//! [exercise_10_6]
/// Exercise 10.6: this thread's values of box @p box of the tile (@p d), written into the
/// shared box at @p buffer as the tensor map lays it out: row r of the box (32 floats, 128 bytes)
/// at buffer + 32 r, its 16-byte pieces (floats 4p to 4p + 3) where plain_c_tensor_map's
/// CU_TENSOR_MAP_SWIZZLE_128B puts them (chapter 10, section 3). @pre @p buffer is 1024-byte
/// aligned.
__device__ void write_box(const TileValues& d, int box, float* buffer);

/// Exercise 10.6: the block's 128 threads store their tile, held in @p d, to C at (@p row0,
/// @p col0) through the kBuffers boxes of shared memory at @p buffers (a ring: box b goes
/// through buffer b % kBuffers), each box with one TMA store of @p c_map. When it returns,
/// TMA has read every box out of the buffers. @pre kBuffers is 1, 2 or 3; called by all 128
/// threads of the block together.
template <int kBuffers>
__device__ void store_tile(const TileValues& d, float* buffers, const CUtensorMap* c_map,
                           int32_t row0, int32_t col0);

/// Exercise 10.6's kernel (tma_store_ring.cu): C = V, both m x n float, row-major, one block
/// per 64 x 256 tile, through a ring of @p buffers shared boxes. @pre m >= 1, n >= 4 a multiple
/// of 4, d_values and d_c 16-byte aligned; 1 <= buffers <= 3; compute capability 9.0.
void store_tiles(const float* d_values, float* d_c, int64_t m, int64_t n, int buffers);
//! [exercise_10_6]

/// Dynamic shared memory of a block with @p buffers boxes: room to align them to 1024 bytes
/// (CUDA promises the dynamic part only 16-byte alignment).
constexpr int buffer_bytes(int buffers) {
  return buffers * kBoxFloats * int(sizeof(float)) + kSwizzleBytes;
}

/// Blocks of the grid: one per 64 x 256 tile of C (its last row and column of tiles may reach
/// past C's edges).
inline int64_t tile_blocks(int64_t m, int64_t n) {
  return tutorial::ceil_div(m, kBoxRows) * tutorial::ceil_div(n, kTileCols);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

// Chapter 10's wrappers of the TMA store (10_tensor_cores/tma_store.cuh).
using chapter10::fence_shared_for_tma;
using chapter10::tma_store_2d;
using chapter10::tma_store_commit;
using chapter10::tma_store_wait_all;
using chapter10::tma_store_wait_read;

/// The buffers in the kernel's dynamic shared memory @p dynamic_shared, rounded up to 1024
/// bytes, where the swizzle's pattern starts.
__device__ inline float* box_buffers(unsigned char* dynamic_shared) {
  const auto start = static_cast<uint32_t>(__cvta_generic_to_shared(dynamic_shared));
  const uint32_t skip = (kSwizzleBytes - start % kSwizzleBytes) % kSwizzleBytes;
  return reinterpret_cast<float*>(dynamic_shared + skip);
}

/// Every thread writes @p value over its 64 bytes of each of the @p buffers boxes at @p at:
/// thread t over floats 16 t to 16 t + 15 (the barriers of enter_buffers() and
/// leave_buffers() order these writes against the boxes' writes, whoever writes those).
__device__ inline void fill_buffers(float* at, int buffers, float value) {
  constexpr int kPieces = kBoxFloats / 4 / kStoreThreads;
  for (int b = 0; b < buffers; ++b) {
    float4* mine = reinterpret_cast<float4*>(at + b * kBoxFloats) + kPieces * threadIdx.x;
    for (int q = 0; q < kPieces; ++q) mine[q] = make_float4(value, value, value, value);
  }
}

/// The block's buffers, poisoned before its first box (kFreshPoison), with the barrier that
/// orders the poison before every thread's first write.
__device__ inline void enter_buffers(float* buffers, int count) {
  fill_buffers(buffers, count, kFreshPoison);
  __syncthreads();
}

/// The block is done: its threads poison the buffers (kLeftPoison), as the SM's next block
/// would overwrite them. @pre store_tile() has returned in every thread.
__device__ inline void leave_buffers(float* buffers, int count) {
  __syncthreads();  // every thread is out of store_tile(), the one that waited for TMA too
  fill_buffers(buffers, count, kLeftPoison);
}

/// This thread's part of the tile of @p values (m x n, row-major) at (@p row0, @p col0), into
/// @p d: a whole 16-byte piece, or zeros for a piece past C's edges (n is a multiple of 4).
__device__ inline void load_tile(TileValues& d, const float* values, int64_t m, int64_t n,
                                 int64_t row0, int64_t col0) {
  const int64_t row = row0 + threadIdx.x / 2;
#pragma unroll
  for (int b = 0; b < kTileBoxes; ++b) {
#pragma unroll
    for (int q = 0; q < kPiecesPerThread; ++q) {
      const int64_t col = col0 + b * kBoxCols + 4 * (kPiecesPerThread * (threadIdx.x % 2) + q);
      d.piece[b][q] = row < m && col < n ? *reinterpret_cast<const float4*>(values + row * n + col)
                                         : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
  }
}

#endif

}  // namespace exercise10
