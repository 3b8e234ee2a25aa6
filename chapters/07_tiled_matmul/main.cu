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
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cublas_sgemm.cuh"
#include "tutorial/chapter_main.hpp"
#include "tutorial/explain.cuh"
#include "tutorial/fp32_peak.cuh"
#include "tutorial/gpu_report.cuh"
#include "tutorial/measure.cuh"
#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"

namespace {

using namespace tutorial;

/// ceil(a / b) for positive sizes, on the host and in kernels.
__host__ __device__ constexpr int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// The signature every kernel of the chapter shares, so that one loop can launch them all.
using MatmulKernel = void (*)(const float*, const float*, float*, int64_t, int64_t, int64_t,
                              BlockCycleSlots);

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
__global__ void __launch_bounds__(kNaiveThreads)
    matmul_naive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                 int64_t m, int64_t n, int64_t k, BlockCycleSlots slots) {
  const BlockClock started = block_clock_start();
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
  block_clock_stop(slots, started);  // every thread, in range or not: it holds a barrier
}
//! [matmul_naive]

// ---------------------------------------------------------------------------------------------
// The tiled kernels run a 1-D grid (the per-block cycle slots are indexed by blockIdx.x) and
// find their tile of C from the block index.

//! [tile_of_block]
/// A tile of C, in tiles: tile (row, col) starts at element (row * height, col * width).
struct TilePosition {
  int64_t row, col;
};

/// Tile rows that consecutive blocks share (the group size of the block swizzle).
constexpr int64_t kGroupRows = 8;

/**
 * @brief The tile of C that block @p block computes, in a grid of tile_rows x tile_cols tiles.
 *
 * Blocks start roughly in index order, so this order decides which tiles are computed at the
 * same time, and so what the L2 cache must hold. Taken row by row, the blocks running at one
 * moment would cover a few tile rows of C and read every tile column of B. Here consecutive
 * blocks walk down a group of kGroupRows tile rows, column by column ("block swizzling"): the
 * blocks running at one moment read kGroupRows tile rows of A and only a few tile columns of
 * B, and more of what they read is still in L2 when the next block needs it.
 * @pre 0 <= block < tile_rows * tile_cols
 */
__device__ TilePosition tile_of_block(int64_t block, int64_t tile_rows, int64_t tile_cols) {
  const int64_t group_blocks = kGroupRows * tile_cols;
  const int64_t first_row = block / group_blocks * kGroupRows;
  const int64_t left = tile_rows - first_row;
  const int64_t rows = left < kGroupRows ? left : kGroupRows;  // the last group may be short
  const int64_t in_group = block % group_blocks;
  return {first_row + in_group % rows, in_group / rows};
}
//! [tile_of_block]

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
__global__ void __launch_bounds__(kTile* kTile)
    matmul_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                 int64_t m, int64_t n, int64_t k, BlockCycleSlots slots) {
  static_assert(kTile * kTile <= 1024, "one thread per element of the tile: at most 1024");
  const BlockClock started = block_clock_start();
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
  block_clock_stop(slots, started);
}
//! [matmul_tiled]

// ---------------------------------------------------------------------------------------------
// Step 3: register tiles.

constexpr int kRegTileM = 128;  ///< rows of C per block
constexpr int kRegTileN = 128;  ///< columns of C per block
constexpr int kRegTileK = 8;    ///< depth of one step along K
constexpr int kPerThread = 8;   ///< each thread computes kPerThread x kPerThread elements of C
constexpr int kThreadGrid = kRegTileN / kPerThread;           ///< threads per row of the tile: 16
constexpr int kRegThreads = kThreadGrid * kThreadGrid;        ///< 256
constexpr int kALoads = kRegTileM * kRegTileK / kRegThreads;  ///< A elements each thread loads
constexpr int kBLoads = kRegTileK * kRegTileN / kRegThreads;  ///< B elements each thread loads
/// Row length of A's transposed tile: 4 floats of padding, so that the 32 stores of a warp
/// fall in 32 different banks (see stash below); 132 floats keep every row 16-byte aligned.
constexpr int kATileStride = kRegTileM + 4;
static_assert(kRegTileM == kRegTileN && kRegTileM % kPerThread == 0, "square block tile");
static_assert(kPerThread == 8, "a thread's 8 rows (and columns) are two float4 of 4");
static_assert(kRegThreads % kRegTileK == 0 && kRegThreads % kRegTileN == 0,
              "the loads must divide evenly among the threads");

