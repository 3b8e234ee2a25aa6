/**
 * @file measure.cuh
 * @brief Timing with CUDA events: one warm-up, then R timed runs, each from an L2 cache that
 *        holds neither the inputs nor modified lines; the median is what the report quotes. And one
 * extra run that records per-block cycles.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/report.hpp"
#include "tutorial/harness/stats.hpp"

namespace tutorial {

/// A CUDA event that destroys itself.
class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

/// What read_only_pass's XOR must equal for it to write its sink: never, for zeros.
constexpr int kReadPassNeverWritten = 0x2545F491;

/**
 * @brief Reads @p count 16-byte words and writes nothing (in practice): the L2 flush, and
 *        the plain read kernel of docs/measuring.md.
 *
 * The loads must not be optimised away, so their XOR decides whether *@p sink is written;
 * for a buffer of zeros (the flush buffer) it never is, and for other data about one thread
 * in 2^32 writes it.
 */
__global__ inline void read_only_pass(const int4* __restrict__ data, int64_t count, int* sink) {
  int bits = 0;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int4 v = data[i];
    bits ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (bits == kReadPassNeverWritten) *sink = bits;
}

/// Launches read_only_pass over @p bytes of @p data (a multiple of 16) with enough blocks to
/// fill @p device, on the default stream.
inline void launch_read_only_pass(const DeviceFacts& device, const void* data, int64_t bytes,
                                  int* sink) {
  constexpr int kThreads = 512;
  read_only_pass<<<4 * device.sm_count, kThreads>>>(static_cast<const int4*>(data), bytes / 16,
                                                    sink);
}

/**
 * How a timed run begins. kRead is what the project uses; the others exist to show, in
 * tools/flush_study.cu and docs/measuring.md, what goes wrong without it:
 *   kNone   inputs that fit in L2 are still there from the run before: the time is L2's;
 *   kWrite  a memset of 2 x L2 (the project's flush until 2026-11) evicts the inputs, but
 *           leaves L2 full of modified lines, whose write-back to DRAM then lands inside the
 *           timed kernel and slows it;
 *   kRead   a read of 2 x L2 of zeros evicts everything (writing back what was modified,
 *           while no timer runs) and leaves only clean lines of a buffer no kernel writes.
 */
enum class L2Flush { kNone, kWrite, kRead };

/// Times launches on the default stream.
class Timer {
 public:
  /// @p device tells the L2 size; the flush buffer is twice that (see L2Flush).
  explicit Timer(const DeviceFacts& device, L2Flush flush = L2Flush::kRead)
      : device_(device), flush_(flush), flush_buffer_(2 * int64_t{device.l2_bytes}), sink_(1) {
    // Zeros, so that read_only_pass never writes its sink; then one pass, so that the
    // memset's modified lines are written back now rather than in the first timed run.
    CUDA_CHECK(cudaMemset(flush_buffer_.data(), 0, flush_buffer_.bytes()));
    launch_read_only_pass(device_, flush_buffer_.data(), flush_buffer_.bytes(), sink_.data());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  /**
   * @brief Runs @p launch once to warm up, then @p reps times between two events, each time
   *        after flush_l2().
   * @param launch enqueues the work on the default stream; it need not check launch errors.
   * @return min / median / max milliseconds per run.
   */
  //! [time_ms]
  template <typename Launch>
  Summary time_ms(int reps, Launch&& launch) {
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> samples;
    for (int i = 0; i < reps; ++i) {
      flush_l2();
      CUDA_CHECK(cudaEventRecord(start_.get()));
      launch();
      CUDA_CHECK(cudaEventRecord(stop_.get()));
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventSynchronize(stop_.get()));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
      samples.push_back(ms);
    }
    return summarize(samples);
  }
  //! [time_ms]

  /// The device it times on.
  const DeviceFacts& device() const { return device_; }

  /**
   * @brief Leaves L2 without the previous run's data and without modified lines (L2Flush).
   *
   * Enqueued on the default stream, like the start event after it: the event fires only once
   * the flush has finished, so the flush is synchronized with the timer without the host
   * waiting (a host wait would let the kernel's launch latency into the timed interval).
   */
  void flush_l2() {
    switch (flush_) {
      case L2Flush::kNone:
        break;
      case L2Flush::kWrite:
        CUDA_CHECK(cudaMemsetAsync(flush_buffer_.data(), 0x5A, flush_buffer_.bytes()));
        break;
      case L2Flush::kRead:
        launch_read_only_pass(device_, flush_buffer_.data(), flush_buffer_.bytes(), sink_.data());
        CUDA_CHECK(cudaGetLastError());
        break;
    }
  }

 private:
  DeviceFacts device_;
  L2Flush flush_;
  DeviceBuffer<unsigned char> flush_buffer_;
  DeviceBuffer<int> sink_;
  Event start_, stop_;
};

/**
 * @brief Times a chapter kernel, then runs it once more recording per-block cycles.
 * @param launch   enqueues the kernel given a BlockCycleSlots (empty while timing).
 * @param blocks   how many blocks the launch has (the recorder keeps one slot each).
 * @param elements how many elements those blocks cover together (for cycles per element).
 * @param work     bytes moved (or operations) per run, for the rate column.
 */
template <typename Launch>
Row measure_kernel(Timer& timer, int reps, std::string name, double work, int64_t blocks,
                   double elements, Launch&& launch) {
  Row row;
  row.name = std::move(name);
  row.work = work;
  row.elements_per_block = elements / double(blocks);
  row.ms = timer.time_ms(reps, [&] { launch(BlockCycleSlots{}); });
  BlockCycleRecorder recorder(blocks);
  timer.flush_l2();  // cycles from a cold L2, like the timed runs
  launch(recorder.slots());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  row.block_cycles = recorder.cycles(blocks);
  row.grid_span_us = recorder.span_us(blocks);
  row.clock_mhz = recorder.clock_mhz(blocks);
  return row;
}

/// Times the vendor library doing the same work (no cycles: its kernels are not ours).
template <typename Launch>
Row measure_vendor(Timer& timer, int reps, std::string name, double work, Launch&& launch) {
  Row row;
  row.name = std::move(name);
  row.work = work;
  row.vendor = true;
  row.ms = timer.time_ms(reps, launch);
  return row;
}

}  // namespace tutorial
