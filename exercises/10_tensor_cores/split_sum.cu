// Exercise 10.8: the pieces of a split tile meet in a workspace, the last one in adds them up,
// and the sum is the same to the bit on every launch (see README.md).
#include <cstdint>

#include "split_sum.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/block_cycles.cuh"  // global_timer_ns()
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

__device__ void add_piece(const float (&partial)[kColumnsPerThread], int first_row, int piece_rows,
                          int rows, int piece, int pieces, float* slots, int* arrived, float* out) {
  // TODO(10.8): meet the tile's other pieces. Where you start: every piece writes its own sums
  // to out, as if it were the whole tile.
  for (int i = 0; i < kColumnsPerThread; ++i) out[threadIdx.x + i * kSumThreads] = partial[i];
}

/// Block b sums piece b % pieces of tile b / pieces, after a delay that runs a tile's pieces
/// in the reverse of their order along the rows, and hands its sums to add_piece().
__global__ void __launch_bounds__(kSumThreads)
    split_sum_kernel(const float* __restrict__ x, float* slots, int* arrived, float* out,
                     int pieces, int rows) {
  const int64_t tile = blockIdx.x / pieces;
  const int piece = int(blockIdx.x % pieces);
  const int first = first_row_of(piece, pieces, rows), end = first_row_of(piece + 1, pieces, rows);
  const uint64_t start = tutorial::global_timer_ns() + (pieces - 1 - piece) * kLateNs;
  while (tutorial::global_timer_ns() < start) {
  }
  float partial[kColumnsPerThread] = {};
  for (int r = first; r < end; ++r) {
    const float* row = x + (tile * rows + r) * kTileColumns;
    for (int i = 0; i < kColumnsPerThread; ++i) partial[i] += row[threadIdx.x + i * kSumThreads];
  }
  add_piece(partial, first, end - first, rows, piece, pieces, slots + tile * pieces * kTileColumns,
            arrived + tile, out + tile * kTileColumns);
}

void split_sums(const float* d_x, float* d_slots, int* d_arrived, float* d_out, int64_t tiles,
                int pieces, int rows) {
  throw tutorial::Todo(
      "write add_piece in exercises/10_tensor_cores/split_sum.cu, then delete this line");
  split_sum_kernel<<<unsigned(tiles * pieces), kSumThreads>>>(d_x, d_slots, d_arrived, d_out,
                                                              pieces, rows);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise10