/// Row (or column) of the tile that a thread's i-th row (column) lies on: the thread at grid
/// position t owns 4 t .. 4 t + 3 and 64 + 4 t .. 64 + 4 t + 3. Neighbouring threads then read
/// neighbouring float4 of a shared tile row: no bank conflicts, where 8 adjacent elements per
/// thread would put threads t and t + 4 on the same banks.
__device__ constexpr int owned(int t, int i) {
  return (i / 4) * (kRegTileM / 2) + 4 * t + i % 4;
}

/// Four floats of shared memory in one 16-byte load: row[col .. col + 3].
/// @pre &row[col] is 16-byte aligned.
__device__ inline float4 load4(const float* row, int col) {
  return *reinterpret_cast<const float4*>(row + col);
}
/// The same from a recorded row (--explain).
__device__ inline float4 load4(const TracedShared<float>& row, int col) {
  return row.load_vector<float4>(col);
}

//! [matmul_register_tiled]
/// Register tiles. A block of 256 threads computes a 128 x 128 tile of C; each thread computes
/// an 8 x 8 block of it, accumulated in 64 registers. Per step p along K a thread reads 8
/// values of A's tile and 8 of B's (four float4 loads) and does 64 FMAs with them: an element
/// read from shared memory now feeds 8 FMAs instead of 1. The tiles are 128 x 8 and 8 x 128,
/// each global element loaded once per block: 32 FLOPs per byte instead of 8 (tiled 32 x 32).
/// The next step's tiles are loaded into registers while the current ones are multiplied.
template <bool kRecord = false>
__global__ void __launch_bounds__(kRegThreads, 2)
    matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b,
                          float* __restrict__ c, int64_t m, int64_t n, int64_t k,
                          BlockCycleSlots slots) {
  const BlockClock started = block_clock_start();
  // A's tile is stored transposed, a_tile[p][r] = A(row0 + r, k0 + p), so that the 4 rows a
  // thread needs at step p are 4 neighbours: one float4 load.
  __shared__ __align__(16) float a_memory[kRegTileK][kATileStride];
  __shared__ __align__(16) float b_memory[kRegTileK][kRegTileN];
  const auto a_tile = shared_array<kRecord>(a_memory, 0);  // recorded for --explain
  const auto b_tile = shared_array<kRecord>(b_memory, 1);
  const TilePosition tile =
      tile_of_block(blockIdx.x, ceil_div(m, kRegTileM), ceil_div(n, kRegTileN));
  const int64_t row0 = tile.row * kRegTileM, col0 = tile.col * kRegTileN;

  // Loading: thread t copies column t % 8 of A rows t / 8 + 32 i (a warp reads 4 rows x 8
  // floats: whole 32-byte sectors), and column t % 128 of B rows t / 128 + 2 i (a warp reads
  // 32 neighbours).
  constexpr int kARowStep = kRegThreads / kRegTileK, kBRowStep = kRegThreads / kRegTileN;
  const int a_k = threadIdx.x % kRegTileK, a_r = threadIdx.x / kRegTileK;
  const int b_c = threadIdx.x % kRegTileN, b_k = threadIdx.x / kRegTileN;
  float a_next[kALoads], b_next[kBLoads];
  // Global -> registers, guarded: outside A or B reads as 0 and adds nothing.
  const auto fetch = [&](int64_t k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int64_t r = row0 + a_r + i * kARowStep, p = k0 + a_k;
      a_next[i] = (r < m && p < k) ? a[r * k + p] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int64_t p = k0 + b_k + i * kBRowStep, col = col0 + b_c;
      b_next[i] = (p < k && col < n) ? b[p * n + col] : 0.0f;
    }
  };
  // Registers -> shared memory. A warp's A stores go to a_tile[a_k][a_r + ...] with a_k in
  // 0..7 and a_r in 0..3: bank (132 a_k + a_r) % 32 = (4 a_k + a_r) % 32, all 32 different.
  const auto stash = [&] {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) a_tile[a_k][a_r + i * kARowStep] = a_next[i];
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) b_tile[b_k + i * kBRowStep][b_c] = b_next[i];
  };

  // Computing: thread (ty, tx) of a 16 x 16 grid owns rows owned(ty, 0..7) of the tile and
  // columns owned(tx, 0..7).
  const int tx = threadIdx.x % kThreadGrid, ty = threadIdx.x / kThreadGrid;
  float acc[kPerThread][kPerThread] = {};
  fetch(0);
  for (int64_t k0 = 0; k0 < k; k0 += kRegTileK) {
    stash();
    __syncthreads();                                // the tiles are complete
    if (k0 + kRegTileK < k) fetch(k0 + kRegTileK);  // in flight while we multiply
#pragma unroll
    for (int p = 0; p < kRegTileK; ++p) {
      float a_frag[kPerThread], b_frag[kPerThread];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const float4 av = load4(a_tile[p], owned(ty, 4 * half));
        const float4 bv = load4(b_tile[p], owned(tx, 4 * half));
        a_frag[4 * half] = av.x, a_frag[4 * half + 1] = av.y;
        a_frag[4 * half + 2] = av.z, a_frag[4 * half + 3] = av.w;
        b_frag[4 * half] = bv.x, b_frag[4 * half + 1] = bv.y;
        b_frag[4 * half + 2] = bv.z, b_frag[4 * half + 3] = bv.w;
      }
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] += a_frag[i] * b_frag[j];
      }
    }
    __syncthreads();  // everyone is done reading before the next stash overwrites the tiles
  }

