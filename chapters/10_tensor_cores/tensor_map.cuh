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
/// A 2-D tensor map of @p outer rows of @p inner elements of @p type (@p element_bytes each,
/// row after row), with boxes of @p box_outer x @p box_inner, 128-byte swizzled in shared
/// memory. @throws CudaError naming the matrix @p name when the driver refuses it.
inline CUtensorMap swizzled_tensor_map(const char* name, CUtensorMapDataType type,
                                       size_t element_bytes, const void* d_matrix, int64_t outer,
                                       int64_t inner, uint32_t box_outer, uint32_t box_inner) {
  CUtensorMap map{};
  const cuuint64_t size[2] = {cuuint64_t(inner), cuuint64_t(outer)};  // innermost first
  const cuuint64_t row_bytes[1] = {cuuint64_t(inner) * element_bytes};
  const cuuint32_t box[2] = {box_inner, box_outer};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = tensor_map_encoder()(
      &map, type, 2, const_cast<void*>(d_matrix), size, row_bytes, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw tutorial::CudaError(
        "cuTensorMapEncodeTiled for " + std::string(name) + " (" + std::to_string(outer) + " x " +
        std::to_string(inner) + ", boxes of " + std::to_string(box_outer) + " x " +
        std::to_string(box_inner) + ") failed: CUresult " + std::to_string(int(result)));
  }
  return map;
}

/**
 * @brief The tensor map of a K-major BF16 matrix (@p rows rows of @p k values, row after row)
 *        whose copies move boxes of @p box_rows rows x kTmaBoxDepth values.
 *
 * In shared memory a box is box_rows rows of 128 bytes, swizzled by 128 bytes: in each group
 * of 8 rows, row r stores its 16-byte piece p at piece p ^ (r % 8), the layout wgmma's
 * descriptors call the 128-byte swizzle (swizzled_tile_descriptor()). Boxes that reach past
 * the matrix are filled with zeros. L2 promotion fetches 256-byte lines: the rows of a box are
 * 128 bytes each.
 * @pre @p d_matrix 16-byte aligned; @p k a multiple of 8 (rows of a multiple of 16 bytes);
 *      1 <= box_rows <= 256.
 * @throws CudaError naming the matrix when the driver refuses the map.
 */
inline CUtensorMap k_major_tensor_map(const char* name, const __nv_bfloat16* d_matrix, int64_t rows,
                                      int64_t k, uint32_t box_rows) {
  return swizzled_tensor_map(name, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, sizeof(__nv_bfloat16),
                             d_matrix, rows, k, box_rows, kTmaBoxDepth);
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
  CUtensorMap map{};
  const cuuint64_t row = cuuint64_t(cols) * sizeof(float);
  const cuuint64_t size[4] = {cuuint64_t(cols), 2, 8, cuuint64_t(rows / 16)};
  const cuuint64_t strides[3] = {8 * row, row, 16 * row};  // bytes, dimensions 1-3
  const cuuint32_t box[4] = {kCBoxCols, 2, 8, kCBoxRows / 16};
  const cuuint32_t element_strides[4] = {1, 1, 1, 1};
  const CUresult result = tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_c, size, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw tutorial::CudaError("cuTensorMapEncodeTiled for C (" + std::to_string(rows) + " x " +
                              std::to_string(cols) +
                              " floats, rows 0, 8, 1, 9, ...) failed: "
                              "CUresult " +
                              std::to_string(int(result)));
  }
  return map;
}
//! [c_tensor_map]

}  // namespace chapter10
