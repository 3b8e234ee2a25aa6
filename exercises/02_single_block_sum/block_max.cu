// Exercise 2.1: the maximum with one block (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise02 {

constexpr int kThreads = 256;

/// One block: each thread finds the maximum of its strided elements, writes it to shared
/// memory, and thread 0 combines the kThreads partial maxima into *out.
__global__ void block_max_kernel(const int32_t* in, int64_t n, int32_t* out) {
  // TODO(2.1): write the kernel: *out = the largest of in[0, n), for any n >= 1 (fewer than
  // kThreads included) and any int32 values (all negative included).
}

int32_t block_max(const int32_t* d_in, int64_t n) {
  throw tutorial::Todo(
      "write block_max_kernel in exercises/02_single_block_sum/block_max.cu, "
      "then delete this line");
  tutorial::DeviceBuffer<int32_t> d_out(1);
  d_out.poison();
  block_max_kernel<<<1, kThreads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host()[0];
}

}  // namespace exercise02
