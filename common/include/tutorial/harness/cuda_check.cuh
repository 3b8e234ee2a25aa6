/**
 * @file cuda_check.cuh
 * @brief CUDA_CHECK: every CUDA runtime call goes through it, so a failure names the call,
 *        the file and the line instead of surfacing later as a wrong result.
 */
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "tutorial/harness/errors.hpp"

namespace tutorial {

/// Throws CudaError (exit 3) describing @p call if @p status is not cudaSuccess.
inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw CudaError(call, file, line, cudaGetErrorName(status), cudaGetErrorString(status));
  }
}

}  // namespace tutorial

/// Checks a CUDA runtime call. After a kernel launch use CUDA_CHECK(cudaGetLastError()).
#define CUDA_CHECK(call) ::tutorial::check_cuda((call), #call, __FILE__, __LINE__)
