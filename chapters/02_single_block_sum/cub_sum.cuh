/**
 * @file chapters/02_single_block_sum/cub_sum.cuh
 * @brief The yardstick of the reduction chapters: cub::DeviceReduce::Sum doing the same sum,
 *        timed in the same run.
 *
 * Chapter 02 first times its kernel against it; chapters 03, 04, 05 and 08 and the checkers of
 * exercises 3.3, 4.1, 5.3 and 8.3 include it from here (#include
 * "02_single_block_sum/cub_sum.cuh").
 */
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace tutorial {

/// cub::DeviceReduce::Sum of @p n values of @p In into one @p Out, temporary storage included.
template <typename In, typename Out>
class CubSum {
 public:
  /// Asks CUB how much temporary storage the sum needs (CUB's first call) and allocates it.
  CubSum(const In* d_in, Out* d_out, int64_t n) : d_in_(d_in), d_out_(d_out), n_(n) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, d_in_, d_out_, n_));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  /// Enqueues the sum on the default stream (CUB's second call: the work itself).
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, d_in_, d_out_, n_));
  }

 private:
  const In* d_in_;
  Out* d_out_;
  int64_t n_;
  DeviceBuffer<unsigned char> temp_;
};

}  // namespace tutorial
