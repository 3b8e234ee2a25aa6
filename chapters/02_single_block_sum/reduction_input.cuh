/**
 * @file chapters/02_single_block_sum/reduction_input.cuh
 * @brief What the reduction chapters share around their kernels: the input (random ints, on
 *        the host and on the device with its exact sum), its line in the report, the report's
 *        arithmetic intensity, and the check of a sum a kernel left in device memory.
 *
 * Chapter 02 writes these steps out by hand once (its sum_on_gpu) and then uses these
 * helpers; chapters 03, 04, 05, 06, 08 and 11 and chapters 03 and 04's --explain include them
 * from here (#include "02_single_block_sum/reduction_input.cuh").
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/options.hpp"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/report.hpp"
#include "tutorial/harness/verify.hpp"

namespace tutorial {

/// start_report() for a sum of int32: one add per 4-byte element read, the arithmetic
/// intensity the roofline places the reduction chapters at (docs/roofline.md).
inline Report start_reduction_report(const ChapterInfo& chapter, const DeviceFacts& device,
                                     const Options& options) {
  Report report = start_report(chapter, device, options);
  report.ops_per_byte = 1.0 / sizeof(int32_t);
  report.op_name = "add";
  return report;
}

/// The reductions' input range: large enough that 2^12 values already overflow int32, small
/// enough that 2^42 of them still fit in a 64-bit sum.
constexpr int32_t kReductionInputBound = 1 << 20;

/// The input of the reduction chapters: n ints drawn from [-2^20, 2^20].
inline std::vector<int32_t> reduction_input(int64_t n, uint64_t seed) {
  return random_ints(n, seed, -kReductionInputBound, kReductionInputBound);
}

/// "n = ... int32 in [-2^20, 2^20] (64.0 MiB), seed ..." for the report.
inline std::string describe_reduction_input(int64_t n, uint64_t seed) {
  return "n = " + std::to_string(n) + " int32 in [-2^20, 2^20] (" +
         format_bytes(double(n) * sizeof(int32_t)) + "), seed " + std::to_string(seed);
}

/// The reduction chapters' input on the device, and its exact 64-bit sum.
struct DeviceReductionInput {
  DeviceBuffer<int32_t> values;
  int64_t sum = 0;
};

/// Allocates the device buffer first, so a size that cannot fit fails before minutes are spent
/// making the input; then makes the input and its reference sum and copies the input over.
inline DeviceReductionInput upload_reduction_input(int64_t n, uint64_t seed) {
  DeviceReductionInput input{DeviceBuffer<int32_t>(n)};
  const std::vector<int32_t> host = reduction_input(n, seed);
  input.sum = reference_sum(host);
  input.values.copy_from(host);
  return input;
}

/**
 * @brief Poisons the one-value result @p d_result, runs @p launch, and checks the sum it left.
 * @param launch enqueues the variant (it need not check for launch errors).
 */
template <typename Launch>
Check check_device_sum(const std::string& name, long long* d_result, int64_t reference,
                       Launch&& launch) {
  // The poison (poison.hpp), a value no sum here takes: an unwritten sum shows.
  CUDA_CHECK(cudaMemset(d_result, poison_byte<long long>(), sizeof(long long)));
  launch();
  CUDA_CHECK(cudaGetLastError());
  long long got = 0;
  CUDA_CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
  return check_exact("sum (" + name + ")", got, reference);
}

}  // namespace tutorial
