/**
 * @file chapters/10_tensor_cores/tma_store.cuh
 * @brief TMA the other way, for step 7 of chapter 10: the tiled store from shared memory to
 *        global memory, the bulk groups that say when it has read its source, the proxy fence
 *        that shows it ordinary writes, and a warpgroup's own barrier.
 *
 * All of it is plain sm_90 PTX (cp.async.bulk.tensor ... .bulk_group, cp.async.bulk.commit_group
 * and .wait_group, fence.proxy.async, bar.sync with a thread count), which later GPUs run
 * too: compiled wherever __CUDA_ARCH__ >= 900, as mbarrier.cuh is. CUDA's cuda::ptx (<cuda/ptx>,
 * CCCL) emits each instruction, except bar.sync with a thread count, written in PTX here.
 */
#pragma once

#include <cuda.h>
#include <cuda/ptx>

#include <cstdint>

namespace chapter10 {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

//! [tma_store]
/**
 * @brief TMA the other way: copies the box of @p map whose first element is at (@p inner,
 *        @p outer) from shared memory at @p source (laid out, and swizzled, as the map says)
 *        to global memory. Parts of the box past the tensor's end are not written.
 *
 * One thread issues it (cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group) and goes
 * on at once. The copies a thread issues join its open bulk group; tma_store_commit() closes
 * it, and tma_store_wait_read() / tma_store_wait_all() wait for the thread's groups. The threads
 * that wrote @p source must have run fence_shared_for_tma() and met the issuing thread at a
 * barrier since.
 */
__device__ inline void tma_store_2d(const CUtensorMap* map, int32_t inner, int32_t outer,
                                    const void* source) {
  const int32_t coordinates[2] = {inner, outer};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map,
                                  coordinates, source);
}

/// tma_store_2d() for a 4-D @p map, its box's first element at @p coordinates (innermost
/// first): cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group.
__device__ inline void tma_store_4d(const CUtensorMap* map, const int32_t (&coordinates)[4],
                                    const void* source) {
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map,
                                  coordinates, source);
}

/// Closes the TMA stores this thread issued since its last commit into one bulk group:
/// cp.async.bulk.commit_group.
__device__ inline void tma_store_commit() {
  cuda::ptx::cp_async_bulk_commit_group();
}

/// Waits until every one of this thread's bulk groups but the @p kPending it committed last has
/// read its shared memory (they may still be writing global memory):
/// cp.async.bulk.wait_group.read. Their source boxes may be written again.
template <int kPending>
__device__ inline void tma_store_wait_read() {
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kPending>{});
}

/// Waits until all of this thread's bulk groups are complete, global writes included:
/// cp.async.bulk.wait_group 0.
__device__ inline void tma_store_wait_all() {
  cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
}

/// Makes this thread's ordinary writes to shared memory visible to the TMA unit (the async
/// proxy), which reads shared memory through another path: fence.proxy.async.shared::cta.
__device__ inline void fence_shared_for_tma() {
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

/// Waits for the @p kThreads threads that meet at named barrier @p id (1-15; 0 is
/// __syncthreads()'s): bar.sync. A warpgroup waits for itself alone this way.
template <int kThreads>
__device__ inline void named_barrier_sync(uint32_t id) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "n"(kThreads) : "memory");
}
//! [tma_store]

#endif

}  // namespace chapter10
