// Checker of exercise 10.6: random matrices stored by the learner's TMA epilogue, every element
// of C compared with the input, exactly, through rings of 1, 2 and 3 buffers: 1 x 4 (the smallest
// C), one whole tile, tiles cut by C's edges, then C of 4096 x 4096 and more tiles than the GPU
// holds at once. C is poisoned (NaN) before each run, with a poisoned guard after it. The given
// steps (tma_store_ring.cuh) poison the shared buffers before the first box and after the block is
// done; a failure names the first wrong element and what its value shows.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tma_store_ring.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/grading/exercise_matmul.hpp"  // kGuard, expect_guard_intact
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using exercise10::kBoxCols;
using exercise10::kTileCols;

/// Compiled like the learner's kernel: its PTX version says whether the build holds code for
/// compute capability 9.0 or newer.
__global__ void probe_kernel() {}

/// Exercise 10.6 needs compute capability 9.0, of the GPU and of this build's code: elsewhere the
/// checker says why it cannot run and exits 77 (the grader's SKIP).
void expect_sm90() {
  require_compute_capability(reinterpret_cast<const void*>(probe_kernel), 90,
                             "exercise 10.6's TMA stores, bulk groups and proxy fence");
}

/// One graded run: C of @p m x @p n through a ring of @p buffers boxes.
struct Case {
  int64_t m, n;
  int buffers;
};

std::string describe(const Case& c) {
  return std::to_string(c.m) + " x " + std::to_string(c.n) + " through " +
         std::to_string(c.buffers) + (c.buffers == 1 ? " buffer" : " buffers");
}

/// What the wrong value @p got of C(@p row, @p col) is, as far as the checker can tell, with
/// @p v the input (m x n) and @p buffers the ring's boxes.
std::string explain(float got, int64_t row, int64_t col, const std::vector<float>& v, int64_t n,
                    int buffers) {
  const int box = int(col % kTileCols / kBoxCols);
  const std::string where = " (box " + std::to_string(box) + " of its block's tile, stored from " +
                            "buffer " + std::to_string(box % buffers) + ")";
  if (std::isnan(got)) return where + ": C's poison, never written";
  if (got == exercise10::kFreshPoison) {
    return where +
           ": the buffers' poison from before the block wrote any box: TMA read the buffer "
           "before the box's writes were in it";
  }
  if (got == exercise10::kLeftPoison) {
    return where +
           ": the poison the block writes into its buffers once it is done: TMA still read the "
           "buffer after store_tile had returned";
  }
  // Another box of the same tile that went through the same buffer: its element at the same
  // place. A later one was written over this box before TMA had read it; an earlier one was
  // still what TMA saw there when it read this box.
  for (int other = box % buffers; other < exercise10::kTileBoxes; other += buffers) {
    const int64_t c = col + int64_t(other - box) * kBoxCols;
    if (other == box || c >= n || !(v[size_t(row * n + c)] == got)) continue;
    return where + ": it is C(" + std::to_string(row) + ", " + std::to_string(c) + "), which box " +
           std::to_string(other) + " put at the same place of the same buffer: " +
           (other > box ? "the buffer was written again before TMA had read it out"
                        : "TMA read the buffer before this box's writes had reached it");
  }
  const int64_t first = col - col % kBoxCols;
  for (int64_t c = first; c < first + kBoxCols && c < n; ++c) {
    if (v[size_t(row * n + c)] == got) {
      return where + ": it is C(" + std::to_string(row) + ", " + std::to_string(c) +
             "), from the same row of the same box: the box is not laid out in its buffer as "
             "the tensor map's 128-byte swizzle says";
    }
  }
  return where;
}

/// Runs @p c on a random input and expects C to be it, exactly. @p passed: the cases that passed
/// before, named in a failure.
void expect_stored(const Case& c, uint64_t seed, const std::string& passed) {
  const std::string where = describe(c);
  const std::vector<float> v = random_floats(c.m * c.n, seed, -1.0f, 1.0f);
  const DeviceBuffer<float> d_v(v);
  DeviceBuffer<float> d_c(c.m * c.n + kGuard);
  d_c.poison();

  exercise10::store_tiles(d_v.data(), d_c.data(), c.m, c.n, c.buffers);
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> got = d_c.to_host();
  expect_guard_intact(got, c.m * c.n, where);
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < c.m * c.n; ++i) {
    if (!(got[size_t(i)] == v[size_t(i)])) {  // NaN is never equal
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return;
  const int64_t row = first / c.n, col = first % c.n;
  throw ExerciseFailure(where + ": " + std::to_string(bad) + " of " + std::to_string(c.m * c.n) +
                        " elements of C wrong; the first, C(" + std::to_string(row) + ", " +
                        std::to_string(col) + "), is " + format_number(got[size_t(first)]) +
                        ", not " + format_number(v[size_t(first)]) +
                        explain(got[size_t(first)], row, col, v, c.n, c.buffers) + passed);
}

void check_tma_store_ring(const CheckRun& run) {
  expect_sm90();
  // 1 x 4, the smallest C (one block, 7 of its 8 boxes wholly past C's edge); one whole tile; tiles
  // cut by both edges; many tiles, some cut; then 4096 x 4096 (1024 blocks) and a C with more tiles
  // than the GPU holds at once, whose last row and column of tiles are cut.
  const int64_t shapes[][2] = {{1, 4},       {64, 256},    {100, 300},
                               {1000, 1028}, {4096, 4096}, {4097, 8196}};
  std::string passed;  // the cases that passed, in order
  uint64_t seed = 1060;
  for (const auto& shape : shapes) {
    if (run.small && shape[0] * shape[1] > 64 * 1024) continue;
    for (int buffers = 1; buffers <= exercise10::kMaxBuffers; ++buffers) {
      const Case c{shape[0], shape[1], buffers};
      expect_stored(c, seed += 7, passed.empty() ? "" : " (passed before it: " + passed + ")");
      passed += (passed.empty() ? "" : ", ") + describe(c);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.6", "C through a ring of TMA stores",
                          check_tma_store_ring);
}
