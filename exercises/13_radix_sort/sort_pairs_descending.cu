// Exercise 13.1: a stable descending sort of key-value pairs (see README.md).
#include <cuda_runtime.h>

#include "exercise.cuh"
#include "tile_counts.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise13 {

/// The digit of a key at bit @p shift that this sort passes to its counts and its scatter.
struct DescendingDigit {
  int shift;
  __device__ uint32_t operator()(uint32_t key) const {
    // TODO(13.1): the digit (0 to 255) that makes an ascending LSD sort of digits, bit 0 first,
    // put the largest key first.
    return 0;
  }
};

/// Per pass, third kernel: tile blockIdx.x's keys and their values to their places in the
/// pass's output. @p starts is tile_digit_starts()' result for this pass.
__global__ void scatter_pairs_kernel(const uint32_t* keys_in, const uint32_t* values_in, int64_t n,
                                     DescendingDigit digit_of, const int64_t* starts,
                                     uint32_t* keys_out, uint32_t* values_out) {
  // TODO(13.1): write each key of the tile, and its value, to where the tile's keys of its digit
  // start plus the number of keys before it in the tile with the same digit, so that equal
  // digits keep their order.
}

void sort_pairs_descending(const uint32_t* d_keys, const uint32_t* d_values, int64_t n,
                           uint32_t* d_keys_out, uint32_t* d_values_out, uint32_t* d_temp_keys,
                           uint32_t* d_temp_values) {
  throw tutorial::Todo(
      "write DescendingDigit and scatter_pairs_kernel in "
      "exercises/13_radix_sort/sort_pairs_descending.cu, then delete this line");
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
