/**
 * @file exercises/03_tree_bitmask/exercise.cuh
 * @brief The functions of exercises 3.1 to 3.3, shared by the learner's files and the checker.
 */
#pragma once

#include <cstdint>
#include <vector>

namespace exercise03 {

//! [exercise_3_1]
/// Exercise 3.1: the maximum of each group of 256 consecutive ints at @p d_in (device
/// memory), one block per group, by the bitmask tree. Element b of the result is the maximum
/// of d_in[256 b, min(256 (b + 1), n)).
/// @pre n >= 1. The values may all be negative.
std::vector<int32_t> block_maxima(const int32_t* d_in, int64_t n);
//! [exercise_3_1]

//! [exercise_3_2]
/// Exercise 3.2: the sum of each group of @p threads consecutive ints at @p d_in, one block of
/// @p threads threads per group, by the bitmask tree. Element b of the result is the sum of
/// d_in[threads b, min(threads (b + 1), n)).
/// @pre n >= 1; 1 <= threads <= 1024 (any count, not only powers of two).
std::vector<int64_t> block_sums_any_size(const int32_t* d_in, int64_t n, int threads);
//! [exercise_3_2]

//! [exercise_3_3]
/// Exercise 3.3 (performance): the sum of the @p n ints at @p d_in into *@p d_sum. Blocks sum
/// their part of the input with a tree in shared memory and write one partial sum each to
/// @p d_partials; then one block adds the partial sums. Only enqueues the work on the default
/// stream (the checker times it): no allocation, no copy, no synchronization.
/// @pre n >= 1; d_partials has room for ceil(n / 256) values.
void fast_tree_sum(const int32_t* d_in, int64_t n, long long* d_sum, long long* d_partials);
//! [exercise_3_3]

}  // namespace exercise03
