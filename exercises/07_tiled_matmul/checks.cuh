// What the checkers of exercises 7.1 to 7.4 share: the shapes they grade, inputs with a
// poisoned output and a guard past its end, and the comparison of C with a double reference
// within the rounding bound of a dot product.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"
#include "tutorial/grading/exercise_matmul.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace check07 {

using Shape = tutorial::MatmulShape;

/// 1 x 1 x 1, single rows and columns, primes, sizes just past a tile, long K.
inline const Shape kShapes[] = {{1, 1, 1},      {1, 4097, 1}, {4097, 1, 2},    {2, 3, 5},
                                {67, 45, 33},   {31, 97, 64}, {128, 128, 128}, {129, 257, 9},
                                {200, 33, 300}, {5, 7, 1000}, {17, 513, 16},   {96, 80, 47}};

/// The shapes a run grades: all of kShapes, or under --small those of at most 2^17
/// multiply-adds.
inline std::vector<Shape> graded_shapes(const tutorial::CheckRun& run) {
  return tutorial::graded_shapes(kShapes, run, 1 << 17);
}

/// A, B random in [-1, 1) on the host and the device, and C (with its guard) poisoned.
struct MatmulInputs {
  Shape s;
  std::vector<float> a, b;
  tutorial::DeviceBuffer<float> d_a, d_b, d_c;

  MatmulInputs(const Shape& shape, uint64_t seed)
      : s(shape),
        a(tutorial::random_floats(shape.m * shape.k, seed, -1.0f, 1.0f)),
        b(tutorial::random_floats(shape.k * shape.n, seed + 1, -1.0f, 1.0f)),
        d_a(a),
        d_b(b),
        d_c(shape.m * shape.n + tutorial::kGuard) {
    d_c.poison();
  }
};

/**
 * @brief Expects @p got (C and its guard) to hold alpha * A * B + beta * c0 (c0 only when
 *        beta != 0).
 *
 * The float dot product is within gamma(k) S of the exact one, S = sum_p |a_ip||b_pj|, in
 * any order; scaling by alpha, adding beta * c0 and rounding add at most two more roundings:
 * |error| <= gamma(k + 2) (|alpha| S + |beta| |c0|).
 */
inline void expect_gemm(const std::string& where, const MatmulInputs& in, float alpha, float beta,
                        const std::vector<float>& c0, const std::vector<float>& got) {
  const auto [m, n, k] = in.s;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0, scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = in.a[i * k + p], y = in.b[p * n + j];
        dot += x * y;
        scale += std::fabs(x * y);
      }
      double want = alpha * dot;
      double bound = std::fabs(alpha) * scale;
      if (beta != 0) {
        want += double(beta) * c0[i * n + j];
        bound += std::fabs(double(beta) * c0[i * n + j]);
      }
      const double g = got[i * n + j];
      tutorial::expect(std::fabs(g - want) <= tutorial::rounding_gamma(k + 2) * bound,
                       where + ": C[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
                           tutorial::format_number(g) + ", want " + tutorial::format_number(want) +
                           (std::isnan(g) ? " (NaN: never written, or computed from a NaN)" : ""));
    }
  }
  tutorial::expect_guard_intact(got, m * n, where);
}

}  // namespace check07
