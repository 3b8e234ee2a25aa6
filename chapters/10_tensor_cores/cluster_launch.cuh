/**
 * @file chapters/10_tensor_cores/cluster_launch.cuh
 * @brief The launch of a kernel in thread-block clusters (step 6 of chapter 10, exercise 10.5):
 *        cudaLaunchKernelEx's configuration with a cluster dimension.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace chapter10 {

//! [cluster_launch]
/// The configuration of a launch of @p clusters clusters of @p cluster_blocks blocks in a row
/// (blocks c x cluster_blocks to c x cluster_blocks + cluster_blocks - 1 form cluster c), each of
/// @p threads threads with @p shared_bytes of dynamic shared memory. The cluster's size is an
/// attribute of the launch, kept in @p cluster_size, which must outlive the launch:
/// cudaLaunchKernelEx(&config, kernel, args...).
inline cudaLaunchConfig_t cluster_launch(int64_t clusters, int cluster_blocks, int threads,
                                         int shared_bytes, cudaLaunchAttribute& cluster_size) {
  cluster_size.id = cudaLaunchAttributeClusterDimension;
  cluster_size.val.clusterDim.x = unsigned(cluster_blocks);
  cluster_size.val.clusterDim.y = 1;
  cluster_size.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(clusters * cluster_blocks));
  config.blockDim = dim3(unsigned(threads));
  config.dynamicSmemBytes = size_t(shared_bytes);
  config.attrs = &cluster_size;
  config.numAttrs = 1;
  return config;
}
//! [cluster_launch]

}  // namespace chapter10
