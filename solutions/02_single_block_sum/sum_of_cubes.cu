// Exercise 2.2, solved: the sum of cubes with one block of any size.
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise02 {

/// One block of blockDim.x threads (any count up to 1024): each thread adds the cubes of its
/// strided elements, the partial sums meet in dynamic shared memory, thread 0 adds them up.
__global__ void sum_of_cubes_kernel(const int32_t* in, int64_t n, long long* out) {
  extern __shared__ long long partial[];  // blockDim.x slots, sized by the launch
  long long sum = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const long long x = in[i];  // widen first: x * x * x in int would overflow past 1290
    sum += x * x * x;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned t = 1; t < blockDim.x; ++t) sum += partial[t];
    *out = sum;
  }
}

int64_t block_sum_of_cubes(const int32_t* d_in, int64_t n, int threads) {
  tutorial::DeviceBuffer<long long> d_out(1);
  d_out.poison();
  const size_t shared_bytes = threads * sizeof(long long);
  sum_of_cubes_kernel<<<1, threads, shared_bytes>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host()[0];
}

}  // namespace exercise02
