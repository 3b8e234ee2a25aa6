/**
 * @file chapters/09_sgemm_cublas/sgemm_kernels.cuh
 * @brief The steps of chapter 09 from chapter 07's register tiles towards cublasSgemm, one
 *        kernel per idea over shared helpers: sgemm_vectorized (16-byte loads and stores),
 *        sgemm_double_buffered (two shared-memory buffers, one barrier per step along K; with
 *        warp tiles, without guards, 16 deep or 8 x 16 a thread as its parameters) and
 *        sgemm_async (asynchronous copies, cp.async), whose copies are started together
 *        (CopiesTogether) or spread over the step (CopiesSpread).
 *
 * Storage: every matrix is row-major (07_tiled_matmul/matmul.cuh). Every kernel handles any M, N,
 * K: a 16-byte access is used where its 4 floats are inside the matrix and 16-byte aligned (the row
 * length a multiple of 4), single floats with guards elsewhere.
 */
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "07_tiled_matmul/tile_of_block.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter09 {

using tutorial::ceil_div;

/// The block tile: kTileM rows of C per block of 256 threads, each thread computing 8 rows. Its
/// width is the kernels' template parameter kTileN: kNarrow (128, chapter 07's tile, 8 x 8 a
/// thread) or kWide (256, 8 x 16 a thread).
constexpr int kTileM = 128, kThreads = 256, kRowsPerThread = 8;
constexpr int kNarrow = 128, kWide = 256;
/// Row length of A's transposed tile: 4 floats of padding keep rows 16-byte aligned and move
/// consecutive rows 4 banks apart.
constexpr int kATileStride = kTileM + 4;

/// Columns of C each thread computes in a tile kTileN wide: 8 or 16.
template <int kTileN>
constexpr int kColsPerThread = kTileN* kTileM / kThreads / kRowsPerThread;

//! [thread_fragments]
/// Where a thread's rows and columns of the tile start: runs of 4, each one float4 load from
/// the tiles and one float4 store to C. 8 rows (two runs) and kTileN / 16 columns.
template <int kTileN>
struct Fragments {
  static constexpr int kColRuns = kColsPerThread<kTileN> / 4;  ///< 2 or 4
  int rows[2];
  int cols[4];  ///< the first kColRuns
};

/// How the 256 threads share out the tile of C, as chapter 07 does: a 16 x 16 grid of threads
/// over the whole 128 x 128 tile; a warp covers 16 rows and all 128 columns.
struct BlockGrid {
  static constexpr int kTileN = kNarrow;
  /// The rows and columns of the tile that thread @p thread computes (also on the host, where
  /// a test checks that every element of the tile is computed by exactly one thread).
  __host__ __device__ static Fragments<kTileN> of(int thread) {
    Fragments<kTileN> f{};
    const int ty = thread / 16, tx = thread % 16;  // chapter 07's owned(): 4 t and 64 + 4 t
    f.rows[0] = 4 * ty, f.rows[1] = 64 + 4 * ty;
    f.cols[0] = 4 * tx, f.cols[1] = 64 + 4 * tx;
    return f;
  }
};

/// Warp tiles over a tile kWidth wide: 2 x 4 warps, each covering 64 rows and a quarter of the
/// columns (8 x 4 lanes), so it reads 64 values of A and kWidth / 4 of B per step along K
/// instead of BlockGrid's 16 and 128.
template <int kWidth>
struct WarpTiles {
  static constexpr int kTileN = kWidth;
  /// The rows and columns of the tile that thread @p thread computes.
  __host__ __device__ static Fragments<kTileN> of(int thread) {
    Fragments<kTileN> f{};
    const int warp = thread / 32, lane = thread % 32;
    const int row0 = (warp / 4) * 64, col0 = (warp % 4) * (kTileN / 4);  // 2 x 4 warp tiles
    const int lr = lane / 4, lc = lane % 4;                              // 8 x 4 lanes
    f.rows[0] = row0 + 4 * lr, f.rows[1] = row0 + 32 + 4 * lr;
    // A warp's 4 lanes of a row read 4 neighbouring float4 of B (64 bytes) per run.
    for (int j = 0; j < Fragments<kTileN>::kColRuns; ++j) f.cols[j] = col0 + 16 * j + 4 * lc;
    return f;
  }
};
//! [thread_fragments]

