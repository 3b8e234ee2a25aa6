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
  // TODO(3.2): write the kernel: block b writes the sum of its group of blockDim.x elements
  // (the last group may be shorter) to out[b], by the bitmask tree, for any blockDim.x from 1
  // to 1024, not only powers of two. Every element must be counted exactly once.
}

std::vector<int64_t> block_sums_any_size(const int32_t* d_in, int64_t n, int threads) {
  const int64_t blocks = (n + threads - 1) / threads;
  tutorial::DeviceBuffer<long long> d_out(blocks);
  d_out.poison();
  // TODO(3.2): launch any_size_tree_kernel as `blocks` blocks of `threads` threads, with what
  // the kernel needs to run, then delete the next line.
  throw tutorial::Todo(
      "launch any_size_tree_kernel in exercises/03_tree_bitmask/"
      "any_size_tree.cu");
  CUDA_CHECK(cudaGetLastError());
  const std::vector<long long> sums = d_out.to_host();
  return std::vector<int64_t>(sums.begin(), sums.end());
}

}  // namespace exercise03
