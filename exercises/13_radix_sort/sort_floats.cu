// Exercise 13.2: floats sorted by value (see README.md).
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise13 {

/// Threads of a block of the two flip kernels, one float a thread.
constexpr int kThreads = 256;

/// A float's bits made into a word whose unsigned order is the floats' order.
__device__ uint32_t flip(uint32_t bits) {
  // TODO(13.2): a word that sorts as the float does: every negative below every positive, -0.0
  // just below +0.0, a larger negative magnitude a smaller word. Every bit must be kept, so that
  // unflip() can give the float back.
  return bits;
}

/// flip() undone.
__device__ uint32_t unflip(uint32_t word) {
  // TODO(13.2): the float's bits that flip() made @p word from.
  return word;
}

/// What a flipped word is sorted by.
__device__ uint32_t sort_key(uint32_t word) {
  // TODO(13.2): the word itself for every float that is not a NaN; for the flipped word of a
  // NaN (either sign, any payload), one key above all the others, so that NaNs come last and,
  // as equal keys of a stable sort, in their input order.
  return word;
}

/// Each float's flipped word, and the key it is sorted by.
__global__ void flip_kernel(const float* in, int64_t n, uint32_t* keys, uint32_t* words) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n) {
    const uint32_t word = flip(__float_as_uint(in[i]));
    keys[i] = sort_key(word);
    words[i] = word;
  }
}

__global__ void unflip_kernel(const uint32_t* in, int64_t n, float* out) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n) out[i] = __uint_as_float(unflip(in[i]));
}

void sort_floats(const float* d_in, int64_t n, float* d_out, uint32_t* d_temp_a,
                 uint32_t* d_temp_b) {
  throw tutorial::Todo(
      "write flip, unflip and sort_key in exercises/13_radix_sort/sort_floats.cu, then delete "
      "this line");
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  // The sort moves the keys between a and b, and each word with its key between the two halves
  // of d_words; Current() says which of the two holds them at the end.
  tutorial::DeviceBuffer<uint32_t> d_words(2 * n);
  cub::DoubleBuffer<uint32_t> keys(d_temp_a, d_temp_b);
  cub::DoubleBuffer<uint32_t> words(d_words.data(), d_words.data() + n);
  flip_kernel<<<blocks, kThreads>>>(d_in, n, keys.Current(), words.Current());
  CUDA_CHECK(cudaGetLastError());
  // A stable radix sort of the words by their keys: the NaNs, one key, keep their input order.
  size_t bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, words, n));
  tutorial::DeviceBuffer<unsigned char> d_sort_temp(static_cast<int64_t>(bytes));
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_sort_temp.data(), bytes, keys, words, n));
  unflip_kernel<<<blocks, kThreads>>>(words.Current(), n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise13
