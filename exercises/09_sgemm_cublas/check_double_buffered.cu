// Checker of exercise 9.2: awkward shapes (one step along K, two, many) against cuBLAS, then the
// kernel's shared memory: two buffers of tiles. The barriers are the grader's racecheck run's.
#include <cstdint>
#include <string>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/exercise_gpu.cuh"

namespace {

using namespace tutorial;
using namespace check09;

void check_double_buffered(const CheckRun& run) {
  uint64_t seed = 93;
  for (const Shape& s : graded_shapes(run)) {
    SgemmCase sc(s, seed += 2);
    exercise09::sgemm_double_buffered(sc.run.a.data(), sc.run.b.data(), sc.c.data(), s.m, s.n, s.k);
    sc.expect_c(describe(s));
  }
  cudaFuncAttributes kernel{};
  CUDA_CHECK(cudaFuncGetAttributes(&kernel, exercise09::sgemm_double_buffered_kernel));
  const size_t two_buffers = 2 * sizeof(exercise09::StepTiles);
  expect(kernel.sharedSizeBytes >= two_buffers,
         "sgemm_double_buffered_kernel has " + std::to_string(kernel.sharedSizeBytes) +
             " bytes of shared memory: two buffers of tiles (two StepTiles) take " +
             std::to_string(two_buffers));
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "9.2", "two shared buffers, one barrier a step",
                          check_double_buffered);
}
