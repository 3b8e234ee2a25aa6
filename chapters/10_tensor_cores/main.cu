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
 * per SM, the next tile loading while the last is stored), then in thread-block clusters of two
 * whose blocks share B's tile through TMA multicast, then (back to one block) with C stored
 * through shared memory by TMA, then on the fewest blocks that keep the fewest waves, in groups
 * of 16 tile rows (at 4096^3 each wave a square of C), then those waves in clusters of two that
 * share B's tile, then step 8 with a mostly empty last wave cut along K (split-K) among the SMs
 * it would leave idle. On any other GPU or build, those eight steps are skipped and the report
 * says why. --only times chosen steps alone (next to cuBLAS), to compare two steps a few percent
 * apart in processes of their own.
 * Leaves out: FP8, stmatrix, and any shape that is not padded to 128.
 */
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "07_tiled_matmul/matmul.cuh"
#include "bf16_matmul.cuh"
#include "mma_kernel.cuh"
#include "tensor_peak.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/steps.cuh"
#include "wgmma_steps.cuh"
#include "wmma_kernel.cuh"

namespace {

using namespace tutorial;
using namespace chapter10;

const ChapterInfo kChapter{"10_tensor_cores",
                           "tensor cores: BF16 matrix multiply with WMMA, mma.sync, TMA and wgmma",
                           "wgmma_square_waves"};

/// The chapter's steps on @p run's matrices, in the page's order. Steps 3-10 are left out where
/// @p device or this build cannot run them, and a line of @p notes says why; steps 1-2 say what
/// they need (Step::needs), and the runner skips them where that is missing.
std::vector<Step> lesson_steps(const Bf16MatmulRun& run, const DeviceFacts& device,
                               std::vector<std::string>& notes) {
  const int64_t m = run.m_pad(), n = run.n_pad();
  std::vector<Step> steps = {
      run.step("wmma",
               "WMMA: each warp multiplies 16 x 16 fragments loaded straight from global memory",
               wmma_kernel, grid_blocks((m / kWmmaBlockM) * (n / kWmmaBlockN)), kWmmaThreads),
      run.step("mma_sync_ldmatrix",
               "mma.sync on ldmatrix fragments of swizzled shared tiles, filled by cp.async 2 "
               "steps ahead",
               mma_kernel<3>, grid_blocks((m / kMmaBlockM) * (n / kMmaBlockN)), kMmaThreads)};
  for (Step& step : steps) {
    step.needs = 80;  // their bodies are compiled only where __CUDA_ARCH__ >= 800
    step.needs_what = "BF16 tensor-core instructions";
  }
  if (wgmma_steps_run_on(device)) {
    const int64_t tiles = wgmma_blocks(m, n);
    const int64_t persistent = persistent_blocks(m, n, device.sm_count);
    steps.push_back(wgmma_step("wgmma_tma",
                               "TMA copies the tiles into stages guarded by mbarriers; wgmma "
                               "multiplies them on whole warpgroups",
                               run, wgmma_tma_kernel, tiles, kWgmmaTmaThreads));
    steps.push_back(wgmma_step("wgmma_warp_specialized",
                               "a producer warpgroup copies, two consumers multiply; setmaxnreg "
                               "moves registers to the consumers",
                               run, warp_specialized_kernel, tiles, kSpecializedThreads));
    steps.push_back(wgmma_step("wgmma_persistent",
                               "a block per SM takes tile after tile: the next tile loads while "
                               "the last is stored",
                               run, persistent_kernel, persistent, kSpecializedThreads));
    notes.push_back(persistent_grid_note(persistent, tiles, device.sm_count));
    const int64_t resident = resident_clusters(cluster_kernel, kWgSharedBytes);
    const int64_t clusters = std::min(cluster_tiles(m, n), resident);
    steps.push_back(cluster_step("wgmma_cluster_multicast",
                                 "clusters of two blocks, tiles one above the other: each copies "
                                 "half of B's tile, TMA multicasts it into both",
                                 run, cluster_kernel, kWgSharedBytes, run.c(), clusters));
    notes.push_back("wgmma_cluster_multicast: " + std::to_string(clusters) + " clusters of " +
                    std::to_string(kClusterBlocks) + " blocks (" + std::to_string(resident) +
                    " fit at once), each taking cluster tiles of 256 x 256 of C, " +
                    std::to_string(cluster_tiles(m, n)) + " in all");
    steps.push_back(tma_store_step("wgmma_tma_store",
                                   "step 5, but C leaves through shared memory and TMA stores "
                                   "while the consumers multiply the next tile",
                                   run, tma_store_kernel, persistent));
    const int64_t balanced = balanced_blocks(m, n, device.sm_count);
    steps.push_back(tma_store_step("wgmma_square_waves",
                                   "step 7 on the fewest blocks that keep the fewest waves, in "
                                   "groups of 16 tile rows: at 4096^3 each wave is a square of C",
                                   run, square_waves_kernel, balanced));
    notes.push_back(square_waves_note(balanced, tiles, device.sm_count));
    const int64_t wave_clusters =
        balanced_clusters(m, n, resident_clusters(cluster_waves_kernel, kTmaStoreSharedBytes));
    steps.push_back(cluster_step("wgmma_cluster_waves",
                                 "step 8's waves in step 6's clusters of two, B's tile multicast: "
                                 "a cost per launch, a saving per byte",
                                 run, cluster_waves_kernel, kTmaStoreSharedBytes,
                                 c_tensor_map(run.c(), m, n), wave_clusters));
    notes.push_back(cluster_waves_note(wave_clusters, cluster_tiles(m, n)));
    const int64_t k_steps = run.k_pad() / kWgDepth;
    const SplitKTailGrid split = split_k_tail_grid(tiles, k_steps, device.sm_count);
    steps.push_back(split_k_tail_step("wgmma_split_k_tail",
                                      "step 8, but tiles of a last wave that would leave most SMs "
                                      "idle are cut along K among them (split-K)",
                                      run, split));
    notes.push_back(split_k_tail_note(split, tiles, k_steps));
  } else {
    notes.push_back(kWgmmaSkipped);
  }
  return steps;
}

/// The steps of @p steps whose ids --only names (@p only: ids separated by commas, or "all").
/// @throws UsageError for an id that is not a step of the chapter.
std::vector<Step> only_steps(std::vector<Step> steps, const std::string& only) {
  if (only == "all") return steps;
  std::vector<std::string> ids;
  for (size_t begin = 0; begin <= only.size();) {
    const size_t end = std::min(only.find(',', begin), only.size());
    ids.push_back(only.substr(begin, end - begin));
    begin = end + 1;
  }
  std::string known;
  for (const Step& step : steps) known += (known.empty() ? "" : ", ") + step.id;
  for (const std::string& id : ids) {
    if (find_step(steps, id) == nullptr) {
      throw UsageError("--only: no step '" + id + "' here (the steps: " + known + ")");
    }
  }
  std::vector<Step> chosen;
  for (Step& step : steps) {
    if (std::find(ids.begin(), ids.end(), step.id) != ids.end()) chosen.push_back(std::move(step));
  }
  return chosen;
}

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
  const std::vector<Step> steps =
      steps_that_run_here(only_steps(lesson_steps(run, device, report.notes), opt.value("--only")),
                          device, report.notes);

