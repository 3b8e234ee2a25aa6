// Checker of exercise 7.1: awkward shapes against a double CPU reference, nothing written past C.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;
using namespace check07;

void check_any_shape(const CheckRun& run) {
  uint64_t seed = 71;
  for (const Shape& s : graded_shapes(run)) {
    MatmulInputs in(s, seed += 2);
    exercise07::matmul_any_shape(in.d_a.data(), in.d_b.data(), in.d_c.data(), s.m, s.n, s.k);
    expect_gemm(describe(s), in, 1, 0, {}, in.d_c.to_host());
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "7.1", "tiled matmul for any shape (edge guards)",
                          check_any_shape);
}
