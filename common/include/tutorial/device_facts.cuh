/**
 * @file device_facts.cuh
 * @brief What the report needs to know about the GPU, read from its attributes: never from a
 *        table of GPU names, so it stays right on GPUs released after this was written.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "tutorial/cuda_check.cuh"

namespace tutorial {

/// The device's facts, as attributes report them.
struct DeviceFacts {
  int id = 0;
  std::string name;
  int major = 0, minor = 0;  ///< compute capability
  int sm_count = 0;
  int sm_clock_khz = 0;      ///< peak SM clock
  int memory_clock_khz = 0;  ///< peak memory clock
  int bus_width_bits = 0;
  int l2_bytes = 0;
  size_t total_memory = 0;

  /// Theoretical DRAM bandwidth: 2 transfers per clock (double data rate) x bus width.
  double peak_gbs() const { return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9; }

  /// One line for the report, with the numbers the peak is derived from.
  std::string describe() const {
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s (sm_%d%d, %d SMs at %d MHz, %.1f GiB; peak %.0f GB/s = 2 x %d MHz x "
                  "%d bit / 8)",
                  name.c_str(), major, minor, sm_count, sm_clock_khz / 1000,
                  total_memory / double(1 << 30), peak_gbs(), memory_clock_khz / 1000,
                  bus_width_bits);
    return line;
  }
};

/**
 * @brief Facts of the current device.
 * @throws NoDeviceError when there is no usable CUDA device (exit 77), CudaError otherwise.
 */
inline DeviceFacts query_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    throw NoDeviceError(std::string("no CUDA device found (") +
                        (status != cudaSuccess ? cudaGetErrorString(status) : "0 devices") +
                        "); this program needs an NVIDIA GPU");
  }
  DeviceFacts f;
  CUDA_CHECK(cudaGetDevice(&f.id));
  cudaDeviceProp props{};
  CUDA_CHECK(cudaGetDeviceProperties(&props, f.id));
  f.name = props.name;
  f.total_memory = props.totalGlobalMem;
  const auto attribute = [&](cudaDeviceAttr what) {
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, what, f.id));
    return value;
  };
  f.major = attribute(cudaDevAttrComputeCapabilityMajor);
  f.minor = attribute(cudaDevAttrComputeCapabilityMinor);
  f.sm_count = attribute(cudaDevAttrMultiProcessorCount);
  f.sm_clock_khz = attribute(cudaDevAttrClockRate);
  f.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
  f.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  f.l2_bytes = attribute(cudaDevAttrL2CacheSize);
  return f;
}

}  // namespace tutorial
