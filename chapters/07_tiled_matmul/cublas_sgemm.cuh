/**
 * @file chapters/07_tiled_matmul/cublas_sgemm.cuh
 * @brief The yardstick of the matmul chapters (07, 09): cublasSgemm in FP32 (TF32 off),
 *        called on the row-major matrices of the chapters.
 *
 * Chapters 09 and 10 and the matmul exercises' checkers include it from here, directly
 * (#include "07_tiled_matmul/cublas_sgemm.cuh") or through matmul.cuh; a program that calls it
 * links CUDA::cublas.
 */
#pragma once

#include <cublas_v2.h>

#include <cstdint>
#include <string>

#include "tutorial/harness/errors.hpp"

namespace tutorial {

/// Throws CudaError (exit 3) describing @p call if @p status is not CUBLAS_STATUS_SUCCESS.
inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(call, file, line, cublasGetStatusName(status), cublasGetStatusString(status));
  }
}

/// A cuBLAS handle that destroys itself. Creating one takes milliseconds: do it before timing.
class CublasHandle {
 public:
  CublasHandle() { check_cublas(cublasCreate(&handle_), "cublasCreate", __FILE__, __LINE__); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_{};
};

/// C = A * B for row-major float matrices (A is m x k, B is k x n, C is m x n) by cublasSgemm.
class CublasRowMajorSgemm {
 public:
  CublasRowMajorSgemm(int64_t m, int64_t n, int64_t k) : m_(m), n_(n), k_(k) {
    // CUBLAS_DEFAULT_MATH keeps Sgemm on the FP32 units: products and sums in float, like the
    // chapter's kernels. CUBLAS_TF32_TENSOR_OP_MATH would round A and B to TF32 (10 mantissa
    // bits) for the tensor cores: much faster, and a different, less accurate computation.
    check_cublas(cublasSetMathMode(handle_.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode",
                 __FILE__, __LINE__);
  }

  //! [sgemm_row_major]
  /// Enqueues C = A * B on the default stream. With beta = 0 cuBLAS never reads C, so a
  /// poisoned C does not leak into the result.
  void operator()(const float* d_a, const float* d_b, float* d_c) const {
    const float alpha = 1, beta = 0;
    // cuBLAS is column-major: it reads a row-major r x c matrix as the column-major c x r
    // matrix, its transpose, with leading dimension c. So ask it for C^T = B^T * A^T: it sees
    // B as B^T (n x k, leading dimension n) and A as A^T (k x m, leading dimension k), and
    // the column-major n x m C^T it writes (leading dimension n) is, byte for byte, the
    // row-major m x n C. Swapping the operands is the whole trick: no data moves.
    // The _64 entry point takes 64-bit sizes, so a side past 2^31 works too.
    check_cublas(cublasSgemm_64(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_, &alpha, d_b,
                                n_, d_a, k_, &beta, d_c, n_),
                 "cublasSgemm_64", __FILE__, __LINE__);
  }
  //! [sgemm_row_major]

 private:
  CublasHandle handle_;
  int64_t m_, n_, k_;
};

}  // namespace tutorial
