// Exercise 7.4: rectangular tiles (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

/// A block of kM * kN threads computes a kM x kN tile of C, one element per thread, stepping
/// kK along K with a kM x kK tile of A and a kK x kN tile of B in shared memory.
template <int kM, int kN, int kK>
__global__ void matmul_rect_tiled(const float* a, const float* b, float* c, int64_t m, int64_t n,
                                  int64_t k) {
  // TODO(7.4): write the kernel as described above, right for any m, n and k and for every
  // tile shape that matmul_rectangular launches (32 x 8 with kK = 16, 8 x 32 with kK = 4).
}

/// Launches the kM x kN tiles over C: a 2-D grid, 1-D blocks of kM * kN threads.
template <int kM, int kN, int kK>
void launch_rect_tiled(const float* d_a, const float* d_b, float* d_c, int64_t m, int64_t n,
                       int64_t k) {
  static_assert(kM * kN <= 1024, "one thread per element of the C tile");
  const dim3 grid(unsigned((n + kN - 1) / kN), unsigned((m + kM - 1) / kM));
  matmul_rect_tiled<kM, kN, kK><<<grid, kM * kN>>>(d_a, d_b, d_c, m, n, k);
  CUDA_CHECK(cudaGetLastError());
}

void matmul_rectangular(TileShape shape, const float* d_a, const float* d_b, float* d_c, int64_t m,
                        int64_t n, int64_t k) {
  throw tutorial::Todo(
      "write matmul_rect_tiled in exercises/07_tiled_matmul/"
      "rectangular_tiles.cu, then delete this line");
  switch (shape) {
    case TileShape::kTall:
      launch_rect_tiled<32, 8, 16>(d_a, d_b, d_c, m, n, k);
      break;
    case TileShape::kWide:
      launch_rect_tiled<8, 32, 4>(d_a, d_b, d_c, m, n, k);
      break;
  }
}

}  // namespace exercise07
