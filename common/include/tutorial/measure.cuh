/**
 * @file measure.cuh
 * @brief Timing with CUDA events: one warm-up, then R timed runs, each from a cold L2 cache;
 *        the median is what the report quotes. And one extra run that records per-block cycles.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/block_cycles.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/report.hpp"
#include "tutorial/stats.hpp"

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

/// Times launches on the default stream.
class Timer {
 public:
  /// @p device tells the L2 size: each timed run starts after a write of twice that much, so
  /// inputs that would fit in L2 are still read from DRAM, as they would be in a real program.
  explicit Timer(const DeviceFacts& device) : l2_flush_(2 * int64_t{device.l2_bytes}) {}

  /**
   * @brief Runs @p launch once to warm up, then @p reps times between two events.
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

  /// Evicts the previous run's data from L2 by writing a buffer twice its size.
  void flush_l2() { CUDA_CHECK(cudaMemsetAsync(l2_flush_.data(), 0x5A, l2_flush_.bytes())); }

 private:
  DeviceBuffer<unsigned char> l2_flush_;
  Event start_, stop_;
};

/**
 * @brief Times a chapter kernel, then runs it once more recording per-block cycles.
 * @param launch   enqueues the kernel given a BlockCycleSlots (empty while timing).
 * @param blocks   how many blocks the launch has (the recorder keeps one slot each).
 * @param work     bytes moved (or operations) per run, for the rate column.
 */
template <typename Launch>
Row measure_kernel(Timer& timer, int reps, std::string name, double work, int64_t blocks,
                   Launch&& launch) {
  Row row;
  row.name = std::move(name);
  row.work = work;
  row.ms = timer.time_ms(reps, [&] { launch(BlockCycleSlots{}); });
  BlockCycleRecorder recorder(blocks);
  timer.flush_l2();  // cycles from a cold L2, like the timed runs
  launch(recorder.slots());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  row.block_cycles = recorder.cycles(blocks);
  row.grid_span_us = recorder.span_us(blocks);
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
