/**
 * @file chapters/10_tensor_cores/wgmma_steps.cuh
 * @brief Steps 3-5 from the host: whether they can run here, their tensor maps, their
 *        launches (dynamic shared memory beyond 48 KiB), timed and checked like steps 1-2.
 */
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "bf16_matmul.cuh"
#include "persistent_kernel.cuh"
#include "tensor_map.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/report.hpp"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// Why steps 3-5 may not run: what the report says when they are skipped.
constexpr const char* kWgmmaSkipped =
    "wgmma_tma, wgmma_warp_specialized and wgmma_persistent skipped: TMA, wgmma and setmaxnreg "
    "need an sm_90a build and a compute capability 9.0 GPU (Hopper)";

/// Whether this binary holds the sm_90a code of steps 3-5 (CMake defines TUTORIAL_SM90A
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

//! [time_wgmma_steps]
/// Times and checks steps 3-5 on @p run's matrices into @p report; step 5 gets a block per
/// SM of @p device.
/// @pre wgmma_steps_run_on(@p device), the current device.
inline void time_wgmma_steps(Bf16MatmulRun& run, tutorial::Report& report, tutorial::Timer& timer,
                             int reps, const tutorial::DeviceFacts& device) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  // A is m rows of K, B's columns (b_cols) n rows of K: both K-major, as wgmma wants them.
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kWgBlockN);
  const int64_t blocks = wgmma_blocks(m, n);
  float* d_c = run.c();
  // Past 48 KiB of dynamic shared memory, a kernel must ask for it.
  for (const auto kernel : {wgmma_tma_kernel, warp_specialized_kernel, persistent_kernel}) {
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kWgSharedBytes));
  }

  run.time_and_check(report, timer, reps, "wgmma_tma", "matmul_wgmma_tma", blocks,
                     [&](tutorial::BlockCycleSlots slots) {
                       wgmma_tma_kernel<<<unsigned(blocks), kWgmmaTmaThreads, kWgSharedBytes>>>(
                           slots, a_map, b_map, d_c, m, n, k);
                     });
  run.time_and_check(
      report, timer, reps, "wgmma_warp_specialized", "matmul_wgmma_warp_specialized", blocks,
      [&](tutorial::BlockCycleSlots slots) {
        warp_specialized_kernel<<<unsigned(blocks), kSpecializedThreads, kWgSharedBytes>>>(
            slots, a_map, b_map, d_c, m, n, k);
      });
  const int64_t persistent = persistent_blocks(m, n, device.sm_count);
  run.time_and_check(
      report, timer, reps, "wgmma_persistent", "matmul_wgmma_persistent", persistent,
      [&](tutorial::BlockCycleSlots slots) {
        persistent_kernel<<<unsigned(persistent), kSpecializedThreads, kWgSharedBytes>>>(
            slots, a_map, b_map, d_c, m, n, k);
      });
  report.notes.push_back(persistent_grid_note(persistent, blocks, device.sm_count));
}
//! [time_wgmma_steps]

}  // namespace chapter10
