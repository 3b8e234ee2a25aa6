// Exercise 3.1: the bitmask tree for another operator, the maximum (see README.md).
#include <climits>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise03 {

constexpr int kThreads = 256;

/// One block per group of kThreads elements: each thread puts its element in shared memory,
/// the bitmask tree combines them with max, thread 0 writes the block's maximum to out.
__global__ void block_max_tree_kernel(const int32_t* in, int64_t n, int32_t* out) {
  __shared__ int32_t partial[kThreads];
  const unsigned tid = threadIdx.x;
  const int64_t i = int64_t{blockIdx.x} * kThreads + tid;
  // INT_MIN loses every comparison: the identity of max, as 0 is that of +.
  partial[tid] = i < n ? in[i] : INT_MIN;
  __syncthreads();
  for (unsigned offset = 1, mask = 1; offset < kThreads; offset *= 2, mask += offset) {
    if ((tid & mask) == 0) partial[tid] = max(partial[tid], partial[tid + offset]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

std::vector<int32_t> block_maxima(const int32_t* d_in, int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  tutorial::DeviceBuffer<int32_t> d_out(blocks);
  d_out.poison();
  block_max_tree_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host();
}

}  // namespace exercise03