//! [load_four]
/// 4 consecutive floats of a row-major matrix with @p columns columns, from (row, col): one
/// 16-byte load where they all exist and the row length keeps them aligned, else guarded
/// single loads (0 outside). kGuarded = false: the caller knows they all exist, aligned, and
/// no test is made.
template <bool kGuarded>
__device__ inline float4 load_four(const float* __restrict__ matrix, int64_t rows, int64_t columns,
                                   int64_t row, int64_t col) {
  if constexpr (!kGuarded) {
    return *reinterpret_cast<const float4*>(matrix + row * columns + col);
  } else {
    if (row < rows && col + 3 < columns && columns % 4 == 0) {
      return *reinterpret_cast<const float4*>(matrix + row * columns + col);
    }
    float v[4];
    for (int i = 0; i < 4; ++i) {
      v[i] = (row < rows && col + i < columns) ? matrix[row * columns + col + i] : 0.0f;
    }
    return {v[0], v[1], v[2], v[3]};
  }
}
//! [load_four]

/// Writes 4 consecutive floats of C from (row, col), the same way.
template <bool kGuarded>
__device__ inline void store_four(float* __restrict__ c, int64_t rows, int64_t columns, int64_t row,
                                  int64_t col, float4 value) {
  if constexpr (!kGuarded) {
    *reinterpret_cast<float4*>(c + row * columns + col) = value;
  } else {
    if (row >= rows) return;
    if (col + 3 < columns && columns % 4 == 0) {
      *reinterpret_cast<float4*>(c + row * columns + col) = value;
      return;
    }
    const float v[4] = {value.x, value.y, value.z, value.w};
    for (int i = 0; i < 4 && col + i < columns; ++i) c[row * columns + col + i] = v[i];
  }
}

/// 4 floats of a tile row, one 16-byte shared load.
__device__ inline float4 load_run(const float* from) {
  return *reinterpret_cast<const float4*>(from);
}

/// A's tile of one step along K in shared memory, transposed ([p][row]), and B's ([p][col]).
template <int kDepth>
using ATile = float[kDepth][kATileStride];
template <int kDepth, int kTileN>
using BTile = float[kDepth][kTileN];

//! [multiply_tiles]
/// The chapter's one block of FMAs: @p acc += the outer product of this thread's 8 values of A's
/// column @p a_frag and the first kColsPerThread of B's row @p b_frag.
template <int kTileN, int kBValues>
__device__ inline void outer_product(const float (&a_frag)[kRowsPerThread],
                                     const float (&b_frag)[kBValues],
                                     float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
  static_assert(kBValues >= kColsPerThread<kTileN>, "a value of B for every column");
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
#pragma unroll
    for (int j = 0; j < kColsPerThread<kTileN>; ++j) acc[i][j] += a_frag[i] * b_frag[j];
  }
}

/// One step along K: @p acc += this thread's rows of @p a_tile (A transposed: [p][row]) times
/// its columns of @p b_tile, kDepth products each, from 16-byte shared loads.
template <int kDepth, int kTileN>
__device__ inline void multiply_tiles(const ATile<kDepth>& a_tile,
                                      const BTile<kDepth, kTileN>& b_tile,
                                      const Fragments<kTileN>& mine,
                                      float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
  constexpr int kColRuns = Fragments<kTileN>::kColRuns;
  static_assert(kColRuns == 2 || kColRuns == 4, "8 or 16 columns a thread");
#pragma unroll
  for (int p = 0; p < kDepth; ++p) {
    // Named values, as in chapter 07: written as loops over runs, the narrow kernels with
    // guards spill (ptxas, sm_90, nvcc 13.0). b2 and b3 exist in the wide tile only.
    const float4 a0 = load_run(&a_tile[p][mine.rows[0]]);
    const float4 a1 = load_run(&a_tile[p][mine.rows[1]]);
    const float4 b0 = load_run(&b_tile[p][mine.cols[0]]);
    const float4 b1 = load_run(&b_tile[p][mine.cols[1]]);
    const float4 b2 = kColRuns == 4 ? load_run(&b_tile[p][mine.cols[2]]) : float4{};
    const float4 b3 = kColRuns == 4 ? load_run(&b_tile[p][mine.cols[3]]) : float4{};
    const float a_frag[kRowsPerThread] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b_frag[16] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w,
                              b2.x, b2.y, b2.z, b2.w, b3.x, b3.y, b3.z, b3.w};
    outer_product<kTileN>(a_frag, b_frag, acc);
  }
}
//! [multiply_tiles]

