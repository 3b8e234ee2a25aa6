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
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "07_tiled_matmul/cublas_sgemm.cuh"
#include "07_tiled_matmul/fp32_peak.cuh"
#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/register_tiled.cuh"
#include "sgemm_kernels.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter09;

/// The step @p id: a kernel on a 1-D grid of 128 x @p width tiles of C, 256 threads a block;
/// @p unguarded (no edge tests) where the shape is whole tiles of @p depth (whole_tiles), else
/// @p guarded.
Step tile_step(MatmulRun& run, std::string id, std::string teaches, MatmulKernel guarded,
               MatmulKernel unguarded = nullptr, int depth = 8, int width = kNarrow) {
  const int64_t m = run.problem.m, n = run.problem.n, k = run.problem.k;
  const bool whole = unguarded != nullptr && whole_tiles(m, n, k, width, depth);
  return run.step(std::move(id), std::move(teaches), whole ? unguarded : guarded,
                  grid_blocks(ceil_div(m, kTileM) * ceil_div(n, width)), kThreads);
}

/// A warp-tiled step, kWidth wide and kDepth deep, with kBuffers shared buffers: sgemm_vectorized
/// (one) or sgemm_double_buffered (two).
template <int kWidth, int kDepth, int kBuffers>
Step warp_tiled_step(MatmulRun& run, std::string id, std::string teaches) {
  static_assert(kBuffers == 1 || kBuffers == 2, "one buffer or two");
  using Warps = WarpTiles<kWidth>;
  if constexpr (kBuffers == 1) {
    return tile_step(run, std::move(id), std::move(teaches),
                     sgemm_vectorized_kernel<Warps, kDepth, true>,
                     sgemm_vectorized_kernel<Warps, kDepth, false>, kDepth, kWidth);
  } else {
    return tile_step(run, std::move(id), std::move(teaches),
                     sgemm_double_buffered_kernel<Warps, kDepth, true>,
                     sgemm_double_buffered_kernel<Warps, kDepth, false>, kDepth, kWidth);
  }
}

/// An asynchronous-copy step, kWidth wide, kStages steps along K in flight, a step's copies
/// started together (CopiesTogether) or spread over its products (CopiesSpread).
template <int kWidth, int kStages, class Copies = CopiesTogether>
Step async_step(MatmulRun& run, std::string id, std::string teaches) {
  return tile_step(run, std::move(id), std::move(teaches),
                   sgemm_async_kernel<kStages, true, kWidth, Copies>,
                   sgemm_async_kernel<kStages, false, kWidth, Copies>, kAsyncDepth, kWidth);
}

/// The lesson: chapter 07's kernel, then one change a step.
std::vector<Step> lesson_steps(MatmulRun& run) {
  return {
      tile_step(run, "register_tiled_8x8 (chapter 07)",
                "chapter 07's kernel: 8 x 8 of C a thread, one float a load from global memory",
                chapter07::register_tiled_kernel),
      tile_step(run, "vectorized", "16-byte loads of A and B and 16-byte stores of C (float4)",
                sgemm_vectorized_kernel<BlockGrid>),
      tile_step(run, "double_buffered", "two shared buffers: one barrier a step along K, not two",
                sgemm_double_buffered_kernel<BlockGrid>),
      tile_step(run, "warp_tiled_guarded",
                "each warp 64 x 32 of the tile: a warp reads fewer values of A and B from "
                "shared memory per FMA",
                sgemm_double_buffered_kernel<WarpTiles<kNarrow>>),
      warp_tiled_step<kNarrow, 8, 2>(run, "warp_tiled",
                                     "no edge tests where the shape is whole tiles (whole_tiles)"),
      tile_step(run, "warp_tiled_row_order",
                "warp_tiled with the tiles taken row by row, not in groups of 8 tile rows",
                sgemm_double_buffered_kernel<WarpTiles<kNarrow>, 8, true, 1>,
                sgemm_double_buffered_kernel<WarpTiles<kNarrow>, 8, false, 1>),
      warp_tiled_step<kNarrow, 16, 2>(run, "warp_tiled_k16",
                                      "warp_tiled with steps 16 deep along K: half the barriers"),
      warp_tiled_step<kWide, 8, 2>(run, "wide_tiles",
                                   "128 x 256 tiles, 8 x 16 of C a thread: 6 float4 shared "
                                   "loads per 128 FMAs, not 4 per 64"),
      async_step<kWide, 3>(run, "async_copies",
                           "cp.async straight from global to shared memory, 3 buffers: 2 "
                           "steps along K in flight"),
      async_step<kWide, 3, CopiesSpread>(run, "copies_spread",
                                         "a thread's 6 copies of a step started one before each of "
                                         "the step's first 6 products, not together"),
  };
}

