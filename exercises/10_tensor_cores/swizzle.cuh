// Exercise 10.1: where each 16-byte piece of a row of a shared tile of 32-byte rows is stored
// (see README.md). A header: the checker includes it, since a constexpr function is defined
// where it is used.
#pragma once

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"

namespace exercise10 {

__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  // TODO(10.1): place the pieces as exercise.hpp's contract says: a row's 2 pieces in 2
  // different places, and no access of the kernel slowed by a bank conflict. Where you start:
  // every piece in its own place, the plain layout.
  return chunk;
}

/// The offset (in BF16 values) of element (@p row, @p k) in a tile stored with swizzled_chunk:
/// where the kernel's copies and ldmatrix go, and what the checker reads.
inline int swizzled_offset(int row, int k) {
  throw tutorial::Todo(
      "write swizzled_chunk in exercises/10_tensor_cores/swizzle.cuh, then delete this line");
  return row * kTileDepth + swizzled_chunk(row, k / 8) * 8 + k % 8;
}

}  // namespace exercise10
