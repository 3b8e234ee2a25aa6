/**
 * @file exercises/02_single_block_sum/exercise.cuh
 * @brief The functions of exercises 2.1 to 2.3, shared by the learner's files and the checker.
 */
#pragma once

#include <cstdint>

namespace exercise02 {

//! [exercise_2_1]
/// Exercise 2.1: the largest of @p n ints at @p d_in (device memory), computed by one block.
/// @pre n >= 1. The values may all be negative.
int32_t block_max(const int32_t* d_in, int64_t n);
//! [exercise_2_1]

//! [exercise_2_2]
/// Exercise 2.2: the sum of x^3 over @p n ints at @p d_in, by one block of @p threads threads.
/// @pre n >= 1; 1 <= threads <= 1024 (any count, not only powers of two); |x| <= 10000.
int64_t block_sum_of_cubes(const int32_t* d_in, int64_t n, int threads);
//! [exercise_2_2]

//! [exercise_2_3]
/// Exercise 2.3 (performance): the sum of the @p n ints at @p d_in into *@p d_sum, by a single
/// block, as fast as one block can go. Only enqueues the work on the default stream (the
/// checker times it): no allocation, no copy, no synchronization.
/// @pre n >= 1; d_in is 16-byte aligned (as cudaMalloc returns it).
void fast_block_sum(const int32_t* d_in, int64_t n, long long* d_sum);
//! [exercise_2_3]

}  // namespace exercise02
