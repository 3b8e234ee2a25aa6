// Exercise 10.2, solved: B's fragments for mma.sync from a tile of B stored row-major, with
// ldmatrix.trans.
#include <cuda_bf16.h>

#include <cstdint>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

__device__ void load_b_fragments(uint32_t (&r)[4],
                                 const __nv_bfloat16 (&tile)[kMmaTile][kTileStride], int lane) {
#if __CUDA_ARCH__ >= 800  // the tensor-core code is compiled for 8.0 and newer, as in chapter 10
  // mma.sync wants, in each register, two values of one column of B at consecutive k; a row of
  // this tile holds values of one k at consecutive columns. So each 8 x 8 matrix is loaded
  // transposed: with .trans, lane l receives the matrix's column l / 4 at rows 2 (l % 4) and
  // the next, and with the matrix's rows along K and its columns along N that is an mma.sync
  // pair. The matrices are then r[0]: k 0-7 of columns 0-7; r[1]: k 8-15 of columns 0-7; r[2]
  // and r[3]: the same of columns 8-15. Lane 8j + i gives row i of matrix j: lanes 0-15 give
  // tile rows 0-15 at column 0, lanes 16-31 the same rows at column 8.
  ldmatrix_x4_trans(r, &tile[lane % 16][lane / 16 * 8]);
#endif
}

/// C = A * B for B row-major, one warp per 16 x 16 tile of C. Each step of 16 along K, the warp
/// copies the 16 x 16 tiles of A and of B into shared memory, both row-major as in global
/// memory, loads A's fragments with ldmatrix.x4 as chapter 10 does and B's with
/// load_b_fragments, and issues two mma.sync: columns 0-7 and 8-15 of the tile of C.
__global__ void __launch_bounds__(32)
    mma_tiles_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                     float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  __shared__ __align__(16) __nv_bfloat16 a_tile[kMmaTile][kTileStride];
  __shared__ __align__(16) __nv_bfloat16 b_tile[kMmaTile][kTileStride];
  const int lane = threadIdx.x;
  const int64_t tiles_across = n / kMmaTile;
  const int64_t row0 = blockIdx.x / tiles_across * kMmaTile;
  const int64_t col0 = blockIdx.x % tiles_across * kMmaTile;
  // Lane l copies 16 bytes of each tile: values 8 (l % 2) to 8 (l % 2) + 7 of row l / 2, a row
  // of A (along K) and a row of B (along N).
  const int copy_row = lane / 2, copy_col = lane % 2 * 8;
  float acc[2][4] = {};  // [columns 0-7 or 8-15 of the tile][the lane's 4 values]
  for (int64_t k0 = 0; k0 < k; k0 += kMmaTile) {
    *reinterpret_cast<uint4*>(&a_tile[copy_row][copy_col]) =
        *reinterpret_cast<const uint4*>(&a[(row0 + copy_row) * k + k0 + copy_col]);
    *reinterpret_cast<uint4*>(&b_tile[copy_row][copy_col]) =
        *reinterpret_cast<const uint4*>(&b[(k0 + copy_row) * n + col0 + copy_col]);
    __syncwarp();  // the tiles are whole before any lane's address is read
    // A as in chapter 10: lanes 0-15 give rows 0-15 at k 0, lanes 16-31 the same rows at k 8.
    uint32_t a_frag[4], b_regs[4];
    ldmatrix_x4(a_frag, &a_tile[lane % 16][lane / 16 * 8]);
    load_b_fragments(b_regs, b_tile, lane);
    const uint32_t b_left[2] = {b_regs[0], b_regs[1]}, b_right[2] = {b_regs[2], b_regs[3]};
    mma_16x8x16(acc[0], a_frag, b_left);
    mma_16x8x16(acc[1], a_frag, b_right);
    __syncwarp();  // every lane is done with the tiles before the next step overwrites them
  }
  // The accumulator's layout: rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and the
  // next, of each 16 x 8 half.
  for (int half = 0; half < 2; ++half) {
    const int64_t row = row0 + lane / 4, col = col0 + half * 8 + 2 * (lane % 4);
    c[row * n + col] = acc[half][0];
    c[row * n + col + 1] = acc[half][1];
    c[(row + 8) * n + col] = acc[half][2];
    c[(row + 8) * n + col + 1] = acc[half][3];
  }
#endif
}

void mma_tiles(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b, float* d_c, int64_t m, int64_t n,
               int64_t k) {
  const int64_t blocks = tutorial::grid_blocks((m / kMmaTile) * (n / kMmaTile));
  mma_tiles_kernel<<<static_cast<unsigned>(blocks), 32>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise10
