// Exercise 5.2: where the maximum is, with one atomicMax per block (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise05 {

constexpr int kThreads = 256;

/// A 64-bit key that orders (value, index) pairs the way the answer needs: a larger value
/// gives a larger key, and for equal values a smaller index gives a larger key. Then the
/// largest key of all is the answer, and atomicMax can find it.
__host__ __device__ unsigned long long pack(int32_t value, uint32_t index) {
  // TODO(5.2): return the key of (value, index), ordered as described above for every int32
  // value (negative ones included) and every index < 2^32 - 1, and above 0 (the kernel's
  // starting key). unpack() must recover both parts from it.
  return 0;
}

/// The (value, index) pair that pack() made @p key from.
__host__ __device__ ArgMax unpack(unsigned long long key) {
  // TODO(5.2): undo pack().
  return ArgMax{0, 0};
}

/// The largest key of the block, valid in thread 0.
/// @pre every thread of a block of kThreads threads calls it.
__device__ unsigned long long block_max(unsigned long long key) {
  __shared__ unsigned long long warp_keys[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) {
    key = max(key, __shfl_down_sync(0xffffffffu, key, offset));
  }
  if (threadIdx.x % 32 == 0) warp_keys[threadIdx.x / 32] = key;
  __syncthreads();
  if (threadIdx.x < 32) {
    key = threadIdx.x < kThreads / 32 ? warp_keys[threadIdx.x] : 0;
    for (int offset = 16; offset > 0; offset /= 2) {
      key = max(key, __shfl_down_sync(0xffffffffu, key, offset));
    }
  }
  return key;
}

/// Grid-stride loop over the input; each block folds its best key into *out with one atomic.
/// @pre *out is 0 before the launch (below every key pack() makes for an index < 2^32 - 1).
__global__ void argmax_kernel(const int32_t* in, int64_t n, unsigned long long* out) {
  unsigned long long best = 0;
  // TODO(5.2): walk the input with the grid's stride, keeping the largest pack(in[i], i).
  best = block_max(best);
  // TODO(5.2): thread 0 folds the block's best key into *out with atomicMax.
}

ArgMax grid_argmax(const int32_t* d_in, int64_t n) {
  throw tutorial::Todo(
      "write pack, unpack and argmax_kernel in exercises/05_atomic_grid/"
      "argmax.cu, then delete this line");
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, argmax_kernel, kThreads, 0));
  tutorial::DeviceBuffer<unsigned long long> d_out(1);
  CUDA_CHECK(cudaMemset(d_out.data(), 0, sizeof(unsigned long long)));
  argmax_kernel<<<per_sm * sms, kThreads>>>(d_in, n, d_out.data());
  CUDA_CHECK(cudaGetLastError());
  return unpack(d_out.to_host()[0]);
}

}  // namespace exercise05