  // cuBLAS and each step checked on a poisoned C, then all timed in the same run.
  Timer timer(device);
  run.run_steps(report, timer, opt.reps, steps, opt.has("--cublas-first"));
  for (const std::string& note : run.clock_notes(report)) report.notes.push_back(note);
  // The headline is wgmma_square_waves, where it runs: the fastest step at the page's 4096^3
  // (step 9, wgmma_cluster_waves, pays only in long launches: the page's section 9). Each step
  // is the one before plus one idea, so elsewhere the last step that runs stands for the
  // chapter: mma_sync_ldmatrix on a GPU or build without wgmma, and cuBLAS's row where no step
  // runs (a GPU, or a build, for less than 8.0).
  if (find_step(steps, report.headline) == nullptr) {
    report.headline = steps.empty() ? kCublasRow : steps.back().id;
  }
  report.notes.push_back(
      "tolerance per element: 2 gamma(2K) S against cuBLAS, gamma(2K) S against the CPU, "
      "S = sum_p |a_ip||b_pj| (bf16_matmul.cuh)");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  // 4096^3: the size of the page's table and of the chapter's target.
  OptionSpec spec = matmul_spec(kChapter.program(), 4096, 10);
  // Two steps a few percent apart: run each alone, in turn, in processes of their own (the page's
  // step 6 does), since a step's time moves with its place in the run and between processes.
  spec.extra.push_back({"--only", "IDS",
                        "check and time only these steps (ids, separated by commas) next to "
                        "cuBLAS",
                        "all"});
  spec.extra.push_back({"--cublas-first", "",
                        "time cuBLAS before the steps, not after them (at large sizes a long run "
                        "holds the GPU at its power limit: what is timed later runs slower)",
                        ""});
  return run_main(argc, argv, spec, run_lesson);
}
