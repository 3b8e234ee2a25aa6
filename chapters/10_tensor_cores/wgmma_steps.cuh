/**
 * @file chapters/10_tensor_cores/wgmma_steps.cuh
 * @brief Steps 3 and 4 from the host: whether they can run here, their tensor maps, their
 *        launches (dynamic shared memory beyond 48 KiB), timed and checked like steps 1-2.
 */
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "bf16_matmul.cuh"
#include "tensor_map.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/measure.cuh"
#include "tutorial/report.hpp"
#include "warp_specialized_kernel.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

/// Why steps 3 and 4 may not run: what the report says when they are skipped.
constexpr const char* kWgmmaSkipped =
    "wgmma_tma and wgmma_warp_specialized skipped: TMA, wgmma and setmaxnreg need an sm_90a "
    "build and a compute capability 9.0 GPU (Hopper)";

/// Whether this binary holds the sm_90a code of steps 3 and 4 (CMake defines TUTORIAL_SM90A
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

//! [time_wgmma_steps]
/// Times and checks steps 3 and 4 on @p run's matrices into @p report.
/// @pre wgmma_steps_run_on() the current device.
inline void time_wgmma_steps(Bf16MatmulRun& run, tutorial::Report& report, tutorial::Timer& timer,
                             int reps) {
  const int64_t m = run.m_pad(), n = run.n_pad(), k = run.k_pad();
  // A is m rows of K, B's columns (b_cols) n rows of K: both K-major, as wgmma wants them.
  const CUtensorMap a_map = k_major_tensor_map("A", run.a(), m, k, kWgBlockM);
  const CUtensorMap b_map = k_major_tensor_map("B", run.b_cols(), n, k, kWgBlockN);
  const int64_t blocks = wgmma_blocks(m, n);
  float* d_c = run.c();
  // Past 48 KiB of dynamic shared memory, a kernel must ask for it.
  CUDA_CHECK(cudaFuncSetAttribute(matmul_wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kWgSharedBytes));
  CUDA_CHECK(cudaFuncSetAttribute(matmul_wgmma_warp_specialized,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, kWgSharedBytes));

  run.time_and_check(report, timer, reps, "wgmma_tma", "matmul_wgmma_tma", blocks,
                     [&](tutorial::BlockCycleSlots slots) {
                       matmul_wgmma_tma<<<unsigned(blocks), kWgmmaTmaThreads, kWgSharedBytes>>>(
                           a_map, b_map, d_c, m, n, k, slots);
                     });
  run.time_and_check(
      report, timer, reps, "wgmma_warp_specialized", "matmul_wgmma_warp_specialized", blocks,
      [&](tutorial::BlockCycleSlots slots) {
        matmul_wgmma_warp_specialized<<<unsigned(blocks), kSpecializedThreads, kWgSharedBytes>>>(
            a_map, b_map, d_c, m, n, k, slots);
      });
}
//! [time_wgmma_steps]

}  // namespace chapter10
