/**
 * @file chapters/07_tiled_matmul/main.cu
 * @brief Chapter 07: C = A * B in single precision for any M, N, K: one thread per element of
 *        C, then shared-memory tiles, then register tiles, next to cublasSgemm.
 *
 * Storage: every matrix is row-major; element (r, c) of an R x C matrix is at r * C + c.
 * Shows: how the thread-to-element mapping decides whether a warp's loads coalesce; tiles of A
 * and B staged in shared memory, and why each tile step needs two barriers; register tiles
 * (each thread computes 8 x 8 elements of C) and the arithmetic intensity each step gains;
 * guarded edge tiles, so that every shape works; a 1-D grid whose blocks are mapped onto the
 * tiles of C in groups (block swizzling); checking a float matmul element by element against a
 * rigorous rounding-error bound.
 * Leaves out: vector loads from global memory, double-buffered shared memory, warp tiles and
 * tensor cores (TF32): the steps between this chapter and cuBLAS.
 */
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cublas_sgemm.cuh"
#include "fp32_peak.cuh"
#include "matmul.cuh"
#include "register_tiled.cuh"
#include "tutorial/explain/explain.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;
using namespace chapter07;

// ---------------------------------------------------------------------------------------------
// Step 1: one thread per element of C.

constexpr int kNaiveThreads = 256;

/// Which elements of C neighbouring threads (threadIdx.x and threadIdx.x + 1) take.
enum class NaiveOrder {
  kDownColumns,  ///< the element below: a warp covers 32 rows of one column of C
  kAlongRows,    ///< the element to the right: a warp covers 32 columns of one row of C
};

//! [matmul_naive]
/// One thread per element of C: thread i computes the dot product of a row of A and a column
/// of B, reading both from global memory. kOrder decides what a warp reads at each step p:
///  - kDownColumns: A[row][p] for 32 rows, K floats apart (32 sectors for 32 floats), and one
///    B[p][col] for all; C is written 32 rows apart. Uncoalesced.
///  - kAlongRows: one A[row][p] for all (a broadcast) and B[p][col .. col + 31], 32 neighbours
///    in one 128-byte line; C is written in one line too. Coalesced: the same arithmetic,
///    several times faster.
template <NaiveOrder kOrder>
__device__ void matmul_naive(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  const int64_t i = int64_t{blockIdx.x} * kNaiveThreads + threadIdx.x;
  if (i < m * n) {  // the last block may reach past C
    const bool along_rows = kOrder == NaiveOrder::kAlongRows;
    const int64_t row = along_rows ? i / n : i % m;
    const int64_t col = along_rows ? i % n : i / m;
    const float* a_row = a + row * k;  // 64-bit offsets: a matrix may pass 2^31 elements
    const float* b_col = b + col;
    float sum = 0;
    for (int64_t p = 0; p < k; ++p) sum += a_row[p] * b_col[p * n];
    c[row * n + col] = sum;
  }
}
//! [matmul_naive]

// ---------------------------------------------------------------------------------------------
// The tiled kernels run a 1-D grid (the per-block cycle slots are indexed by blockIdx.x) and
// find their tile of C from the block index (tile_of_block, in tile_of_block.cuh).

// ---------------------------------------------------------------------------------------------
// Step 2: shared-memory tiles.

