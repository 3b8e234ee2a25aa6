/**
 * @file fp32_peak.cuh
 * @brief The GPU's theoretical FP32 rate: SMs x clock x FP32 lanes per SM x 2 (chapter 07's
 *        peak, and the roofline's compute roof in tools/roofs.cu).
 */
#pragma once

#include <cstdio>
#include <string>

#include "tutorial/harness/device_facts.cuh"

namespace tutorial {

//! [fp32_lanes_per_sm]
/**
 * @brief FP32 fused multiply-adds one SM completes per clock, from the compute capability.
 *
 * No device attribute reports this number: it is the one architecture fact of the chapter
 * that is not read from an attribute. It comes from the throughput table of the CUDA C++
 * Programming Guide ("Arithmetic Instructions": 32-bit floating-point add, multiply,
 * multiply-add): 64 results per clock per SM on compute capability 7.x (Volta, Turing) and
 * 8.0 (A100); 128 on 8.6, 8.7, 8.9 (Ampere consumer, Orin, Ada), 9.0 (Hopper), 10.x and 12.x
 * (Blackwell). The tutorial needs 7.5 or newer, so every other value means 128.
 */
inline int fp32_lanes_per_sm(int major, int minor) {
  return (major == 7 || (major == 8 && minor == 0)) ? 64 : 128;
}
//! [fp32_lanes_per_sm]

/// Theoretical FP32 GFLOP/s: every lane of every SM retires one FMA (2 FLOPs) per clock.
inline double fp32_peak_gflops(const DeviceFacts& device) {
  return 2.0 * device.sm_count * (device.sm_clock_khz * 1e3) *
         fp32_lanes_per_sm(device.major, device.minor) / 1e9;
}

/// How the peak was derived, for the report's notes.
inline std::string describe_fp32_peak(const DeviceFacts& device) {
  char line[256];
  std::snprintf(line, sizeof line,
                "FP32 peak %.0f GFLOP/s = %d SMs x %d MHz x %d FP32 lanes per SM (compute "
                "capability %d.%d) x 2 FLOPs per FMA",
                fp32_peak_gflops(device), device.sm_count, device.sm_clock_khz / 1000,
                fp32_lanes_per_sm(device.major, device.minor), device.major, device.minor);
  return line;
}

}  // namespace tutorial