/// Writes this thread's fragment @p acc of the tile at (@p row0, @p col0) into C, 4 floats at
/// a time (store_four).
template <bool kGuarded, int kTileN>
__device__ inline void store_fragment(float* __restrict__ c, int64_t m, int64_t n, int64_t row0,
                                      int64_t col0, const Fragments<kTileN>& mine,
                                      const float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int64_t row = row0 + (i < 4 ? mine.rows[0] + i : mine.rows[1] + i - 4);
    const auto store_run = [&](int r) {
      store_four<kGuarded>(
          c, m, n, row, col0 + mine.cols[r],
          {acc[i][4 * r], acc[i][4 * r + 1], acc[i][4 * r + 2], acc[i][4 * r + 3]});
    };
    // Written out, not a loop: as a loop the guarded kernels spill (ptxas, sm_90, nvcc 13.0).
    store_run(0);
    store_run(1);
    if constexpr (Fragments<kTileN>::kColRuns == 4) {
      store_run(2);
      store_run(3);
    }
  }
}

//! [tile_loader]
/**
 * @brief One thread's share of the tiles of A and B of a step along K, kDepth deep, loaded
 *        from global memory into registers (fetch) and then stored into shared memory (stash),
 *        A transposed: 16 bytes a load (load_four).
 */
template <int kDepth, int kTileN, bool kGuarded>
class TileLoader {
 public:
  static constexpr int kALoads = kTileM * kDepth / 4 / kThreads;  ///< float4 of A a thread
  static constexpr int kBLoads = kDepth * kTileN / 4 / kThreads;  ///< and of B
  static_assert(kALoads >= 1 && kBLoads >= 1, "every thread loads whole float4");
  /// The registers that hold the next tiles from fetch() to stash(): A's float4 first, then
  /// B's. The kernel declares them and lends them: as a member of the loader, the guarded
  /// kernels with two loads of A or of B compile to other code (other register counts, and 88
  /// bytes of spills 16 deep with one buffer; ptxas, sm_90a, nvcc 13.0), and the page's
  /// times are of this code.
  using Next = float4[kALoads + kBLoads];

  /// The loads of the block's tiles at (@p row0, @p col0) of C, into @p next.
  __device__ TileLoader(const float* __restrict__ a, const float* __restrict__ b, int64_t m,
                        int64_t n, int64_t k, int64_t row0, int64_t col0, Next& next)
      : a_(a), b_(b), m_(m), n_(n), k_(k), row0_(row0), col0_(col0), next_(next) {}

  /// Loads the tiles of the step that starts at column @p k0 of A (row of B) into registers.
  __device__ void fetch(int64_t k0) {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int f = threadIdx.x + i * kThreads;  // float4 f of the tile: row f / (kDepth / 4)
      next_[i] =
          load_four<kGuarded>(a_, m_, k_, row0_ + f / (kDepth / 4), k0 + 4 * (f % (kDepth / 4)));
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      next_[kALoads + i] =
          load_four<kGuarded>(b_, k_, n_, k0 + f / (kTileN / 4), col0_ + 4 * (f % (kTileN / 4)));
    }
  }

  /// Stores what fetch() loaded into @p a_tile (transposed) and @p b_tile.
  __device__ void stash(ATile<kDepth>& a_tile, BTile<kDepth, kTileN>& b_tile) const {
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      const int r = f / (kDepth / 4), p = 4 * (f % (kDepth / 4));
      a_tile[p][r] = next_[i].x;
      a_tile[p + 1][r] = next_[i].y;
      a_tile[p + 2][r] = next_[i].z;
      a_tile[p + 3][r] = next_[i].w;
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      const int f = threadIdx.x + i * kThreads;
      *reinterpret_cast<float4*>(&b_tile[f / (kTileN / 4)][4 * (f % (kTileN / 4))]) =
          next_[kALoads + i];
    }
  }

 private:
  const float* __restrict__ a_;
  const float* __restrict__ b_;
  int64_t m_, n_, k_, row0_, col0_;
  Next& next_;
};
//! [tile_loader]