#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int64_t row = row0 + owned(ty, i);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t col = col0 + owned(tx, j);
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
  }
  block_clock_stop(slots, started);
}
//! [matmul_register_tiled]

// ---------------------------------------------------------------------------------------------
// The lesson.

/// One kernel of the chapter with its launch shape (1-D grid, 1-D blocks).
struct Variant {
  std::string name;
  const char* profiled;  ///< the kernel as Nsight Compute names it (tools/profile.py)
  MatmulKernel kernel;
  int64_t blocks;
  int threads;
};

/// Elements of a rows x cols matrix. @throws CudaError (exit 3) when the count cannot even be
/// represented: such a matrix cannot fit in any device memory.
int64_t matrix_elements(const char* name, int64_t rows, int64_t cols) {
  if (rows > std::numeric_limits<int64_t>::max() / cols) {
    throw CudaError(std::string(name) + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                    " floats) cannot fit in device memory");
  }
  return rows * cols;
}

/// Blocks of a 1-D grid over @p tiles tiles. @throws CudaError past CUDA's 2^31 - 1 blocks.
int64_t grid_blocks(int64_t tiles) {
  if (tiles > std::numeric_limits<int32_t>::max()) {
    throw CudaError("a grid of " + std::to_string(tiles) + " blocks exceeds 2^31 - 1");
  }
  return tiles;
}

/// |x| of every element: cuBLAS on |A| and |B| gives the scale of the error bound.
std::vector<float> absolute(std::vector<float> values) {
  for (float& v : values) v = std::fabs(v);
  return values;
}

/// sum_p |a(row, p)| |b(p, col)| in double: the scale of the bound for one entry of C.
double reference_matmul_abs_entry(const std::vector<float>& a, const std::vector<float>& b,
                                  int64_t n, int64_t k, int64_t row, int64_t col) {
  double sum = 0;
  for (int64_t p = 0; p < k; ++p) {
    sum += std::fabs(double(a[row * k + p])) * std::fabs(double(b[p * n + col]));
  }
  return sum;
}

/// The inputs, their sizes, and the entries of C checked on the CPU.
struct Problem {
  int64_t m, n, k;
  std::vector<float> a, b;
  std::vector<std::pair<int64_t, int64_t>> sampled;  ///< (row, col): corners and random ones
};

/// Number of random entries of C checked against the CPU reference (besides the corners).
constexpr int kSampledEntries = 64;

Problem make_problem(const Options& opt) {
  Problem p{opt.m,
            opt.n,
            opt.k,
            random_floats(opt.m * opt.k, opt.seed, -1.0f, 1.0f),
            random_floats(opt.k * opt.n, opt.seed + 1, -1.0f, 1.0f),
            {}};
  p.sampled = {{0, 0}, {0, p.n - 1}, {p.m - 1, 0}, {p.m - 1, p.n - 1}};
  SplitMix64 rng(opt.seed + 2);
  for (int i = 0; i < kSampledEntries; ++i) {
    p.sampled.emplace_back(int64_t(rng.next() % uint64_t(p.m)),
                           int64_t(rng.next() % uint64_t(p.n)));
  }
  return p;
}

