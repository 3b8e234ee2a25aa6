/**
 * @file chapters/11_multi_gpu/gpus.cuh
 * @brief The GPUs of this process: which see each other (the topology), peer access, one
 *        stream each, and a clock for work spread over all of them that runs on the GPUs.
 */
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "device_scope.hpp"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/stats.hpp"

namespace chapter11 {

/// A stream on one device and the two events that time work on it, destroyed with it.
class DeviceQueue {
 public:
  explicit DeviceQueue(int device) : device_(device) {
    DeviceScope scope(device);
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~DeviceQueue() {  // no CUDA_CHECK here: a destructor must not throw, even after an error
    int previous = 0;
    (void)cudaGetDevice(&previous);
    (void)cudaSetDevice(device_);
    (void)cudaEventDestroy(stop_);
    (void)cudaEventDestroy(start_);
    (void)cudaStreamDestroy(stream_);
    (void)cudaSetDevice(previous);
  }
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaEvent_t start() const { return start_; }
  cudaEvent_t stop() const { return stop_; }

 private:
  int device_;
  cudaStream_t stream_{};
  cudaEvent_t start_{}, stop_{};
};

//! [topology]
/// One line per ordered pair of GPUs: can the first read the second's memory directly (peer
/// access), the driver's performance rank of the link (0 is the best it knows), and whether
/// atomics work across it.
inline std::vector<std::string> describe_topology(int count) {
  std::vector<std::string> lines;
  for (int from = 0; from < count; ++from) {
    for (int to = 0; to < count; ++to) {
      if (from == to) continue;
      int access = 0, rank = 0, atomics = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&access, from, to));
      CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, from, to));
      CUDA_CHECK(
          cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, from, to));
      lines.push_back("GPU " + std::to_string(from) + " -> GPU " + std::to_string(to) + ": " +
                      (access ? "peer access" : "no peer access (copies go through the host)") +
                      ", performance rank " + std::to_string(rank) +
                      (atomics ? ", native atomics" : ", no native atomics"));
    }
  }
  return lines;
}
//! [topology]

/// Turns on peer access from every GPU to every other it can reach; false if some pair cannot.
inline bool enable_peer_access(int count) {
  bool all = true;
  for (int from = 0; from < count; ++from) {
    DeviceScope scope(from);
    for (int to = 0; to < count; ++to) {
      if (from == to) continue;
      int access = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&access, from, to));
      if (!access) {
        all = false;
        continue;
      }
      const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // not an error here: a second call
      } else {
        CUDA_CHECK(status);
      }
    }
  }
  return all;
}

/// Waits until every queue's work so far is done.
inline void synchronize_all(const std::vector<DeviceQueue*>& queues) {
  for (DeviceQueue* q : queues) CUDA_CHECK(cudaStreamSynchronize(q->stream()));
}

/// How long a gate waits for the host (nanoseconds) before it lets the work behind it go.
constexpr unsigned long long kGateTimeoutNs = 2'000'000'000ull;

/// Spins until the host has written @p value into @p word (pinned host memory): holds the work
/// behind it on the stream until the host lets every GPU go at once. If the host has not done
/// so in kGateTimeoutNs (under compute-sanitizer's initcheck on two H100s it never did: the
/// launch seems to wait for this kernel, so the host cannot enqueue what comes after it), it
/// lets the work go anyway and says so in @p gave_up, rather than hang.
__global__ void wait_for_host(const volatile uint32_t* word, uint32_t value,
                              volatile uint32_t* gave_up) {
  const unsigned long long start = tutorial::global_timer_ns();
  while (*word != value) {
    if (tutorial::global_timer_ns() - start > kGateTimeoutNs) {
      *gave_up = 1;
      return;
    }
  }
}

/// Two words in pinned host memory that every GPU reads and writes: a gate that holds each
/// GPU's timed work until the host opens it for all of them together, and whether a GPU gave
/// up waiting for it.
class HostGate {
 public:
  HostGate() {
    CUDA_CHECK(
        cudaHostAlloc(&words_, 2 * sizeof(uint32_t), cudaHostAllocMapped | cudaHostAllocPortable));
    words_[kOpened] = words_[kGaveUp] = 0;
  }
  ~HostGate() { (void)cudaFreeHost(const_cast<uint32_t*>(words_)); }
  HostGate(const HostGate&) = delete;
  HostGate& operator=(const HostGate&) = delete;
  /// The stream's next work waits until open() is called.
  void hold(cudaStream_t stream) {
    wait_for_host<<<1, 1, 0, stream>>>(words_ + kOpened, opened_ + 1, words_ + kGaveUp);
    CUDA_CHECK(cudaGetLastError());
  }
  void open() { words_[kOpened] = ++opened_; }
  /// Did a GPU start before open()? Then the times include the host's enqueueing.
  bool gave_up() const { return words_[kGaveUp] != 0; }

 private:
  static constexpr int kOpened = 0, kGaveUp = 1;
  volatile uint32_t* words_ = nullptr;
  uint32_t opened_ = 0;
};

/// The longest time between a queue's two events, in milliseconds: every GPU's span.
inline double slowest_ms(const std::vector<DeviceQueue*>& queues) {
  float slowest = 0;
  for (DeviceQueue* q : queues) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, q->start(), q->stop()));
    slowest = std::max(slowest, ms);
  }
  return slowest;
}

//! [time_on_gpus]
/**
 * @brief Times @p calls calls of @p call(k) (k = 0 .. calls - 1, each enqueueing work on any of
 *        the queues' streams) on the GPUs themselves, with the host out of the timed work.
 *
 * Each of @p reps samples holds every GPU at a gate and records an event behind it; the host
 * then enqueues all the calls and an event after them on every GPU, and only then opens the
 * gate: every GPU starts at the same moment and runs the calls back to back, however slowly
 * the host enqueued them. A sample is the slowest GPU's time between its events (a collective
 * is done when every GPU is). The calls once first, untimed. Milliseconds per call: min,
 * median and max over the samples.
 */
template <typename Call>
tutorial::Summary time_on_gpus(int reps, const std::vector<DeviceQueue*>& queues, int calls,
                               Call&& call) {
  for (int k = 0; k < calls; ++k) call(k);  // the warm-up
  synchronize_all(queues);
  HostGate gate;
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    for (DeviceQueue* q : queues) {
      DeviceScope scope(q->device());
      gate.hold(q->stream());
      CUDA_CHECK(cudaEventRecord(q->start(), q->stream()));
    }
    for (int k = 0; k < calls; ++k) call(k);
    for (DeviceQueue* q : queues) {
      DeviceScope scope(q->device());
      CUDA_CHECK(cudaEventRecord(q->stop(), q->stream()));
    }
    gate.open();
    synchronize_all(queues);
    samples.push_back(slowest_ms(queues) / calls);
  }
  if (gate.gave_up()) {
    std::fprintf(stderr,
                 "chapter 11: a GPU gave up waiting for the host at the gate (are launches "
                 "blocking, as under a sanitizer?): these times include the host's enqueueing\n");
  }
  return tutorial::summarize(samples);
}
//! [time_on_gpus]

}  // namespace chapter11
