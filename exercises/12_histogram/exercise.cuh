/**
 * @file exercises/12_histogram/exercise.cuh
 * @brief The functions of exercises 12.1 to 12.3, shared by the learner's files and the checkers.
 */
#pragma once

#include <cstdint>

namespace exercise12 {

//! [exercise_12_1]
/// Exercise 12.1: the histogram of the @p n floats at @p d_in in @p bins equal-width bins over
/// [lo, hi), into d_bins[0] ... d_bins[bins - 1] (device memory). A sample x counts when
/// lo <= x < hi, in bin (int)((x - lo) / (hi - lo) * bins), computed in float in that order;
/// where that gives bins (x just under hi, rounded up), x counts in bin bins - 1. Samples below
/// lo, at or above hi, and NaN count nowhere.
/// @pre n >= 1; 1 <= bins <= 1024; lo < hi, both finite, and hi - lo finite.
void range_histogram(const float* d_in, int64_t n, float lo, float hi, int bins,
                     unsigned long long* d_bins);
//! [exercise_12_1]

//! [exercise_12_2]
/// Exercise 12.2 (performance): the histogram of the @p n 16-bit samples at @p d_samples in
/// 65536 bins, one for each value: d_counts[b] (65536 counters, device memory) is the number of
/// samples equal to b. Only enqueues the work on the default stream (the checker times it): a
/// cudaMemsetAsync may be part of it; no allocation, no copy, no synchronization.
/// @pre n >= 1; d_samples is 16-byte aligned (as cudaMalloc returns it).
void histogram_16bit(const uint16_t* d_samples, int64_t n, unsigned long long* d_counts);
//! [exercise_12_2]

//! [exercise_12_3]
/// Exercise 12.3: a weighted histogram of 256 bins: d_sums[b] (256 floats, device memory) is
/// the sum of d_weights[i] over the samples i < @p n whose bin d_bins_of[i] is b, within the
/// error bound of any order of float additions.
/// @pre n >= 1; every weight is finite and not negative.
void weighted_histogram(const uint8_t* d_bins_of, const float* d_weights, int64_t n, float* d_sums);
//! [exercise_12_3]

}  // namespace exercise12
