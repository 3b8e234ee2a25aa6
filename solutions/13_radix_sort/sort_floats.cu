// Exercise 13.2, solved: floats sorted by value. Each float's bits are flipped into a word whose
// unsigned order is the floats' order, the words sorted by their keys with CUB's stable radix
// sort (every NaN keyed as the largest word, so that the NaNs tie and keep their input order),
// and flipped back.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise13 {

/// Threads of a block of the two flip kernels, one float a thread.
constexpr int kThreads = 256;

constexpr uint32_t kSignBit = 0x80000000u;
/// The flipped words of -infinity and +infinity: every flipped NaN lies outside them.
constexpr uint32_t kFlippedMinusInfinity = 0x007FFFFFu;
constexpr uint32_t kFlippedPlusInfinity = 0xFF800000u;

/// The bits flip() flips: every bit of a negative float, the sign bit alone of a positive one.
__device__ uint32_t flip_mask(bool negative) {
  return negative ? 0xFFFFFFFFu : kSignBit;
}

/// A float's bits made into a word that sorts as the float does: a negative float has every bit
/// flipped (a larger magnitude, a smaller word, and all below the positives), a positive one its
/// sign bit set (above every negative). -0.0 becomes 0x7FFFFFFF, +0.0 0x80000000.
__device__ uint32_t flip(uint32_t bits) {
  return bits ^ flip_mask((bits & kSignBit) != 0);
}

/// flip() undone: a word whose top bit is clear came from a negative float.
__device__ uint32_t unflip(uint32_t word) {
  return word ^ flip_mask((word & kSignBit) == 0);
}

/// What a flipped word is sorted by: the word itself, but 0xFFFFFFFF for every NaN. A positive
/// NaN flips above +infinity's word, a negative one below -infinity's, each by its payload: as
/// one key they all come last, in their input order.
__device__ uint32_t sort_key(uint32_t word) {
  return word < kFlippedMinusInfinity || word > kFlippedPlusInfinity ? 0xFFFFFFFFu : word;
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
