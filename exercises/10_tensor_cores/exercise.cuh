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
#include "tutorial/tensor_core_ptx.cuh"

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

// ldmatrix.x4 and mma.sync.m16n8k16, as the chapter uses them (tutorial/tensor_core_ptx.cuh).
#if __CUDA_ARCH__ >= 800
using tutorial::ldmatrix_x4;
using tutorial::mma_16x8x16;
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
