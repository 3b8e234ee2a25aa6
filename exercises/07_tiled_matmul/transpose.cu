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
  // TODO(7.2): write the kernel as described above, right for any rows and cols, with no bank
  // conflict in either phase's shared-memory accesses. It must also reach the speed README.md
  // asks for.
}

void transpose(const float* d_in, float* d_out, int64_t rows, int64_t cols) {
  throw tutorial::Todo(
      "write transpose_tiled in exercises/07_tiled_matmul/transpose.cu, then "
      "delete this line");
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(unsigned((cols + kTile - 1) / kTile), unsigned((rows + kTile - 1) / kTile));
  transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise07
