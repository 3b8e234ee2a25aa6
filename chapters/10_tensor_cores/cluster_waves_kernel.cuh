/**
 * @file chapters/10_tensor_cores/cluster_waves_kernel.cuh
 * @brief Step 9 of chapter 10: step 8's waves and step 7's TMA store, in step 6's clusters of
 *        two blocks that share B's tile by multicast (sm_90a only).
 */
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cluster_kernel.cuh"
#include "square_waves_kernel.cuh"
#include "tma_store_kernel.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter10 {

//! [cluster_waves]
/// Step 9's grid for an m x n C: step 8's rule (balanced_grid()) applied to the cluster tiles
/// of 256 x 256 and the @p resident clusters the GPU runs at once. At 4096^3 and 8192^3 on an
/// H100, the same 128 blocks as step 8, in 64 clusters.
inline int64_t balanced_clusters(int64_t m, int64_t n, int64_t resident) {
  return balanced_grid(cluster_tiles(m, n), resident);
}

/// Step 9: cluster_tiles() in groups of kWaveGroupRows tile rows (kWaveGroupRows / 2 pairs, so
/// that a wave covers the same square of C as step 8's), each consumer storing its tile through
/// TMA as steps 7 and 8 do. The multicast halves the bytes of B each block asks L2 for; what
/// that buys, and at which sizes, the page measures.
/// @pre as cluster_tiles(), with kTmaStoreSharedBytes of dynamic shared memory and @p c_map
///      from c_tensor_map(C, m, n).
__device__ void matmul_wgmma_cluster_waves(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                           const CUtensorMap& c_map, int64_t m, int64_t n,
                                           int64_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  cluster_tiles<kWaveGroupRows / kClusterBlocks>(a_map, b_map, m, n, k, StoreByTma{&c_map, n});
  StoreByTma::finish();  // no store still reads this block's shared memory at its end
#endif
}
//! [cluster_waves]

/// matmul_wgmma_cluster_waves as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh), in clusters of kClusterBlocks (cluster_step() in
/// wgmma_steps.cuh sets the cluster's size at launch); one block an SM.
inline constexpr auto cluster_waves_kernel =
    tutorial::clocked_kernel<matmul_wgmma_cluster_waves, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
