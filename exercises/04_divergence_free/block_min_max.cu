// Exercise 4.1: minimum and maximum in one pass, without divergence (see README.md).
#include <climits>
#include <vector>

#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/exercise.hpp"

namespace exercise04 {

/// One block of kMinMaxThreads threads per group of kMinMaxThreads * kMinMaxLoads elements.
__global__ void block_min_max_kernel(const int32_t* in, int64_t n, MinMax* out) {
  // TODO(4.1): write the kernel.
  //  - load: each thread takes kMinMaxLoads elements kMinMaxThreads apart (coalesced) and keeps
  //    their minimum and maximum; a thread past the end starts from INT_MAX and INT_MIN;
  //  - tree: sequential addressing (tid < stride) on two shared arrays, down to 64 values;
  //  - last warp: the first 32 threads combine the last 64 values with __shfl_down_sync on
  //    both the minimum and the maximum; thread 0 writes out[blockIdx.x].
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
