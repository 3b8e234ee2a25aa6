// Exercise 13.1, solved: a stable descending sort of key-value pairs, four LSD passes of 8-bit
// digits of the complemented key, each pass three kernels (tile counts, scan, stable scatter).
#include <cuda_runtime.h>

#include "exercise.cuh"
#include "tile_counts.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise13 {

/// The digit of a key at bit @p shift for a descending sort: the digit of ~key. Complementing
/// reverses the order of the keys (a < b exactly when ~a > ~b), so the ascending LSD sort of the
/// complemented digits puts the largest key first, and equal keys stay equal.
struct DescendingDigit {
  int shift;
  __device__ uint32_t operator()(uint32_t key) const { return (~key >> shift) & (kDigits - 1); }
};

/// Per pass, third kernel: each key and its value go to where the tile's keys of its digit start
/// (@p starts, from tile_digit_starts) plus its rank, the keys of the tile before it with the
/// same digit. Counting only earlier keys is what makes the pass stable.
__global__ void scatter_pairs_kernel(const uint32_t* keys_in, const uint32_t* values_in, int64_t n,
                                     DescendingDigit digit_of, const int64_t* starts,
                                     uint32_t* keys_out, uint32_t* values_out) {
  __shared__ uint32_t tile_digits[kTileKeys];
  const int64_t i = int64_t{blockIdx.x} * kTileKeys + threadIdx.x;
  const uint32_t digit = i < n ? digit_of(keys_in[i]) : kDigits;  // past the end: no digit
  tile_digits[threadIdx.x] = digit;
  __syncthreads();  // every digit of the tile is in before any is compared
  if (i < n) {
    uint32_t rank = 0;
    for (int j = 0; j < threadIdx.x; ++j) rank += tile_digits[j] == digit;
    const int64_t position = starts[digit * tile_count(n) + blockIdx.x] + rank;
    keys_out[position] = keys_in[i];
    values_out[position] = values_in[i];
  }
}

void sort_pairs_descending(const uint32_t* d_keys, const uint32_t* d_values, int64_t n,
                           uint32_t* d_keys_out, uint32_t* d_values_out, uint32_t* d_temp_keys,
                           uint32_t* d_temp_values) {
  const int64_t tiles = tile_count(n);
  tutorial::DeviceBuffer<int64_t> d_starts(kDigits * tiles);
  // Passes 0 and 2 write the temporary arrays, passes 1 and 3 the output: the last pass ends
  // in the output.
  const uint32_t* keys_in = d_keys;
  const uint32_t* values_in = d_values;
  for (int pass = 0; pass < kPasses; ++pass) {
    uint32_t* keys_to = pass % 2 == 0 ? d_temp_keys : d_keys_out;
    uint32_t* values_to = pass % 2 == 0 ? d_temp_values : d_values_out;
    const DescendingDigit digit_of{8 * pass};
    tile_digit_starts(keys_in, n, digit_of, d_starts.data());
    scatter_pairs_kernel<<<static_cast<unsigned>(tiles), kThreads>>>(
        keys_in, values_in, n, digit_of, d_starts.data(), keys_to, values_to);
    CUDA_CHECK(cudaGetLastError());
    keys_in = keys_to;
    values_in = values_to;
  }
}

}  // namespace exercise13
