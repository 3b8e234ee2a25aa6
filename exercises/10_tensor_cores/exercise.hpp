/**
 * @file exercises/10_tensor_cores/exercise.hpp
 * @brief The function of exercise 10.1, shared by the learner's swizzle.cuh and its checker,
 *        which runs on the host alone: where each 16-byte piece of a row of a shared tile of
 *        32-byte rows is stored.
 *
 * The tile is that of a kernel that steps 16 along K (one mma.sync.m16n8k16 deep) where chapter
 * 10's steps 32: kTileRows rows of kTileDepth BF16 values (32 bytes each), one row after the
 * other in shared memory, the first at a multiple of 128 bytes.
 */
#pragma once

// __host__ and __device__: nvcc knows them; for the host compiler, which builds 10.1's checker,
// this header defines them as nothing.
#include <cuda_runtime_api.h>

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

}  // namespace exercise10
