/**
 * @file exercises/13_radix_sort/exercise.cuh
 * @brief The functions of exercises 13.1 to 13.3, shared by the learner's files and the checkers.
 */
#pragma once

#include <cstdint>

namespace exercise13 {

//! [exercise_13_1]
/// Exercise 13.1: the @p n pairs (d_keys[i], d_values[i]) sorted by key, largest key first, into
/// d_keys_out and d_values_out: each value goes with its key, and pairs with equal keys keep
/// their input order (a stable sort). @p d_temp_keys and @p d_temp_values (n words each) are
/// yours to use; all six arrays are device memory. No CUB, no Thrust: build it from the chapter.
/// @pre 1 <= n < 2^31; no two of the arrays overlap.
void sort_pairs_descending(const uint32_t* d_keys, const uint32_t* d_values, int64_t n,
                           uint32_t* d_keys_out, uint32_t* d_values_out, uint32_t* d_temp_keys,
                           uint32_t* d_temp_values);
//! [exercise_13_1]

//! [exercise_13_2]
/// Exercise 13.2: the @p n floats at @p d_in sorted by value, smallest first, into @p d_out:
/// -infinity first, -0.0 before +0.0, +infinity after every finite float, and every NaN (of
/// either sign, with any payload) after +infinity, the NaNs in their input order with their bits
/// unchanged. @p d_temp_a and @p d_temp_b (n words each) are yours to use; all four arrays are
/// device memory. The sort is given (CUB's radix sort); yours are the words and keys it sorts.
/// @pre 1 <= n < 2^31; no two of the arrays overlap.
void sort_floats(const float* d_in, int64_t n, float* d_out, uint32_t* d_temp_a,
                 uint32_t* d_temp_b);
//! [exercise_13_2]

//! [exercise_13_3]
/// Words of scratch the checker gives exercise 13.3: what it finds is left in them at the start
/// of a call (the checker poisons them), so zero what you count in.
constexpr int kKthScratchWords = 1024;

/// Exercise 13.3 (performance): the key of rank @p k among the @p n keys at @p d_keys (the one
/// at index k once they are sorted ascending; k = 0 is the smallest) into *d_result, without
/// sorting the keys. @p d_scratch holds kKthScratchWords words for your counters and state. Only
/// enqueues the work on the default stream (the checker times it): no allocation, no copy to or
/// from the host, no synchronization. All pointers are device memory.
/// @pre 1 <= n < 2^31; 0 <= k < n; d_keys is 16-byte aligned (as cudaMalloc returns it).
void kth_smallest(const uint32_t* d_keys, int64_t n, int64_t k, uint32_t* d_result,
                  unsigned long long* d_scratch);
//! [exercise_13_3]

}  // namespace exercise13
