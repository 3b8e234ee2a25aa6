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

#include "tutorial/harness/cuda_check.cuh"

namespace tutorial {

/// Threads of a warp: a warp shuffle exchanges registers among exactly this many lanes.
constexpr int kWarpThreads = 32;

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
 * @throws NoDeviceError when there is no CUDA device, or only one older than compute
 *         capability 7.5 (exit 77); CudaError for a driver older than the runtime (exit 3).
 */
inline DeviceFacts query_device() {
  int driver = 0;
  (void)cudaDriverGetVersion(&driver);  // 0 when no NVIDIA driver is installed
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (driver == 0 || status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
    (void)cudaGetLastError();
    throw NoDeviceError("no CUDA device found; this program needs an NVIDIA GPU");
  }
  if (status == cudaErrorInsufficientDriver) {
    throw CudaError("the NVIDIA driver (CUDA " + std::to_string(driver / 1000) + "." +
                    std::to_string(driver % 1000 / 10) +
                    ") is older than the CUDA runtime this was built with: update the driver");
  }
  CUDA_CHECK(status);
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
  if (f.major * 10 + f.minor < 75) {
    throw NoDeviceError(f.name + " has compute capability " + std::to_string(f.major) + "." +
                        std::to_string(f.minor) + "; this tutorial needs 7.5 or newer");
  }
  return f;
}

/**
 * @brief Why @p kernel cannot run here, or "" when it can. @p needed is the compute capability
 *        it needs, major * 10 + minor (80 for 8.0), and two things must have it: the GPU, and the
 *        code this build holds for the kernel.
 *
 * The second is the trap. A build for an older architecture's PTX (CMAKE_CUDA_ARCHITECTURES
 * 75-virtual, say) runs on a newer GPU through the driver's JIT, but its device code was compiled
 * with __CUDA_ARCH__ = 750: a body under `#if __CUDA_ARCH__ >= 800` is empty there, and the
 * kernel would launch, do nothing, and be timed. cudaFuncGetAttributes' ptxVersion is the
 * architecture the code the GPU runs was compiled for (75 there, 90 for sm_90 code on an H100).
 * @param what  what needs it, the subject of "need": e.g. "BF16 tensor-core instructions".
 */
inline std::string why_kernel_cannot_run(const void* kernel, int needed, const std::string& what,
                                         const DeviceFacts& device) {
  const auto version = [](int v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); };
  const std::string need = what + " need compute capability " + version(needed) + " or newer";
  const int gpu = device.major * 10 + device.minor;
  if (gpu < needed) return need + "; " + device.name + " has " + version(gpu);
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  if (attributes.ptxVersion < needed) {
    return need + ", and this build runs the kernel from code compiled for " +
           version(attributes.ptxVersion) + " (its body is compiled out there): build for " +
           version(needed) + " or newer, as the default build for this GPU does";
  }
  return "";
}

}  // namespace tutorial
