/**
 * @file steps.cuh
 * @brief A chapter's step table and the one runner every chapter uses: each step verified on a
 *        poisoned output, then every step and the vendor library timed in the same run.
 *
 * A chapter declares its steps once, in order, each with what it teaches:
 * @code
 *   const std::vector<Step> steps = {
 *       {"reduce_bitmask_tree", "pairs chosen by (tid & mask) == 0", kernel, blocks, n, launch},
 *       ...};
 *   run_steps(report, timer, opt.reps, bytes, steps, {{"cub::DeviceReduce::Sum", cub_sum}},
 *             verify);
 * @endcode
 * A step's id is the name of its row and what the chapter's headline names. The profiler's name
 * for the row is not typed: it is the symbol of the step's kernel (kernel_symbol), the name
 * Nsight Compute prints with --print-kernel-base mangled (tools/profile.py matches the two).
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/report.hpp"
#include "tutorial/harness/verify.hpp"

namespace tutorial {

/// One step of a chapter: its row's id, what it adds to the step before, and how to run it.
struct Step {
  std::string id;       ///< the row's name; ChapterInfo::headline names one
  std::string teaches;  ///< one line: what this step changes, and why (the JSON row's "teaches")
  const void* kernel;   ///< the kernel whose blocks are clocked: the row's profiler symbol
  int64_t blocks;       ///< how many blocks that kernel's launch has (one cycle slot each)
  double elements;      ///< how many elements those blocks cover together (cycles per element)
  std::function<void(BlockCycleSlots)> launch;  ///< enqueues the whole step (every pass of it)
  std::string baseline = {};  ///< the vendor row it is compared with; empty: the first one
  /// The compute capability its kernel needs, major * 10 + minor (80: BF16 tensor cores), of the
  /// GPU and of the code this build holds (why_kernel_cannot_run); 0: any the tutorial runs on.
  int needs = 0;
  std::string needs_what = {};  ///< what needs it, for the note: "BF16 tensor-core instructions"
};

/// The vendor library doing a step's work: the yardstick of the table.
struct VendorStep {
  std::string id;                ///< the row's name, e.g. "cub::DeviceReduce::Sum"
  std::function<void()> launch;  ///< enqueues the library call
  std::string baseline = {};     ///< set for a second yardstick (another type): its own id
};

/// The kernel's symbol, as the linker and Nsight Compute (--print-kernel-base mangled) name it.
inline std::string kernel_symbol(const void* kernel) {
  const char* name = nullptr;
  CUDA_CHECK(cudaFuncGetName(&name, kernel));
  return name;
}

/// Why @p step cannot run on @p device with this build, or "" when it can (Step::needs).
inline std::string why_step_cannot_run(const Step& step, const DeviceFacts& device) {
  if (step.needs == 0) return "";
  return why_kernel_cannot_run(step.kernel, step.needs, step.needs_what, device);
}

/**
 * @brief The steps of @p steps that @p device and this build can run, in order. Each other one is
 *        skipped with a line in @p notes that says why: a step is verified and timed where it
 *        can run, and nowhere else, never as an empty kernel that launches and does nothing.
 */
inline std::vector<Step> steps_that_run_here(const std::vector<Step>& steps,
                                             const DeviceFacts& device,
                                             std::vector<std::string>& notes) {
  std::vector<Step> runnable;
  for (const Step& step : steps) {
    const std::string why = why_step_cannot_run(step, device);
    if (why.empty()) {
      runnable.push_back(step);
    } else {
      notes.push_back(step.id + " skipped: " + why);
    }
  }
  return runnable;
}

/// Times @p step (measure_kernel: warm-up, reps from a clean L2, one run recording cycles).
/// @pre why_step_cannot_run(step, the device) is empty (steps_that_run_here): otherwise throws.
inline Row measure_step(Timer& timer, int reps, double work, const Step& step) {
  const std::string why = why_step_cannot_run(step, timer.device());
  if (!why.empty()) throw std::logic_error("a step that cannot run here was timed: " + why);
  Row row = measure_kernel(timer, reps, step.id, work, step.blocks, step.elements, step.launch);
  row.symbol = kernel_symbol(step.kernel);
  row.teaches = step.teaches;
  row.baseline = step.baseline;
  return row;
}

/// Times @p vendor (no cycles: its kernels are not ours).
inline Row measure_vendor_step(Timer& timer, int reps, double work, const VendorStep& vendor) {
  Row row = measure_vendor(timer, reps, vendor.id, work, vendor.launch);
  row.baseline = vendor.baseline;
  return row;
}

/**
 * @brief The first half of run_steps: checks every step, then every vendor call, in order.
 * @param verify verify(id, run) runs the work once on a poisoned output (run() enqueues it)
 *               and returns the Check of the result, or a std::vector<Check> of several.
 * @pre every step can run here (steps_that_run_here).
 */
template <typename Verify>
void verify_steps(Report& report, const std::vector<Step>& steps,
                  const std::vector<VendorStep>& vendors, Verify&& verify) {
  const auto add_checks = [&](const std::string& id, const std::function<void()>& run) {
    auto checks = verify(id, run);
    if constexpr (std::is_same_v<decltype(checks), Check>) {
      report.checks.push_back(std::move(checks));
    } else {
      for (Check& c : checks) report.checks.push_back(std::move(c));
    }
  };
  for (const Step& step : steps) add_checks(step.id, [&] { step.launch(BlockCycleSlots{}); });
  for (const VendorStep& vendor : vendors) add_checks(vendor.id, vendor.launch);
}

/**
 * @brief The second half of run_steps: times every step, then every vendor call, in one run.
 * @param work   bytes moved (GB/s) or operations (GFLOP/s) of one run of any step.
 * @param around around(measure) returns the Row that measure() times: a chapter may read
 *               something while each row is timed (chapter 10 samples the SM clock).
 * @pre every step can run here (steps_that_run_here).
 */
template <typename Around>
void time_steps(Report& report, Timer& timer, int reps, double work, const std::vector<Step>& steps,
                const std::vector<VendorStep>& vendors, Around&& around) {
  for (const Step& step : steps) {
    report.rows.push_back(around([&] { return measure_step(timer, reps, work, step); }));
  }
  for (const VendorStep& vendor : vendors) {
    report.rows.push_back(around([&] { return measure_vendor_step(timer, reps, work, vendor); }));
  }
}

/**
 * @brief The runner: verifies every step and every vendor call, then times them all in one run.
 *        A step that cannot run here is left out, with a note (steps_that_run_here).
 * @param work   bytes moved (GB/s) or operations (GFLOP/s) of one run of any step.
 * @param verify as verify_steps() takes it.
 */
template <typename Verify>
void run_steps(Report& report, Timer& timer, int reps, double work,
               const std::vector<Step>& all_steps, const std::vector<VendorStep>& vendors,
               Verify&& verify) {
  const std::vector<Step> steps = steps_that_run_here(all_steps, timer.device(), report.notes);
  verify_steps(report, steps, vendors, verify);
  time_steps(report, timer, reps, work, steps, vendors, [](auto&& measure) { return measure(); });
}

/// The step of @p steps with id @p id (a chapter's headline), or nullptr.
inline const Step* find_step(const std::vector<Step>& steps, const std::string& id) {
  for (const Step& step : steps) {
    if (step.id == id) return &step;
  }
  return nullptr;
}

}  // namespace tutorial
