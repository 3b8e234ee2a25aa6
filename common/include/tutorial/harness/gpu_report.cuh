/**
 * @file gpu_report.cuh
 * @brief The opening of every GPU chapter's report. (The reduction chapters' input and the
 *        check of a device sum are chapter 02's: 02_single_block_sum/reduction_input.cuh.)
 */
#pragma once

#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/options.hpp"
#include "tutorial/harness/report.hpp"

namespace tutorial {

/// A report that already states what @p chapter declares, the device and its peak bandwidth,
/// the reps, the build type, and that timings start from a clean L2.
inline Report start_report(const ChapterInfo& chapter, const DeviceFacts& device,
                           const Options& options) {
  Report report = make_report(chapter, options.reps);
  report.device = device.describe();
  report.peak_rate = device.peak_gbs();
  report.clean_l2 = true;  // every GPU chapter times with measure.cuh's Timer
  return report;
}

}  // namespace tutorial
