// Exercise 7.3: C = alpha * A * B + beta * C (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

/// C = alpha * A * B + beta * C. Any technique of the chapter will do.
__global__ void gemm_kernel(float alpha, const float* a, const float* b, float beta, float* c,
                            int64_t m, int64_t n, int64_t k) {
  // TODO(7.3): write the kernel: C = alpha * A * B + beta * C, for any m, n and k. When
  // beta == 0, C is output only: it may hold NaN, and the result must not depend on it.
}

void gemm(float alpha, const float* d_a, const float* d_b, float beta, float* d_c, int64_t m,
          int64_t n, int64_t k) {
  // TODO(7.3): launch gemm_kernel so that it computes all of C, then delete the next line.
  throw tutorial::Todo("write and launch gemm_kernel in exercises/07_tiled_matmul/gemm.cu");
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