//! [sgemm_vectorized]
/**
 * @brief Step `vectorized`: chapter 07's register tiles (8 x 8 of C a thread, one shared
 *        buffer), with A and B loaded and C stored 16 bytes at a time.
 *
 * What changed from chapter 07: a thread loads 4 floats of a row with one 16-byte load
 * (TileLoader, load_four) and stores 4 of C with one store (store_fragment), a quarter of the
 * load and store instructions. The next tiles are loaded into registers while the current ones
 * are multiplied; with one buffer a step needs two barriers: one before the registers are
 * stored into it (nobody still reads it) and one after (everybody sees it whole).
 *
 * Arrangement: which elements each thread computes (BlockGrid, as chapter 07; WarpTiles for
 * --tune); kDepth: products a step along K; kGuarded = false: whole tiles only (whole_tiles());
 * kGroup: the tile rows that consecutive blocks share (tile_of_block; 1: row by row).
 */
template <class Arrangement = BlockGrid, int kDepth = 8, bool kGuarded = true,
          int kGroup = chapter07::kGroupRows>
__device__ void sgemm_vectorized(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  constexpr int kTileN = Arrangement::kTileN;
  __shared__ __align__(16) ATile<kDepth> a_tile;
  __shared__ __align__(16) BTile<kDepth, kTileN> b_tile;
  const chapter07::TilePosition tile =
      chapter07::tile_of_block<kGroup>(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  const int64_t row0 = tile.row * kTileM, col0 = tile.col * kTileN;
  typename TileLoader<kDepth, kTileN, kGuarded>::Next next;
  TileLoader<kDepth, kTileN, kGuarded> loads(a, b, m, n, k, row0, col0, next);

  const Fragments<kTileN> mine = Arrangement::of(threadIdx.x);
  float acc[kRowsPerThread][kColsPerThread<kTileN>] = {};
  loads.fetch(0);
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    const bool more = k0 + kDepth < k;
    if (k0 > 0) __syncthreads();  // everyone is done reading the tiles of the last step
    loads.stash(a_tile, b_tile);
    __syncthreads();
    if (more) loads.fetch(k0 + kDepth);  // in flight while this tile is multiplied
    multiply_tiles(a_tile, b_tile, mine, acc);
  }
  store_fragment<kGuarded>(c, m, n, row0, col0, mine, acc);
}
//! [sgemm_vectorized]

//! [sgemm_double_buffered]
/**
 * @brief Step `double_buffered`: sgemm_vectorized with two shared buffers and one barrier a
 *        step along K instead of two.
 *
 * What changed from `vectorized`: the registers loaded during a step are stored into the other
 * buffer, which nobody has read since the last barrier, so no barrier is needed before the
 * store; the one after it makes them whole for everybody and ends everybody's reading of the
 * buffer just multiplied, which the next step refills.
 *
 * The steps after it are this kernel at other parameters: WarpTiles (`warp_tiled_guarded`),
 * kGuarded = false on whole tiles (`warp_tiled`), kGroup = 1 (`warp_tiled_row_order`),
 * kDepth = 16 (`warp_tiled_k16`), WarpTiles<kWide> (`wide_tiles`): each thread computes
 * 8 x 16, reading 6 float4 from the tiles per product for 128 FMAs instead of 4 for 64. Its
 * 128 accumulators need more than the 128 registers that two blocks an SM leave a thread, so a
 * wide block runs alone on its SM (min_blocks_per_sm).
 */
template <class Arrangement = BlockGrid, int kDepth = 8, bool kGuarded = true,
          int kGroup = chapter07::kGroupRows>
