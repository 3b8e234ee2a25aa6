/**
 * @file exercises/10_tensor_cores/exercise.hpp
 * @brief The functions of exercises 10.1 and 10.7, shared by the learner's files and their
 *        checkers, which run on the host alone: where each 16-byte piece of a row of a shared
 *        tile of 32-byte rows is stored (10.1), and the grid and the order of the tiles of a
 *        persistent GEMM whose waves read the fewest bytes (10.7).
 *
 * 10.1's tile is that of a kernel that steps 16 along K (one mma.sync.m16n8k16 deep) where
 * chapter 10's steps 32: kTileRows rows of kTileDepth BF16 values (32 bytes each), one row after
 * the other in shared memory, the first at a multiple of 128 bytes.
 */
#pragma once

// __host__ and __device__: nvcc knows them; for the host compiler, which builds the checkers of
// 10.1 and 10.7 (and 10.7's learner file), this header defines them as nothing.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace exercise10 {

/// The shared tile of exercise 10.1: 128 rows (of A, or columns of B) of 16 BF16 values, 32
/// bytes; chapter 10's rows are 32 values, 64 bytes.
constexpr int kTileRows = 128, kTileDepth = 16;
/// 16-byte pieces (8 BF16 values) in a tile row.
constexpr int kPiecesPerRow = kTileDepth / 8;

//! [exercise_10_1]
/// Exercise 10.1: the place (0 or 1) in its row where piece @p chunk (0 or 1: the 16 bytes of
/// values 8 chunk to 8 chunk + 7) of row @p row (0..127) of a tile of 32-byte rows is stored:
/// bytes 16 place to 16 place + 15 of the row. A row's 2 pieces go to 2 different places, and
/// every ldmatrix.x4 and every 16-byte copy of a kernel like chapter 10's, its tiles 16 deep,
/// then takes the fewest turns its bytes need in tutorial/explain/bank_turns.hpp's model (README.md
/// lists the accesses).
__host__ __device__ constexpr int swizzled_chunk(int row, int chunk);
//! [exercise_10_1]

//! [exercise_10_7]
/// Exercise 10.7: the blocks of a persistent grid for @p tiles tiles on @p sms SMs, block b
/// computing tiles b, b + blocks, b + 2 blocks, ...: as few waves as the SMs allow, on as few
/// blocks as take that many waves (so each block computes as many tiles as the others, or one
/// fewer). @pre tiles >= 1, sms >= 1.
int64_t wave_blocks(int64_t tiles, int64_t sms);

/// Exercise 10.7: the group size (tile rows that chapter07::tile_of_block's order walks down,
/// column by column, before the next group) whose waves read the fewest bytes in all, for a grid
/// of @p tile_rows x @p tile_cols tiles of C of @p tile_h x @p tile_w elements on @p blocks
/// blocks. Wave w is tiles w x blocks to (w + 1) x blocks - 1 of the order; it reads, over K, each
/// tile row of A and each tile column of B that it touches, once (README.md). Where several
/// groups read the fewest, any of them; a group larger than @p tile_rows walks the same order as
/// @p tile_rows. @pre every argument >= 1.
int64_t wave_group_rows(int64_t tile_rows, int64_t tile_cols, int64_t blocks, int64_t tile_h,
                        int64_t tile_w);
//! [exercise_10_7]

}  // namespace exercise10
