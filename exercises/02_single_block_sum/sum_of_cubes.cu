// Exercise 2.2: the sum of cubes with one block of any size (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise02 {

/// One block of blockDim.x threads (any count up to 1024): each thread adds the cubes of its
/// strided elements, the partial sums meet in dynamic shared memory, thread 0 adds them up.
__global__ void sum_of_cubes_kernel(const int32_t* in, int64_t n, long long* out) {
  // TODO(2.2): write the kernel: *out = the exact sum of x^3 over in[0, n), |x| <= 10000, for
  // a block of any size from 1 to 1024 threads.
}

int64_t block_sum_of_cubes(const int32_t* d_in, int64_t n, int threads) {
  tutorial::DeviceBuffer<long long> d_out(1);
  d_out.poison();
  // TODO(2.2): launch sum_of_cubes_kernel as one block of `threads` threads, with what the
  // kernel needs to run, then delete the next line.
  throw tutorial::Todo(
      "launch sum_of_cubes_kernel in exercises/02_single_block_sum/"
      "sum_of_cubes.cu");
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host()[0];
}

}  // namespace exercise02
