/**
 * @file reference.hpp
 * @brief CPU references the GPU results are checked against. Written for clarity and for
 *        accuracy, not speed: each is independent of the GPU code it checks.
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

/// Inclusive prefix sum in 64 bits: out[i] = in[0] + ... + in[i].
inline std::vector<int64_t> reference_inclusive_scan(const std::vector<int32_t>& in) {
  std::vector<int64_t> out(in.size());
  int64_t running = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

/// Inclusive prefix sum of floats in double precision.
inline std::vector<double> reference_inclusive_scan(const std::vector<float>& in) {
  std::vector<double> out(in.size());
  double running = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

/// One entry of C = A * B in double precision; A is m x k, B is k x n, both row-major.
inline double reference_matmul_entry(const std::vector<float>& a, const std::vector<float>& b,
                                     int64_t n, int64_t k, int64_t row, int64_t col) {
  double sum = 0;
  for (int64_t i = 0; i < k; ++i) {
    sum += static_cast<double>(a[row * k + i]) * static_cast<double>(b[i * n + col]);
  }
  return sum;
}

}  // namespace tutorial
