/**
 * @file chapters/10_tensor_cores/wmma_kernel.cuh
 * @brief Step 1 of chapter 10: the tensor cores through WMMA, CUDA's portable warp-level
 *        matrix API. One warp computes one 16 x 16 tile of C.
 */
#pragma once

#include <cuda_bf16.h>
#include <mma.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "bf16_matmul.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter10 {

/// WMMA's tile: 16 x 16 of C from 16 x 16 of A and 16 x 16 of B per instruction (for BF16).
constexpr int kWmmaTile = 16;
/// A block of 8 warps computes 2 x 4 WMMA tiles: 32 x 64 of C.
constexpr int kWmmaThreads = 256, kWmmaBlockM = 32, kWmmaBlockN = 64;

//! [matmul_wmma]
/**
 * @brief C = A * B, one warp per 16 x 16 tile of C, the fragments loaded straight from global
 *        memory.
 *
 * A fragment is a warp's share of a 16 x 16 matrix: which of its elements each lane holds is
 * the hardware's business, and WMMA hides it. load_matrix_sync fills one from memory (A by
 * rows, B by columns, as they are stored), mma_sync multiplies two and adds the accumulator,
 * all 32 lanes together: 16 x 16 x 16 multiply-adds, 4096, in one warp-wide call. Every warp
 * loads its own fragments from global memory: nothing is shared between the warps of a block
 * (the next steps share tiles through shared memory).
 * @pre m a multiple of 32, n of 64, k of 16 (the chapter pads to multiples of 128); compute
 *      capability 8.0 or newer (BF16 fragments); run by blocks of kWmmaThreads threads.
 */
__device__ void matmul_wmma(const __nv_bfloat16* __restrict__ a,
                            const __nv_bfloat16* __restrict__ b_cols, float* __restrict__ c,
                            int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, m / kWmmaBlockM, n / kWmmaBlockN);
  const int warp = threadIdx.x / 32;
  const int64_t row = tile.row * kWmmaBlockM + (warp / 4) * kWmmaTile;
  const int64_t col = tile.col * kWmmaBlockN + (warp % 4) * kWmmaTile;

  wmma::fragment<wmma::accumulator, kWmmaTile, kWmmaTile, kWmmaTile, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int64_t p = 0; p < k; p += kWmmaTile) {
    wmma::fragment<wmma::matrix_a, kWmmaTile, kWmmaTile, kWmmaTile, __nv_bfloat16, wmma::row_major>
        a_frag;
    wmma::fragment<wmma::matrix_b, kWmmaTile, kWmmaTile, kWmmaTile, __nv_bfloat16, wmma::col_major>
        b_frag;
    wmma::load_matrix_sync(a_frag, a + row * k + p, unsigned(k));       // A(row.., p..)
    wmma::load_matrix_sync(b_frag, b_cols + col * k + p, unsigned(k));  // B(p.., col..)
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(c + row * n + col, acc, unsigned(n), wmma::mem_row_major);
#endif
}
//! [matmul_wmma]

/// matmul_wmma as the harness launches it (clocked_kernel in tutorial/harness/block_cycles.cuh).
inline constexpr auto wmma_kernel = tutorial::clocked_kernel<matmul_wmma, kWmmaThreads>;

}  // namespace chapter10
