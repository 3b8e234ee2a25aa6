// Exercise 12.1: a histogram of a float range (see README.md).
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise12 {

constexpr int kThreads = 256;
/// The most samples one block may count: its shared counters are 32-bit.
constexpr int64_t kMaxBlockSamples = int64_t{1} << 31;

/// The bin of @p x among @p bins equal-width bins over [lo, hi), or -1 where x counts in none.
__device__ int bin_of(float x, float lo, float hi, int bins) {
  // TODO(12.1): the rule of exercise.cuh, exactly: -1 for x below lo, at or above hi, or NaN;
  // else (int)((x - lo) / (hi - lo) * bins) in float, and bins - 1 where that is bins.
  return -1;
}

/// A histogram per block in shared memory, merged into @p out at the end.
/// @pre out holds bins zeros; the launch gives the block bins * 4 bytes of dynamic shared memory.
__global__ void range_histogram_kernel(const float* in, int64_t n, float lo, float hi, int bins,
                                       unsigned long long* out) {
  extern __shared__ uint32_t counts[];  // bins counters, as many as the launch gives
  // TODO(12.1): zero the block's bins counters (there may be more counters than threads); add
  // every sample of the block's grid-stride loop that bin_of puts in a bin to its counter; then
  // add each counter that is not zero to out with one global atomicAdd.
}

void range_histogram(const float* d_in, int64_t n, float lo, float hi, int bins,
                     unsigned long long* d_bins) {
  throw tutorial::Todo(
      "write bin_of and range_histogram_kernel in exercises/12_histogram/range_histogram.cu, "
      "then delete this line");
  const size_t shared_bytes = bins * sizeof(uint32_t);
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, range_histogram_kernel,
                                                           kThreads, shared_bytes));
  // As many blocks as fit on the GPU at once, fewer for a small input, and more only where a
  // block would otherwise count 2^31 samples or more.
  const int64_t resident = int64_t{per_sm} * tutorial::query_device().sm_count;
  const int64_t blocks = std::max({int64_t{1}, std::min(resident, (n + kThreads - 1) / kThreads),
                                   (n + kMaxBlockSamples - 1) / kMaxBlockSamples});
  CUDA_CHECK(cudaMemsetAsync(d_bins, 0, bins * sizeof(unsigned long long)));
  range_histogram_kernel<<<static_cast<unsigned>(blocks), kThreads, shared_bytes>>>(d_in, n, lo, hi,
                                                                                    bins, d_bins);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise12
