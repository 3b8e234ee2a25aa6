/**
 * @file chapters/10_tensor_cores/mbarrier.cuh
 * @brief The mbarrier wrappers of chapter 10 (steps 3-5), which exercise 10.4 uses too: init,
 *        the fences that publish a new barrier, arrivals (one per warp, or one that also
 *        expects copied bytes) and the parity wait.
 *
 * All of it is plain sm_90 PTX (mbarrier.try_wait.parity, expect_tx, elect.sync), which later
 * GPUs run too: compiled wherever __CUDA_ARCH__ >= 900, not only in sm_90a code.
 */
#pragma once

#include <cstdint>

namespace chapter10 {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

/// The address of @p p in the shared-memory window (what PTX's shared-space operands take).
__device__ inline uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

//! [mbarrier]
/// Makes the mbarrier at @p bar expect @p arrivals arrivals per phase (its phase 0 starts).
__device__ inline void mbarrier_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}

/// Makes the barriers just initialized visible to the other threads and to the TMA unit (the
/// async proxy), before any of them uses one. A __syncthreads() must follow.
__device__ inline void mbarrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// One arrival on @p bar from the whole warp: elect.sync picks one lane (all 32 must be
/// here, converged), and that lane arrives. A branch on the lane index around a plain arrive
/// would do the same, but with wgmma in flight ptxas then serializes them (warning C7515).
/// The arrival releases the elected lane's own earlier accesses only (elect.sync orders no
/// memory): where every lane read the stage with its own loads, a __syncwarp() must come first
/// (exercise 10.4). Chapter 10's consumers read their stages through wgmma, whose wait the
/// whole warpgroup has passed before it arrives.
__device__ inline void mbarrier_arrive_per_warp(uint32_t bar) {
  asm volatile(
      "{\n"
      ".reg .pred leader;\n"
      "elect.sync _|leader, 0xffffffff;\n"
      "@leader mbarrier.arrive.shared::cta.b64 _, [%0];\n"
      "}\n" ::"r"(bar)
      : "memory");
}

/// One arrival on @p bar that also tells it to wait for @p bytes more bytes of copies: the
/// phase completes once every arrival is in and that many bytes have landed.
__device__ inline void mbarrier_arrive_expect_bytes(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}

/// True once the phase of @p bar with parity @p parity has completed (one try, which may wait a
/// short time in hardware first). Phases alternate parity 0, 1, 0, ...: a barrier's use number u
/// (from 0) waits for parity u % 2. Asked for the parity of the phase before the current one, it
/// is true at once: on a new barrier, parity 1 is.
__device__ inline bool mbarrier_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred complete;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
      "selp.u32 %0, 1, 0, complete;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

/// Waits until the phase of @p bar with parity @p parity has completed (mbarrier_try_wait
/// until it is true).
__device__ inline void mbarrier_wait(uint32_t bar, uint32_t parity) {
  while (!mbarrier_try_wait(bar, parity)) {
  }
}
//! [mbarrier]

#endif

}  // namespace chapter10
