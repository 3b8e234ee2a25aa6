// What the SGEMM checkers of exercises 9.1 to 9.3 share: the shapes they grade, and one
// problem with cuBLAS's C as the reference (tutorial::MatmulRun) and a poisoned C, with a guard
// past its end, for the learner's kernel.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "07_tiled_matmul/matmul.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/grading/exercise_matmul.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/options.hpp"
#include "tutorial/harness/verify.hpp"

namespace check09 {

using Shape = tutorial::MatmulShape;

/// 1 x 1 x 1, a single row and column, primes, one step along K and many, sizes one past a tile
/// or a step, rows whose length is not a multiple of 4 (no 16-byte access), whole tiles.
inline const Shape kShapes[] = {{1, 1, 1},      {2, 3, 5},        {67, 45, 33},     {128, 128, 8},
                                {31, 97, 40},   {1, 4097, 3},     {4097, 1, 2},     {128, 128, 16},
                                {129, 257, 9},  {131, 260, 4},    {200, 33, 300},   {5, 7, 1000},
                                {96, 80, 47},   {256, 384, 64},   {384, 128, 1000}, {257, 129, 129},
                                {640, 512, 24}, {1000, 1000, 100}};

/// The shapes a run grades: all of kShapes, or under --small those of at most 2^18
/// multiply-adds (one whole tile of 16 steps along K among them).
inline std::vector<Shape> graded_shapes(const tutorial::CheckRun& run) {
  return tutorial::graded_shapes(kShapes, run, 1 << 18);
}

/// Exercise 9.3's shapes with a long K and few tiles of C, where a split along K has slices and
/// a last slice shorter than the others: K prime (8191, 4099, 4111, 20011, 8209), K not a
/// multiple of 8 or of the slice, K shorter than the number of slices a GPU's SMs would ask for
/// (7, 100: one step, a few), a single row or column of C with a long K, whole tiles (no guards)
/// whose K is or is not a multiple of the slice on most GPUs. K stays at most 20011: with A and
/// B in [-1, 1), an element's bound 2 gamma(K) sum|a||b| grows as K^2 (gamma(K) as K, the sum
/// as K / 4) and a typical |C| as sqrt(K / 9); at K = 20011 the bound is already a quarter of
/// that, and a few missing products show only where K is shorter.
inline const Shape kLongKShapes[] = {{1, 1, 8191},     {3, 5, 4099},     {20, 30, 7},
                                     {2, 2, 100},      {1, 300, 4111},   {257, 1, 20011},
                                     {200, 130, 8209}, {128, 128, 4104}, {256, 256, 8192}};

/// The long-K shapes a run grades: all, or under --small those of at most 2^18 multiply-adds.
inline std::vector<Shape> graded_long_k_shapes(const tutorial::CheckRun& run) {
  return tutorial::graded_shapes(kLongKShapes, run, 1 << 18);
}

/// The options tutorial::MatmulRun takes: the shape and the seed of A and B.
inline tutorial::Options matmul_options(const Shape& s, uint64_t seed) {
  tutorial::Options options;
  options.m = s.m;
  options.n = s.n;
  options.k = s.k;
  options.seed = seed;
  return options;
}

/**
 * @brief One graded problem: A and B random in [-1, 1) on the device, cuBLAS's C and the bound
 *        of each element (tutorial::MatmulRun: the chapters' check), and the learner's C,
 *        poisoned, with tutorial::kGuard poisoned elements after it.
 */
struct SgemmCase {
  SgemmCase(const Shape& shape, uint64_t seed)
      : s(shape), run(matmul_options(shape, seed)), c(shape.m * shape.n + tutorial::kGuard) {
    c.poison();
    // The reference itself, at the corners and 64 random entries, against a double CPU sum.
    const tutorial::Check vendor =
        tutorial::check_sampled("cublasSgemm", run.reference.vendor_c(), run.problem);
    tutorial::expect(vendor.ok, describe(s) + ": the reference is wrong: " + vendor.what + ": " +
                                    vendor.got + " (" + vendor.rule + ")");
  }

  /// Expects the learner's C to match cuBLAS's element by element within 2 gamma(K) sum|a||b|
  /// (tutorial::MatmulReference; NaN never passes), and the guard after it to be intact.
  void expect_c(const std::string& where) const {
    std::vector<float> got = c.to_host();
    tutorial::expect_guard_intact(got, s.m * s.n, where);
    got.resize(s.m * s.n);
    const std::vector<float>& want = run.reference.vendor_c();
    const tutorial::ElementTally tally =
        tutorial::tally_elements(got, want, [&](size_t i) { return run.reference.tolerance(i); });
    if (tally.bad == 0) return;
    const auto i = static_cast<size_t>(tally.first_bad);
    throw tutorial::ExerciseFailure(
        where + ": " + std::to_string(tally.bad) + " elements of C wrong, the first C[" +
        std::to_string(i / s.n) + "][" + std::to_string(i % s.n) +
        "] = " + tutorial::format_number(got[i]) + ", cublasSgemm gives " +
        tutorial::format_number(want[i]) + " (bound " +
        tutorial::format_number(run.reference.tolerance(i)) + ")" +
        (std::isnan(got[i]) ? ": NaN, never written or computed from a NaN" : ""));
  }

  Shape s;
  tutorial::MatmulRun run;          ///< A and B on the device, cuBLAS, the reference C
  tutorial::DeviceBuffer<float> c;  ///< the learner's C and its guard
};

}  // namespace check09
