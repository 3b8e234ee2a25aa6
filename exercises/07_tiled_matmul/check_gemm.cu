// Checker of exercise 7.3: awkward shapes and scalars (beta = 0 with C full of NaN: C must not be
// read) against a double CPU reference.
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

void check_gemm(const CheckRun& run) {
  // beta = 0 with C full of NaN: C must not be read. alpha = 0: C = beta * C.
  const std::pair<float, float> scalars[] = {
      {1.5f, 0.0f}, {-0.75f, 0.5f}, {0.0f, 2.0f}, {1.0f, 1.0f}};
  uint64_t seed = 73;
  for (const Shape& s : graded_shapes(run)) {
    for (const auto& [alpha, beta] : scalars) {
      MatmulInputs in(s, seed += 3);
      std::vector<float> c0;
      if (beta != 0) {
        c0 = random_floats(s.m * s.n, seed + 2, -1.0f, 1.0f);
        in.d_c.copy_from(c0);  // the guard after it stays poisoned
      }
      exercise07::gemm(alpha, in.d_a.data(), in.d_b.data(), beta, in.d_c.data(), s.m, s.n, s.k);
      expect_gemm(describe(s) + ", alpha = " + format_number(alpha) +
                      ", beta = " + format_number(beta) + (beta == 0 ? " (C held NaN)" : ""),
                  in, alpha, beta, c0, in.d_c.to_host());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "7.3", "C = alpha * A * B + beta * C", check_gemm);
}
