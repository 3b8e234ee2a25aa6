/**
 * @file chapters/11_multi_gpu/device_scope.hpp
 * @brief DeviceScope: the current device for a scope, put back after it. Chapter 11 and its
 *        exercises use it wherever work goes to another GPU.
 */
#pragma once

#include <cuda_runtime.h>

#include "tutorial/harness/cuda_check.cuh"

namespace chapter11 {

/// Makes @p device current for the scope, and puts the one before back. A kernel launch goes to
/// the current device, and must use a stream of that device.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { (void)cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace chapter11
