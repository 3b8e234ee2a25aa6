// Checker of exercise 7.1: C = A^T * B for awkward shapes against a double CPU reference, nothing
// written past C.
#include <cstdint>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace {

using namespace tutorial;
using namespace check07;

/// The k x m matrix A whose transpose is @p at (m x k), both row-major.
std::vector<float> transposed(const std::vector<float>& at, int64_t m, int64_t k) {
  std::vector<float> a(at.size());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) a[p * m + i] = at[i * k + p];
  }
  return a;
}

void check_any_shape(const CheckRun& run) {
  uint64_t seed = 71;
  for (const Shape& s : graded_shapes(run)) {
    // in.a is A^T (m x k), the left factor expect_gemm multiplies; the function gets A, stored
    // k x m, in a buffer of exactly k * m elements, so that memcheck sees a read past its end.
    MatmulInputs in(s, seed += 2);
    const DeviceBuffer<float> d_a(transposed(in.a, s.m, s.k));
    exercise07::matmul_any_shape(d_a.data(), in.d_b.data(), in.d_c.data(), s.m, s.n, s.k);
    expect_gemm(describe(s) + " (A stored k x m)", in, 1, 0, {}, in.d_c.to_host());
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "7.1", "tiled C = A^T * B for any shape (edge guards)",
                          check_any_shape);
}