__device__ void sgemm_double_buffered(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  constexpr int kTileN = Arrangement::kTileN;
  __shared__ __align__(16) ATile<kDepth> a_tile[2];
  __shared__ __align__(16) BTile<kDepth, kTileN> b_tile[2];
  const chapter07::TilePosition tile =
      chapter07::tile_of_block<kGroup>(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  const int64_t row0 = tile.row * kTileM, col0 = tile.col * kTileN;
  typename TileLoader<kDepth, kTileN, kGuarded>::Next next;
  TileLoader<kDepth, kTileN, kGuarded> loads(a, b, m, n, k, row0, col0, next);
  int buffer = 0;  // the buffer this step multiplies; the other one is being filled

  const Fragments<kTileN> mine = Arrangement::of(threadIdx.x);
  float acc[kRowsPerThread][kColsPerThread<kTileN>] = {};
  loads.fetch(0);
  loads.stash(a_tile[0], b_tile[0]);
  __syncthreads();
  for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
    const bool more = k0 + kDepth < k;
    if (more) loads.fetch(k0 + kDepth);  // in flight while this tile is multiplied
    multiply_tiles(a_tile[buffer], b_tile[buffer], mine, acc);
    if (more) loads.stash(a_tile[buffer ^ 1], b_tile[buffer ^ 1]);  // read by nobody now
    __syncthreads();
    buffer ^= 1;
  }
  store_fragment<kGuarded>(c, m, n, row0, col0, mine, acc);
}
//! [sgemm_double_buffered]

/// The blocks an SM must hold for a tile @p width wide: two for the narrow tile, which caps a
/// thread at the 128 registers that leaves it; one for the wide (its 128 accumulators alone
/// need that many).
constexpr int min_blocks_per_sm(int width) {
  return width == kNarrow ? 2 : 1;
}

/// The kernels as the harness launches them (clocked_kernel in tutorial/harness/block_cycles.cuh),
/// with their launch bounds.
template <class Arrangement = BlockGrid, int kDepth = 8, bool kGuarded = true,
          int kGroup = chapter07::kGroupRows>
inline constexpr auto sgemm_vectorized_kernel =
    tutorial::clocked_kernel<sgemm_vectorized<Arrangement, kDepth, kGuarded, kGroup>, kThreads,
                             min_blocks_per_sm(Arrangement::kTileN)>;
template <class Arrangement = BlockGrid, int kDepth = 8, bool kGuarded = true,
          int kGroup = chapter07::kGroupRows>
inline constexpr auto sgemm_double_buffered_kernel =
    tutorial::clocked_kernel<sgemm_double_buffered<Arrangement, kDepth, kGuarded, kGroup>, kThreads,
                             min_blocks_per_sm(Arrangement::kTileN)>;

//! [copy_async]
/// Starts copying one float of a row-major matrix, (@p row, @p col), into shared memory at
/// @p to, without passing through registers (cp.async on compute capability 8.0 and newer, a
/// plain copy before). Outside the matrix (kGuarded) nothing is read and @p to gets 0.
template <bool kGuarded>
__device__ inline void copy_one_async(float* to, const float* __restrict__ matrix, int64_t rows,
                                      int64_t columns, int64_t row, int64_t col) {
  const bool inside = !kGuarded || (row < rows && col < columns);
  __pipeline_memcpy_async(to, inside ? matrix + row * columns + col : matrix, sizeof(float),
                          inside ? 0 : sizeof(float));  // the last argument: bytes zero-filled
}

/// Starts copying 4 consecutive floats from (@p row, @p col) to @p to: one 16-byte copy where
/// load_four() would make one 16-byte load, else four single floats.
template <bool kGuarded>
__device__ inline void copy_four_async(float* to, const float* __restrict__ matrix, int64_t rows,
                                       int64_t columns, int64_t row, int64_t col) {
  if (!kGuarded || (row < rows && col + 3 < columns && columns % 4 == 0)) {
    __pipeline_memcpy_async(to, matrix + row * columns + col, 4 * sizeof(float));
  } else {
    for (int i = 0; i < 4; ++i) copy_one_async<true>(to + i, matrix, rows, columns, row, col + i);
  }
}

/// Steps along K of the kernels with asynchronous copies.
constexpr int kAsyncDepth = 8;

