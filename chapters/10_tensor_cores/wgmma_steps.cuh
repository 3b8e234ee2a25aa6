/**
 * @file chapters/10_tensor_cores/wgmma_steps.cuh
 * @brief Steps 3-10 from the host: whether they can run here, their tensor maps and their
 *        launches (dynamic shared memory beyond 48 KiB; steps 6 and 9 in clusters; step 10's
 *        workspace), as steps of the chapter's table.
 */
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "bf16_matmul.cuh"
#include "cluster_kernel.cuh"
#include "cluster_launch.cuh"
#include "cluster_waves_kernel.cuh"
#include "persistent_kernel.cuh"
#include "split_k_tail_kernel.cuh"
#include "square_waves_kernel.cuh"
#include "tensor_map.cuh"
#include "tma_store_kernel.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/steps.cuh"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// Why steps 3-10 may not run: what the report says when they are skipped.
constexpr const char* kWgmmaSkipped =
    "wgmma_tma, wgmma_warp_specialized, wgmma_persistent, wgmma_cluster_multicast, "
    "wgmma_tma_store, wgmma_square_waves, wgmma_cluster_waves and wgmma_split_k_tail skipped: "
    "TMA, wgmma and setmaxnreg need an sm_90a build and a compute capability 9.0 GPU (Hopper)";

/// Whether this binary holds the sm_90a code of steps 3-10 (CMake defines TUTORIAL_SM90A
/// when its architecture list has 9.0) and @p device can run it. sm_90a code runs on compute
/// capability 9.0 only: no later GPU takes it, and PTX compiled without the "a" features
/// holds empty kernels.
inline bool wgmma_steps_run_on(const tutorial::DeviceFacts& device) {
#ifdef TUTORIAL_SM90A
  return device.major == 9 && device.minor == 0;
#else
  (void)device;
  return false;
#endif
}

/// The report's line on step 5's grid of @p blocks blocks over @p tiles tiles.
inline std::string persistent_grid_note(int64_t blocks, int64_t tiles, int sm_count) {
  if (blocks < sm_count) {
    return "wgmma_persistent: one block per tile, " + std::to_string(blocks) +
           " in all (fewer tiles than the " + std::to_string(sm_count) + " SMs)";
  }
  return "wgmma_persistent: " + std::to_string(blocks) +
         " blocks, one per SM, each taking tiles i, i + " + std::to_string(blocks) +
         ", ... of the " + std::to_string(tiles);
}

/// The report's line on step 8's grid of @p blocks blocks (balanced_blocks()) over @p tiles.
inline std::string square_waves_note(int64_t blocks, int64_t tiles, int sm_count) {
  const int64_t waves = tutorial::ceil_div(tiles, blocks);
  return "wgmma_square_waves: tiles " + std::to_string(tiles) + ", blocks " +
         std::to_string(blocks) + " (SMs " + std::to_string(sm_count) + "), waves " +
         std::to_string(waves) + ", groups of " + std::to_string(kWaveGroupRows) + " tile rows";
}

/// The report's line on step 9's grid of @p clusters clusters over @p cluster_tiles tiles of
/// 256 x 256.
inline std::string cluster_waves_note(int64_t clusters, int64_t cluster_tiles) {
  return "wgmma_cluster_waves: " + std::to_string(clusters) + " clusters of " +
         std::to_string(kClusterBlocks) + " blocks for " + std::to_string(cluster_tiles) +
         " cluster tiles of 256 x 256, " +
         std::to_string(tutorial::ceil_div(cluster_tiles, clusters)) + " waves";
}

/// The signature steps 3-6 share (steps 7-9 take C's tensor map in place of C), as the
/// harness launches them (clocked_kernel's TMA form): the slots, the tensor maps of A and of B's
/// columns, C, m, n, k.
using WgmmaKernel = void (*)(tutorial::BlockCycleSlots, CUtensorMap, CUtensorMap, float*, int64_t,
                             int64_t, int64_t);

//! [wgmma_step]
/// A step of 3-5 for the chapter's table: @p kernel on @p blocks blocks of @p threads threads
/// with kWgSharedBytes of dynamic shared memory, reading @p run's A and B through tensor maps
/// made here (the launch keeps its own copies). The run must outlive the step.
/// @pre wgmma_steps_run_on(the current device).
inline tutorial::Step wgmma_step(std::string id, std::string teaches, const Bf16MatmulRun& run,
                                 WgmmaKernel kernel, int64_t blocks, int threads) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  // A is m rows of K, B's columns (b_cols) n rows of K: both K-major, as wgmma wants them.
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kWgBlockN);
  float* d_c = run.c();
  // Past 48 KiB of dynamic shared memory, a kernel must ask for it.
  CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kWgSharedBytes));
  return run.step(std::move(id), std::move(teaches), reinterpret_cast<const void*>(kernel), blocks,
                  [=](tutorial::BlockCycleSlots slots) {
                    kernel<<<unsigned(blocks), threads, kWgSharedBytes>>>(slots, a_map, b_map, d_c,
                                                                          m, n, k);
                  });
}
//! [wgmma_step]

//! [cluster_step]
/// How many clusters of kClusterBlocks blocks of @p kernel, each block with @p shared_bytes of
/// dynamic shared memory, the GPU runs at once (a cluster's blocks must fit on SMs of one GPC
/// at the same time, so this may be less than the SMs / kClusterBlocks).
template <typename Kernel>
int64_t resident_clusters(Kernel* kernel, int shared_bytes) {
  CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  cudaLaunchAttribute cluster_size{};
  const cudaLaunchConfig_t config =
      cluster_launch(1, kClusterBlocks, kSpecializedThreads, shared_bytes, cluster_size);
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  return clusters;
}

