/**
 * @file explain.cuh
 * @brief --explain: runs a chapter's kernels on one small launch, plain and then recorded
 *        (shared_trace.cuh), checks both results, and gathers the recorded accesses for
 *        explain_report.hpp to print. A chapter with --explain includes this header, which
 *        brings the flag and its run_main() (explain_main.hpp).
 */
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tutorial/explain/explain_main.hpp"
#include "tutorial/explain/explain_report.hpp"
#include "tutorial/explain/shared_trace.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace tutorial {

/// What a launch for --explain computed: whether it is right, and a line saying so.
struct ExplainResult {
  bool ok = false;
  std::string text;  ///< "sum 1234, the CPU's 1234"
};

/// A kernel that --explain records.
struct ExplainedKernel {
  std::string kernel;  ///< as in the source: "reduce_bitmask_tree<int>"
  std::string launch;  ///< "one block of 256 threads on 256 random ints"
  std::vector<TracedArray> arrays;
  /// Launches the kernel plain (false: the code every timed run uses, for Nsight Compute to
  /// count) or recorded (true), waits, and checks its result.
  std::function<ExplainResult(bool record)> run;
};

/// Runs @p k plain, then recorded, and keeps the recording.
inline KernelExplanation explain_kernel(const ExplainedKernel& k) {
  const ExplainResult plain = k.run(false);
  SharedRecorder recorder;
  recorder.start();
  const ExplainResult recorded = k.run(true);
  KernelExplanation e;
  e.kernel = k.kernel;
  e.launch = k.launch;
  e.arrays = k.arrays;
  e.accesses = group_warp_accesses(recorder.collect());
  e.verified = plain.ok && recorded.ok;
  e.result = "result: plain launch " + plain.text + "; recorded launch " + recorded.text +
             (e.verified ? "" : "  <-- WRONG");
  return e;
}

/// The explanation of chapter @p chapter_id on @p device: each kernel of @p kernels, in order.
/// (The chapter calls query_device() before it makes the kernels' inputs, so that a machine
/// without a GPU gets exit 77, not a failed allocation.)
inline Explanation explain_kernels(const std::string& chapter_id, const DeviceFacts& device,
                                   const std::vector<ExplainedKernel>& kernels) {
  Explanation e;
  e.chapter = chapter_id;
  e.device = device.describe();
  for (const ExplainedKernel& k : kernels) e.kernels.push_back(explain_kernel(k));
  return e;
}

}  // namespace tutorial
