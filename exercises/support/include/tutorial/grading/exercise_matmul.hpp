/**
 * @file exercise_matmul.hpp
 * @brief What the checkers of the matmul exercises (07, 09) share: the shape of a problem, the
 *        shapes a run grades, and the poisoned guard after an output.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"

namespace tutorial {

/// C (m x n) = A (m x k) * B (k x n).
struct MatmulShape {
  int64_t m, n, k;
};

/// "m = 67, n = 45, k = 33", for the checkers' messages.
inline std::string describe(const MatmulShape& s) {
  return "m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) +
         ", k = " + std::to_string(s.k);
}

/// The shapes of @p all that a run grades: all of them, or under --small those of at most
/// @p small_limit multiply-adds (compute-sanitizer checks every shared-memory access of every
/// one).
template <size_t kCount>
std::vector<MatmulShape> graded_shapes(const MatmulShape (&all)[kCount], const CheckRun& run,
                                       int64_t small_limit) {
  std::vector<MatmulShape> shapes;
  for (const MatmulShape& s : all) {
    if (!run.small || s.m * s.n * s.k <= small_limit) shapes.push_back(s);
  }
  return shapes;
}

/// Poisoned elements a checker puts after an output, so that a write past its end shows.
constexpr int64_t kGuard = 64;

/// True when @p x still holds the poison of DeviceBuffer::poison() (all bits set).
inline bool is_poison(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits == 0xFFFFFFFFu;
}

/// Expects the kGuard elements after the first @p size of @p out to hold the poison still.
inline void expect_guard_intact(const std::vector<float>& out, int64_t size,
                                const std::string& where) {
  for (int64_t i = size; i < size + kGuard; ++i) {
    expect(is_poison(out[i]), where + ": wrote past the end of the output (element " +
                                  std::to_string(i - size) + " after it)");
  }
}

}  // namespace tutorial
