/**
 * @file chapters/10_tensor_cores/tensor_peak.cuh
 * @brief The tensor cores' theoretical BF16 rate (dense, FP32 accumulation): SMs x clock x the
 *        rate one SM's tensor cores reach per clock, which the page derives per architecture.
 */
#pragma once

#include <cstdio>
#include <string>

#include "tutorial/harness/device_facts.cuh"

namespace chapter10 {

//! [tensor_flops_per_sm]
/**
 * @brief BF16 FLOPs (2 per multiply-add) one SM's tensor cores complete per clock, dense, with
 *        FP32 accumulation; 0 where the chapter does not know it.
 *
 * No attribute reports it. From NVIDIA's published peaks: the A100 (compute capability 8.0)
 * does 312 TFLOP/s with 108 SMs at 1410 MHz, 2048 per SM and clock; the H100 SXM (9.0) 989.4
 * TFLOP/s with 132 SMs at 1830 MHz, 4096. Other parts of the same architecture differ (some
 * GeForce cards run BF16 with FP32 accumulation at half rate), so only these two are given.
 */
inline int tensor_bf16_flops_per_sm_clock(int major, int minor) {
  if (major == 8 && minor == 0) return 2048;
  if (major == 9 && minor == 0) return 4096;
  return 0;
}
//! [tensor_flops_per_sm]

/// Theoretical BF16 tensor GFLOP/s at the clock the device reports; 0 when not known.
inline double tensor_peak_gflops(const tutorial::DeviceFacts& device) {
  return double(device.sm_count) * (device.sm_clock_khz * 1e3) *
         tensor_bf16_flops_per_sm_clock(device.major, device.minor) / 1e9;
}

/// How the peak was derived, for the report's notes.
inline std::string describe_tensor_peak(const tutorial::DeviceFacts& device) {
  const int per_sm = tensor_bf16_flops_per_sm_clock(device.major, device.minor);
  char line[256];
  if (per_sm == 0) {
    std::snprintf(line, sizeof line,
                  "tensor-core BF16 peak: not known to this chapter for compute capability "
                  "%d.%d (the %% peak column stays empty)",
                  device.major, device.minor);
  } else {
    std::snprintf(line, sizeof line,
                  "tensor-core BF16 peak %.0f GFLOP/s = %d SMs x %d MHz x %d FLOPs per SM and "
                  "clock (compute capability %d.%d, dense, FP32 accumulation)",
                  tensor_peak_gflops(device), device.sm_count, device.sm_clock_khz / 1000, per_sm,
                  device.major, device.minor);
  }
  return line;
}

}  // namespace chapter10