//! [matmul_tiled]
/// Shared-memory tiles. A block of kTile x kTile threads computes a kTile x kTile tile of C,
/// one element per thread, walking along K one tile at a time: the threads copy a tile of A
/// and a tile of B into shared memory (one element each), wait, and multiply from there.
/// What changed from the naive kernel: each element of A and B a block needs is loaded from
/// global memory once per block instead of once per thread, kTile times fewer loads, so the
/// kernel stops waiting on L1/L2 and waits on shared memory instead.
template <int kTile, bool kRecord = false>
__device__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  static_assert(kTile * kTile <= 1024, "one thread per element of the tile: at most 1024");
  __shared__ float a_memory[kTile][kTile];
  __shared__ float b_memory[kTile][kTile];
  // The plain arrays, or recorded for --explain (shared_trace.cuh).
  const auto a_tile = shared_array<kRecord>(a_memory, 0);
  const auto b_tile = shared_array<kRecord>(b_memory, 1);
  const TilePosition tile = tile_of_block(blockIdx.x, ceil_div(m, kTile), ceil_div(n, kTile));
  // tx runs fastest, so a warp spans a row of the tile: its loads of B and stores of C coalesce.
  const int ty = threadIdx.x / kTile, tx = threadIdx.x % kTile;
  const int64_t row = tile.row * kTile + ty, col = tile.col * kTile + tx;

  float sum = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    // Edge tiles: an element outside A or B is loaded as 0, which adds exactly nothing to the
    // sums, so the multiply below needs no guard.
    a_tile[ty][tx] = (row < m && k0 + tx < k) ? a[row * k + k0 + tx] : 0.0f;
    b_tile[ty][tx] = (k0 + ty < k && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    // Barrier 1: the loop below reads elements that other threads loaded.
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    // Barrier 2: the next step overwrites both tiles; without this barrier a fast thread
    // could replace elements that a slow thread has not read yet.
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}
//! [matmul_tiled]

// ---------------------------------------------------------------------------------------------
// The lesson.

const ChapterInfo kChapter{"07_tiled_matmul",
                           "C = A * B in FP32: naive, shared-memory tiles, register tiles",
                           "register_tiled_8x8"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  Report report = start_matmul_report(kChapter, device, opt);

  // Device buffers first: a size that cannot fit fails here (exit 3), before any input is made.
  MatmulRun run(opt);

  const int64_t mn = m * n;  // fits: C was allocated
  const auto tiles = [&](int64_t height, int64_t width) {
    return grid_blocks(ceil_div(m, height) * ceil_div(n, width));
  };
  const std::vector<Step> steps = {
      run.step("naive_down_columns",
               "one thread per element of C, a warp down a column of C: its loads of A and "
               "stores of C do not coalesce",
               clocked_kernel<matmul_naive<NaiveOrder::kDownColumns>, kNaiveThreads>,
               grid_blocks(ceil_div(mn, kNaiveThreads)), kNaiveThreads),
      run.step("naive_along_rows",
               "a warp along a row of C instead: B's loads and C's stores coalesce",
               clocked_kernel<matmul_naive<NaiveOrder::kAlongRows>, kNaiveThreads>,
               grid_blocks(ceil_div(mn, kNaiveThreads)), kNaiveThreads),
      run.step(
          "tiled_16x16",
          "16 x 16 tiles of A and B in shared memory: an element loaded once a block, not a thread",
          clocked_kernel<matmul_tiled<16>, 16 * 16>, tiles(16, 16), 16 * 16),
      run.step("tiled_32x32", "32 x 32 tiles: 8 FLOPs per byte loaded instead of 4",
               clocked_kernel<matmul_tiled<32>, 32 * 32>, tiles(32, 32), 32 * 32),
      run.step("register_tiled_8x8",
               "8 x 8 elements of C a thread, in registers: 0.25 shared floats per FMA, not 2",
               register_tiled_kernel, tiles(kRegTileM, kRegTileN), kRegThreads),
  };

  // Each step and cuBLAS checked on a poisoned C (MatmulRun::verify), then all timed in the
  // same run; the headline is also checked against the CPU at sampled entries.
  Timer timer(device);
  run_steps(report, timer, opt.reps, run.flops(), steps, {run.cublas_step()},
            [&](const std::string& id, const std::function<void()>& launch) {
              return run.verify(id, launch);
            });
  report.checks.push_back(run.check_headline_sampled(find_step(steps, kChapter.headline)));

  report.notes.push_back(
      "FLOPs per byte loaded from global memory: naive 0.25, tiled_16x16 4, "
      "tiled_32x32 8, register_tiled_8x8 32; shared-memory floats read per FMA: "
      "tiled 2, register_tiled 0.25 (16 floats, in 4 float4 loads, per 64 "
      "FMAs)");
  report.notes.push_back("tolerance per element: 2 gamma(K) S with gamma(" + std::to_string(k) +
                         ") = " + format_number(rounding_gamma(k)) +
                         " and S = sum_p |a_ip||b_pj| from cublasSgemm on |A| and |B|");
  return report;
}

