/**
 * @file block_cycles.cuh
 * @brief Per-block cycle counts: thread 0 of each block reads clock64() when the block starts
 *        and again after the block's last barrier, and %globaltimer at both moments; and the
 *        kernel that does it around a lesson's code, clocked_blocks.
 *
 * A lesson writes the work of one block as a plain __device__ function with the lesson's own
 * parameters (its "body"). The harness launches that body inside its own kernel,
 * clocked_blocks<body, ...>, which reads the clocks around it and stores them when it is given
 * slots, and only pays one uniform branch at the end when it is not (the timed runs). The
 * lesson's code never sees the clocks; the profiler lists the kernel under the body's name
 * (tools/profile.py unwraps it).
 *
 * clock64() counts cycles of the SM the block runs on, so an end-minus-start of ONE block is
 * meaningful. The SMs' counters are not synchronized with each other, so subtracting readings
 * from two different blocks (which may sit on two SMs) is not: chapter 02 measures by how much.
 * %globaltimer is one nanosecond clock for the whole GPU, which is why the grid's span (first
 * block start to last block end) is taken from it.
 */
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/stats.hpp"

namespace tutorial {

/// Where blocks store their timings, one slot per block. All null: recording is off, and the
/// kernel pays one uniform branch.
struct BlockCycleSlots {
  long long* cycles = nullptr;
  unsigned long long* start_ns = nullptr;
  unsigned long long* end_ns = nullptr;
};

/// The GPU-wide nanosecond timer (the same clock on every SM, unlike clock64()).
__device__ inline unsigned long long global_timer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

/// A block's start time, taken by block_clock_start().
struct BlockClock {
  long long cycles;
  unsigned long long ns;
};

//! [block_clock]
/// Reads the clocks at the start of the block (every thread may call it; only thread 0's
/// reading is stored).
__device__ inline BlockClock block_clock_start() {
  return {clock64(), global_timer_ns()};
}

/// The same reading for a kernel at its register limit: thread 0 keeps it in @p kept, a
/// __shared__ BlockClock of the kernel, where it takes none of the 4 registers per thread that
/// block_clock_start()'s value holds until block_clock_stop(slots, kept).
__device__ inline void block_clock_start_shared(BlockClock& kept) {
  if (threadIdx.x == 0) kept = block_clock_start();
}

/**
 * @brief Waits for the whole block, then has thread 0 store the block's cycles and times.
 * @pre Called by every thread of the block (it contains __syncthreads()), with a 1-D grid.
 */
__device__ inline void block_clock_stop(const BlockCycleSlots& slots, const BlockClock& started) {
  if (slots.cycles == nullptr) return;  // uniform across the grid: no barrier divergence
  __syncthreads();
  if (threadIdx.x == 0) {
    slots.cycles[blockIdx.x] = clock64() - started.cycles;
    slots.start_ns[blockIdx.x] = started.ns;
    slots.end_ns[blockIdx.x] = global_timer_ns();
  }
}
//! [block_clock]

/// Where the start reading waits for the end of the block: in registers of every thread (4 a
/// thread), or in shared memory, written by thread 0 (for a body at its register limit, where 4
/// more registers a thread would spill). The choice changes the compiler's register allocation
/// of the whole kernel, in either direction: each chapter keeps the one its numbers were measured
/// with.
enum class ClockStart { kRegisters, kShared };

//! [clocked_blocks]
/// Runs block body kBody on @p args between the two readings of the block's clocks, which
/// block_clock_stop() stores in @p slots (nothing when they are null, as in the timed runs).
template <auto kBody, ClockStart kStart, typename... Args>
__device__ __forceinline__ void run_clocked(const BlockCycleSlots& slots, const Args&... args) {
  if constexpr (kStart == ClockStart::kShared) {
    __shared__ BlockClock started;
    block_clock_start_shared(started);
    kBody(args...);
    block_clock_stop(slots, started);
  } else {
    const BlockClock started = block_clock_start();
    kBody(args...);
    block_clock_stop(slots, started);
  }
}

/**
 * @brief The kernel around a lesson's block body: every thread runs kBody(args...) between two
 *        readings of the clocks (run_clocked). No launch bounds: the body had none.
 *
 * Returning early from the body is allowed: the barrier before the end reading is the kernel's.
 */
template <auto kBody, ClockStart kStart, typename... Args>
__global__ void clocked_blocks(BlockCycleSlots slots, Args... args) {
  run_clocked<kBody, kStart>(slots, args...);
}

/// The same with the body's launch bounds (a __device__ function cannot carry them):
/// kMinBlocks = 0 gives __launch_bounds__(kMaxThreads) alone, which lets the compiler choose
/// the registers, where a minimum of 1 block would let it take up to 65536 / kMaxThreads.
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    clocked_blocks_bounded(BlockCycleSlots slots, Args... args) {
  run_clocked<kBody, kStart>(slots, args...);
}

/// The same for a body whose first two parameters are TMA descriptors (chapter 10): the copy
/// engine reads a descriptor from kernel-parameter memory, so those two must be
/// __grid_constant__ parameters of the kernel itself (which a parameter pack cannot be).
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    clocked_blocks_tma(BlockCycleSlots slots, const __grid_constant__ CUtensorMap a_map,
                       const __grid_constant__ CUtensorMap b_map, Args... args) {
  run_clocked<kBody, kStart>(slots, a_map, b_map, args...);
}

/// The same for a body that also stores through a third TMA descriptor (chapter 10's steps 7 to
/// 9).
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    clocked_blocks_tma3(BlockCycleSlots slots, const __grid_constant__ CUtensorMap a_map,
                        const __grid_constant__ CUtensorMap b_map,
                        const __grid_constant__ CUtensorMap c_map, Args... args) {
  run_clocked<kBody, kStart>(slots, a_map, b_map, c_map, args...);
}
//! [clocked_blocks]

namespace detail {
/// Picks the instance of the kernels above whose parameters are the body's, from its type.
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart,
          typename Body = decltype(kBody)>
struct Clocked;
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
struct Clocked<kBody, kMaxThreads, kMinBlocks, kStart, void (*)(Args...)> {
  static constexpr auto kernel = [] {
    if constexpr (kMaxThreads == 0) {
      return &clocked_blocks<kBody, kStart, Args...>;
    } else {
      return &clocked_blocks_bounded<kBody, kMaxThreads, kMinBlocks, kStart, Args...>;
    }
  }();
};
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
struct Clocked<kBody, kMaxThreads, kMinBlocks, kStart,
               void (*)(const CUtensorMap&, const CUtensorMap&, Args...)> {
  static_assert(kMaxThreads > 0, "a TMA body states its launch bounds");
  static constexpr auto kernel =
      &clocked_blocks_tma<kBody, kMaxThreads, kMinBlocks, kStart, Args...>;
};
template <auto kBody, int kMaxThreads, int kMinBlocks, ClockStart kStart, typename... Args>
struct Clocked<kBody, kMaxThreads, kMinBlocks, kStart,
               void (*)(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&, Args...)> {
  static_assert(kMaxThreads > 0, "a TMA body states its launch bounds");
  static constexpr auto kernel =
      &clocked_blocks_tma3<kBody, kMaxThreads, kMinBlocks, kStart, Args...>;
};
}  // namespace detail

/**
 * @brief The kernel that runs block body @p kBody (a __device__ function): launch it as
 *        `clocked_kernel<body, 256><<<grid, 256>>>(slots, args...)`, with the body's
 *        arguments after the slots (BlockCycleSlots{} to record nothing).
 * @tparam kMaxThreads, kMinBlocks the body's launch bounds; kMaxThreads = 0 for none.
 * @tparam kStart where the start reading is kept (ClockStart).
 */
template <auto kBody, int kMaxThreads = 0, int kMinBlocks = 0,
          ClockStart kStart = ClockStart::kRegisters>
inline constexpr auto clocked_kernel =
    detail::Clocked<kBody, kMaxThreads, kMinBlocks, kStart>::kernel;

/// Device storage for the slots of up to @p blocks blocks, and the summary of a recorded run.
class BlockCycleRecorder {
 public:
  explicit BlockCycleRecorder(int64_t blocks)
      : cycles_(blocks), start_ns_(blocks), end_ns_(blocks) {}

