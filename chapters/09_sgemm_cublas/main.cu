/**
 * @file chapters/09_sgemm_cublas/main.cu
 * @brief Chapter 09: single-precision matrix multiply from chapter 07's register tiles towards
 *        cublasSgemm, each step timed next to it in the same run.
 *
 * Storage: every matrix is row-major; element (r, c) of an R x C matrix is at r * C + c.
 * Shows: 16-byte loads from global memory and 16-byte stores of C; two shared-memory buffers,
 * so that one barrier per step along K is enough; warp tiles, so that a warp reads fewer
 * values of A and B from shared memory per FMA; a deeper step along K.
 * Leaves out (for now): cp.async pipelines, the --tune search, tensor cores (chapter 10).
 */
#include <cstdint>
#include <string>
#include <vector>

#include "../07_tiled_matmul/register_tiled.cuh"
#include "sgemm_kernels.cuh"
#include "tutorial/chapter_main.hpp"
#include "tutorial/cublas_sgemm.cuh"
#include "tutorial/fp32_peak.cuh"
#include "tutorial/gpu_report.cuh"
#include "tutorial/matmul.cuh"
#include "tutorial/measure.cuh"

namespace {

using namespace tutorial;
using namespace chapter09;

/// One step of the chapter: a kernel on a 1-D grid of 128 x 128 tiles of C, 256 threads each.
struct SgemmStep {
  std::string name;
  const char* profiled;  ///< the kernel as Nsight Compute names it (tools/profile.py)
  MatmulKernel kernel;
  MatmulKernel unguarded = nullptr;  ///< for whole_tiles() shapes
  int depth = 8;
};

const ChapterInfo kChapter{"09_sgemm_cublas",
                           "SGEMM towards cuBLAS: vector loads, double buffers, warp tiles",
                           "warp_tiled"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  Report report = start_matmul_report(kChapter, device, opt);

  MatmulRun run(opt);
  report.checks.push_back(check_sampled("cublasSgemm", run.reference.vendor_c(), run.problem));

  const SgemmStep steps[] = {
      {"register_tiled_8x8 (chapter 07)", "matmul_register_tiled",
       chapter07::matmul_register_tiled<>},
      {"vectorized", "sgemm_tiles<8, 0, 1, 1>", sgemm_tiles<8, Arrangement::kBlockGrid, 1>},
      {"double_buffered", "sgemm_tiles<8, 0, 2, 1>", sgemm_tiles<8, Arrangement::kBlockGrid, 2>},
      {"warp_tiled_guarded", "sgemm_tiles<8, 1, 2, 1>", sgemm_tiles<8, Arrangement::kWarpTiles, 2>},
      {"warp_tiled", "sgemm_tiles<8, 1, 2, 0>", sgemm_tiles<8, Arrangement::kWarpTiles, 2>,
       sgemm_tiles<8, Arrangement::kWarpTiles, 2, false>, 8},
      {"warp_tiled_k16", "sgemm_tiles<16, 1, 2, 0>", sgemm_tiles<16, Arrangement::kWarpTiles, 2>,
       sgemm_tiles<16, Arrangement::kWarpTiles, 2, false>, 16},
  };
  const int64_t blocks = grid_blocks(ceil_div(m, kTileM) * ceil_div(n, kTileN));
  static_assert(chapter07::kRegTileM == kTileM && chapter07::kRegTileN == kTileN &&
                    chapter07::kRegThreads == kThreads,
                "every step runs the same grid");

  // Each step: time it and check the C its runs left (MatmulRun::time_and_check).
  Timer timer(device);
  for (const SgemmStep& s : steps) {
    const MatmulKernel kernel =
        s.unguarded != nullptr && whole_tiles(m, n, k, s.depth) ? s.unguarded : s.kernel;
    run.time_and_check(report, timer, opt.reps, s.name, s.profiled, kernel, blocks, kThreads);
  }
  run.time_cublas(report, timer, opt.reps);
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
  return run_main(argc, argv, spec, run_lesson);
}
