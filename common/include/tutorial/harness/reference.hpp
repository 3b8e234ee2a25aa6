/**
 * @file reference.hpp
 * @brief CPU references the GPU sums are checked against. Written for clarity and for
 *        accuracy, not speed: each is independent of the GPU code it checks. (The scans' are
 *        chapter 06's, in scan_types.hpp; the matrix product's is chapter 07's, in matmul.cuh.)
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace tutorial {

/// Exact sum of 32-bit integers: 2^31 values of magnitude 2^31 still fit in 64 bits.
inline int64_t reference_sum(const std::vector<int32_t>& values) {
  int64_t sum = 0;
  for (int32_t v : values) sum += v;
  return sum;
}

/// Sum of floats in double precision with Kahan compensation: accurate to about 1e-16
/// relative, far below float rounding, so it can stand in for the exact sum.
inline double reference_sum(const std::vector<float>& values) {
  double sum = 0, compensation = 0;
  for (float v : values) {
    const double y = static_cast<double>(v) - compensation;
    const double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum;
}

/// Sum of |x|: the scale in the rounding-error bound of a float sum (verify.hpp).
inline double reference_sum_abs(const std::vector<float>& values) {
  double sum = 0;
  for (float v : values) sum += std::fabs(static_cast<double>(v));
  return sum;
}

}  // namespace tutorial
