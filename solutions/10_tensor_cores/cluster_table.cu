// Exercise 10.5, solved: a lookup table too large for one block's shared memory, split over
// the four blocks of a thread-block cluster and read through distributed shared memory.
#include <cooperative_groups.h>

#include <cstdint>

#include "10_tensor_cores/cluster_launch.cuh"
#include "cluster_table.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ uint32_t lookup(const uint32_t* slice, uint32_t code) {
  const unsigned int rank = code / kSliceEntries;  // the slices are consecutive runs of entries
  const unsigned int offset = code % kSliceEntries;
  // The same offset in the shared memory of the block of that rank (this block's too).
  return cg::this_cluster().map_shared_rank(slice, int(rank))[offset];
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
  // Every block's slice is loaded before any block reads one: a __syncthreads() would cover only
  // this block's own.
  cg::this_cluster().sync();
  take_turn(rank);
  for (int64_t i = int64_t{blockIdx.x} * kTableThreads + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * kTableThreads) {
    out[i] = lookup(slice, codes[i]);
  }
  // No block leaves, its shared memory handed on, while a peer may still read its slice.
  cg::this_cluster().sync();
  leave_slice(slice);
#endif
}

void translate_codes(const uint32_t* d_table, const uint16_t* d_codes, uint32_t* d_out, int64_t n,
                     int64_t clusters) {
  CUDA_CHECK(cudaFuncSetAttribute(translate_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kSliceBytes));
  cudaLaunchAttribute cluster_size{};  // blocks b to b + 3, b a multiple of 4, form a cluster
  const cudaLaunchConfig_t config =
      chapter10::cluster_launch(clusters, kClusterBlocks, kTableThreads, kSliceBytes, cluster_size);
  CUDA_CHECK(cudaLaunchKernelEx(&config, translate_kernel, d_table, d_codes, d_out, n));
}

}  // namespace exercise10
