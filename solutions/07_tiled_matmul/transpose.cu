// Exercise 7.2: transpose through shared memory without bank conflicts (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

constexpr int kTile = 32;      ///< a block moves one kTile x kTile tile
constexpr int kBlockRows = 8;  ///< a block is kTile x kBlockRows threads: 4 elements each

/// out (cols x rows) = the transpose of in (rows x cols). Block (x, y) moves the tile that
/// starts at row y * kTile, column x * kTile of `in`: it reads rows of the tile (a warp reads
/// 32 neighbours of `in`), turns the tile in shared memory, and writes rows of the turned tile
/// (a warp writes 32 neighbours of `out`).
__global__ void transpose_tiled(const float* in, float* out, int64_t rows, int64_t cols) {
  // The padding column: element (r, c) sits in bank (33 r + c) % 32 = (r + c) % 32, so the 32
  // elements of a column (fixed c, r = 0..31) fall in 32 different banks. Without it they
  // would all fall in bank c: a 32-way conflict on every read of the second phase.
  __shared__ float tile[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row0 = int64_t{blockIdx.y} * kTile, col0 = int64_t{blockIdx.x} * kTile;
  for (int j = ty; j < kTile; j += kBlockRows) {
    const int64_t r = row0 + j, c = col0 + tx;
    if (r < rows && c < cols) tile[j][tx] = in[r * cols + c];
  }
  __syncthreads();  // the writes below read elements other threads stored
  for (int j = ty; j < kTile; j += kBlockRows) {
    const int64_t r = row0 + tx, c = col0 + j;  // out(c, r) = in(r, c)
    if (r < rows && c < cols) out[c * rows + r] = tile[tx][j];
  }
}

void transpose(const float* d_in, float* d_out, int64_t rows, int64_t cols) {
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(unsigned((cols + kTile - 1) / kTile), unsigned((rows + kTile - 1) / kTile));
  transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