/**
 * @brief One thread's asynchronous copies of the tiles of A (transposed) and B, step after
 *        step along K: each thread 4 single floats of A and kTileN / 128 float4 of B a step.
 *
 * Where each copy comes from and goes to is worked out once, here; a step then only moves the
 * sources on, kAsyncDepth columns of A and kAsyncDepth rows of B. Worked out afresh from row
 * and column at every step, the addresses take integer instructions, and every one takes an
 * issue slot an FMA could have had (the page counts them). With kGuarded, copies that reach
 * outside a matrix are guarded one by one and write zeros instead.
 */
template <bool kGuarded, int kTileN>
class TileCopier {
 public:
  static constexpr int kDepth = kAsyncDepth;
  static constexpr int kACopies = kTileM * kDepth / kThreads;      ///< single floats of A
  static constexpr int kARowsApart = kThreads / kDepth;            ///< between them: 32 rows
  static constexpr int kBCopies = kDepth * kTileN / 4 / kThreads;  ///< float4 of B: 1 or 2
  static constexpr int kBRowsApart = kThreads / (kTileN / 4);      ///< between them: 8 or 4
  static constexpr int kCopies = kACopies + kBCopies;              ///< A's first, then B's
  static_assert(kCopies <= kDepth, "CopiesSpread starts one copy per product of a step");

  /// The copies of the block's tiles at (@p row0, @p col0) of C, starting at K = 0.
  __device__ TileCopier(const float* __restrict__ a, const float* __restrict__ b, int64_t m,
                        int64_t n, int64_t k, int64_t row0, int64_t col0)
      : a_(a),
        b_(b),
        m_(m),
        n_(n),
        k_(k),
        // A warp copies 4 rows x 8 floats: 32-byte pieces of 4 rows of A, written to 32
        // different banks of the transposed tile (bank 4 p + row, mod 32).
        a_r_(threadIdx.x / kDepth),
        a_p_(threadIdx.x % kDepth),
        b_p_(threadIdx.x / (kTileN / 4)),
        b_c_(4 * (threadIdx.x % (kTileN / 4))),
        a_row_(row0 + a_r_),
        b_col_(col0 + b_c_),
        a_from_(a + a_row_ * k + a_p_),
        b_from_(b + b_p_ * n + b_col_) {}

  /// Starts copy @p j (0 <= j < kCopies) of the next step along K into one stage's tiles.
  __device__ void copy(int j, ATile<kDepth>& a_tile, BTile<kDepth, kTileN>& b_tile) const {
    if (j < kACopies) {
      float* to = &a_tile[a_p_][a_r_ + j * kARowsApart];
      if constexpr (kGuarded) {
        copy_one_async<true>(to, a_, m_, k_, a_row_ + j * kARowsApart, k0_ + a_p_);
      } else {
        __pipeline_memcpy_async(to, a_from_ + j * kARowsApart * k_, sizeof(float));
      }
    } else {
      const int i = j - kACopies;
      float* to = &b_tile[b_p_ + i * kBRowsApart][b_c_];
      if constexpr (kGuarded) {
        copy_four_async<true>(to, b_, k_, n_, k0_ + b_p_ + i * kBRowsApart, b_col_);
      } else {
        __pipeline_memcpy_async(to, b_from_ + i * kBRowsApart * n_, 4 * sizeof(float));
      }
    }
  }

  /// Moves on to the next step along K, once its copies are started.
  __device__ void advance() {
    k0_ += kDepth;
    a_from_ += kDepth;
    b_from_ += kDepth * n_;
  }

  /// Starts every copy of the next step along K into one stage's tiles, and moves on a step.
  /// @pre called once per step, in order along K.
  __device__ void copy_next(ATile<kDepth>& a_tile, BTile<kDepth, kTileN>& b_tile) {
#pragma unroll
    for (int j = 0; j < kCopies; ++j) copy(j, a_tile, b_tile);
    advance();
  }

 private:
  const float* a_;
  const float* b_;
  int64_t m_, n_, k_;
  int a_r_, a_p_, b_p_, b_c_;  ///< where this thread's copies go in the tiles
  int64_t a_row_, b_col_;      ///< the first row of A and the column of B they come from
  const float* a_from_;        ///< this thread's first float of A of the next step
  const float* b_from_;        ///< and of B
  int64_t k0_ = 0;             ///< the next step's first column of A, row of B
};
//! [copy_async]

