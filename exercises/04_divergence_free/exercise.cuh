/**
 * @file exercises/04_divergence_free/exercise.cuh
 * @brief The functions of exercises 4.1 and 4.2, shared by the learner's files and the checker.
 */
#pragma once

#include <cstdint>
#include <vector>

namespace exercise04 {

/// The smallest and the largest value of a group.
struct MinMax {
  int32_t min;
  int32_t max;
};

/// Elements per block in exercise 4.1: 256 threads, each starting from 4 elements.
constexpr int kMinMaxThreads = 256;
constexpr int kMinMaxLoads = 4;

//! [exercise_4_1]
/// Exercise 4.1 (performance): the minimum and maximum of each group of
/// kMinMaxThreads * kMinMaxLoads consecutive ints at @p d_in, in one pass: sequential
/// addressing, then the last warp with __shfl_down_sync. d_out[b] covers
/// d_in[1024 b, min(1024 (b + 1), n)). Only enqueues the work on the default stream (the
/// checker times it): no allocation, no copy, no synchronization.
/// @pre n >= 1; d_out has room for ceil(n / 1024) values.
void block_min_max(const int32_t* d_in, int64_t n, MinMax* d_out);
//! [exercise_4_1]

//! [exercise_4_2]
/// Exercise 4.2: the sum of each group of 4 * @p threads consecutive ints at @p d_in, by one
/// block of @p threads threads per group, with warp shuffles and one barrier. Element b of the
/// result is the sum of d_in[4 threads b, min(4 threads (b + 1), n)).
/// @pre n >= 1; threads is a multiple of 32 and at most 1024 (not only powers of two).
std::vector<int64_t> block_sums_shuffle(const int32_t* d_in, int64_t n, int threads);
//! [exercise_4_2]

}  // namespace exercise04
