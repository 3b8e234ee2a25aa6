// What the checkers of exercises 12.1 to 12.3 share: shared memory filled with garbage before
// the learner's call, so that counters that are never zeroed show; and the exact check of
// counts against a CPU reference.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/poison.hpp"

namespace check12 {

/// Every word of the block's @p words words of shared memory set to @p pattern. Volatile, so that
/// the compiler keeps stores that nothing in the kernel reads.
__global__ inline void fill_shared_memory_kernel(uint32_t pattern, int words) {
  extern __shared__ uint32_t shared_words[];
  volatile uint32_t* shared = shared_words;
  for (int i = threadIdx.x; i < words; i += blockDim.x) shared[i] = pattern;
}

/**
 * @brief Leaves the poison (0x7F7F7F7F: 2139062143 as a count, 3.4e38 as a float) in the shared
 *        memory of every SM, on the default stream. Shared memory is not cleared between
 *        kernels: a block that adds to counters it never zeroed finds what the last kernel left
 *        there, which after this call is the poison, not a lucky zero.
 */
inline void dirty_shared_memory() {
  static const int bytes = [] {
    int device = 0, most = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaFuncSetAttribute(fill_shared_memory_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, most));
    return most;
  }();
  // Two blocks per SM, each with all the shared memory a block may have: every SM runs one.
  const int blocks = 2 * tutorial::query_device().sm_count;
  fill_shared_memory_kernel<<<blocks, 256, bytes>>>(tutorial::poison_value<uint32_t>(), bytes / 4);
  CUDA_CHECK(cudaGetLastError());
}

/// Expects the counts @p got to equal @p want exactly, bin by bin; the message names how many
/// bins are wrong and the first of them, as @p bin_name(b) says it ("bin 7", "digit 2, bin 7").
template <typename BinName>
void expect_counts(const std::vector<unsigned long long>& got, const std::vector<uint64_t>& want,
                   const std::string& what, const BinName& bin_name) {
  size_t wrong = 0, first = 0;
  for (size_t b = 0; b < want.size(); ++b) {
    if (got[b] != want[b] && wrong++ == 0) first = b;
  }
  tutorial::expect(wrong == 0, what + ": " + std::to_string(wrong) + " of " +
                                   std::to_string(want.size()) + " counts wrong, the first " +
                                   bin_name(first) + ": got " + std::to_string(got[first]) +
                                   ", want " + std::to_string(want[first]) +
                                   (got[first] == tutorial::poison_value<unsigned long long>()
                                        ? " (the poison: never written)"
                                        : ""));
}

}  // namespace check12
