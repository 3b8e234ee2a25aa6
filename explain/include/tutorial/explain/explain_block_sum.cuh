/**
 * @file explain_block_sum.cuh
 * @brief --explain for the block-sum kernels of chapters 03 and 04: one block over random
 *        ints, its sum checked against the CPU's.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "02_single_block_sum/reduction_input.cuh"
#include "tutorial/explain/explain.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace tutorial {

/// A block-sum kernel as chapters 03 and 04 launch it (clocked_kernel<body>): block b writes
/// the sum of its elements of the input to out[b].
using BlockSumOfInts = void (*)(BlockCycleSlots, const int32_t*, int64_t, long long*);

/**
 * @brief A block-sum kernel for --explain: one block of @p threads threads on @p elements
 *        random ints (seed @p seed), shared array "partial".
 * @param plain the kernel as timed; @p recorded the same kernel with kRecord = true.
 */
inline ExplainedKernel explain_block_sum(const std::string& kernel, BlockSumOfInts plain,
                                         BlockSumOfInts recorded, int threads, int64_t elements,
                                         uint64_t seed) {
  // Shared by the copies of the returned function, which may outlive this call.
  const auto input = std::make_shared<DeviceReductionInput>(upload_reduction_input(elements, seed));
  const auto out = std::make_shared<DeviceBuffer<long long>>(1);
  ExplainedKernel k;
  k.kernel = kernel;
  k.launch = "one block of " + std::to_string(threads) + " threads on " + std::to_string(elements) +
             " random ints";
  k.arrays = {{"partial", 0}};
  k.run = [=](bool record) {
    const Check c = check_device_sum(kernel, out->data(), input->sum, [&] {
      (record ? recorded : plain)<<<1, threads>>>(BlockCycleSlots{}, input->values.data(), elements,
                                                  out->data());
    });
    CUDA_CHECK(cudaDeviceSynchronize());
    return ExplainResult{c.ok, "sum " + c.got + (c.ok ? " = " : " != ") + "CPU " + c.want};
  };
  return k;
}

}  // namespace tutorial