//! [copies_together]
/// How sgemm_async starts a step's copies in `async_copies`: all of them together, before the
/// step's products. @p more: whether there is a later step to copy (else nothing is started).
struct CopiesTogether {
  template <class Copier, class ATiles, class BTiles, int kTileN, class Acc>
  __device__ static void multiply(Copier& copies, bool more, int stage, int refill, ATiles& a_tile,
                                  BTiles& b_tile, const Fragments<kTileN>& mine, Acc& acc) {
    if (more) copies.copy_next(a_tile[refill], b_tile[refill]);
    multiply_tiles(a_tile[stage], b_tile[stage], mine, acc);
  }
};
//! [copies_together]

//! [sgemm_async]
/**
 * @brief Step `async_copies`: the double-buffered warp tiles, with the tiles of A and B copied
 *        from global to shared memory asynchronously into kStages buffers: kStages - 1 steps
 *        along K in flight while one is multiplied.
 *
 * What changed from `wide_tiles` (sgemm_double_buffered): that kernel loads the next tiles into
 * registers and stores them into shared memory after the multiply: the loads must land before
 * the stores can issue, and the registers that hold them are taken for the whole step. Here
 * each thread starts copies (cp.async, TileCopier) that write shared memory by themselves,
 * commits them as one group per step, and later waits for the group it needs: at step s it
 * waits for the copies of step s, starts those of step s + kStages - 1 into the buffer that
 * step s - 1 used, and multiplies. A is copied one float at a time, so that it can still be
 * stored transposed (a_tile[p][row], read 16 bytes at a time); B 16 bytes at a time. One
 * barrier a step: after it, every thread's copies of step s are in shared memory, and every
 * thread is done reading the buffer that is refilled next.
 *
 * Copies: when a step's copies are started, CopiesTogether (`async_copies`) or CopiesSpread
 * (`copies_spread`). Steps of 8 along K; any M, N, K with kGuarded, whole tiles only
 * (whole_tiles()) without.
 * @pre run by every thread of blocks of kThreads threads, one block per tile of C
 *      (tile_of_block()).
 */
template <int kStages, bool kGuarded = true, int kTileN = kNarrow, class Copies = CopiesTogether>
__device__ void sgemm_async(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  constexpr int kDepth = kAsyncDepth;
  static_assert(kStages >= 2, "a stage to multiply and at least one in flight");
  __shared__ __align__(16) ATile<kDepth> a_tile[kStages];
  __shared__ __align__(16) BTile<kDepth, kTileN> b_tile[kStages];
  const chapter07::TilePosition tile =
      chapter07::tile_of_block(blockIdx.x, ceil_div(m, kTileM), ceil_div(n, kTileN));
  const int64_t row0 = tile.row * kTileM, col0 = tile.col * kTileN;
  TileCopier<kGuarded, kTileN> copies(a, b, m, n, k, row0, col0);

  const Fragments<kTileN> mine = WarpTiles<kTileN>::of(threadIdx.x);
  float acc[kRowsPerThread][kColsPerThread<kTileN>] = {};
  const int64_t steps = ceil_div(k, kDepth);
  for (int s = 0; s < kStages - 1; ++s) {  // the first kStages - 1 steps in flight
    if (s < steps) copies.copy_next(a_tile[s], b_tile[s]);
    __pipeline_commit();  // a group per step, empty or not: the waits below count groups
  }
  // The buffer step s reads and the one its copies refill, counted round rather than
  // computed as s % kStages: a 64-bit remainder by 3 is about a dozen instructions.
  int stage = 0, refill = kStages - 1;
  for (int64_t s = 0; s < steps; ++s) {
    __pipeline_wait_prior(kStages - 2);  // this thread's copies of step s have landed
    __syncthreads();  // everyone's have; everyone is done with step s - 1's buffer
    const bool more = s + kStages - 1 < steps;
    Copies::multiply(copies, more, stage, refill, a_tile, b_tile, mine, acc);
    __pipeline_commit();
    stage = stage + 1 == kStages ? 0 : stage + 1;
    refill = refill + 1 == kStages ? 0 : refill + 1;
  }
  store_fragment<kGuarded>(c, m, n, row0, col0, mine, acc);
}
//! [sgemm_async]

