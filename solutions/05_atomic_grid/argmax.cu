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
  // Flipping the sign bit maps INT_MIN..INT_MAX onto 0..0xFFFFFFFF in order.
  const uint32_t ordered = static_cast<uint32_t>(value) ^ 0x80000000u;
  return (static_cast<unsigned long long>(ordered) << 32) | (0xFFFFFFFFu - index);
}

/// The (value, index) pair that pack() made @p key from.
__host__ __device__ ArgMax unpack(unsigned long long key) {
  const uint32_t ordered = static_cast<uint32_t>(key >> 32);
  const uint32_t reversed_index = static_cast<uint32_t>(key);
  return ArgMax{static_cast<int32_t>(ordered ^ 0x80000000u), int64_t{0xFFFFFFFFu - reversed_index}};
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
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += stride) {
    best = max(best, pack(in[i], static_cast<uint32_t>(i)));
  }
  best = block_max(best);
  if (threadIdx.x == 0) atomicMax(out, best);
}

ArgMax grid_argmax(const int32_t* d_in, int64_t n) {
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
