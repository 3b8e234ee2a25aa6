// Exercise 10.8, solved: the pieces of a split tile meet in a workspace, the last one in adds
// them up in their order along the rows, and the sum is the same to the bit on every launch.
#include <cstdint>

#include "split_sum.cuh"
#include "tutorial/harness/block_cycles.cuh"  // global_timer_ns()
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

__device__ void add_piece(const float (&partial)[kColumnsPerThread], int first_row, int piece_rows,
                          int rows, int piece, int pieces, float* slots, int* arrived, float* out) {
  // Each piece its own slot: nothing is added until every piece is there, so the order of the
  // additions is the last block's choice, not the order of arrival.
  float* mine = slots + int64_t{piece} * kTileColumns;
  for (int i = 0; i < kColumnsPerThread; ++i) mine[threadIdx.x + i * kSumThreads] = partial[i];
  __threadfence();  // this thread's sums, before the block's count below
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) {
    // Count rows, not arrivals in order: whoever brings the count to all rows is last.
    const int before = atomicAdd(arrived, piece_rows);
    last = before + piece_rows == rows;
    if (last) *arrived = 0;  // for the next launch: every piece has counted
  }
  __syncthreads();
  if (!last) return;
  __threadfence();  // every piece's sums, before these reads
  for (int i = 0; i < kColumnsPerThread; ++i) {
    const int column = threadIdx.x + i * kSumThreads;
    float sum = __ldcg(&slots[column]);  // from L2: another block's writes
    for (int p = 1; p < pieces; ++p) sum += __ldcg(&slots[int64_t{p} * kTileColumns + column]);
    out[column] = sum;
  }
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
  split_sum_kernel<<<unsigned(tiles * pieces), kSumThreads>>>(d_x, d_slots, d_arrived, d_out,
                                                              pieces, rows);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise10
