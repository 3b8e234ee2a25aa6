/**
 * @file exercises/07_tiled_matmul/exercise.cuh
 * @brief The functions of exercises 7.1 to 7.4, shared by the learner's files and the checker.
 *
 * Every matrix is row-major (element (r, c) of an R x C matrix at r * C + c) and lives in
 * device memory. Sizes are at least 1 and need not be multiples of any tile.
 */
#pragma once

#include <cstdint>

namespace exercise07 {

//! [exercise_7_1]
/// Exercise 7.1: C (m x n) = A^T * B with 16 x 16 shared-memory tiles, for any shape. A is
/// stored k x m (so A^T is m x k), B is k x n. @pre 1 <= m, n, k; m <= 65535 * 16 (the 2-D
/// grid's y dimension).
void matmul_any_shape(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                      int64_t k);
//! [exercise_7_1]

//! [exercise_7_2]
/// Exercise 7.2: out (cols x rows) = the transpose of in (rows x cols), through shared memory
/// without bank conflicts. @pre 1 <= rows <= 65535 * 32, 1 <= cols.
void transpose(const float* d_in, float* d_out, int64_t rows, int64_t cols);
//! [exercise_7_2]

//! [exercise_7_3]
/// Exercise 7.3: C = alpha * A * B + beta * C (the BLAS gemm). When beta == 0, C is output only:
/// it is not read and may hold NaN.
void gemm(float alpha, const float* d_a, const float* d_b, float beta, float* d_c, int64_t m,
          int64_t n, int64_t k);
//! [exercise_7_3]

/// The tile shapes of exercise 7.4: C tile rows x columns, and the step along K.
enum class TileShape {
  kTall,  ///< 32 x 8 tile of C, K step 16: A's tile has 512 elements for 256 threads
  kWide,  ///< 8 x 32 tile of C, K step 4: A's tile has 32 elements for 256 threads
};

//! [exercise_7_4]
/// Exercise 7.4: C = A * B with rectangular tiles of the given shape, for any m, n, k.
/// @pre m <= 65535 * 8 (the 2-D grid's y dimension, with 8-row tiles).
void matmul_rectangular(TileShape shape, const float* d_a, const float* d_b, float* d_c, int64_t m,
                        int64_t n, int64_t k);
//! [exercise_7_4]

}  // namespace exercise07
