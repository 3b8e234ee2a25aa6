/**
 * @file chapters/06_blelloch_scan/host_pin.cuh
 * @brief HostPin: a host vector page-locked while it lives, for the scans' copies of whole
 *        outputs back to the host (chapters 06 and 08: #include "06_blelloch_scan/host_pin.cuh").
 */
#pragma once

#include <cuda_runtime.h>

#include <vector>

namespace tutorial {

/**
 * @brief Page-locks (pins) a host vector's memory while it lives, so that copies between it and
 *        the device run at the bus's full speed instead of through the driver's staging buffer.
 *
 * When the system will not lock that much memory, the vector stays pageable: copies are then
 * slower, not wrong.
 * @pre the vector is neither resized nor destroyed while the pin lives (declare it first).
 */
class HostPin {
 public:
  template <typename T>
  explicit HostPin(std::vector<T>& host) {
    if (host.empty()) return;
    if (cudaHostRegister(host.data(), host.size() * sizeof(T), cudaHostRegisterDefault) ==
        cudaSuccess) {
      pinned_ = host.data();
    } else {
      (void)cudaGetLastError();  // not sticky: clear it and copy through pageable memory
    }
  }
  HostPin(const HostPin&) = delete;
  HostPin& operator=(const HostPin&) = delete;
  ~HostPin() {
    if (pinned_ != nullptr) cudaHostUnregister(pinned_);  // a failure here has nowhere to go
  }

 private:
  void* pinned_ = nullptr;
};

}  // namespace tutorial
