// Exercise 7.4: rectangular tiles (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise07 {

/// A block of kM * kN threads computes a kM x kN tile of C, one element per thread, stepping
/// kK along K. A's tile (kM x kK) and B's tile (kK x kN) hold kM * kK and kK * kN elements,
/// not kM * kN, so the threads copy them in strided loops rather than one element each.
template <int kM, int kN, int kK>
__global__ void matmul_rect_tiled(const float* a, const float* b, float* c, int64_t m, int64_t n,
                                  int64_t k) {
  constexpr int kThreads = kM * kN;
  __shared__ float a_tile[kM][kK];
  __shared__ float b_tile[kK][kN];
  const int t = threadIdx.x;
  const int64_t row0 = int64_t{blockIdx.y} * kM, col0 = int64_t{blockIdx.x} * kN;
  const int64_t row = row0 + t / kN, col = col0 + t % kN;
  float sum = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kK) {
    for (int i = t; i < kM * kK; i += kThreads) {
      const int64_t r = row0 + i / kK, p = k0 + i % kK;
      a_tile[i / kK][i % kK] = (r < m && p < k) ? a[r * k + p] : 0.0f;
    }
    for (int i = t; i < kK * kN; i += kThreads) {
      const int64_t p = k0 + i / kN, cc = col0 + i % kN;
      b_tile[i / kN][i % kN] = (p < k && cc < n) ? b[p * n + cc] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < kK; ++p) sum += a_tile[t / kN][p] * b_tile[p][t % kN];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
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
