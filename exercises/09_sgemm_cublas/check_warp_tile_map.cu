// Checker of exercise 9.1: the mapping on the host (every element of the tile computed by
// exactly one thread, each run a whole 16-byte load inside the tile), before it asks for a GPU;
// then the SGEMM that uses it on awkward shapes against cuBLAS; then the warps' regions: 32
// rows x 64 columns each, so that chapter 09's own warp tiles (64 x 32) do not pass.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/device_facts.cuh"

namespace {

using namespace tutorial;
using namespace check09;
using exercise09::Fragment;
using exercise09::kPerThread;
using exercise09::kThreads;
using exercise09::kTileM;
using exercise09::kTileN;

/// The region of the tile a warp covers in this exercise (chapter 09's: 64 rows x 32 columns).
constexpr int kWarpRows = 32, kWarpCols = 64;

/// What warp_tile_fragments gives every thread of the block.
struct Mapping {
  std::vector<Fragment> rows, cols;
  Mapping() : rows(kThreads), cols(kThreads) {
    for (int t = 0; t < kThreads; ++t) exercise09::warp_tile_fragments(t, rows[t], cols[t]);
  }
};

/// Expects a run of 4 to start at a multiple of 4 and to lie inside a tile side of @p size.
void expect_run(int start, int size, int thread, const std::string& name) {
  expect(start >= 0 && start % 4 == 0 && start + 4 <= size,
         "thread " + std::to_string(thread) + ": " + name + " = " + std::to_string(start) +
             "; a run must start at a multiple of 4 (one 16-byte load) and lie inside the tile "
             "(0 to " +
             std::to_string(size - 4) + ")");
}

/// Expects every element of the 128 x 128 tile to be computed by exactly one thread.
void expect_exact_cover(const Mapping& map) {
  std::vector<std::vector<int>> owners(kTileM * kTileN);
  for (int t = 0; t < kThreads; ++t) {
    expect_run(map.rows[t].first, kTileM, t, "rows.first");
    expect_run(map.rows[t].second, kTileM, t, "rows.second");
    expect_run(map.cols[t].first, kTileN, t, "cols.first");
    expect_run(map.cols[t].second, kTileN, t, "cols.second");
    for (int i = 0; i < kPerThread; ++i) {
      for (int j = 0; j < kPerThread; ++j) {
        owners[map.rows[t][i] * kTileN + map.cols[t][j]].push_back(t);
      }
    }
  }
  for (int e = 0; e < kTileM * kTileN; ++e) {
    const std::vector<int>& by = owners[e];
    if (by.size() == 1) continue;
    std::string threads;
    for (size_t i = 0; i < by.size() && i < 4; ++i) {
      threads += (i == 0 ? " (threads " : ", ") + std::to_string(by[i]);
    }
    throw ExerciseFailure("element (" + std::to_string(e / kTileN) + ", " +
                          std::to_string(e % kTileN) + ") of the tile is computed " +
                          std::to_string(by.size()) + " times" + threads + (by.empty() ? "" : ")") +
                          "; every element must be computed once");
  }
}

/// Expects the elements of each warp (exactly once each, by now) to fill kWarpRows x kWarpCols:
/// a warp has 32 x 64 = 2048 elements, so a bounding box of that size holds nothing else.
void expect_warp_regions(const Mapping& map) {
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    int top = kTileM, bottom = -1, left = kTileN, right = -1;
    for (int t = 32 * warp; t < 32 * warp + 32; ++t) {
      for (int i = 0; i < kPerThread; ++i) {
        top = std::min(top, map.rows[t][i]);
        bottom = std::max(bottom, map.rows[t][i]);
        left = std::min(left, map.cols[t][i]);
        right = std::max(right, map.cols[t][i]);
      }
    }
    expect(bottom - top + 1 == kWarpRows && right - left + 1 == kWarpCols,
           "warp " + std::to_string(warp) + " spreads over rows " + std::to_string(top) + " to " +
               std::to_string(bottom) + " and columns " + std::to_string(left) + " to " +
               std::to_string(right) + " of the tile; a warp tile here is " +
               std::to_string(kWarpRows) + " rows x " + std::to_string(kWarpCols) + " columns");
  }
}

void check_warp_tile_map(const CheckRun& run) {
  const Mapping map;
  expect_exact_cover(map);  // before any kernel runs with the mapping, and without a GPU
  query_device();           // no GPU: exit 77 (run_gpu_exercise's check, after the host one)
  uint64_t seed = 92;
  for (const Shape& s : graded_shapes(run)) {
    SgemmCase sc(s, seed += 2);
    exercise09::sgemm_warp_tiled(sc.run.a.data(), sc.run.b.data(), sc.c.data(), s.m, s.n, s.k);
    sc.expect_c(describe(s));
  }
  expect_warp_regions(map);
}

}  // namespace

int main(int argc, char** argv) {
  return run_exercise(argc, argv, "9.1",
                      "warp tiles of 32 x 64: which elements each thread computes",
                      check_warp_tile_map);
}