/// Step 6 or 9 for the chapter's table: @p kernel (cluster_kernel or cluster_waves_kernel) on
/// @p clusters clusters of kClusterBlocks (persistent: at most the resident ones), with
/// @p shared_bytes of dynamic shared memory, B's tensor map with boxes of kClusterBRows rows
/// (each block's half of B's tile), and C as @p c_out gives it: C itself for step 6,
/// c_tensor_map() for step 9. The run must outlive the step.
/// @pre wgmma_steps_run_on(the current device).
template <typename Kernel, typename COut>
tutorial::Step cluster_step(std::string id, std::string teaches, const Bf16MatmulRun& run,
                            Kernel* kernel, int shared_bytes, COut c_out, int64_t clusters) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kClusterBRows);
  CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  return run.step(
      std::move(id), std::move(teaches), reinterpret_cast<const void*>(kernel),
      clusters * kClusterBlocks, [=](tutorial::BlockCycleSlots slots) {
        cudaLaunchAttribute cluster_size{};
        const cudaLaunchConfig_t config = cluster_launch(
            clusters, kClusterBlocks, kSpecializedThreads, shared_bytes, cluster_size);
        CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, slots, a_map, b_map, c_out, m, n, k));
      });
}
//! [cluster_step]

//! [tma_store_step]
/// The signature steps 7-9 share: that of steps 3-6, with C's tensor map in place of C.
using TmaStoreKernel = void (*)(tutorial::BlockCycleSlots, CUtensorMap, CUtensorMap, CUtensorMap,
                                int64_t, int64_t, int64_t);

/// Step 7 or 8 for the chapter's table: @p kernel (tma_store_kernel or square_waves_kernel) on
/// @p blocks blocks with kTmaStoreSharedBytes of dynamic shared memory, storing C through
/// c_tensor_map(). The run must outlive the step.
/// @pre wgmma_steps_run_on(the current device).
inline tutorial::Step tma_store_step(std::string id, std::string teaches, const Bf16MatmulRun& run,
                                     TmaStoreKernel kernel, int64_t blocks) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kWgBlockN);
  const CUtensorMap c_map = c_tensor_map(run.c(), m, n);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kTmaStoreSharedBytes));
  return run.step(std::move(id), std::move(teaches), reinterpret_cast<const void*>(kernel), blocks,
                  [=](tutorial::BlockCycleSlots slots) {
                    kernel<<<unsigned(blocks), kSpecializedThreads, kTmaStoreSharedBytes>>>(
                        slots, a_map, b_map, c_map, m, n, k);
                  });
}
//! [tma_store_step]

/// The report's line on step 10's grid (split_k_tail_grid()) over @p tiles tiles of @p steps
/// steps of K.
inline std::string split_k_tail_note(const SplitKTailGrid& grid, int64_t tiles, int64_t steps) {
  const int64_t left = tiles - grid.whole_tiles;
  if (left == 0) {
    return "wgmma_split_k_tail: no tile split (a last wave of whole tiles is as short): step 8's " +
           std::to_string(grid.blocks) + " blocks";
  }
  return "wgmma_split_k_tail: " + std::to_string(grid.blocks) + " blocks, " +
         std::to_string(grid.whole_tiles) + " tiles whole, the last " + std::to_string(left) +
         " in " + std::to_string(grid.pieces) + " pieces of " +
         std::to_string(steps / grid.pieces) + "-" +
         std::to_string(tutorial::ceil_div(steps, grid.pieces)) + " of their " +
         std::to_string(steps) + " steps of K, on " + std::to_string(left * grid.pieces) +
         " blocks";
}

//! [split_k_tail_step]
/// Step 10 for the chapter's table: split_k_tail_kernel on @p grid, with its workspace (a slot
/// of kTileFloats floats and a count per consumer for each split tile, zeroed here once: each
/// launch leaves them zero). The run must outlive the step; the step owns the workspace.
/// @pre wgmma_steps_run_on(the current device).
inline tutorial::Step split_k_tail_step(std::string id, std::string teaches,
                                        const Bf16MatmulRun& run, SplitKTailGrid grid) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kWgBlockN);
  const CUtensorMap c_map = c_tensor_map(run.c(), m, n);
  const int64_t split = wgmma_blocks(m, n) - grid.whole_tiles;
  struct Workspace {
    tutorial::DeviceBuffer<float4> partials;
    tutorial::DeviceBuffer<int> steps_done;
  };
  const auto workspace = std::make_shared<Workspace>(
      Workspace{tutorial::DeviceBuffer<float4>(split * kTileFloats / 4),
                tutorial::DeviceBuffer<int>(split * kConsumerWarpgroups)});
  CUDA_CHECK(cudaMemset(workspace->partials.data(), 0, workspace->partials.bytes()));
  CUDA_CHECK(cudaMemset(workspace->steps_done.data(), 0, workspace->steps_done.bytes()));
  CUDA_CHECK(cudaFuncSetAttribute(split_k_tail_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kTmaStoreSharedBytes));
  return run.step(
      std::move(id), std::move(teaches), reinterpret_cast<const void*>(split_k_tail_kernel),
      grid.blocks, [=](tutorial::BlockCycleSlots slots) {
        split_k_tail_kernel<<<unsigned(grid.blocks), kSpecializedThreads, kTmaStoreSharedBytes>>>(
            slots, a_map, b_map, c_map, m, n, k, grid.whole_tiles, grid.pieces,
            workspace->partials.data(), workspace->steps_done.data());
      });
}
//! [split_k_tail_step]

}  // namespace chapter10
