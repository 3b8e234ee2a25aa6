/**
 * @file gpu_report.cuh
 * @brief The opening of every GPU chapter's report, and the input the reduction chapters share.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/options.hpp"
#include "tutorial/random.hpp"
#include "tutorial/report.hpp"

namespace tutorial {

/// A report that already states the chapter, the device and its peak bandwidth, and the reps.
inline Report start_report(std::string chapter, std::string title, const DeviceFacts& device,
                           const Options& options) {
  Report report;
  report.chapter = std::move(chapter);
  report.title = std::move(title);
  report.device = device.describe();
  report.peak_rate = device.peak_gbs();
  report.reps = options.reps;
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

}  // namespace tutorial
