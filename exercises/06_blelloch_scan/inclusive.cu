// Exercise 6.2: an inclusive scan from the exclusive tree, without another pass (README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"

namespace exercise06 {

constexpr int kThreads = 1024;

/// One block of kThreads threads: out[i] = in[0] + ... + in[i] for n <= 2 * kThreads elements.
__global__ void inclusive_scan_tile_kernel(const int32_t* in, int n, int64_t* out) {
  // TODO(6.2): write the kernel: out[i] = in[0] + ... + in[i] for i < n, with
  // block_exclusive_scan (exercise.cuh), in this one kernel: no second tree and no second
  // kernel. Elements past n must not change the result, and must not be written.
}

void inclusive_scan_tile(const int32_t* d_in, int n, int64_t* d_out) {
  throw tutorial::Todo(
      "write inclusive_scan_tile_kernel in exercises/06_blelloch_scan/"
      "inclusive.cu, then delete this line");
  inclusive_scan_tile_kernel<<<1, kThreads>>>(d_in, n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise06
