/**
 * @file chapters/10_tensor_cores/main.cu
 * @brief Chapter 10: matrix multiply on the tensor cores, C (float) = A (BF16) * B (BF16) with
 *        FP32 accumulation, each step timed next to cublasGemmEx in the same run.
 *
 * Storage: A row-major, B column-major (both contiguous along K), C row-major; every dimension
 * padded with zeros to a multiple of 128 (bf16_matmul.cuh).
 * Shows: WMMA, the portable warp-level API; mma.sync fed by ldmatrix from swizzled shared
 * tiles, copied in by cp.async with steps in flight; on Hopper (an sm_90a build on compute
 * capability 9.0), tiles copied by TMA into 128-byte swizzled stages guarded by mbarriers and
 * multiplied by wgmma on whole warpgroups, then the same with warp specialization (a producer
 * warpgroup, two consumers, setmaxnreg), then that pipeline in a persistent grid (a block
 * per SM, the next tile loading while the last is stored). On any other GPU or build, those
 * three steps are skipped and the report says why.
 * Leaves out: thread block clusters and TMA multicast, a shared-memory epilogue (C is stored
 * from the registers), FP8, and any shape that is not padded to 128.
 */
#include <cstdint>
#include <string>

#include "bf16_matmul.cuh"
#include "mma_kernel.cuh"
#include "tensor_peak.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/matmul.cuh"
#include "tutorial/harness/measure.cuh"
#include "wgmma_steps.cuh"
#include "wmma_kernel.cuh"

namespace {

using namespace tutorial;
using namespace chapter10;

const ChapterInfo kChapter{"10_tensor_cores",
                           "tensor cores: BF16 matrix multiply with WMMA, mma.sync, TMA and wgmma",
                           "mma_sync_ldmatrix"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  Bf16MatmulRun run(opt);
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  report.problem = "C (" + std::to_string(m) + " x " + std::to_string(n) + ", float) = A (" +
                   std::to_string(m) + " x " + std::to_string(k) + ", BF16, row-major) * B (" +
                   std::to_string(k) + " x " + std::to_string(n) +
                   ", BF16, column-major), FP32 accumulation, entries uniform in [-1, 1) "
                   "rounded to BF16, seed " +
                   std::to_string(opt.seed) + "; padded with zeros to " +
                   std::to_string(run.m_pad()) + " x " + std::to_string(run.n_pad()) + " x " +
                   std::to_string(run.k_pad());
  report.rate_unit = "GFLOP/s";
  report.op_name = "FLOP";
  report.peak_rate = tensor_peak_gflops(device);
  report.ops_per_byte = 2.0 * double(m) * double(n) * double(k) /
                        (2.0 * double(m) * k + 2.0 * double(k) * n + 4.0 * double(m) * n);
  report.notes.push_back(describe_tensor_peak(device));
  report.checks.push_back(run.check_vendor());

  Timer timer(device);
  if (device.major >= 8) {
    const int64_t blocks = grid_blocks((run.m_pad() / kWmmaBlockM) * (run.n_pad() / kWmmaBlockN));
    run.time_and_check(report, timer, opt.reps, "wmma", "matmul_wmma", wmma_kernel, blocks,
                       kWmmaThreads);
    const int64_t mma_blocks = grid_blocks((run.m_pad() / kMmaBlockM) * (run.n_pad() / kMmaBlockN));
    run.time_and_check(report, timer, opt.reps, "mma_sync_ldmatrix", "matmul_mma<3>", mma_kernel<3>,
                       mma_blocks, kMmaThreads);
  } else {
    report.notes.push_back(
        "wmma and mma_sync_ldmatrix skipped: BF16 tensor-core instructions need compute "
        "capability 8.0 or newer");
  }
  if (wgmma_steps_run_on(device)) {
    time_wgmma_steps(run, report, timer, opt.reps, device);
    report.headline = "wgmma_persistent";
  } else {
    report.notes.push_back(kWgmmaSkipped);
  }
  run.time_cublas(report, timer, opt.reps);
  for (const std::string& note : run.clock_notes(report)) report.notes.push_back(note);
  if (report.rows.size() == 1) report.headline = report.rows.front().name;
  report.notes.push_back(
      "tolerance per element: 2 gamma(2K) S against cuBLAS, gamma(2K) S against the CPU, "
      "S = sum_p |a_ip||b_pj| (bf16_matmul.cuh)");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec;
  spec.program = kChapter.program();
  spec.matmul = true;
  // 4096^3: the size of the page's table and of the chapter's target.
  spec.default_m = spec.default_n = spec.default_k = 4096;
  spec.default_reps = 10;
  return run_main(argc, argv, spec, run_lesson);
}
