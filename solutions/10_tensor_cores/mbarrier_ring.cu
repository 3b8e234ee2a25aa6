// Exercise 10.4, solved: the bookkeeping of a ring of three shared-memory stages, its "full"
// and "empty" mbarriers, used by a producer thread and four consumer warps.
#include <cstdint>

#include "mbarrier_ring.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ void RingState::advance() {
  if (++stage == kRingStages) {  // past the last stage: the first again, on the next round
    stage = 0;
    phase ^= 1u;
  }
}

__device__ void produce_job(Ring& ring, RingState& at, const uint32_t* d_job, int64_t steps) {
  for (int64_t s = 0; s < steps; ++s) {
    // Round r needs round r - 1 released: the empty barrier's phase r - 1, of parity
    // (r + 1) % 2. On round 0 that is the phase "before" a new barrier's first: no wait.
    wait_empty(ring, at.stage, at.phase ^ 1u);
    fill_stage(ring, at.stage, d_job + s * kTileWords);
    at.advance();
  }
}

__device__ void consume_job(Ring& ring, RingState& at, int64_t steps,
                            uint32_t (&sum)[kWordsPerLane]) {
  for (int64_t s = 0; s < steps; ++s) {
    wait_full(ring, at.stage, at.phase);  // round r's tile: the full barrier's phase r
    add_tile(sum, ring, at.stage);
    release_stage(ring, at.stage);  // after the reads: the producer may overwrite it now
    at.advance();
  }
}
#endif

/// One block: a producer thread (thread 0) and kConsumerWarps consumer warps (warps 1 to 4),
/// over the jobs blockIdx.x, blockIdx.x + gridDim.x, ... as chapter 10's persistent kernel
/// walks its tiles: the barriers are initialized once, and each side's RingState runs on from
/// one job to the next, so that the producer fills the next job's first stages while the
/// consumers still add this one's last tiles. Both sides walk the same jobs with the same
/// steps, so they agree on every use without telling each other.
__global__ void __launch_bounds__(kRingThreads)
    sum_tiles_kernel(const uint32_t* __restrict__ tiles, uint32_t* __restrict__ sums, int64_t jobs,
                     int64_t steps, WaitTimeouts* timeouts) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ Ring ring;
  if (threadIdx.x == 0) init_ring(ring, timeouts);
  __syncthreads();

  RingState at;  // this side's place in the ring, carried from job to job
  if (threadIdx.x < 32) {
    if (threadIdx.x != 0) return;  // one producer thread is enough: the copy engine copies
    for (int64_t job = blockIdx.x; job < jobs; job += gridDim.x) {
      produce_job(ring, at, tiles + job * steps * kTileWords, steps);
    }
  } else {
    for (int64_t job = blockIdx.x; job < jobs; job += gridDim.x) {
      uint32_t sum[kWordsPerLane] = {};
      consume_job(ring, at, steps, sum);
      store_sums(sums + job * kTileWords, sum);
    }
  }
#endif
}

void sum_job_tiles(const uint32_t* d_tiles, uint32_t* d_sums, int64_t jobs, int64_t steps,
                   int blocks) {
  sum_tiles_kernel<<<blocks, kRingThreads>>>(d_tiles, d_sums, jobs, steps,
                                             wait_timeouts_on_device());
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise10
