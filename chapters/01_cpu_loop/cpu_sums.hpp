/**
 * @file cpu_sums.hpp
 * @brief Chapter 01's serial sums: the baseline every GPU chapter is compared with, and the
 *        two traps of a long sum (integer overflow, float rounding).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tutorial/harness/verify.hpp"

namespace chapter01 {

//! [int64_loop]
/// The baseline: one accumulator wide enough that 2^31 values of 2^31 cannot overflow it.
inline int64_t sum_int64(const std::vector<int32_t>& values) {
  int64_t sum = 0;
  for (int32_t v : values) sum += v;
  return sum;
}
//! [int64_loop]

/// What a 32-bit accumulator would hold. Signed overflow is undefined behaviour in C++, so the
/// wrap-around is computed in unsigned arithmetic, where it is defined (modulo 2^32).
struct Int32Sum {
  int32_t wrapped;    ///< the sum modulo 2^32, read as a signed 32-bit number
  int64_t overflows;  ///< how many additions left the range of int32
};

//! [int32_overflow]
inline Int32Sum sum_int32_wrapping(const std::vector<int32_t>& values) {
  uint32_t bits = 0;
  int64_t overflows = 0;
  for (int32_t v : values) {
    int32_t ignored;
    // What `int32_t sum += v` would do, asked without doing it: does this add overflow?
    if (__builtin_add_overflow(static_cast<int32_t>(bits), v, &ignored)) ++overflows;
    bits += static_cast<uint32_t>(v);
  }
  return {static_cast<int32_t>(bits), overflows};
}
//! [int32_overflow]

/// Four independent accumulators: the same sum, but the CPU can run four additions at once
/// instead of waiting for each to finish before the next (instruction-level parallelism).
inline int64_t sum_int64_unrolled(const std::vector<int32_t>& values) {
  int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  for (; i + 4 <= values.size(); i += 4) {
    s0 += values[i];
    s1 += values[i + 1];
    s2 += values[i + 2];
    s3 += values[i + 3];
  }
  for (; i < values.size(); ++i) s0 += values[i];
  return (s0 + s1) + (s2 + s3);
}

//! [float_sums]
/// The naive float loop: each value passes through up to n - 1 roundings, and once the sum is
/// large, small values are rounded away entirely.
inline float sum_float_serial(const std::vector<float>& values) {
  float sum = 0;
  for (float v : values) sum += v;
  return sum;
}

/// Leaves of the pairwise sum: this many values or fewer are added in a plain loop, which keeps
/// the recursion cheap and adds at most kPairwiseLeaf - 1 roundings.
constexpr size_t kPairwiseLeaf = 8;

/// Pairwise: sum each half, then add the halves. Each value passes through only about log2(n)
/// roundings; the same tree a GPU reduction builds.
inline float sum_float_pairwise(const float* values, size_t count) {
  if (count <= kPairwiseLeaf) {
    float sum = 0;
    for (size_t i = 0; i < count; ++i) sum += values[i];
    return sum;
  }
  const size_t half = count / 2;
  return sum_float_pairwise(values, half) + sum_float_pairwise(values + half, count - half);
}

/// Kahan: carry the rounding error of each addition into the next one.
inline float sum_float_kahan(const std::vector<float>& values) {
  float sum = 0, compensation = 0;
  for (float v : values) {
    const float y = v - compensation;
    const float t = sum + y;
    compensation = (t - sum) - y;  // what the addition just lost; an optimizer that
    sum = t;                       // assumes real arithmetic (-ffast-math) would delete it
  }
  return sum;
}
//! [float_sums]

/// Depth of a recursive pairwise sum of @p n values whose leaves of up to @p leaf values are
/// added serially: leaf - 1 additions in a leaf, then one per level of halving (the k of the
/// float bound in verify.hpp).
inline int64_t pairwise_depth(int64_t n, int64_t leaf) {
  int64_t depth = leaf - 1;
  for (int64_t span = leaf; span < n; span *= 2) ++depth;
  return depth;
}

/// Error bound of Kahan's (and Neumaier's) compensated float sum of @p n values:
/// (2u + 4 n u^2) sum|x| (Higham, section 4.3, with the O(n u^2) term's constant made explicit).
inline double kahan_tolerance(int64_t n, double sum_abs) {
  const double u = tutorial::kFloatUnitRoundoff;
  return (2 * u + 4 * static_cast<double>(n) * u * u) * sum_abs;
}

}  // namespace chapter01
