// What the checkers of exercises 10.2 and 10.3 share: the refusal to run without BF16 tensor
// cores, and a problem of random BF16 inputs on the host and on the device, laid out as
// exercise.cuh says, with the learner's C poisoned and a guard after it.
#pragma once

#include <cuda_bf16.h>

#include <cstdint>
#include <string>
#include <vector>

#include "07_tiled_matmul/matmul.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/grading/exercise_matmul.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/options.hpp"

namespace check10 {

using Shape = tutorial::MatmulShape;

/// Compiled like the learner's kernel (the same target, the same architectures): its code tells
/// what this build compiled the learner's for.
__global__ void probe_kernel() {}

/// Exercise @p id needs BF16 tensor-core instructions, of the GPU and of this build's code
/// (tutorial::why_kernel_cannot_run): elsewhere it cannot run, and the checker says why and exits
/// 77 (the grader's SKIP), rather than grading a kernel whose body was compiled out.
inline void expect_bf16_tensor_cores(const std::string& id) {
  tutorial::require_compute_capability(reinterpret_cast<const void*>(probe_kernel), 80,
                                       "exercise " + id + "'s BF16 tensor-core instructions");
}

/**
 * @brief A and B uniform in [-1, 1) from a seed (tutorial::make_matmul_problem), rounded to
 *        BF16 so that the host multiplies exactly the values the GPU does; on the device A
 *        row-major and B by columns (exercise.cuh's layout), and the learner's C, poisoned, with
 *        tutorial::kGuard poisoned elements after it.
 */
struct Bf16Problem {
  Bf16Problem(const Shape& shape, uint64_t seed)
      : s(shape),
        host(rounded_problem(shape, seed)),
        a(to_bf16(host.a, s.m, s.k, false)),
        b_cols(to_bf16(host.b, s.k, s.n, true)),
        c(s.m * s.n + tutorial::kGuard) {
    c.poison();
  }

  /// The learner's C and the guard after it; fails if the guard was written.
  std::vector<float> learner_c(const std::string& where) const {
    std::vector<float> got = c.to_host();
    tutorial::expect_guard_intact(got, s.m * s.n, where);
    got.resize(s.m * s.n);
    return got;
  }

  Shape s;
  tutorial::MatmulProblem host;  ///< A (m x k) and B (k x n) row-major, as floats
  tutorial::DeviceBuffer<__nv_bfloat16> a, b_cols;
  tutorial::DeviceBuffer<float> c;

 private:
  static tutorial::MatmulProblem rounded_problem(const Shape& shape, uint64_t seed) {
    tutorial::Options options;
    options.m = shape.m;
    options.n = shape.n;
    options.k = shape.k;
    options.seed = seed;
    tutorial::MatmulProblem p = tutorial::make_matmul_problem(options);
    for (float& x : p.a) x = __bfloat162float(__float2bfloat16_rn(x));
    for (float& x : p.b) x = __bfloat162float(__float2bfloat16_rn(x));
    return p;
  }
  /// A rows x cols row-major matrix as BF16, or with @p by_columns its transpose.
  static std::vector<__nv_bfloat16> to_bf16(const std::vector<float>& values, int64_t rows,
                                            int64_t cols, bool by_columns) {
    std::vector<__nv_bfloat16> out(values.size());
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t col = 0; col < cols; ++col) {
        out[by_columns ? col * rows + r : r * cols + col] =
            __float2bfloat16_rn(values[r * cols + col]);
      }
    }
    return out;
  }
};

}  // namespace check10
