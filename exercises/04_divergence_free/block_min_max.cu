// Exercise 4.1: minimum and maximum in one pass, without divergence (see README.md).
#include <climits>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise04 {

/// One block of kMinMaxThreads threads per group of kMinMaxThreads * kMinMaxLoads elements.
__global__ void block_min_max_kernel(const int32_t* in, int64_t n, MinMax* out) {
  // TODO(4.1): write the kernel: block b writes the minimum and maximum of its group of
  // kMinMaxThreads * kMinMaxLoads elements (the last group may be shorter) to out[b], in one
  // pass over the data, by sequential addressing and then the last warp with __shfl_down_sync.
  // It must also reach the speed that README.md asks for.
}

void block_min_max(const int32_t* d_in, int64_t n, MinMax* d_out) {
  throw tutorial::Todo(
      "write block_min_max_kernel in exercises/04_divergence_free/"
      "block_min_max.cu, then delete this line");
  constexpr int64_t kPerBlock = kMinMaxThreads * kMinMaxLoads;
  const int64_t blocks = (n + kPerBlock - 1) / kPerBlock;
  block_min_max_kernel<<<static_cast<unsigned>(blocks), kMinMaxThreads>>>(d_in, n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise04