/**
 * @brief Checks the sampled entries of @p c against the double-precision CPU reference.
 *
 * Any float dot product of length K, in any order, with or without FMA, is within
 * gamma(K) sum_p |a_p||b_p| of the exact one (Higham, section 3.1): the rule used here.
 */
Check check_sampled(const std::string& name, const std::vector<float>& c, const Problem& p) {
  std::vector<float> got;
  std::vector<double> want, tolerance;
  for (const auto& [row, col] : p.sampled) {
    got.push_back(c[row * p.n + col]);
    want.push_back(reference_matmul_entry(p.a, p.b, p.n, p.k, row, col));
    tolerance.push_back(rounding_gamma(p.k) *
                        reference_matmul_abs_entry(p.a, p.b, p.n, p.k, row, col));
  }
  return check_elements(
      "C (" + name + "), " + std::to_string(p.sampled.size()) + " sampled entries vs CPU double",
      got, want, [&](size_t i) { return tolerance[i]; }, "|error| <= gamma(K) sum|a||b|");
}

const ChapterInfo kChapter{"07_tiled_matmul",
                           "C = A * B in FP32: naive, shared-memory tiles, register tiles",
                           "register_tiled_8x8"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  Report report = start_report(kChapter, device, opt);
  report.problem =
      "C (" + std::to_string(m) + " x " + std::to_string(n) + ") = A (" + std::to_string(m) +
      " x " + std::to_string(k) + ") * B (" + std::to_string(k) + " x " + std::to_string(n) +
      "), float, row-major, entries uniform in [-1, 1), seed " + std::to_string(opt.seed);
  report.rate_unit = "GFLOP/s";
  report.peak_rate = fp32_peak_gflops(device);
  // The roofline's intensity: 2MNK FLOPs over A and B read once and C written once.
  report.ops_per_byte = 2.0 * double(m) * double(n) * double(k) /
                        (sizeof(float) * (double(m) * k + double(k) * n + double(m) * n));
  report.op_name = "FLOP";

  // Device buffers first: a size that cannot fit fails here (exit 3), before any input is made.
  DeviceBuffer<float> d_a(matrix_elements("A", m, k)), d_b(matrix_elements("B", k, n));
  DeviceBuffer<float> d_c(matrix_elements("C", m, n));
  const Problem problem = make_problem(opt);
  CublasRowMajorSgemm sgemm(m, n, k);  // the handle is created here, before any timing

  // The references. cuBLAS on |A| and |B| gives S = sum_p |a_ip||b_pj| for every entry (to
  // within a factor 1 - gamma(K): all its terms are positive); cuBLAS on A and B gives the C
  // every kernel is compared with, itself checked against the CPU at the sampled entries.
  d_a.copy_from(absolute(problem.a));
  d_b.copy_from(absolute(problem.b));
  sgemm(d_a.data(), d_b.data(), d_c.data());
  const std::vector<float> abs_product = d_c.to_host();
  d_a.copy_from(problem.a);
  d_b.copy_from(problem.b);
  d_c.poison();
  sgemm(d_a.data(), d_b.data(), d_c.data());
  const std::vector<float> vendor_c = d_c.to_host();
  report.checks.push_back(check_sampled("cublasSgemm", vendor_c, problem));

  // A kernel and cuBLAS are each within gamma(K) S of the exact C, so within 2 gamma(K) S of
  // each other; S <= S_cublas / (1 - gamma(K)).
  const double gamma = rounding_gamma(k);
  const double scale =
      gamma < 1 ? 2 * gamma / (1 - gamma) : std::numeric_limits<double>::infinity();
  const auto tolerance = [&](size_t i) { return scale * double(abs_product[i]); };

  const int64_t mn = m * n;  // fits: C was allocated
  const auto tiles = [&](int64_t height, int64_t width) {
    return grid_blocks(ceil_div(m, height) * ceil_div(n, width));
  };
  const Variant variants[] = {
      {"naive_down_columns", "matmul_naive<0>", matmul_naive<NaiveOrder::kDownColumns>,
       grid_blocks(ceil_div(mn, kNaiveThreads)), kNaiveThreads},
      {"naive_along_rows", "matmul_naive<1>", matmul_naive<NaiveOrder::kAlongRows>,
       grid_blocks(ceil_div(mn, kNaiveThreads)), kNaiveThreads},
      {"tiled_16x16", "matmul_tiled<16>", matmul_tiled<16>, tiles(16, 16), 16 * 16},
      {"tiled_32x32", "matmul_tiled<32>", matmul_tiled<32>, tiles(32, 32), 32 * 32},
      {"register_tiled_8x8", "matmul_register_tiled", matmul_register_tiled<>,
       tiles(kRegTileM, kRegTileN), kRegThreads},
  };

  // Each variant: poison C, time it (warm-up, reps, one run recording cycles), then check the
  // C its runs left. Every run writes the same elements, so one that no run writes is still
  // NaN, and a kernel that read C would have spread the NaN.
  Timer timer(device);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  for (const Variant& v : variants) {
    const auto launch = [&](BlockCycleSlots slots) {
      v.kernel<<<unsigned(v.blocks), v.threads>>>(d_a.data(), d_b.data(), d_c.data(), m, n, k,
                                                  slots);
    };
    d_c.poison();
    report.rows.push_back(
        measure_kernel(timer, opt.reps, v.name, flops, v.blocks, double(mn), launch));
    report.rows.back().kernel = v.profiled;
    const std::vector<float> c = d_c.to_host();
    report.checks.push_back(check_elements("C (" + v.name + ") vs cublasSgemm", c, vendor_c,
                                           tolerance, "|error| <= 2 gamma(K) sum|a||b|"));
    if (v.name == report.headline) report.checks.push_back(check_sampled(v.name, c, problem));
  }
  report.rows.push_back(measure_vendor(timer, opt.reps, "cublasSgemm (FP32)", flops,
                                       [&] { sgemm(d_a.data(), d_b.data(), d_c.data()); }));

  report.notes.push_back(describe_fp32_peak(device));
  report.notes.push_back(
      "cublasSgemm with CUBLAS_DEFAULT_MATH: FP32 FMAs, TF32 tensor cores off; row-major C "
      "computed as the column-major C^T = B^T * A^T (operands swapped)");
  report.notes.push_back(
      "FLOPs per byte loaded from global memory: naive 0.25, tiled_16x16 4, "
      "tiled_32x32 8, register_tiled_8x8 32; shared-memory floats read per FMA: "
      "tiled 2, register_tiled 0.25 (16 floats, in 4 float4 loads, per 64 "
      "FMAs)");
  report.notes.push_back("tolerance per element: 2 gamma(K) S with gamma(" + std::to_string(k) +
                         ") = " + format_number(gamma) +
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
    (record ? recorded : plain)<<<1, threads>>>(d_a->data(), d_b->data(), d_c->data(), m, n, k,
                                                BlockCycleSlots{});
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> got = d_c->to_host();
    int64_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];
    return ExplainResult{
        wrong == 0, wrong == 0 ? "C = CPU exactly" : std::to_string(wrong) + " entries of C wrong"};
  };
  return e;
}

