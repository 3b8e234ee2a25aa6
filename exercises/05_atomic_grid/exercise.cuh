/**
 * @file exercises/05_atomic_grid/exercise.cuh
 * @brief The functions of exercises 5.1 to 5.4, shared by the learner's files and the checker.
 */
#pragma once

#include <cstdint>

namespace exercise05 {

/// Count, mean and sum of squared deviations from the mean (M2) of some values: the
/// population variance is m2 / count.
struct Moments {
  double count;
  double mean;
  double m2;
};

//! [exercise_5_1]
/// Exercise 5.1: the moments of the @p n floats at @p d_in (device memory), in one pass over
/// the data: every thread keeps running moments, and moments merge pairwise (Chan et al.)
/// through warp shuffles, blocks, and a second launch over the block results.
/// @pre n >= 1.
Moments mean_variance(const float* d_in, int64_t n);
//! [exercise_5_1]

/// A maximum and where it first occurs.
struct ArgMax {
  int32_t value;
  int64_t index;
};

//! [exercise_5_2]
/// Exercise 5.2: the largest of the @p n ints at @p d_in and the smallest index holding it,
/// by a grid-stride loop and one 64-bit atomicMax per block on a packed (value, index) key.
/// @pre 1 <= n < 2^32.
ArgMax grid_argmax(const int32_t* d_in, int64_t n);
//! [exercise_5_2]

//! [exercise_5_3]
/// Exercise 5.3 (performance): the float sum of the @p n floats at @p d_in into *@p d_sum,
/// within the error bound of any summation order. Only enqueues the work on the default
/// stream (the checker times it): a cudaMemsetAsync may be part of it; no allocation, no
/// copy, no synchronization.
/// @pre n >= 1; d_in is 16-byte aligned (as cudaMalloc returns it).
void fast_float_sum(const float* d_in, int64_t n, float* d_sum);
//! [exercise_5_3]

//! [exercise_5_4]
/// Exercise 5.4 (performance): the exact sum of the @p n signed bytes at @p d_in (each in
/// [-128, 127]) into *@p d_sum. Only enqueues the work on the default stream (the checker
/// times it): a cudaMemsetAsync may be part of it; no allocation, no copy, no synchronization.
/// @pre n >= 1; d_in is 16-byte aligned (as cudaMalloc returns it).
void byte_sum(const int8_t* d_in, int64_t n, long long* d_sum);
//! [exercise_5_4]

}  // namespace exercise05
