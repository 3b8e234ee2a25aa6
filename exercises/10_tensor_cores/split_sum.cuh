/**
 * @file exercises/10_tensor_cores/split_sum.cuh
 * @brief Exercise 10.8's shared parts: tiles of kTileFloats column sums, each tile's rows cut
 *        into pieces as chapter 10's step 10 cuts a tile's steps of K, one piece per block; the
 *        pieces must meet so that the sum comes out the same, to the bit, on every launch.
 *
 * The given kernel (split_sum.cu) runs the pieces of a tile in the reverse of their order along
 * the rows on purpose: the piece with the last rows starts first and the piece with the first
 * rows last (kLateNs apart), so that an answer that takes the last piece along the rows for
 * the last to arrive is wrong on every run, and one that adds the pieces in the order they
 * arrive is wrong wherever a tile has 3 pieces or more.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace exercise10 {

/// Columns of a tile, and the threads of a block: thread t sums columns t, t + kSumThreads, ...
constexpr int kTileColumns = 4096, kSumThreads = 256;
constexpr int kColumnsPerThread = kTileColumns / kSumThreads;
/// How late each piece starts behind the one after it along the rows (split_sum.cu).
constexpr uint64_t kLateNs = 3'000;
static_assert(kTileColumns % kSumThreads == 0, "every thread sums the same number of columns");

//! [exercise_10_8]
/**
 * Exercise 10.8: the block's piece of a tile meets the tile's other pieces. @p partial holds the
 * block's sums over rows @p first_row to @p first_row + @p piece_rows - 1 of the tile's @p rows
 * rows (thread t's partial[i] is column t + i x kSumThreads), the piece's number along the rows
 * is @p piece of @p pieces, and @p slots holds pieces x kTileColumns floats for the tile, one
 * run of kTileColumns for each piece, @p arrived one count for the tile.
 *
 * Once every piece of the tile has been added, @p out (kTileColumns floats) must hold, for each
 * column, ((piece 0 + piece 1) + piece 2) + ... in float, the pieces in their order along the
 * rows, whichever arrives last; and @p arrived must be 0 again, for the next launch. No block
 * may wait for another.
 * @pre *arrived is 0 before the tile's first piece arrives; slots' contents are arbitrary.
 */
__device__ void add_piece(const float (&partial)[kColumnsPerThread], int first_row, int piece_rows,
                          int rows, int piece, int pieces, float* slots, int* arrived, float* out);

/// Exercise 10.8's kernel (split_sum.cu): out[t x kTileColumns + c] = the sum over the @p rows
/// rows r of x[(t x rows + r) x kTileColumns + c], for @p tiles tiles, each tile's rows in
/// @p pieces pieces, one block each. @p slots holds tiles x pieces x kTileColumns floats,
/// @p arrived tiles counts, all 0 (each launch leaves them 0).
/// @pre tiles >= 1, 1 <= pieces <= rows.
void split_sums(const float* d_x, float* d_slots, int* d_arrived, float* d_out, int64_t tiles,
                int pieces, int rows);
//! [exercise_10_8]

/// The first of piece @p piece's rows, of @p pieces pieces of @p rows rows (the chapter's
/// split_piece(): equal shares, give or take one).
__host__ __device__ inline int first_row_of(int piece, int pieces, int rows) {
  return int(int64_t{piece} * rows / pieces);
}

}  // namespace exercise10
