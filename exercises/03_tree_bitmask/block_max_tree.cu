// Exercise 3.1: the bitmask tree for another operator, the maximum (see README.md).
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
  // TODO(3.1): write the kernel: block b writes the maximum of its group of kThreads elements
  // (the last group may be shorter) to out[b], by chapter 03's bitmask tree with max in place
  // of +. The values may all be negative, and n may exceed 2^31.
}

std::vector<int32_t> block_maxima(const int32_t* d_in, int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  tutorial::DeviceBuffer<int32_t> d_out(blocks);
  d_out.poison();
  throw tutorial::Todo(
      "write block_max_tree_kernel in exercises/03_tree_bitmask/"
      "block_max_tree.cu, then delete this line");
  block_max_tree_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return d_out.to_host();
}

}  // namespace exercise03