//! [explain]
/// --explain: the tiled kernel (16 x 16) and the register-tiled kernel, one block each.
Explanation explain_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  return explain_kernels(
      kChapter.id, device,
      {explain_matmul("matmul_tiled<16>", matmul_tiled<16>, matmul_tiled<16, true>, 16 * 16, 16, 16,
                      16, 16, 16, opt.seed),
       explain_matmul("matmul_register_tiled", matmul_register_tiled<>, matmul_register_tiled<true>,
                      kRegThreads, kRegTileM, kRegTileN, kRegTileK, kATileStride, kRegTileN,
                      opt.seed)});
}
//! [explain]

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec;
  spec.program = kChapter.program();
  spec.matmul = true;
  // 2048^3 fills an H100 (256 tiles of 128 x 128 for 132 SMs) and keeps the default run short:
  // naive_down_columns, the slowest step, took 0.27 s a run at 4096^3, and 2048^3 is an eighth
  // of the work, run 7 times (warm-up, 5 timed runs, the cycle run).
  // The page's table is measured at 4096^3 with --m 4096 --n 4096 --k 4096 --reps 10.
  spec.default_m = spec.default_n = spec.default_k = 2048;
  spec.default_reps = 5;
  spec.extra = {explain_option()};
  return run_main(argc, argv, spec, run_lesson, explain_lesson);
}
