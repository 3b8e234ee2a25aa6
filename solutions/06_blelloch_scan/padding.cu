// Exercise 6.1: the bank-conflict padding, written right (see README.md).
#include "exercise.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

__host__ __device__ int padded_slot(int i, int element_bytes) {
  // A row of the 32 four-byte banks holds 32 floats, or 16 eight-byte values (served a
  // half-warp at a time). One empty slot per row, and one more per row of rows, so that
  // strides of a row or of a row of rows stop landing in one bank.
  const int log_row = element_bytes == 8 ? 4 : 5;
  return i + (i >> log_row) + (i >> (2 * log_row));
}

/// padded_slot() for the tree of this file's kernel (8-byte elements).
struct PaddedSlot {
  __device__ int operator()(int i) const { return padded_slot(i, sizeof(int64_t)); }
};

/// One block: an exclusive sum of n <= count values in a padded tree of `count` elements.
__global__ void exclusive_scan_padded_kernel(const int32_t* in, int n, int64_t* out, int count) {
  extern __shared__ int64_t tree[];
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    tree[padded_slot(i, sizeof(int64_t))] = i < n ? in[i] : 0;
  }
  block_exclusive_scan(tree, count, int64_t{0}, Plus{}, PaddedSlot{});
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tree[padded_slot(i, sizeof(int64_t))];
}

void exclusive_scan_padded(const int32_t* d_in, int n, int64_t* d_out) {
  int count = 2;
  while (count < n) count *= 2;
  const size_t shared_bytes = (padded_slot(count - 1, sizeof(int64_t)) + 1) * sizeof(int64_t);
  exclusive_scan_padded_kernel<<<1, count / 2, shared_bytes>>>(d_in, n, d_out, count);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise06
