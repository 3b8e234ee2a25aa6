// Exercise 10.2, solved: which row of a shared tile each lane gives ldmatrix, so that mma.sync
// receives its fragments.
#include <cuda_bf16.h>

#include <cstdint>

#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"

namespace exercise10 {

__host__ __device__ TileRow a_fragment_row(int lane) {
  // Register r[j] holds a_2j and a_2j+1: rows 0-7 at k 0-7, rows 8-15 at k 0-7, rows 0-7 at
  // k 8-15, rows 8-15 at k 8-15. Matrix j's rows come from lanes 8j to 8j + 7: lanes 0-15 give
  // rows 0-15 at k 0, lanes 16-31 the same rows at k 8.
  return {lane % 16, lane / 16 * 8};
}

__host__ __device__ TileRow b_fragment_row(int lane) {
  // b0 b1 of a column are at k 0-7, b2 b3 at k 8-15: r[0] is columns 0-7 at k 0, r[1] columns
  // 0-7 at k 8, r[2] and r[3] the same for columns 8-15. Lanes 0-7 give columns 0-7 at k 0,
  // lanes 8-15 the same at k 8, lanes 16-31 the same for columns 8-15.
  return {lane / 16 * 8 + lane % 8, lane / 8 % 2 * 8};
}

/// Row length of the shared tiles: 16 values and 8 of padding. 48 bytes keep every row 16-byte
/// aligned, as ldmatrix needs, and put any 8 consecutive rows in 8 different groups of 4 banks
/// (chapter 06's padding; chapter 10's kernel swizzles instead).
constexpr int kTileStride = kMmaTile + 8;

/// C = A * B, one warp per 16 x 16 tile of C. Each step of 16 along K, the warp copies the
/// 16 x 16 tiles of A and of B (by columns) into shared memory, loads its fragments with one
/// ldmatrix.x4 each, at the rows a_fragment_row and b_fragment_row give, and issues two
/// mma.sync: columns 0-7 and 8-15 of the tile of C.
__global__ void __launch_bounds__(32)
    mma_tiles_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b_cols,
                     float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  __shared__ __align__(16) __nv_bfloat16 a_tile[kMmaTile][kTileStride];
  __shared__ __align__(16) __nv_bfloat16 b_tile[kMmaTile][kTileStride];
  const int lane = threadIdx.x;
  const int64_t tiles_across = n / kMmaTile;
  const int64_t row0 = blockIdx.x / tiles_across * kMmaTile;
  const int64_t col0 = blockIdx.x % tiles_across * kMmaTile;
  const TileRow a_at = a_fragment_row(lane), b_at = b_fragment_row(lane);
  // Lane l copies 16 bytes of each tile: values 8 (l % 2) to 8 (l % 2) + 7 of row l / 2.
  const int copy_row = lane / 2, copy_k = lane % 2 * 8;
  float acc[2][4] = {};  // [columns 0-7 or 8-15 of the tile][the lane's 4 values]
  for (int64_t k0 = 0; k0 < k; k0 += kMmaTile) {
    *reinterpret_cast<uint4*>(&a_tile[copy_row][copy_k]) =
        *reinterpret_cast<const uint4*>(&a[(row0 + copy_row) * k + k0 + copy_k]);
    *reinterpret_cast<uint4*>(&b_tile[copy_row][copy_k]) =
        *reinterpret_cast<const uint4*>(&b_cols[(col0 + copy_row) * k + k0 + copy_k]);
    __syncwarp();  // the tiles are whole before any lane's address is read
    uint32_t a_frag[4], b_regs[4];
    ldmatrix_x4(a_frag, &a_tile[a_at.row][a_at.k]);
    ldmatrix_x4(b_regs, &b_tile[b_at.row][b_at.k]);
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

void mma_tiles(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
               int64_t n, int64_t k) {
  const int64_t blocks = tutorial::grid_blocks((m / kMmaTile) * (n / kMmaTile));
  mma_tiles_kernel<<<static_cast<unsigned>(blocks), 32>>>(d_a, d_b_cols, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise10
