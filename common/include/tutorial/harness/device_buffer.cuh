/**
 * @file device_buffer.cuh
 * @brief DeviceBuffer<T>: device memory that frees itself, with an out-of-memory error that
 *        says what was asked and what is free.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/poison.hpp"

namespace tutorial {

/// Bytes as a short human string: "64.0 MiB".
inline std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[unit]);
  return text;
}

/// An array of @p T in device memory, freed when it goes out of scope. Move-only.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;

  /// Allocates @p count elements (uninitialized). @throws CudaError when they do not fit.
  explicit DeviceBuffer(int64_t count) : count_(count) {
    if (count < 0 ||
        static_cast<uint64_t>(count) > std::numeric_limits<size_t>::max() / sizeof(T)) {
      throw CudaError("cannot allocate " + std::to_string(count) + " elements");
    }
    if (count == 0) return;
    const cudaError_t status = cudaMalloc(&data_, bytes());
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // out of memory is not sticky: clear it and explain
      size_t free = 0, total = 0;
      CUDA_CHECK(cudaMemGetInfo(&free, &total));
      throw CudaError("out of device memory: asked for " + format_bytes(double(bytes())) + ", " +
                      format_bytes(double(free)) + " free of " + format_bytes(double(total)));
    }
    CUDA_CHECK(status);
  }
  /// Allocates and copies @p host to the device.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(int64_t(host.size())) {
    copy_from(host);
  }

  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }  // a failure here has nowhere to go

  T* data() const { return data_; }
  int64_t size() const { return count_; }
  size_t bytes() const { return static_cast<size_t>(count_) * sizeof(T); }

  /// Copies @p host (of size() elements at most) to the start of the buffer.
  void copy_from(const std::vector<T>& host) {
    if (static_cast<int64_t>(host.size()) > count_)
      throw std::logic_error("copy_from: host too large");
    CUDA_CHECK(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies the whole buffer back to the host.
  std::vector<T> to_host() const {
    std::vector<T> host(static_cast<size_t>(count_));
    copy_to(host);
    return host;
  }
  /// Copies the whole buffer into @p host, which holds size() elements: a vector reused for
  /// every copy (page-locked, say) is neither reallocated nor zeroed again.
  void copy_to(std::vector<T>& host) const {
    if (static_cast<int64_t>(host.size()) != count_)
      throw std::logic_error("copy_to: sizes differ");
    CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
  }
  /// Fills every element with the poison (poison.hpp: NaN for floats, 0x7F7F7F7F for an int32),
  /// so that an element the kernel forgot to write shows up as wrong instead of as a stale
  /// right answer. @p which picks the second poison, for a check that runs after each.
  void poison(Poison which = Poison::kFirst) {
    CUDA_CHECK(cudaMemset(data_, poison_byte<T>(which), bytes()));
  }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  int64_t count_ = 0;
};

}  // namespace tutorial