  BlockCycleSlots slots() const { return {cycles_.data(), start_ns_.data(), end_ns_.data()}; }

  /// Min / median / max cycles over the first @p blocks blocks of the last recorded run.
  Summary cycles(int64_t blocks) const {
    std::vector<long long> raw = cycles_.to_host();
    return summarize(std::vector<double>(raw.begin(), raw.begin() + blocks));
  }

  /// Microseconds from the earliest block start to the latest block end (%globaltimer).
  double span_us(int64_t blocks) const {
    const std::vector<unsigned long long> start = start_ns_.to_host(), end = end_ns_.to_host();
    const auto first = *std::min_element(start.begin(), start.begin() + blocks);
    const auto last = *std::max_element(end.begin(), end.begin() + blocks);
    return (last - first) / 1e3;
  }

  /// The SM clock the blocks ran at, in MHz: each block's cycles over its nanoseconds on the
  /// global timer, the median over blocks whose span is at least 10 us (the global timer may
  /// tick in steps of up to a microsecond); 0 when no block ran that long.
  double clock_mhz(int64_t blocks) const {
    const std::vector<long long> cycles = cycles_.to_host();
    const std::vector<unsigned long long> start = start_ns_.to_host(), end = end_ns_.to_host();
    std::vector<double> mhz;
    for (int64_t b = 0; b < blocks; ++b) {
      const double ns = double(end[size_t(b)] - start[size_t(b)]);
      if (ns >= 10e3) mhz.push_back(1e3 * double(cycles[size_t(b)]) / ns);
    }
    return mhz.empty() ? 0 : summarize(mhz).median;
  }

 private:
  DeviceBuffer<long long> cycles_;
  DeviceBuffer<unsigned long long> start_ns_, end_ns_;
};

}  // namespace tutorial
