/**
 * @file chapters/09_sgemm_cublas/main.cu
 * @brief Chapter 09: single-precision matrix multiply from chapter 07's register tiles towards
 *        cublasSgemm, each step timed next to it in the same run.
 *
 * Storage: every matrix is row-major; element (r, c) of an R x C matrix is at r * C + c.
 * Shows: 16-byte loads from global memory and 16-byte stores of C; two shared-memory buffers,
 * so that one barrier per step along K is enough; warp tiles, so that a warp reads fewer
 * values of A and B from shared memory per FMA; a deeper step along K; wider tiles (8 x 16 a
 * thread); asynchronous copies (cp.async) with several steps in flight, started together or
 * spread over the step. --tune times a small space of tile shapes on your GPU instead and
 * names the fastest.
 * Leaves out: tensor cores (chapter 10).
 */
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../07_tiled_matmul/register_tiled.cuh"
#include "sgemm_kernels.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/fp32_peak.cuh"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/matmul.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/vendor/cublas_sgemm.cuh"

namespace {

using namespace tutorial;
using namespace chapter09;

/// One step of the chapter: a kernel on a 1-D grid of 128 x width tiles of C, 256 threads
/// each.
struct SgemmStep {
  std::string name;
  const char* profiled;  ///< the kernel as Nsight Compute names it (tools/profile.py)
  MatmulKernel kernel;
  MatmulKernel unguarded = nullptr;  ///< for whole_tiles() shapes
  int depth = 8;
  int width = kNarrow;
};

/// A warp-tiled step, kWidth wide and kDepth deep, with kBuffers shared buffers.
template <int kWidth, int kDepth, int kBuffers>
SgemmStep warp_tiled_step(std::string name, const char* profiled) {
  return {std::move(name),
          profiled,
          sgemm_tiles_kernel<kDepth, Arrangement::kWarpTiles, kBuffers, true, kWidth>,
          sgemm_tiles_kernel<kDepth, Arrangement::kWarpTiles, kBuffers, false, kWidth>,
          kDepth,
          kWidth};
}

/// An asynchronous-copy step, kWidth wide, kStages steps along K in flight, a step's copies
/// started together or spread over its products (kSpread).
template <int kWidth, int kStages, bool kSpread = false>
SgemmStep async_step(std::string name, const char* profiled) {
  return {std::move(name),
          profiled,
          sgemm_async_kernel<kStages, true, kWidth, kSpread>,
          sgemm_async_kernel<kStages, false, kWidth, kSpread>,
          kAsyncDepth,
          kWidth};
}

/// The lesson: chapter 07's kernel, then one change a step.
std::vector<SgemmStep> lesson_steps() {
  return {
      {"register_tiled_8x8 (chapter 07)", "matmul_register_tiled<0>",
       chapter07::register_tiled_kernel},
      {"vectorized", "sgemm_tiles<8, 0, 1, 1, 128, 8>",
       sgemm_tiles_kernel<8, Arrangement::kBlockGrid, 1>},
      {"double_buffered", "sgemm_tiles<8, 0, 2, 1, 128, 8>",
       sgemm_tiles_kernel<8, Arrangement::kBlockGrid, 2>},
      {"warp_tiled_guarded", "sgemm_tiles<8, 1, 2, 1, 128, 8>",
       sgemm_tiles_kernel<8, Arrangement::kWarpTiles, 2>},
      warp_tiled_step<kNarrow, 8, 2>("warp_tiled", "sgemm_tiles<8, 1, 2, 0, 128, 8>"),
      {"warp_tiled_row_order", "sgemm_tiles<8, 1, 2, 0, 128, 1>",
       sgemm_tiles_kernel<8, Arrangement::kWarpTiles, 2, true, kNarrow, 1>,
       sgemm_tiles_kernel<8, Arrangement::kWarpTiles, 2, false, kNarrow, 1>},
      warp_tiled_step<kNarrow, 16, 2>("warp_tiled_k16", "sgemm_tiles<16, 1, 2, 0, 128, 8>"),
      warp_tiled_step<kWide, 8, 2>("wide_tiles", "sgemm_tiles<8, 1, 2, 0, 256, 8>"),
      async_step<kWide, 3>("async_copies", "sgemm_async<3, 0, 256, 0>"),
      async_step<kWide, 3, true>("copies_spread", "sgemm_async<3, 0, 256, 1>"),
  };
}

/// --tune: the warp-tiled kernels over tile widths, depths, buffers and stages. Left out: the
/// shapes that need more than the 48 KiB (49,152 bytes) of shared memory a kernel may declare
/// statically: a wide tile 16 deep with two buffers, or with 4 stages (49,664 bytes each).
std::vector<SgemmStep> tuning_space() {
  return {
      warp_tiled_step<kNarrow, 8, 1>("128 x 128, depth 8, 1 buffer",
                                     "sgemm_tiles<8, 1, 1, 0, 128, 8>"),
      warp_tiled_step<kNarrow, 8, 2>("128 x 128, depth 8, 2 buffers",
                                     "sgemm_tiles<8, 1, 2, 0, 128, 8>"),
      warp_tiled_step<kNarrow, 16, 1>("128 x 128, depth 16, 1 buffer",
                                      "sgemm_tiles<16, 1, 1, 0, 128, 8>"),
      warp_tiled_step<kNarrow, 16, 2>("128 x 128, depth 16, 2 buffers",
                                      "sgemm_tiles<16, 1, 2, 0, 128, 8>"),
      warp_tiled_step<kWide, 8, 1>("128 x 256, depth 8, 1 buffer",
                                   "sgemm_tiles<8, 1, 1, 0, 256, 8>"),
      warp_tiled_step<kWide, 8, 2>("128 x 256, depth 8, 2 buffers",
                                   "sgemm_tiles<8, 1, 2, 0, 256, 8>"),
      warp_tiled_step<kWide, 16, 1>("128 x 256, depth 16, 1 buffer",
                                    "sgemm_tiles<16, 1, 1, 0, 256, 8>"),
      async_step<kNarrow, 2>("128 x 128, cp.async, 2 stages", "sgemm_async<2, 0, 128, 0>"),
      async_step<kNarrow, 3>("128 x 128, cp.async, 3 stages", "sgemm_async<3, 0, 128, 0>"),
      async_step<kNarrow, 4>("128 x 128, cp.async, 4 stages", "sgemm_async<4, 0, 128, 0>"),
      async_step<kWide, 2>("128 x 256, cp.async, 2 stages", "sgemm_async<2, 0, 256, 0>"),
      async_step<kWide, 3>("128 x 256, cp.async, 3 stages", "sgemm_async<3, 0, 256, 0>"),
      async_step<kNarrow, 3, true>("128 x 128, cp.async spread, 3 stages",
                                   "sgemm_async<3, 0, 128, 1>"),
      async_step<kWide, 2, true>("128 x 256, cp.async spread, 2 stages",
                                 "sgemm_async<2, 0, 256, 1>"),
      async_step<kWide, 3, true>("128 x 256, cp.async spread, 3 stages",
                                 "sgemm_async<3, 0, 256, 1>"),
  };
}

const ChapterInfo kChapter{"09_sgemm_cublas",
                           "SGEMM towards cuBLAS: vector loads, warp tiles, asynchronous copies",
                           "copies_spread"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  Report report = start_matmul_report(kChapter, device, opt);

  MatmulRun run(opt);
  report.checks.push_back(check_sampled("cublasSgemm", run.reference.vendor_c(), run.problem));

  const bool tune = opt.has("--tune");
  static_assert(chapter07::kRegTileM == kTileM && chapter07::kRegTileN == kNarrow &&
                    chapter07::kRegThreads == kThreads,
                "chapter 07's kernel runs on the grid of the narrow steps");

  const auto kernel_of = [&](const SgemmStep& s) {
    return s.unguarded != nullptr && whole_tiles(m, n, k, s.width, s.depth) ? s.unguarded
                                                                            : s.kernel;
  };
  const auto blocks_of = [&](const SgemmStep& s) {
    return grid_blocks(ceil_div(m, kTileM) * ceil_div(n, s.width));
  };

  // Each step: time it and check the C its runs left (MatmulRun::time_and_check).
  Timer timer(device);
  const std::vector<SgemmStep> steps = tune ? tuning_space() : lesson_steps();
  const SgemmStep* fastest = nullptr;  // of the steps whose C was right
  double fastest_ms = 0;
  for (const SgemmStep& s : steps) {
    run.time_and_check(report, timer, opt.reps, s.name, s.profiled, kernel_of(s), blocks_of(s),
                       kThreads);
    const double ms = report.rows.back().ms.median;
    if (report.checks.back().ok && (fastest == nullptr || ms < fastest_ms)) {
      fastest = &s;
      fastest_ms = ms;
    }
  }
  run.time_cublas(report, timer, opt.reps);
  if (tune) {
    // The fastest right kernel stands for the chapter in this run, and is checked against the
    // CPU at sampled entries too, like the lesson's headline. (None right: the first row, and
    // the verdict says WRONG.)
    report.headline = fastest != nullptr ? fastest->name : report.rows.front().name;
    if (fastest != nullptr) {
      run.check_headline_sampled(report, kernel_of(*fastest), blocks_of(*fastest), kThreads);
      report.notes.push_back("--tune: the fastest tile shape on this GPU at this size is '" +
                             fastest->name + "'");
    }
  }
  report.notes.push_back(
      "tolerance per element: 2 gamma(K) S, S = sum_p |a_ip||b_pj| from "
      "cublasSgemm on |A| and |B| (chapter 07)");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec;
  spec.program = kChapter.program();
  spec.matmul = true;
  // 4096^3: the size of the page's table and of the issue's bar; a step takes a few ms.
  spec.default_m = spec.default_n = spec.default_k = 4096;
  spec.default_reps = 10;
  spec.extra = {{"--tune", "",
                 "time the warp-tiled kernels over tile widths, depths, buffers and cp.async "
                 "stages instead of the lesson's steps, and name the fastest"}};
  return run_main(argc, argv, spec, run_lesson);
}
