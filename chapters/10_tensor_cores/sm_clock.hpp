/**
 * @file chapters/10_tensor_cores/sm_clock.hpp
 * @brief The SM clock while timed runs go on: a host thread reads it from NVML every
 *        millisecond between start() and stop().
 *
 * A GPU's boost clock falls under heavy load (power and temperature limits), so a rate divided
 * by the peak at the clock the device reports can mislead. Reading the clock under Nsight
 * Compute tells the clock of a profiled run, not of the timed ones; this reads it during the
 * timed ones. NVML (libnvidia-ml.so.1) comes with the driver; it is opened at run time, so that
 * nothing is linked and a machine without it only loses the reading (available() is false).
 */
#pragma once

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace chapter10 {

/// Samples the SM clock (MHz) of one GPU from a host thread. Not copyable; one per device.
class SmClockSampler {
 public:
  /// @p pci_bus_id: the device's PCI bus id, as cudaDeviceGetPCIBusId writes it.
  explicit SmClockSampler(const char* pci_bus_id) {
    library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) return;
    const auto init = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlInit_v2"));
    const auto by_bus = reinterpret_cast<int (*)(const char*, Device*)>(
        dlsym(library_, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_info_ = reinterpret_cast<int (*)(Device, int, unsigned int*)>(
        dlsym(library_, "nvmlDeviceGetClockInfo"));
    shutdown_ = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlShutdown"));
    reasons_of_ = reinterpret_cast<int (*)(Device, unsigned long long*)>(
        dlsym(library_, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (init == nullptr || by_bus == nullptr || clock_info_ == nullptr || shutdown_ == nullptr ||
        init() != kSuccess) {
      return;
    }
    initialized_ = true;
    unsigned int mhz = 0;
    available_ = by_bus(pci_bus_id, &device_) == kSuccess && read(&mhz);
  }
  ~SmClockSampler() {
    stop();
    if (initialized_) shutdown_();
    if (library_ != nullptr) dlclose(library_);
  }
  SmClockSampler(const SmClockSampler&) = delete;
  SmClockSampler& operator=(const SmClockSampler&) = delete;

  /// Whether NVML answered for this device (if not, stop() returns no samples).
  bool available() const { return available_; }

  /// Starts reading the clock every millisecond, forgetting earlier samples.
  void start() {
    stop();
    samples_.clear();
    reasons_ = 0;
    if (!available_) return;
    running_ = true;
    thread_ = std::thread([this] {
      while (running_) {
        unsigned int mhz = 0;
        if (read(&mhz)) samples_.push_back(mhz);
        unsigned long long reasons = 0;
        if (reasons_of_ != nullptr && reasons_of_(device_, &reasons) == kSuccess) {
          reasons_ |= reasons;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }

  /// Stops reading; returns the samples since start() (MHz, in the order read).
  std::vector<unsigned int> stop() {
    if (thread_.joinable()) {
      running_ = false;
      thread_.join();
    }
    return samples_;
  }

  /// Why the clock was held below its maximum at some reading since start() (NVML's clocks event
  /// reasons, OR-ed: 0x4 software power cap, 0x8 hardware slowdown, 0x20 software thermal,
  /// 0x40 hardware thermal, 0x80 power brake; 0x1 idle); valid after stop().
  unsigned long long reasons() const { return reasons_; }

  /// The median of @p samples (0 when there are none).
  static unsigned int median(std::vector<unsigned int> samples) {
    if (samples.empty()) return 0;
    const auto middle = samples.begin() + std::ptrdiff_t(samples.size() / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    return *middle;
  }

 private:
  using Device = struct NvmlDevice*;  // nvmlDevice_t
  static constexpr int kSuccess = 0;  // NVML_SUCCESS
  static constexpr int kSmClock = 1;  // NVML_CLOCK_SM
  bool read(unsigned int* mhz) const { return clock_info_(device_, kSmClock, mhz) == kSuccess; }

  void* library_ = nullptr;
  int (*clock_info_)(Device, int, unsigned int*) = nullptr;
  int (*shutdown_)() = nullptr;
  int (*reasons_of_)(Device, unsigned long long*) = nullptr;
  Device device_ = nullptr;
  bool initialized_ = false, available_ = false;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::vector<unsigned int> samples_;  // written by the thread, read after it is joined
  unsigned long long reasons_ = 0;     // likewise
};

}  // namespace chapter10
