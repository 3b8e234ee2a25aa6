// Exercise 3.2: the bitmask tree for a block of any size (see README.md).
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise03 {

/// One block of blockDim.x threads (any count up to 1024) per group of blockDim.x elements:
/// the elements go to dynamic shared memory, the bitmask tree adds them, thread 0 writes the
/// group's sum to out.
__global__ void any_size_tree_kernel(const int32_t* in, int64_t n, long long* out) {
  extern __shared__ long long partial[];
  const unsigned tid = threadIdx.x;
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  // With 96 threads the pairs at offset 64 are (0, 64) and (128, 192): the first exists, the
  // second does not. Going on while offset < blockDim.x and skipping partners past the end
  // adds every element exactly once.
  for (unsigned offset = 1, mask = 1; offset < blockDim.x; offset *= 2, mask += offset) {
    if ((tid & mask) == 0 && tid + offset < blockDim.x) partial[tid] += partial[tid + offset];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

std::vector<int64_t> block_sums_any_size(const int32_t* d_in, int64_t n, int threads) {
  const int64_t blocks = (n + threads - 1) / threads;
  tutorial::DeviceBuffer<long long> d_out(blocks);
  d_out.poison();
  any_size_tree_kernel<<<static_cast<unsigned>(blocks), threads, threads * sizeof(long long)>>>(
      d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  const std::vector<long long> sums = d_out.to_host();
  return std::vector<int64_t>(sums.begin(), sums.end());
}

}  // namespace exercise03
