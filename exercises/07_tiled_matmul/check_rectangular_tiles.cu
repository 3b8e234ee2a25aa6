// Checker of exercise 7.4: tall and wide tiles on awkward shapes against a double CPU reference.
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

void check_rectangular(const CheckRun& run) {
  uint64_t seed = 74;
  for (const auto& [shape, name] : {std::pair{exercise07::TileShape::kTall, "tall 32 x 8"},
                                    std::pair{exercise07::TileShape::kWide, "wide 8 x 32"}}) {
    for (const Shape& s : graded_shapes(run)) {
      MatmulInputs in(s, seed += 2);
      exercise07::matmul_rectangular(shape, in.d_a.data(), in.d_b.data(), in.d_c.data(), s.m, s.n,
                                     s.k);
      expect_gemm(std::string(name) + " tiles, " + describe(s), in, 1, 0, {}, in.d_c.to_host());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "7.4", "rectangular tiles", check_rectangular);
}
