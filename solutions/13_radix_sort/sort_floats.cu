// Exercise 13.2, solved: floats sorted by value. Each float's bits are flipped into a word whose
// unsigned order is the floats' order, the words sorted by four LSD passes (every NaN ranked as
// the largest word, so that the NaNs tie and keep their input order), and flipped back.
#include <cuda_runtime.h>

#include <utility>

#include "exercise.cuh"
#include "tile_counts.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise13 {

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

/// The digit at bit @p shift of a flipped word's sort key.
struct SortKeyDigit {
  int shift;
  __device__ uint32_t operator()(uint32_t word) const {
    return (sort_key(word) >> shift) & (kDigits - 1);
  }
};

__global__ void flip_kernel(const float* in, int64_t n, uint32_t* out) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n) out[i] = flip(__float_as_uint(in[i]));
}

__global__ void unflip_kernel(const uint32_t* in, int64_t n, float* out) {
  const int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  if (i < n) out[i] = __uint_as_float(unflip(in[i]));
}

/// Per pass, third kernel: each word to where the tile's words of its digit start (@p starts,
/// from tile_digit_starts) plus the words of the tile before it with the same digit: stable.
__global__ void scatter_words_kernel(const uint32_t* in, int64_t n, SortKeyDigit digit_of,
                                     const int64_t* starts, uint32_t* out) {
  __shared__ uint32_t tile_digits[kTileKeys];
  const int64_t i = int64_t{blockIdx.x} * kTileKeys + threadIdx.x;
  const uint32_t digit = i < n ? digit_of(in[i]) : kDigits;  // past the end: no digit
  tile_digits[threadIdx.x] = digit;
  __syncthreads();  // every digit of the tile is in before any is compared
  if (i < n) {
    uint32_t rank = 0;
    for (int j = 0; j < threadIdx.x; ++j) rank += tile_digits[j] == digit;
    out[starts[digit * tile_count(n) + blockIdx.x] + rank] = in[i];
  }
}

void sort_floats(const float* d_in, int64_t n, float* d_out, uint32_t* d_temp_a,
                 uint32_t* d_temp_b) {
  const int64_t tiles = tile_count(n);
  tutorial::DeviceBuffer<int64_t> d_starts(kDigits * tiles);
  flip_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(d_in, n, d_temp_a);
  CUDA_CHECK(cudaGetLastError());
  // Four passes from a to b and back: the sorted words end in a.
  uint32_t* from = d_temp_a;
  uint32_t* to = d_temp_b;
  for (int pass = 0; pass < kPasses; ++pass) {
    const SortKeyDigit digit_of{8 * pass};
    tile_digit_starts(from, n, digit_of, d_starts.data());
    scatter_words_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(from, n, digit_of,
                                                                     d_starts.data(), to);
    CUDA_CHECK(cudaGetLastError());
    std::swap(from, to);
  }
  unflip_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(from, n, d_out);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise13
