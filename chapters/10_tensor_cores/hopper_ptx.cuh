/**
 * @file chapters/10_tensor_cores/hopper_ptx.cuh
 * @brief The PTX of steps 3-10 of chapter 10, one small wrapper per instruction: TMA's tiled
 *        copies (and their multicast to a cluster), wgmma and its shared-memory descriptors,
 *        setmaxnreg (and, through mbarrier.cuh, the mbarriers).
 *
 * The tiled TMA copy (cp.async.bulk.tensor, one block's own) and the mbarrier's byte count
 * (expect_tx) are plain sm_90 PTX, also on later GPUs; its multicast to the blocks of a cluster
 * (step 6) and setmaxnreg need an architecture-specific target (sm_90a, and sm_100a, sm_120a
 * and their families after it); wgmma exists in sm_90a alone (Blackwell multiplies with tcgen05
 * instead). Every step here needs wgmma, so all of it is compiled only where
 * __CUDA_ARCH_FEAT_SM90_ALL (sm_90a code) is defined.
 *
 * The mbarrier wrappers are in mbarrier.cuh (plain sm_90, which exercise 10.4 uses too), the
 * TMA store and its bulk groups (step 7) in tma_store.cuh (plain sm_90 as well). The
 * TMA copy goes through CUDA's cuda::ptx (<cuda/ptx>, CCCL), which has a function per PTX
 * instruction; wgmma and setmaxnreg are written in PTX here because cuda::ptx does not wrap
 * them. wgmma's descriptors hold 32-bit shared-window addresses (shared_address()).
 */
#pragma once

#include <cuda.h>
#include <cuda/ptx>

#include <cstdint>

#include "mbarrier.cuh"
#include "tma_store.cuh"

namespace chapter10 {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

//! [tma_load]
/**
 * @brief TMA: copies the box of @p map whose first element is at (@p inner, @p outer) (inner
 *        = the contiguous dimension) into shared memory at @p destination, laid out (and
 *        swizzled) as the map says, and counts its bytes on the mbarrier @p bar when they land.
 *        Parts of the box past the tensor's end are filled with zeros, and count too.
 *
 * One thread issues it (cp.async.bulk.tensor.2d.shared::cluster.global.tile
 * .mbarrier::complete_tx::bytes); the copy engine does the rest. @p map must be a
 * __grid_constant__ kernel parameter (or in global or constant memory).
 */
__device__ inline void tma_load_2d(void* destination, const CUtensorMap* map, int32_t inner,
                                   int32_t outer, uint64_t* bar) {
  const int32_t coordinates[2] = {inner, outer};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, destination,
                                  map, coordinates, bar);
}
//! [tma_load]

//! [tma_load_multicast]
/**
 * @brief tma_load_2d() for a whole cluster: one copy from global memory lands at the same
 *        offset @p destination in the shared memory of every block of the cluster whose bit is
 *        set in @p blocks (bit r = the block of rank r), and each counts the bytes on its own
 *        mbarrier at @p bar's offset.
 *
 * The box is read from L2 once and delivered to every block in the mask
 * (cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
 * .multicast::cluster). Each block's barrier must expect these bytes: the block's own copies
 * and the ones its peers multicast into it.
 */
__device__ inline void tma_load_2d_multicast(void* destination, const CUtensorMap* map,
                                             int32_t inner, int32_t outer, uint64_t* bar,
                                             uint16_t blocks) {
  const int32_t coordinates[2] = {inner, outer};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, destination,
                                  map, coordinates, bar, blocks);
}
//! [tma_load_multicast]

//! [descriptor]
/**
 * @brief The wgmma descriptor of a K-major tile stored with the 128-byte swizzle, starting at
 *        @p start: rows of 64 BF16 values (128 bytes), groups of 8 rows (1024 bytes) in a row.
 *
 * Bits 0-13: start address / 16. Bits 16-29: leading byte offset / 16, unused for a swizzled
 * K-major tile (set to 1, as CUTLASS does). Bits 32-45: stride byte offset / 16, from one
 * group of 8 rows to the next: 1024 / 16. Bits 49-51: base offset, 0 because every tile starts
 * at a multiple of 1024 bytes. Bits 62-63: the swizzle, 1 = 128 bytes.
 * The swizzle is a function of the address bits (16-byte piece ^= row within the 8-row
 * group), so the k-th step of 16 values inside the 64 is the same tile started 32 k bytes on.
 */
__device__ inline uint64_t swizzled_tile_descriptor(uint32_t start) {
  return uint64_t((start & 0x3FFFF) >> 4) | uint64_t(1) << 16 | uint64_t(1024 >> 4) << 32 |
         uint64_t(1) << 62;
}
//! [descriptor]

//! [wgmma]
/// Orders the warpgroup's earlier register and shared-memory accesses before the wgmma that
/// follow: needed before the first wgmma, and after anything else touched the accumulators.
__device__ inline void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

/// Closes the wgmma issued since the last commit into one group that wgmma_wait() can wait on.
__device__ inline void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/// Waits until at most @p kInFlight committed groups of this warpgroup are still running.
template <int kInFlight>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kInFlight) : "memory");
}

/// Tells the compiler that @p d may change here: keeps it from moving or copying accumulator
/// registers across the asynchronous wgmma (CUTLASS's warpgroup_fence_operand).
template <int kCount>
__device__ inline void keep_accumulators(float (&d)[kCount]) {
#pragma unroll
  for (int i = 0; i < kCount; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/**
 * @brief d += a b on the warpgroup's tensor cores, asynchronously: a is 64 x 16 (K-major,
 *        descriptor @p a_desc), b is 16 x 256 (given as 256 K-major rows, @p b_desc), d is
 *        64 x 256 floats, 128 a thread.
 *
 * Thread t of the warpgroup (warp w = t / 32, lane l = t % 32) holds, for j = 0..31,
 * d[4j], d[4j + 1] at row 16 w + l / 4, columns 8 j + 2 (l % 4) and the next, and
 * d[4j + 2], d[4j + 3] at row 16 w + l / 4 + 8, same columns.
 * The registers are not to be read or written until wgmma_wait() says the group is done.
 */
__device__ inline void wgmma_m64n256k16(float (&d)[128], uint64_t a_desc, uint64_t b_desc) {
  asm volatile(
      "{\n"
      ".reg .pred accumulate;\n"
      "setp.ne.b32 accumulate, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, "
      "%127}, "
      "%128, %129, accumulate, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a_desc), "l"(b_desc), "r"(1)
      : "memory");
}
//! [wgmma]

//! [setmaxnreg]
/// The warpgroup gives registers back: each thread keeps @p kRegisters (a multiple of 8).
template <int kRegisters>
__device__ inline void release_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}

/// The warpgroup takes registers given back by others: each thread gets @p kRegisters.
template <int kRegisters>
__device__ inline void claim_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}
//! [setmaxnreg]

#endif

}  // namespace chapter10
