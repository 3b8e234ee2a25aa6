/**
 * @file chapters/10_tensor_cores/tensor_core_ptx.cuh
 * @brief The two PTX instructions of chapter 10's mma.sync step, which exercises 10.2 and 10.3
 *        include from here: ldmatrix.x4 and mma.sync.m16n8k16 (BF16 in, FP32 accumulators).
 *
 * Both exist from compute capability 8.0 on (BF16 mma.sync), so they are compiled only where
 * __CUDA_ARCH__ >= 800; host code never calls them.
 */
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace chapter10 {

#if __CUDA_ARCH__ >= 800
//! [ldmatrix_mma]
/// ldmatrix.x4: the warp loads four 8 x 8 BF16 matrices from shared memory; lanes 8i to 8i + 7
/// give the addresses of matrix i's 8 rows (16 bytes each, 16-byte aligned), and every lane
/// receives, in r[i], the two values of matrix i in row lane / 4, columns 2 (lane % 4) and the
/// next (the lower column in the lower 16 bits): exactly the register layout mma.sync takes.
__device__ inline void ldmatrix_x4(uint32_t (&r)[4], const __nv_bfloat16* row_address) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address)
               : "memory");
}

/// d += a b for a 16 x 16 BF16 tile of A (row-major fragment: 4 registers of 2 values), a 16 x 8
/// tile of B (column-major: 2 registers) and a 16 x 8 float accumulator (4 values a lane:
/// rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and the next).
__device__ inline void mma_16x8x16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
//! [ldmatrix_mma]
#endif

}  // namespace chapter10
