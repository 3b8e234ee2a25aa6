// Exercise 10.1, solved: where each 16-byte piece of a row of a shared tile of 32-byte rows is
// stored. A header: the checker includes it, since a constexpr function is defined where it is
// used.
#pragma once

#include "exercise.hpp"

namespace exercise10 {

__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  // A row is 32 bytes: rows 4i to 4i + 3 share the 32 banks, and of the 8 rows an ldmatrix
  // matrix reads, rows r and r + 4 store the same piece in the same 4 banks. Rows 0-3 of each 8
  // leave their piece's other group of 4 banks free: swapping the 2 pieces in rows 4-7 (an XOR
  // with bit 2 of the row, row / 4 mod 2) puts the same piece of the 8 rows in 8 different
  // groups. An XOR with a fixed number permutes 0..1, so a row keeps its 2 places. (TMA's
  // 32-byte swizzle, CUTLASS's Swizzle<1,4,3>, stores a tile that starts at a multiple of 256
  // bytes the same way: address bit 4 ^= address bit 7.)
  return chunk ^ ((row >> 2) & (kPiecesPerRow - 1));
}

/// The offset (in BF16 values) of element (@p row, @p k) in a tile stored with swizzled_chunk:
/// where the kernel's copies and ldmatrix go, and what the checker reads.
inline int swizzled_offset(int row, int k) {
  return row * kTileDepth + swizzled_chunk(row, k / 8) * 8 + k % 8;
}

}  // namespace exercise10