/**
 * @brief A kernel of the chapter for --explain: one block computing one tile of C, over one
 *        step along K (@p m x @p n x @p k), with small integers as entries so that every sum
 *        is exact and C is compared with the CPU exactly.
 * @param a_columns, b_columns the row lengths of the kernel's a_tile and b_tile.
 */
ExplainedKernel explain_matmul(const std::string& name, MatmulKernel plain, MatmulKernel recorded,
                               int threads, int64_t m, int64_t n, int64_t k, int a_columns,
                               int b_columns, uint64_t seed) {
  const auto entries = [&](int64_t count, uint64_t s) {
    const std::vector<int32_t> ints = random_ints(count, s, -4, 4);
    return std::vector<float>(ints.begin(), ints.end());
  };
  const std::vector<float> a = entries(m * k, seed), b = entries(k * n, seed + 1);
  std::vector<float> want(m * n, 0.0f);
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      for (int64_t p = 0; p < k; ++p) want[r * n + c] += a[r * k + p] * b[p * n + c];
    }
  }
  const auto d_a = std::make_shared<DeviceBuffer<float>>(a);
  const auto d_b = std::make_shared<DeviceBuffer<float>>(b);
  const auto d_c = std::make_shared<DeviceBuffer<float>>(m * n);
  ExplainedKernel e;
  e.kernel = name;
  e.launch = "one block of " + std::to_string(threads) + " threads: C (" + std::to_string(m) +
             " x " + std::to_string(n) + ") = A * B with K = " + std::to_string(k);
  e.arrays = {{"a_tile", a_columns}, {"b_tile", b_columns}};
  e.run = [=](bool record) {
    d_c->poison();
    (record ? recorded : plain)<<<1, threads>>>(BlockCycleSlots{}, d_a->data(), d_b->data(),
                                                d_c->data(), m, n, k);
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> got = d_c->to_host();
    int64_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];
    return ExplainResult{
        wrong == 0, wrong == 0 ? "C = CPU exactly" : std::to_string(wrong) + " entries of C wrong"};
  };
  return e;
}

/// The register-tiled kernel with --explain's recording of its shared-memory accesses.
constexpr auto register_tiled_recorded_kernel =
    clocked_kernel<matmul_register_tiled<true>, kRegThreads, 2>;

//! [explain]
/// --explain: the tiled kernel (16 x 16) and the register-tiled kernel, one block each.
Explanation explain_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  return explain_kernels(
      kChapter.id, device,
      {explain_matmul("matmul_tiled<16>", clocked_kernel<matmul_tiled<16>, 16 * 16>,
                      clocked_kernel<matmul_tiled<16, true>, 16 * 16>, 16 * 16, 16, 16, 16, 16, 16,
                      opt.seed),
       explain_matmul("matmul_register_tiled", register_tiled_kernel,
                      register_tiled_recorded_kernel, kRegThreads, kRegTileM, kRegTileN, kRegTileK,
                      kATileStride, kRegTileN, opt.seed)});
}
//! [explain]

}  // namespace

int main(int argc, char** argv) {
  // 2048^3 fills an H100 (256 tiles of 128 x 128 for 132 SMs) and keeps the default run short:
  // naive_down_columns, the slowest step, took 0.27 s a run at 4096^3, and 2048^3 is an eighth
  // of the work, run 7 times (warm-up, 5 timed runs, the cycle run).
  // The page's table is measured at 4096^3 with --m 4096 --n 4096 --k 4096 --reps 10.
  OptionSpec spec = matmul_spec(kChapter.program(), 2048, 5);
  spec.extra = {explain_option()};
  return run_main(argc, argv, spec, run_lesson, explain_lesson);
}