//! [step_fragments]
/// What a thread reads from the tiles for one product along K: its 8 values of A's column (two
/// runs of 4) and its 8 or 16 values of B's row.
template <int kTileN>
struct StepFragments {
  float4 a[2];
  float4 b[Fragments<kTileN>::kColRuns];
};

/// Reads this thread's fragments of product @p p from the tiles: 16-byte shared loads.
template <int kDepth, int kTileN>
__device__ inline void load_step(StepFragments<kTileN>& to, const ATile<kDepth>& a_tile,
                                 const BTile<kDepth, kTileN>& b_tile, int p,
                                 const Fragments<kTileN>& mine) {
  to.a[0] = load_run(&a_tile[p][mine.rows[0]]);
  to.a[1] = load_run(&a_tile[p][mine.rows[1]]);
#pragma unroll
  for (int r = 0; r < Fragments<kTileN>::kColRuns; ++r)
    to.b[r] = load_run(&b_tile[p][mine.cols[r]]);
}

/// @p acc += the outer product of one product's fragments: 8 x 8 or 8 x 16 FMAs.
template <int kTileN>
__device__ inline void multiply_step(const StepFragments<kTileN>& f,
                                     float (&acc)[kRowsPerThread][kColsPerThread<kTileN>]) {
  constexpr int kCols = kColsPerThread<kTileN>;
  const float a_frag[kRowsPerThread] = {f.a[0].x, f.a[0].y, f.a[0].z, f.a[0].w,
                                        f.a[1].x, f.a[1].y, f.a[1].z, f.a[1].w};
  float b_frag[kCols];
#pragma unroll
  for (int r = 0; r < kCols / 4; ++r) {
    b_frag[4 * r] = f.b[r].x, b_frag[4 * r + 1] = f.b[r].y;
    b_frag[4 * r + 2] = f.b[r].z, b_frag[4 * r + 3] = f.b[r].w;
  }
  outer_product<kTileN>(a_frag, b_frag, acc);
}
//! [step_fragments]

//! [copies_spread]
/**
 * @brief How sgemm_async starts a step's copies in `copies_spread`: one before each of the
 *        step's first kCopies products, between the product's shared loads and its FMAs.
 *
 * What changed from CopiesTogether (`async_copies`): there a thread's copies (6 in the wide
 * tile) are issued in a row, just before the step's first shared loads, to the same memory pipe
 * that those loads use; spread out, they do not queue up at once (the page measures both).
 */
struct CopiesSpread {
  template <class Copier, class ATiles, class BTiles, int kTileN, class Acc>
  __device__ static void multiply(Copier& copies, bool more, int stage, int refill, ATiles& a_tile,
                                  BTiles& b_tile, const Fragments<kTileN>& mine, Acc& acc) {
#pragma unroll
    for (int p = 0; p < kAsyncDepth; ++p) {
      StepFragments<kTileN> step;
      load_step(step, a_tile[stage], b_tile[stage], p, mine);
      if (more && p < copies.kCopies) copies.copy(p, a_tile[refill], b_tile[refill]);
      multiply_step(step, acc);
    }
    if (more) copies.advance();
  }
};
//! [copies_spread]

/// sgemm_async as the harness launches it, with its launch bounds.
template <int kStages, bool kGuarded = true, int kTileN = kNarrow, class Copies = CopiesTogether>
inline constexpr auto sgemm_async_kernel =
    tutorial::clocked_kernel<sgemm_async<kStages, kGuarded, kTileN, Copies>, kThreads,
                             min_blocks_per_sm(kTileN)>;

/// Whether the kGuarded = false kernels may run: whole tiles only (M a multiple of 128, N of
/// the tile's @p width, K of its @p depth), so every 16-byte access is inside and aligned.
/// Other shapes take the guarded kernel.
inline bool whole_tiles(int64_t m, int64_t n, int64_t k, int width, int depth) {
  return m % kTileM == 0 && n % width == 0 && k % depth == 0;
}

}  // namespace chapter09
