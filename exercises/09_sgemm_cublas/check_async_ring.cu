// Checker of exercise 9.2: awkward shapes (one step along K, two, many; edges along K that the
// copies must fill with zeros) against cuBLAS; then the kernel's shared memory (a ring of
// kRingStages StepTiles, so that chapter 09's two buffers do not pass) and the learner's file,
// which must start asynchronous copies (results cannot tell a copy through registers from one
// that bypasses them). The barriers are the grader's racecheck run's.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace {

using namespace tutorial;
using namespace check09;

/// C++ source @p text without its comments (string literals kept: inline PTX lives in them).
std::string without_comments(const std::string& text) {
  std::string code;
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
    } else if (text[i] == '"' || text[i] == '\'') {  // a literal, copied whole
      const char quote = text[i];
      size_t end = i + 1;
      while (end < text.size() && text[end] != quote) end += text[end] == '\\' ? 2 : 1;
      code.append(text, i, end + 1 - i);
      i = end + 1;
    } else {
      code += text[i++];
    }
  }
  return code;
}

/// Expects the learner's file to start an asynchronous copy from global to shared memory:
/// `__pipeline_memcpy_async` (cuda_pipeline.h), `cuda::memcpy_async` or inline PTX `cp.async`.
void expect_async_copies(const std::string& path) {
  std::ifstream file(path);
  expect(file.good(), "cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string code = without_comments(text.str());
  const bool copies =
      code.find("memcpy_async") != std::string::npos || code.find("cp.async") != std::string::npos;
  expect(copies,
         "async_ring.cu starts no asynchronous copy (__pipeline_memcpy_async, "
         "cuda::memcpy_async or cp.async): the tiles still pass through registers");
}

void check_async_ring(const CheckRun& run) {
  uint64_t seed = 93;
  for (const Shape& s : graded_shapes(run)) {
    SgemmCase sc(s, seed += 2);
    exercise09::sgemm_async_ring(sc.run.a.data(), sc.run.b.data(), sc.c.data(), s.m, s.n, s.k);
    sc.expect_c(describe(s));
  }
  cudaFuncAttributes kernel{};
  CUDA_CHECK(cudaFuncGetAttributes(&kernel, exercise09::sgemm_async_ring_kernel));
  const size_t ring = exercise09::kRingStages * sizeof(exercise09::StepTiles);
  expect(kernel.sharedSizeBytes >= ring,
         "sgemm_async_ring_kernel has " + std::to_string(kernel.sharedSizeBytes) +
             " bytes of shared memory: a ring of " + std::to_string(exercise09::kRingStages) +
             " buffers of tiles (StepTiles) takes " + std::to_string(ring));
  expect_async_copies(TUTORIAL_LEARNER_FILE);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "9.2", "a ring of three buffers, asynchronous copies",
                          check_async_ring);
}
