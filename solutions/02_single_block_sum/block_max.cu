// Exercise 2.1, solved: the maximum with one block.
#include <climits>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise02 {

constexpr int kThreads = 256;

/// One block: each thread finds the maximum of its strided elements, writes it to shared
/// memory, and thread 0 combines the kThreads partial maxima into *out.
__global__ void block_max_kernel(const int32_t* in, int64_t n, int32_t* out) {
  __shared__ int32_t partial[kThreads];
  // INT_MIN is the identity of max: a thread without elements cannot win, and all-negative
  // inputs still come out right (0 would not).
  int32_t best = INT_MIN;
  for (int64_t i = threadIdx.x; i < n; i += kThreads) best = max(best, in[i]);
  partial[threadIdx.x] = best;
  __syncthreads();  // every partial maximum is written before thread 0 reads them
  if (threadIdx.x == 0) {
    for (int t = 1; t < kThreads; ++t) best = max(best, partial[t]);
    *out = best;
  }
}

int32_t block_max(const int32_t* d_in, int64_t n) {
  tutorial::DeviceBuffer<int32_t> d_out(1);
  d_out.poison();
  block_max_kernel<<<1, kThreads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host()[0];
}

}  // namespace exercise02
