// Exercise 10.3, solved: a BF16 matrix multiply on the tensor cores, within reach of
// cublasGemmEx: chapter 10's mma.sync kernel (matmul_mma), fed by ldmatrix from swizzled
// shared tiles that cp.async fills, three buffers deep.
#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#include <cstdint>

#include "exercise.cuh"
#include "tutorial/cuda_check.cuh"
#include "tutorial/matmul.cuh"

namespace exercise10 {

/// A block computes 128 x 128 of C with 8 warps, each 64 x 32 (2 x 4 warps); a step along K
/// takes 32 values, two mma.sync steps of 16; kStages buffers of tiles, kStages - 1 in flight.
constexpr int kBlockM = 128, kBlockN = 128, kDepth = 32, kThreads = 256, kStages = 3;
/// 16-byte pieces (8 BF16 values) in a tile row of kDepth values.
constexpr int kPieces = kDepth / 8;

/// Where piece @p chunk of row @p row of a tile is stored in its row (exercise 10.1): the 8 rows
/// an ldmatrix matrix reads fall in 8 different groups of 4 banks.
__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  return chunk ^ ((row >> 1) & (kPieces - 1));
}

/// Offset (in BF16 values) of element (@p row, @p k) in a swizzled kDepth-wide tile.
__host__ __device__ constexpr int swizzled_offset(int row, int k) {
  return row * kDepth + swizzled_chunk(row, k / 8) * 8 + k % 8;
}

/// C = A * B with mma.sync: a 128 x 128 tile of C per block, 64 x 32 per warp (4 x 4
/// instructions of 16 x 8 per step of 16 along K). Each step along K: wait for this step's
/// tiles, one barrier, start the copies of the step kStages - 1 ahead into the buffer the last
/// step used, then twice (16 values of K each) load the warp's 4 fragments of A and 4 of B with
/// ldmatrix (the rows of exercise 10.2) and issue its 16 mma.sync.
/// @pre m, n multiples of 128 and k of 32 (multiply_padded gives multiples of 128).
__global__ void __launch_bounds__(kThreads)
    mma_gemm_kernel(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b_cols,
                    float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
#if __CUDA_ARCH__ >= 800
  // A's tile by rows of A, B's by columns of B (rows of b_cols): 128 rows of 32 values each.
  __shared__ __align__(128) __nv_bfloat16 a_tile[kStages][kBlockM * kDepth];
  __shared__ __align__(128) __nv_bfloat16 b_tile[kStages][kBlockN * kDepth];
  const tutorial::TilePosition tile = tutorial::tile_of_block(blockIdx.x, m / kBlockM, n / kBlockN);
  const int64_t row0 = tile.row * kBlockM, col0 = tile.col * kBlockN;

  const auto copy_tiles = [&](int stage, int64_t k0) {
  // 128 rows x 4 pieces of 16 bytes per tile: 2 pieces of each tile per thread; 4 threads
  // copy a row's 64 bytes.
#pragma unroll
    for (int i = 0; i < kBlockM * kPieces / kThreads; ++i) {
      const int e = threadIdx.x + i * kThreads, r = e / kPieces, piece = e % kPieces;
      const int at = r * kDepth + swizzled_chunk(r, piece) * 8;
      __pipeline_memcpy_async(&a_tile[stage][at], a + (row0 + r) * k + k0 + piece * 8, 16);
      __pipeline_memcpy_async(&b_tile[stage][at], b_cols + (col0 + r) * k + k0 + piece * 8, 16);
    }
  };

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / 4) * 64, warp_col = (warp % 4) * 32;
  float acc[4][4][4] = {};  // [16-row tile][8-column tile][the lane's 4 values]
  const int64_t steps = k / kDepth;
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copy_tiles(s, s * kDepth);
    __pipeline_commit();
  }
  for (int64_t s = 0; s < steps; ++s) {
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();  // this step's tiles are whole, and nobody still reads the last step's
    const int64_t ahead = s + kStages - 1;
    if (ahead < steps) copy_tiles(int(ahead % kStages), ahead * kDepth);
    __pipeline_commit();
    const __nv_bfloat16* at = a_tile[s % kStages];
    const __nv_bfloat16* bt = b_tile[s % kStages];
#pragma unroll
    for (int kk = 0; kk < kDepth; kk += 16) {
      uint32_t a_frag[4][4], b_frag[4][2];
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {  // lanes 0-15: rows 0-15 at k; 16-31: the same at k + 8
        const int row = warp_row + mt * 16 + lane % 16;
        ldmatrix_x4(a_frag[mt], &at[swizzled_offset(row, kk + (lane / 16) * 8)]);
      }
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {  // two 8-column tiles of B per ldmatrix.x4
        const int col = warp_col + pair * 16 + (lane / 16) * 8 + lane % 8;
        uint32_t r[4];
        ldmatrix_x4(r, &bt[swizzled_offset(col, kk + ((lane / 8) % 2) * 8)]);
        b_frag[2 * pair][0] = r[0], b_frag[2 * pair][1] = r[1];
        b_frag[2 * pair + 1][0] = r[2], b_frag[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
        for (int nt = 0; nt < 4; ++nt) mma_16x8x16(acc[mt][nt], a_frag[mt], b_frag[nt]);
      }
    }
  }

  // The accumulator's layout: rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and the
  // next, of each 16 x 8 tile.
#pragma unroll
  for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
      const int64_t row = row0 + warp_row + mt * 16 + lane / 4;
      const int64_t col = col0 + warp_col + nt * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&c[row * n + col]) = {acc[mt][nt][0], acc[mt][nt][1]};
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = {acc[mt][nt][2], acc[mt][nt][3]};
    }
  }
#endif
}

void fast_bf16_gemm(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
                    int64_t n, int64_t k) {
  multiply_padded(d_a, d_b_cols, d_c, m, n, k,
                  [](const __nv_bfloat16* a, const __nv_bfloat16* b_cols, float* c, int64_t m_pad,
                     int64_t n_pad, int64_t k_pad) {
                    const int64_t blocks =
                        tutorial::grid_blocks((m_pad / kBlockM) * (n_pad / kBlockN));
                    mma_gemm_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(
                        a, b_cols, c, m_pad, n_pad, k_pad);
                    CUDA_CHECK(cudaGetLastError());
                  });
}

}  // namespace exercise10
