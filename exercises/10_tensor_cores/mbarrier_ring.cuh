/**
 * @file exercises/10_tensor_cores/mbarrier_ring.cuh
 * @brief Exercise 10.4's shared parts: a ring of three shared-memory stages with a "full" and an
 *        "empty" mbarrier each, the PTX that fills a stage and hands it back, and waits that
 *        give up. A wait that would never end stops the kernel after kWaitLimitNs with a line
 *        that says which barrier and which parity it waited for, so that a wrong parity or a
 *        missing release is a TIMEOUT row within seconds, never a GPU that hangs.
 *
 * The PTX here (mbarrier.try_wait.parity, arrive.expect_tx, cp.async.bulk) is plain
 * sm_90, which later GPUs run too: the device code is compiled where __CUDA_ARCH__ >= 900 and
 * runs on compute capability 9.0 and newer. The copy is TMA's one-dimensional bulk copy (no
 * tensor map): the lesson is the ring, not the copy.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "10_tensor_cores/mbarrier.cuh"  // the wrappers chapter 10 teaches
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

/// Stages in the ring (chapter 10's kernels have 4).
constexpr int kRingStages = 3;
/// Consumer warps: warps 1 to 4 of the block. Warp 0 holds the producer thread.
constexpr int kConsumerWarps = 4;
constexpr int kRingThreads = 32 * (1 + kConsumerWarps);
/// A tile is kTileWords 32-bit words (4 KiB); each consumer thread adds kWordsPerLane of them.
constexpr int kWordsPerLane = 8;
constexpr int kTileWords = kConsumerWarps * 32 * kWordsPerLane;
constexpr uint32_t kTileBytes = kTileWords * sizeof(uint32_t);
/// How long one wait may take before it gives up: far longer than a correct ring waits for a copy
/// or a release, far shorter than the grader's own limit of 60 s.
constexpr uint64_t kWaitLimitNs = 2'000'000'000;

/// How long a wait that gave up lets the kernel run on before it stops it: in a deadlock both
/// sides' waits began at almost the same moment, and both get to report.
constexpr uint64_t kReportWindowNs = 500'000'000;

/// A wait that gave up: who waited, on which barrier, for which parity.
struct StuckWait {
  int seen;         ///< 0 until a wait of this side gives up
  int block, warp;  ///< warp 0: the producer; warps 1..kConsumerWarps: the consumers
  int empty;        ///< 1: it waited on empty[stage]; 0: on full[stage]
  int stage;
  uint32_t parity;  ///< the parity of the phase it waited to see completed
};

/// The first wait of each side that gave up. It lives in host memory mapped for the device,
/// because a kernel that traps takes the CUDA context (and so all device memory) with it.
struct WaitTimeouts {
  StuckWait producer, consumer;
};

/// The process's WaitTimeouts, zeroed, in pinned host memory mapped for the device.
inline volatile WaitTimeouts* wait_timeouts() {
  struct Pinned {
    Pinned() {
      CUDA_CHECK(cudaHostAlloc(&record, sizeof(WaitTimeouts), cudaHostAllocMapped));
      *record = WaitTimeouts{};
    }
    ~Pinned() { cudaFreeHost(record); }  // a failure here has nowhere to go
    WaitTimeouts* record = nullptr;
  };
  static Pinned pinned;
  return pinned.record;
}

/// The same record as the kernel addresses it.
inline WaitTimeouts* wait_timeouts_on_device() {
  void* device = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&device, const_cast<WaitTimeouts*>(wait_timeouts()), 0));
  return static_cast<WaitTimeouts*>(device);
}

/// The block's ring in shared memory: the stages, and each stage's two barriers.
struct Ring {
  alignas(128) uint32_t tiles[kRingStages][kTileWords];
  uint64_t full[kRingStages];   ///< phase r completes when round r's tile has landed
  uint64_t empty[kRingStages];  ///< phase r completes when every consumer warp is done with it
  WaitTimeouts* timeouts;       ///< where a wait that gives up reports
};

//! [exercise_10_4]
/// Exercise 10.4: where one side (the producer thread, or a consumer warp) is in the ring. Its
/// uses go to stages 0, 1, 2, 0, 1, 2, ...; the uses of one pass over the stages are a round,
/// and @p phase is the round's parity: 0 on rounds 0, 2, 4, ..., 1 on rounds 1, 3, 5, ...
struct RingState {
  int stage = 0;
  uint32_t phase = 0;
  /// Exercise 10.4: moves to the next use.
  __device__ void advance();
};

/// Exercise 10.4: the producer thread puts the @p steps tiles at @p d_job into the ring, from
/// the use @p at stands on: each into its stage as soon as the consumers have released the
/// stage's previous round (fill_stage() copies it and arms the stage's full barrier).
__device__ void produce_job(Ring& ring, RingState& at, const uint32_t* d_job, int64_t steps);

/// Exercise 10.4: a consumer warp adds the job's @p steps tiles to @p sum (add_tile()), each
/// once its bytes have landed, and hands every stage back once it has read it.
__device__ void consume_job(Ring& ring, RingState& at, int64_t steps,
                            uint32_t (&sum)[kWordsPerLane]);

/// Exercise 10.4's kernel (mbarrier_ring.cu): sums[job] = the word-by-word sum (modulo 2^32)
/// of tiles job * steps to job * steps + steps - 1, each block taking jobs blockIdx.x,
/// blockIdx.x + blocks, ... through its ring. @pre jobs, steps, blocks >= 1; @p d_tiles and
/// @p d_sums hold jobs * steps and jobs tiles, 16-byte aligned; compute capability 9.0.
void sum_job_tiles(const uint32_t* d_tiles, uint32_t* d_sums, int64_t jobs, int64_t steps,
                   int blocks);
//! [exercise_10_4]

/// Claimed by the first wait of the producer (0) and of the consumers (1) that gives up, so that
/// each side reports once (the process ends with that kernel: they are never reset). Declared
/// for host and device alike, as every __device__ variable must be.
static __device__ unsigned int g_gave_up[2] = {0, 0};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

using chapter10::shared_address;

/// Thread 0, once per block: full[s] expects one arrival (the producer's) and the tile's bytes,
/// empty[s] one arrival per consumer thread; then the barriers are made visible to the other
/// threads and to the copy engine. A __syncthreads() must follow.
__device__ inline void init_ring(Ring& ring, WaitTimeouts* timeouts) {
  for (int s = 0; s < kRingStages; ++s) {
    chapter10::mbarrier_init(&ring.full[s], 1);
    chapter10::mbarrier_init(&ring.empty[s], 32 * kConsumerWarps);
  }
  chapter10::mbarrier_init_fence();
  ring.timeouts = timeouts;
}

/// Nanoseconds on the GPU's global clock.
__device__ inline uint64_t global_ns() {
  uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

/// A wait gave up: the first of its side records what it waited for and prints it; each one
/// lets the kernel run kReportWindowNs more (so that the other side's waits, if stuck as long,
/// report too) and then traps, which ends the kernel with an error instead of a hang.
__device__ inline void give_up(WaitTimeouts* record, int empty, int stage, uint32_t parity) {
  const int side = threadIdx.x < 32 ? 0 : 1;
  if (atomicExch(&g_gave_up[side], 1u) == 0) {
    volatile StuckWait* out = side == 0 ? &record->producer : &record->consumer;
    out->block = int(blockIdx.x);
    out->warp = int(threadIdx.x / 32);
    out->empty = empty;
    out->stage = stage;
    out->parity = parity;
    out->seen = 1;
    __threadfence_system();  // in host memory before the trap ends the kernel
    printf(
        "exercise 10.4: block %d, warp %d waited %.0f s on %s[%d] for its phase of parity %u "
        "to complete, and it did not\n",
        int(blockIdx.x), int(threadIdx.x / 32), kWaitLimitNs / 1e9, empty ? "empty" : "full", stage,
        parity);
  }
  const uint64_t until = global_ns() + kReportWindowNs;
  while (global_ns() < until) {
  }
  __trap();
}

/// Waits until the phase of @p parity of @p bar has completed, or gives up after kWaitLimitNs.
__device__ inline void wait_bounded(const Ring& ring, const uint64_t& bar, int empty, int stage,
                                    uint32_t parity) {
  if (chapter10::mbarrier_try_wait(&bar, parity)) return;
  const uint64_t start = global_ns();
  while (!chapter10::mbarrier_try_wait(&bar, parity)) {
    if (global_ns() - start > kWaitLimitNs) give_up(ring.timeouts, empty, stage, parity);
  }
}

/// Waits until the phase of parity @p parity of full[@p stage] has completed: the tile of that
/// round has landed in the stage.
__device__ inline void wait_full(const Ring& ring, int stage, uint32_t parity) {
  wait_bounded(ring, ring.full[stage], 0, stage, parity);
}

/// Waits until the phase of parity @p parity of empty[@p stage] has completed: every consumer
/// warp has released that round of the stage.
__device__ inline void wait_empty(const Ring& ring, int stage, uint32_t parity) {
  wait_bounded(ring, ring.empty[stage], 1, stage, parity);
}

/// The producer thread: arms full[@p stage] with its one arrival and the tile's kTileBytes, and
/// starts the bulk copy of the tile at @p d_tile into the stage, whose bytes complete the
/// phase when they land. @pre the stage is empty (its previous round released).
__device__ inline void fill_stage(Ring& ring, int stage, const uint32_t* d_tile) {
  chapter10::mbarrier_arrive_expect_bytes(&ring.full[stage], kTileBytes);
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::
          "r"(shared_address(ring.tiles[stage])),
      "l"(d_tile), "r"(kTileBytes), "r"(shared_address(&ring.full[stage]))
      : "memory");
}

/// A consumer thread: its arrival on empty[@p stage], after its reads of the stage. Every
/// consumer thread arrives (empty[] expects 32 x kConsumerWarps arrivals): each thread's arrival
/// releases its own reads, which is all the PTX memory model needs, and all compute-sanitizer's
/// racecheck credits. Chapter 10 arrives once per warp (elect.sync), because its consumers read
/// their stages through wgmma; here, with __syncwarp() and one elected arrival per warp, racecheck
/// reported the next round's copy into the stage against the other lanes' reads (H100,
/// 2026-11-26), and with one arrival per thread it reported nothing.
__device__ inline void release_stage(Ring& ring, int stage) {
  asm volatile(
      "mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(&ring.empty[stage]))
      : "memory");
}

/// The consumer thread t (threadIdx.x - 32): its words t, t + 128, ..., of the tile in
/// @p stage, added to @p sum.
__device__ inline void add_tile(uint32_t (&sum)[kWordsPerLane], const Ring& ring, int stage) {
  const int t = int(threadIdx.x) - 32;
#pragma unroll
  for (int i = 0; i < kWordsPerLane; ++i) sum[i] += ring.tiles[stage][i * 32 * kConsumerWarps + t];
}

/// The consumer thread t: its words of the job's sums, at @p d_sums.
__device__ inline void store_sums(uint32_t* d_sums, const uint32_t (&sum)[kWordsPerLane]) {
  const int t = int(threadIdx.x) - 32;
#pragma unroll
  for (int i = 0; i < kWordsPerLane; ++i) d_sums[i * 32 * kConsumerWarps + t] = sum[i];
}

#endif

}  // namespace exercise10
