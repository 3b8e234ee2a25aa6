/**
 * @file chapters/11_multi_gpu/gpus.cuh
 * @brief The GPUs of this process: which see each other (the topology), peer access, one
 *        stream and one input and output buffer each, and a clock for work spread over all of
 *        them.
 */
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/cuda_check.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/stats.hpp"

namespace chapter11 {

/// This process's place in a job run as one process per GPU (tools/run_ranks.sh); ranks 0:
/// one process drives every GPU.
struct RankPlace {
  int rank = 0;         ///< 0 .. ranks - 1
  int ranks = 0;        ///< processes in the job
  std::string id_file;  ///< where rank 0 leaves NCCL's unique id for the others
};

/// Makes @p device current for the scope, and puts the one before back.
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

/// A stream and an event on one device, destroyed with it.
class DeviceQueue {
 public:
  explicit DeviceQueue(int device) : device_(device) {
    DeviceScope scope(device);
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
  }
  ~DeviceQueue() {  // no CUDA_CHECK here: a destructor must not throw, even after an error
    int previous = 0;
    (void)cudaGetDevice(&previous);
    (void)cudaSetDevice(device_);
    (void)cudaEventDestroy(done_);
    (void)cudaStreamDestroy(stream_);
    (void)cudaSetDevice(previous);
  }
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaEvent_t done() const { return done_; }

 private:
  int device_;
  cudaStream_t stream_{};
  cudaEvent_t done_{};
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

/**
 * @brief Times work spread over several GPUs with the host's clock: events cannot be compared
 *        across devices. Each sample runs @p batch operations back to back and divides, so
 *        that the launch and synchronization costs of one sample are shared by the batch (as
 *        nccl-tests does); one warm-up operation first. Milliseconds per operation.
 */
template <typename Operation>
tutorial::Summary time_across_gpus(int reps, int batch, const std::vector<DeviceQueue*>& queues,
                                   Operation&& operation) {
  operation();
  synchronize_all(queues);
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) operation();
    synchronize_all(queues);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    samples.push_back(took.count() / batch);
  }
  return tutorial::summarize(samples);
}

}  // namespace chapter11
