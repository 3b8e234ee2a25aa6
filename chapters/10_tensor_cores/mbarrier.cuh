/**
 * @file chapters/10_tensor_cores/mbarrier.cuh
 * @brief The mbarrier wrappers of chapter 10 (steps 3-10), which exercise 10.4 uses too: init,
 *        the fences that publish a new barrier, arrivals (one per warp, on this block's barrier
 *        or on a cluster peer's, or one that also expects copied bytes) and the parity wait.
 *
 * All of it is plain sm_90 PTX (mbarrier.try_wait.parity, expect_tx, elect.sync), which later
 * GPUs run too: compiled wherever __CUDA_ARCH__ >= 900, not only in sm_90a code. Each wrapper
 * names the instruction it emits; CUDA's cuda::ptx (<cuda/ptx>, CCCL) emits it, one function
 * per PTX instruction, except elect.sync, which cuda::ptx does not wrap.
 */
#pragma once

#include <cuda/ptx>

#include <cstdint>

namespace chapter10 {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

/// The address of @p p in the shared-memory window (what PTX's shared-space operands take).
__device__ inline uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

//! [mbarrier]
/// Makes the mbarrier @p bar expect @p arrivals arrivals per phase (its phase 0 starts):
/// mbarrier.init.
__device__ inline void mbarrier_init(uint64_t* bar, uint32_t arrivals) {
  cuda::ptx::mbarrier_init(bar, arrivals);
}

/// Makes the barriers just initialized visible to the other threads and to the TMA unit (the
/// async proxy), before any of them uses one: fence.mbarrier_init.release.cluster, then
/// fence.proxy.async.shared::cta. A __syncthreads() must follow.
__device__ inline void mbarrier_init_fence() {
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

/// One arrival on @p bar from the whole warp: elect.sync picks one lane (all 32 must be
/// here, converged), and that lane arrives. A branch on the lane index around a plain arrive
/// would do the same, but with wgmma in flight ptxas then serializes them (warning C7515).
/// The arrival releases the elected lane's own earlier accesses only (elect.sync orders no
/// memory): where every lane read the stage with its own loads, a __syncwarp() must come first
/// (exercise 10.4). Chapter 10's consumers read their stages through wgmma, whose wait the
/// whole warpgroup has passed before it arrives. Written in PTX: cuda::ptx has no elect.sync
/// to put the arrival under.
__device__ inline void mbarrier_arrive_per_warp(uint64_t* bar) {
  asm volatile(
      "{\n"
      ".reg .pred leader;\n"
      "elect.sync _|leader, 0xffffffff;\n"
      "@leader mbarrier.arrive.shared::cta.b64 _, [%0];\n"
      "}\n" ::"r"(shared_address(bar))
      : "memory");
}

/// One arrival on @p bar that also tells it to wait for @p bytes more bytes of copies: the
/// phase completes once every arrival is in and that many bytes have landed
/// (mbarrier.arrive.expect_tx.release.cta.shared::cta; the barrier's state it returns is not
/// needed).
__device__ inline void mbarrier_arrive_expect_bytes(uint64_t* bar, uint32_t bytes) {
  (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                             cuda::ptx::space_shared, bar, bytes);
}

/// True once the phase of @p bar with parity @p parity has completed (one try, which may wait a
/// short time in hardware first: mbarrier.try_wait.parity). Phases alternate parity 0, 1, 0,
/// ...: a barrier's use number u (from 0) waits for parity u % 2. Asked for the parity of the
/// phase before the current one, it is true at once: on a new barrier, parity 1 is.
__device__ inline bool mbarrier_try_wait(const uint64_t* bar, uint32_t parity) {
  // A wait changes nothing of the barrier; cuda::ptx takes a plain pointer all the same.
  return cuda::ptx::mbarrier_try_wait_parity(const_cast<uint64_t*>(bar), parity);
}

/// Waits until the phase of @p bar with parity @p parity has completed (mbarrier_try_wait
/// until it is true).
__device__ inline void mbarrier_wait(const uint64_t* bar, uint32_t parity) {
  while (!mbarrier_try_wait(bar, parity)) {
  }
}
//! [mbarrier]

//! [mbarrier_in_block]
/// mbarrier_arrive_per_warp() on the barrier at @p bar's offset in the shared memory of block
/// @p block_rank of the cluster (this block's own rank too): mapa turns the offset into that
/// block's address in the cluster's shared window (mbarrier.arrive.shared::cluster). Chapter
/// 10's step 6: a stage that a peer's copy filled goes back to that peer too. The arrival keeps
/// the default semantics, a release at CTA scope, as CUTLASS's ClusterBarrier does: what it
/// announces is that wgmma has read the stage, which wgmma_wait() already made sure of. With a
/// release at cluster scope (.release.cluster), which orders all of the warp's earlier memory
/// operations, its stores of C too, for the whole cluster, step 6 took twice as long (measured;
/// the cause is inferred from the semantics, not profiled).
__device__ inline void mbarrier_arrive_per_warp_in_block(uint64_t* bar, uint32_t block_rank) {
  asm volatile(
      "{\n"
      ".reg .pred leader;\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "elect.sync _|leader, 0xffffffff;\n"
      "@leader mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(shared_address(bar)),
      "r"(block_rank)
      : "memory");
}
//! [mbarrier_in_block]

#endif

}  // namespace chapter10
