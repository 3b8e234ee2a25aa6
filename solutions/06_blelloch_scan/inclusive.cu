// Exercise 6.2: an inclusive scan from the exclusive tree, without another pass (README.md).
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise06 {

constexpr int kThreads = 1024;
constexpr int kTile = 2 * kThreads;

/// One block of kThreads threads: out[i] = in[0] + ... + in[i] for n <= 2 * kThreads elements.
__global__ void inclusive_scan_tile_kernel(const int32_t* in, int n, int64_t* out) {
  __shared__ int64_t tree[kTile];
  const int t = threadIdx.x;
  // Past n: 0, the identity of +, so those leaves change nothing.
  const int64_t x0 = t < n ? in[t] : 0;
  const int64_t x1 = t + kThreads < n ? in[t + kThreads] : 0;
  tree[t] = x0;
  tree[t + kThreads] = x1;
  block_exclusive_scan(tree, kTile, int64_t{0}, Plus{}, UnpaddedSlot{});
  // Inclusive = exclusive + the element itself, which is still in a register.
  if (t < n) out[t] = tree[t] + x0;
  if (t + kThreads < n) out[t + kThreads] = tree[t + kThreads] + x1;
}

void inclusive_scan_tile(const int32_t* d_in, int n, int64_t* d_out) {
  inclusive_scan_tile_kernel<<<1, kThreads>>>(d_in, n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise06
