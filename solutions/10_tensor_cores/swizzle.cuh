// Exercise 10.1, solved: where each 16-byte piece of a row of chapter 10's shared tiles is
// stored. A header: the checker includes it, since a constexpr function is defined where it is
// used.
#pragma once

#include "exercise.hpp"

namespace exercise10 {

__host__ __device__ constexpr int swizzled_chunk(int row, int chunk) {
  // A row is 64 bytes: rows 2i and 2i + 1 share the 32 banks, and the 8 rows an ldmatrix
  // matrix reads are 4 such pairs. XOR-ing the piece with the pair's number mod 4 (row / 2)
  // gives the 4 pairs 4 different places for the same piece, so the 8 rows fill all 8 groups of
  // 4 banks; an XOR with a fixed number permutes 0..3, so a row keeps its 4 places.
  return chunk ^ ((row >> 1) & (kPiecesPerRow - 1));
}

/// The offset (in BF16 values) of element (@p row, @p k) in a tile stored with swizzled_chunk:
/// where the kernel's copies and ldmatrix go, and what the checker reads.
inline int swizzled_offset(int row, int k) {
  return row * kTileDepth + swizzled_chunk(row, k / 8) * 8 + k % 8;
}

}  // namespace exercise10
