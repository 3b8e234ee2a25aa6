// Exercise 4.2: a block sum with warp shuffles for any whole number of warps (see README.md).
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise04 {

/// Elements each thread adds while loading.
constexpr int kLoads = 4;

/// The sum of @p value over the blockDim.x threads of the block, valid in thread 0.
/// @pre every thread calls it; blockDim.x is a multiple of 32, at most 1024.
__device__ long long block_sum(long long value) {
  // TODO(4.2): return the sum of value over the block (valid in thread 0), with warp shuffles
  // and a single __syncthreads(), for any whole number of warps from 1 to 32.
  return value;
}

/// One block per group of kLoads * blockDim.x elements: each thread adds kLoads of them,
/// blockDim.x apart, then block_sum() adds the threads' sums.
__global__ void shuffle_block_sum_kernel(const int32_t* in, int64_t n, long long* out) {
  const int64_t first = int64_t{blockIdx.x} * kLoads * blockDim.x + threadIdx.x;
  long long sum = 0;
  for (int j = 0; j < kLoads; ++j) {
    const int64_t i = first + int64_t{j} * blockDim.x;
    if (i < n) sum += in[i];
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

std::vector<int64_t> block_sums_shuffle(const int32_t* d_in, int64_t n, int threads) {
  throw tutorial::Todo(
      "write block_sum in exercises/04_divergence_free/shuffle_block_sum.cu, "
      "then delete this line");
  const int64_t per_block = int64_t{kLoads} * threads;
  const int64_t blocks = (n + per_block - 1) / per_block;
  tutorial::DeviceBuffer<long long> d_out(blocks);
  d_out.poison();
  shuffle_block_sum_kernel<<<static_cast<unsigned>(blocks), threads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  const std::vector<long long> sums = d_out.to_host();
  return std::vector<int64_t>(sums.begin(), sums.end());
}

}  // namespace exercise04
