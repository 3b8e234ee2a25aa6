// Exercise 10.5: a lookup table too large for one block's shared memory, split over the four
// blocks of a thread-block cluster and read through distributed shared memory (see README.md).
#include <cooperative_groups.h>

#include <cstdint>

#include "10_tensor_cores/cluster_launch.cuh"
#include "cluster_table.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ uint32_t lookup(const uint32_t* slice, uint32_t code) {
  // TODO(10.5): return entry `code` of the table: find which block of the cluster holds it and
  // where in its slice, and read it there, in that block's shared memory.
  return slice[0];
}
#endif

/// One cluster holds the whole table, a slice in each block's shared memory, and its blocks
/// translate codes through it: block b takes codes b x kTableThreads to b x kTableThreads +
/// kTableThreads - 1, then the same every gridDim.x x kTableThreads further. The given steps
/// (cluster_table.cuh) run the blocks of a cluster out of step on purpose.
__global__ void __launch_bounds__(kTableThreads)
    translate_kernel(const uint32_t* __restrict__ table, const uint16_t* __restrict__ codes,
                     uint32_t* __restrict__ out, int64_t n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 shared[];  // uint4: the slice is copied in 16-byte words
  uint32_t* slice = reinterpret_cast<uint32_t*>(shared);
  const unsigned int rank = cg::this_cluster().block_rank();
  load_slice(slice, table, rank);
  // TODO(10.5): no block may read a slice, its own or a peer's, before that slice is loaded.
  take_turn(rank);
  for (int64_t i = int64_t{blockIdx.x} * kTableThreads + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * kTableThreads) {
    out[i] = lookup(slice, codes[i]);
  }
  // TODO(10.5): no block may leave while a block of its cluster may still read its slice.
  leave_slice(slice);
#endif
}

void translate_codes(const uint32_t* d_table, const uint16_t* d_codes, uint32_t* d_out, int64_t n,
                     int64_t clusters) {
  throw tutorial::Todo(
      "write lookup and the cluster's barriers in exercises/10_tensor_cores/cluster_table.cu, "
      "then delete this line");
  CUDA_CHECK(cudaFuncSetAttribute(translate_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kSliceBytes));
  cudaLaunchAttribute cluster_size{};  // blocks b to b + 3, b a multiple of 4, form a cluster
  const cudaLaunchConfig_t config =
      chapter10::cluster_launch(clusters, kClusterBlocks, kTableThreads, kSliceBytes, cluster_size);
  CUDA_CHECK(cudaLaunchKernelEx(&config, translate_kernel, d_table, d_codes, d_out, n));
}

}  // namespace exercise10