/// --tune: the warp-tiled kernels over tile widths, depths, buffers and stages. Left out: the
/// shapes that need more than the 48 KiB (49,152 bytes) of shared memory a kernel may declare
/// statically: a wide tile 16 deep with two buffers, or with 4 stages (49,664 bytes each).
std::vector<Step> tuning_space(MatmulRun& run) {
  const std::string tiles = "warp_tiled's kernel at this tile shape, depth and buffer count";
  const std::string copies = "async_copies' kernel at this tile shape and stage count";
  const std::string spread = "copies_spread's kernel at this tile shape and stage count";
  return {
      warp_tiled_step<kNarrow, 8, 1>(run, "128 x 128, depth 8, 1 buffer", tiles),
      warp_tiled_step<kNarrow, 8, 2>(run, "128 x 128, depth 8, 2 buffers", tiles),
      warp_tiled_step<kNarrow, 16, 1>(run, "128 x 128, depth 16, 1 buffer", tiles),
      warp_tiled_step<kNarrow, 16, 2>(run, "128 x 128, depth 16, 2 buffers", tiles),
      warp_tiled_step<kWide, 8, 1>(run, "128 x 256, depth 8, 1 buffer", tiles),
      warp_tiled_step<kWide, 8, 2>(run, "128 x 256, depth 8, 2 buffers", tiles),
      warp_tiled_step<kWide, 16, 1>(run, "128 x 256, depth 16, 1 buffer", tiles),
      async_step<kNarrow, 2>(run, "128 x 128, cp.async, 2 stages", copies),
      async_step<kNarrow, 3>(run, "128 x 128, cp.async, 3 stages", copies),
      async_step<kNarrow, 4>(run, "128 x 128, cp.async, 4 stages", copies),
      async_step<kWide, 2>(run, "128 x 256, cp.async, 2 stages", copies),
      async_step<kWide, 3>(run, "128 x 256, cp.async, 3 stages", copies),
      async_step<kNarrow, 3, CopiesSpread>(run, "128 x 128, cp.async spread, 3 stages", spread),
      async_step<kWide, 2, CopiesSpread>(run, "128 x 256, cp.async spread, 2 stages", spread),
      async_step<kWide, 3, CopiesSpread>(run, "128 x 256, cp.async spread, 3 stages", spread),
  };
}

/// The step of @p steps whose median time in @p report is the shortest, of those in @p right;
/// nullptr when none is. The steps' rows are the report's rows from @p first_row on, in order.
const Step* fastest_right_step(const Report& report, size_t first_row,
                               const std::vector<Step>& steps, const std::set<std::string>& right) {
  const Step* fastest = nullptr;
  double fastest_ms = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const double ms = report.rows[first_row + i].ms.median;
    if (right.count(steps[i].id) != 0 && (fastest == nullptr || ms < fastest_ms)) {
      fastest = &steps[i];
      fastest_ms = ms;
    }
  }
  return fastest;
}

const ChapterInfo kChapter{"09_sgemm_cublas",
                           "SGEMM towards cuBLAS: vector loads, warp tiles, asynchronous copies",
                           "copies_spread"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  Report report = start_matmul_report(kChapter, device, opt);

  MatmulRun run(opt);

  const bool tune = opt.has("--tune");
  static_assert(chapter07::kRegTileM == kTileM && chapter07::kRegTileN == kNarrow &&
                    chapter07::kRegThreads == kThreads,
                "chapter 07's kernel runs on the grid of the narrow steps");

  // Each step and cuBLAS checked on a poisoned C (MatmulRun::verify), then all timed in the
  // same run.
  Timer timer(device);
  const std::vector<Step> steps = tune ? tuning_space(run) : lesson_steps(run);
  std::set<std::string> right;  // the steps whose C was right
  const size_t first_row = report.rows.size();
  run_steps(report, timer, opt.reps, run.flops(), steps, {run.cublas_step()},
            [&](const std::string& id, const std::function<void()>& launch) {
              Check check = run.verify(id, launch);
              if (check.ok) right.insert(id);
              return check;
            });
  if (tune) {
    // The fastest right kernel stands for the chapter in this run, and is checked against the
    // CPU at sampled entries too, like the lesson's headline. (None right: the first row, and
    // the verdict says WRONG.)
    const Step* fastest = fastest_right_step(report, first_row, steps, right);
    report.headline = fastest != nullptr ? fastest->id : report.rows.front().name;
    if (fastest != nullptr) {
      report.checks.push_back(run.check_headline_sampled(fastest));
      report.notes.push_back("--tune: the fastest tile shape on this GPU at this size is '" +
                             fastest->id + "'");
    }
  } else {
    // The headline is also checked against the CPU at sampled entries.
    report.checks.push_back(run.check_headline_sampled(find_step(steps, kChapter.headline)));
  }
  report.notes.push_back(
      "tolerance per element: 2 gamma(K) S, S = sum_p |a_ip||b_pj| from "
      "cublasSgemm on |A| and |B| (chapter 07)");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  // 4096^3: the size of the page's table and of the issue's bar; a step takes a few ms.
  OptionSpec spec = matmul_spec(kChapter.program(), 4096, 10);
  spec.extra = {{"--tune", "",
                 "time the warp-tiled kernels over tile widths, depths, buffers and cp.async "
                 "stages instead of the lesson's steps, and name the fastest"}};
  return run_main(argc, argv, spec, run_lesson);
}
