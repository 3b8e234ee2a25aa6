// Exercise 12.3: a weighted histogram, float sums per block in shared memory (see README.md).
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise12 {

constexpr int kThreads = 256;
constexpr int kBins = 256;

/// A weighted histogram per block in shared memory, merged into @p sums at the end.
/// @pre sums holds kBins zeros.
__global__ void weighted_histogram_kernel(const uint8_t* bins_of, const float* weights, int64_t n,
                                          float* sums) {
  // TODO(12.3): the block's kBins sums in a __shared__ array, zeroed; add the weight of every
  // sample of the block's grid-stride loop to the sum of its bin; then add each of the block's
  // sums to sums with one global atomicAdd.
}

void weighted_histogram(const uint8_t* d_bins_of, const float* d_weights, int64_t n,
                        float* d_sums) {
  throw tutorial::Todo(
      "write weighted_histogram_kernel in exercises/12_histogram/weighted_histogram.cu, then "
      "delete this line");
  // As many blocks as fit on the GPU at once (found once), fewer for a small input.
  static const int64_t resident = [] {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, weighted_histogram_kernel,
                                                             kThreads, 0));
    return int64_t{per_sm} * tutorial::query_device().sm_count;
  }();
  const int64_t blocks = std::max<int64_t>(1, std::min(resident, (n + kThreads - 1) / kThreads));
  CUDA_CHECK(cudaMemsetAsync(d_sums, 0, kBins * sizeof(float)));  // all bits 0: 0.0f
  weighted_histogram_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(d_bins_of, d_weights, n,
                                                                         d_sums);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise12
