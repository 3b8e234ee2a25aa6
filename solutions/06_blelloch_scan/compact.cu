// Exercise 6.3: stream compaction built on a scan (see README.md).
#include "exercise.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

constexpr int kThreads = 256;

/// flags[i] = 1 where in[i] is kept, else 0.
__global__ void flag_kept(const int32_t* in, int64_t n, int64_t* flags) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n) flags[i] = keep(in[i]) ? 1 : 0;
}

/// Each kept in[i] goes to out[offsets[i]]: the number of kept elements before it.
__global__ void scatter_kept(const int32_t* in, int64_t n, const int64_t* offsets, int32_t* out) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n && keep(in[i])) out[offsets[i]] = in[i];
}

int64_t compact(const int32_t* d_in, int64_t n, int32_t* d_out) {
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  tutorial::DeviceBuffer<int64_t> flags(n), offsets(n);
  flag_kept<<<blocks, kThreads>>>(d_in, n, flags.data());
  CUDA_CHECK(cudaGetLastError());
  exclusive_sum(flags.data(), n, offsets.data());
  scatter_kept<<<blocks, kThreads>>>(d_in, n, offsets.data(), d_out);
  CUDA_CHECK(cudaGetLastError());
  // The exclusive scan leaves out the last flag: the count is the last offset plus it.
  int64_t last_offset = 0, last_flag = 0;
  CUDA_CHECK(
      cudaMemcpy(&last_offset, offsets.data() + n - 1, sizeof last_offset, cudaMemcpyDeviceToHost));
  CUDA_CHECK(
      cudaMemcpy(&last_flag, flags.data() + n - 1, sizeof last_flag, cudaMemcpyDeviceToHost));
  return last_offset + last_flag;
}

}  // namespace exercise06
