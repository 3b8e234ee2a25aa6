/**
 * @file exercises/10_tensor_cores/exercise.cuh
 * @brief The functions of exercises 10.2 and 10.3, shared by the learner's files and the
 *        checkers, and the pieces of chapter 10 that they build on: ldmatrix.x4 (and, for
 *        10.2, its .trans form), mma.sync and the zero padding that lets a kernel of whole
 *        tiles take any shape.
 *
 * Storage: A (m x k, BF16) is row-major; C (m x n, float) is row-major. B (k x n, BF16) is
 * stored by columns in 10.3, as in chapter 10: n rows of k values (b_cols[col * k + p] =
 * B(p, col)), so that A and B are contiguous along K. In 10.2 B is row-major (b[p * n + col] =
 * B(p, col)), as a C++ array, NumPy or PyTorch stores it. Every matrix lives in device memory as
 * cudaMalloc returns it. The tensor-core instructions need compute capability 8.0 or newer: the
 * device code here is compiled only for such GPUs (`__CUDA_ARCH__ >= 800`), as in the chapter.
 */
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "10_tensor_cores/tensor_core_ptx.cuh"  // chapter 10's ldmatrix_x4, mma_16x8x16
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise10 {

using tutorial::ceil_div;

/// mma.sync.m16n8k16's tile along M and K, and the 16 x 16 tile of C of exercise 10.2.
constexpr int kMmaTile = 16;

/// Row length of exercise 10.2's shared tiles: 16 values and 8 of padding. 48 bytes keep every
/// row 16-byte aligned, as ldmatrix needs, and put any 8 consecutive rows in 8 different groups
/// of 4 banks (chapter 06's padding; chapter 10's kernel swizzles instead).
constexpr int kTileStride = kMmaTile + 8;

//! [exercise_10_2]
/// Exercise 10.2: lane @p lane's part of one ldmatrix.x4 (or ldmatrix_x4_trans) of the warp,
/// which loads into @p r the lane's fragments of B for two mma.sync.m16n8k16 (.col) from
/// @p tile, a 16 x 16 tile of B stored row-major: tile[p][j] = B(p, j), p along K, j along N.
/// r[0] and r[1] are then the lane's b0 b1 and b2 b3 of columns 0-7 (b0 b1: B(2 (lane % 4), c)
/// and B(2 (lane % 4) + 1, c) of column c = lane / 4; b2 b3 the same 8 further along K), and
/// r[2] and r[3] the same of columns 8-15. Called by all 32 lanes together.
__device__ void load_b_fragments(uint32_t (&r)[4],
                                 const __nv_bfloat16 (&tile)[kMmaTile][kTileStride], int lane);

/// C = A * B by the kernel of fragments.cu, for B row-major: one warp per 16 x 16 tile of C,
/// A's fragments loaded as chapter 10 loads them, B's with load_b_fragments.
/// @pre m, n, k multiples of 16; compute capability 8.0 or newer.
void mma_tiles(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b, float* d_c, int64_t m, int64_t n,
               int64_t k);
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

// ldmatrix.x4 and mma.sync.m16n8k16, as the chapter uses them (its tensor_core_ptx.cuh),
// and ldmatrix.x4 with .trans, which the chapter does not use.
#if __CUDA_ARCH__ >= 800
using chapter10::ldmatrix_x4;
using chapter10::mma_16x8x16;

//! [ldmatrix_trans]
/// ldmatrix.x4.trans: as ldmatrix_x4, lanes 8i to 8i + 7 give the addresses of matrix i's 8
/// rows (16 bytes each, 16-byte aligned), but each matrix arrives transposed: lane l receives,
/// in r[i], the two values of matrix i in *column* l / 4, rows 2 (l % 4) and the next (the lower
/// row in the lower 16 bits).
__device__ inline void ldmatrix_x4_trans(uint32_t (&r)[4], const __nv_bfloat16* row_address) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address)
               : "memory");
}
//! [ldmatrix_trans]
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
