/**
 * @file chapters/10_tensor_cores/tensor_map.cuh
 * @brief The host side of TMA: a tensor map describes a matrix in global memory and the box
 *        (tile) one copy moves, and how the box is laid out in shared memory.
 *
 * cuTensorMapEncodeTiled is a driver API function. The program links only the runtime, so it
 * asks the runtime for the driver's entry point (cudaGetDriverEntryPointByVersion) instead of
 * linking libcuda.
 */
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/errors.hpp"

namespace chapter10 {

/// BF16 values in a tensor map box's row: 128 bytes, the width of the 128-byte swizzle.
constexpr int kTmaBoxDepth = 64;

/// cuTensorMapEncodeTiled, as of CUDA 12.0 (the version its signature is from), found once.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr) {
      throw tutorial::CudaError(
          "the driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12.0 or newer driver)");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return encode;
}

//! [tensor_map]
/**
 * @brief cuTensorMapEncodeTiled for a matrix at @p d_matrix of @p kRank dimensions: @p size
 *        elements of @p type in each (innermost first), @p strides bytes from one index to the
 *        next of dimensions 1 on, boxes of @p box elements, with the 128-byte swizzle.
 *
 * In shared memory, in each group of 8 rows of 128 bytes of a box,
 * row r stores its 16-byte piece p at piece p ^ (r % 8).
 * @throws CudaError naming the matrix (@p what) when the driver refuses the map.
 */
template <int kRank>
inline CUtensorMap swizzled_tensor_map(const std::string& what, CUtensorMapDataType type,
                                       const void* d_matrix, const cuuint64_t (&size)[kRank],
                                       const cuuint64_t (&strides)[kRank - 1],
                                       const cuuint32_t (&box)[kRank],
                                       CUtensorMapL2promotion promotion) {
  CUtensorMap map{};
  cuuint32_t element_strides[kRank];
  for (cuuint32_t& stride : element_strides) stride = 1;
  const CUresult result = tensor_map_encoder()(
      &map, type, kRank, const_cast<void*>(d_matrix), size, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, promotion,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw tutorial::CudaError("cuTensorMapEncodeTiled for " + what + " failed: CUresult " +
                              std::to_string(int(result)));
  }
  return map;
}

/**
 * @brief The tensor map of a K-major BF16 matrix (@p rows rows of @p k values, row after row)
 *        whose copies move boxes of @p box_rows rows x kTmaBoxDepth values.
 *
 * In shared memory a box is box_rows rows of 128 bytes, 128-byte swizzled: the layout wgmma's
 * descriptors call the 128-byte swizzle (swizzled_tile_descriptor()). Boxes that reach past
 * the matrix are filled with zeros. L2 promotion fetches 256-byte lines: the rows of a box are
 * 128 bytes each.
 * @pre @p d_matrix 16-byte aligned; @p k a multiple of 8 (rows of a multiple of 16 bytes);
 *      1 <= box_rows <= 256.
 * @throws CudaError naming the matrix when the driver refuses the map.
 */
inline CUtensorMap k_major_tensor_map(const char* name, const __nv_bfloat16* d_matrix, int64_t rows,
                                      int64_t k, uint32_t box_rows) {
  return swizzled_tensor_map<2>(
      std::string(name) + " (" + std::to_string(rows) + " x " + std::to_string(k) +
          " BF16, boxes of " + std::to_string(box_rows) + " x " + std::to_string(kTmaBoxDepth) +
          ")",
      CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, d_matrix, {cuuint64_t(k), cuuint64_t(rows)},
      {cuuint64_t(k) * sizeof(__nv_bfloat16)}, {kTmaBoxDepth, box_rows},
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}
//! [tensor_map]

/// A box of C as step 7 stores it: a consumer warpgroup's 64 rows x 32 floats (128 bytes a
/// row, the width of the 128-byte swizzle).
constexpr uint32_t kCBoxRows = 64, kCBoxCols = 128 / sizeof(float);

//! [c_tensor_map]
/**
 * @brief The tensor map step 7 stores C through: a row-major float matrix (@p rows x @p cols)
 *        whose boxes are 64 rows x kCBoxCols floats (128 bytes a row), 128-byte swizzled in
 *        shared memory as the A and B tiles are, but with each 16 rows in the order 0, 8, 1, 9,
 *        ..., 7, 15 (why: write_c_box()). A store writes only the part of a box inside C.
 *
 * The map sees C as 4-D, innermost first: a row's columns; rows r and r + 8 (2, stride 8
 * rows); rows 0-7 of 16 (stride 1 row); groups of 16 rows (stride 16 rows). A box holds all
 * of the middle two, so in shared memory row 2 i + h of a group is C's row i + 8 h.
 * @pre @p d_c 16-byte aligned, @p cols a multiple of 4, @p rows a multiple of 16.
 */
inline CUtensorMap c_tensor_map(float* d_c, int64_t rows, int64_t cols) {
  const cuuint64_t row = cuuint64_t(cols) * sizeof(float);
  return swizzled_tensor_map<4>(
      "C (" + std::to_string(rows) + " x " + std::to_string(cols) +
          " floats, rows 0, 8, 1, 9, ...)",
      CU_TENSOR_MAP_DATA_TYPE_FLOAT32, d_c, {cuuint64_t(cols), 2, 8, cuuint64_t(rows / 16)},
      {8 * row, row, 16 * row}, {kCBoxCols, 2, 8, kCBoxRows / 16}, CU_TENSOR_MAP_L2_PROMOTION_NONE);
}
//! [c_tensor_map]

/// The tensor map of a row-major float matrix (@p rows x @p cols) in boxes of @p box_rows rows x
/// kCBoxCols floats, 128-byte swizzled, rows in their order: C as exercise 10.6 stores it (and
/// as step 7 did before its rows were interleaved). @pre @p d_c 16-byte aligned, @p cols a
/// multiple of 4; 1 <= box_rows <= 256.
inline CUtensorMap plain_c_tensor_map(float* d_c, int64_t rows, int64_t cols, uint32_t box_rows) {
  return swizzled_tensor_map<2>(
      "C (" + std::to_string(rows) + " x " + std::to_string(cols) + " floats)",
      CU_TENSOR_MAP_DATA_TYPE_FLOAT32, d_c, {cuuint64_t(cols), cuuint64_t(rows)},
      {cuuint64_t(cols) * sizeof(float)}, {kCBoxCols, box_rows}, CU_TENSOR_MAP_L2_PROMOTION_NONE);
}

}  // namespace chapter10
