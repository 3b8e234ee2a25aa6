/**
 * @file exercises/10_tensor_cores/exercise.cuh
 * @brief The functions of exercises 10.2 and 10.3, shared by the learner's files and the
 *        checkers, and the pieces of chapter 10 that they build on: ldmatrix.x4, mma.sync and
 *        the zero padding that lets a kernel of whole tiles take any shape.
 *
 * Storage, as in chapter 10: A (m x k, BF16) is row-major; B (k x n, BF16) is stored by
 * columns, as n rows of k values (b_cols[col * k + p] = B(p, col)), so that both are contiguous
 * along K; C (m x n, float) is row-major. Every matrix lives in device memory as cudaMalloc
 * returns it. The tensor-core instructions need compute capability 8.0 or newer: the device
 * code here is compiled only for such GPUs (`__CUDA_ARCH__ >= 800`), as in the chapter.
 */
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "tutorial/cuda_check.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/matmul.cuh"

namespace exercise10 {

using tutorial::ceil_div;

/// mma.sync.m16n8k16's tile along M and K, and the 16 x 16 tile of C of exercise 10.2.
constexpr int kMmaTile = 16;

/// A row of a 16 x 16 tile in shared memory, and the first of the 8 values (16 bytes) along K
/// that a lane gives ldmatrix from it.
struct TileRow {
  int row;  ///< 0..15
  int k;    ///< 0 or 8
};

//! [exercise_10_2]
/// Exercise 10.2: the row of a 16 x 16 tile of A (16 rows of A, 16 values along K each) and the
/// first of the 8 values in it whose address lane @p lane (0..31) gives ldmatrix.x4, so that
/// the lane's four registers r[0..3] are exactly its fragment of A for mma.sync.m16n8k16
/// (.row): r[j] holds the fragment's elements a_2j and a_2j+1.
__host__ __device__ TileRow a_fragment_row(int lane);

/// Exercise 10.2: the same for a 16 x 16 tile of B stored by columns (row j of the tile: column
/// j of B, 16 values along K), so that r[0] and r[1] are the lane's fragment b0 to b3 of B's
/// columns 0-7 for mma.sync.m16n8k16 (.col), and r[2] and r[3] its fragment of columns 8-15.
__host__ __device__ TileRow b_fragment_row(int lane);

/// C = A * B by the kernel of fragments.cu: one warp per 16 x 16 tile of C, its fragments
/// loaded with ldmatrix.x4 at the rows a_fragment_row and b_fragment_row give.
/// @pre m, n, k multiples of 16; compute capability 8.0 or newer.
void mma_tiles(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
               int64_t n, int64_t k);
//! [exercise_10_2]

//! [exercise_10_3]
/// Exercise 10.3 (performance): C = A * B for any shape, FP32 accumulation, as fast as the
/// checker's target. Enqueues the work on the default stream (multiply_padded, for shapes that
/// need it, also allocates and frees device memory). @pre 1 <= m, n, k; compute capability
/// 8.0 or newer.
void fast_bf16_gemm(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
                    int64_t n, int64_t k);
//! [exercise_10_3]

// The pieces of chapter 10 that the exercises build on.

#if __CUDA_ARCH__ >= 800
/// ldmatrix.x4: the warp loads four 8 x 8 BF16 matrices from shared memory; lanes 8i to 8i + 7
/// give the addresses of matrix i's 8 rows (16 bytes each, 16-byte aligned), and every lane
/// receives, in r[i], the two values of matrix i in row lane / 4, columns 2 (lane % 4) and the
/// next (the lower column in the lower 16 bits).
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
#endif

/// Every dimension of a padded problem is a multiple of this, the chapter's kPad: the largest
/// tile of its kernels, 128 x 128 of C, 32 along K.
constexpr int64_t kPad = 128;

/// Whether m, n and k are all multiples of kPad: then a kernel of whole tiles runs on the
/// matrices themselves.
inline bool whole_tiles(int64_t m, int64_t n, int64_t k) {
  return m % kPad == 0 && n % kPad == 0 && k % kPad == 0;
}

/**
 * @brief C = A * B for any shape by @p multiply, a multiply of whole tiles, as chapter 10 pads:
 *        on the matrices themselves where whole_tiles(m, n, k); else on copies of A and B padded
 *        with zeros to multiples of kPad, copying the m x n that was asked for out of the padded
 *        C. The zeros add nothing to any sum.
 *
 * The padded copies are allocated and freed here (cudaMalloc and cudaFree wait for the GPU):
 * shapes that need them are graded for their results, not timed. The timed 4096^3 needs none.
 * @param multiply called as multiply(a, b_cols, c, m, n, k) with m, n, k multiples of kPad.
 */
template <typename Multiply>
void multiply_padded(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c, int64_t m,
                     int64_t n, int64_t k, Multiply multiply) {
  if (whole_tiles(m, n, k)) {
    multiply(d_a, d_b_cols, d_c, m, n, k);
    return;
  }
  const int64_t m_pad = ceil_div(m, kPad) * kPad, n_pad = ceil_div(n, kPad) * kPad,
                k_pad = ceil_div(k, kPad) * kPad;
  tutorial::DeviceBuffer<__nv_bfloat16> a(tutorial::matrix_elements("A", m_pad, k_pad));
  tutorial::DeviceBuffer<__nv_bfloat16> b_cols(tutorial::matrix_elements("B", n_pad, k_pad));
  tutorial::DeviceBuffer<float> c(tutorial::matrix_elements("C", m_pad, n_pad));
  constexpr size_t kValue = sizeof(__nv_bfloat16);
  CUDA_CHECK(cudaMemsetAsync(a.data(), 0, a.bytes()));
  CUDA_CHECK(cudaMemsetAsync(b_cols.data(), 0, b_cols.bytes()));
  // Row by row into the wider rows of the padded copies: m rows of A, n of B's columns.
  CUDA_CHECK(cudaMemcpy2DAsync(a.data(), k_pad * kValue, d_a, k * kValue, k * kValue, m,
                               cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy2DAsync(b_cols.data(), k_pad * kValue, d_b_cols, k * kValue, k * kValue, n,
                               cudaMemcpyDeviceToDevice));
  multiply(a.data(), b_cols.data(), c.data(), m_pad, n_pad, k_pad);
  CUDA_CHECK(cudaMemcpy2DAsync(d_c, n * sizeof(float), c.data(), n_pad * sizeof(float),
                               n * sizeof(float), m, cudaMemcpyDeviceToDevice));
}

}  // namespace exercise10
