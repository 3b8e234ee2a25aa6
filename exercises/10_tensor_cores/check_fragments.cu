// Checker of exercise 10.2: the rows the lanes give lie inside the tiles; then the kernel of
// fragments.cu multiplies random BF16 matrices with them, every element of C compared with a
// double-precision CPU sum. When C is wrong, the lanes' registers are worked out on the host
// (ldmatrix and mma.sync.m16n8k16 as the PTX manual lays them out) to say which one is wrong.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/exercise_gpu.cuh"
#include "tutorial/verify.hpp"

namespace {

using namespace tutorial;
using namespace check10;
using exercise10::TileRow;

/// M x N x K, each a multiple of 16: one tile and one step, one tile and many steps, several.
const Shape kShapes[] = {{16, 16, 16}, {16, 16, 64}, {32, 48, 32}, {64, 32, 160}};

/// A tile of A, or of B by columns: which of the two a message names.
struct Operand {
  const char* name;
  TileRow (*row_of)(int lane);  ///< the learner's a_fragment_row or b_fragment_row
  /// The tile's (row, k) of the first of the two values mma.sync takes in register @p j of
  /// @p lane (the second is at k + 1).
  TileRow (*wanted)(int lane, int j);
  /// "A(3, 8..9)" or "B(8..9, 3)": an element pair of the tile in the operand's own terms.
  std::string (*describe)(TileRow at);
};

/// A: a_2j a_2j+1 at row lane / 4 (+ 8 for odd j), k 2 (lane % 4) (+ 8 for j >= 2).
TileRow a_wanted(int lane, int j) {
  return {lane / 4 + 8 * (j % 2), 2 * (lane % 4) + 8 * (j / 2)};
}
/// B: r[0] r[1] are b0-b3 of column lane / 4, r[2] r[3] those of column 8 + lane / 4; b0 b1 at
/// k 2 (lane % 4), b2 b3 8 further.
TileRow b_wanted(int lane, int j) {
  return {lane / 4 + 8 * (j / 2), 2 * (lane % 4) + 8 * (j % 2)};
}
std::string describe_a(TileRow at) {
  return "A(" + std::to_string(at.row) + ", " + std::to_string(at.k) + ".." +
         std::to_string(at.k + 1) + ")";
}
std::string describe_b(TileRow at) {
  return "B(" + std::to_string(at.k) + ".." + std::to_string(at.k + 1) + ", " +
         std::to_string(at.row) + ")";
}

const Operand kA{"A", exercise10::a_fragment_row, a_wanted, describe_a};
const Operand kB{"B", exercise10::b_fragment_row, b_wanted, describe_b};

/// Expects every lane's row to lie in the 16 x 16 tile and its 16 bytes to start at value 0 or
/// 8 (ldmatrix reads 16 aligned bytes), before any kernel runs with them.
void expect_inside(const Operand& op) {
  for (int lane = 0; lane < 32; ++lane) {
    const TileRow at = op.row_of(lane);
    expect(at.row >= 0 && at.row < exercise10::kMmaTile && (at.k == 0 || at.k == 8),
           "lane " + std::to_string(lane) + " gives row " + std::to_string(at.row) + ", k " +
               std::to_string(at.k) + " of " + op.name +
               "'s tile; a row is 0 to 15, and ldmatrix reads 16 aligned bytes (8 values) of "
               "it: k is 0 or 8");
  }
}

/// The first register, in lane order, that ldmatrix.x4 at the learner's rows fills with other
/// values than mma.sync takes there; empty when there is none. Matrix j's row lane / 4 is the
/// row lane 8j + lane / 4 gives, and the lane receives its values 2 (lane % 4) and the next.
std::string first_wrong_register(const Operand& op) {
  for (int lane = 0; lane < 32; ++lane) {
    for (int j = 0; j < 4; ++j) {
      const int giver = 8 * j + lane / 4;
      const TileRow from = op.row_of(giver);
      const TileRow got{from.row, from.k + 2 * (lane % 4)}, want = op.wanted(lane, j);
      if (got.row == want.row && got.k == want.k) continue;
      return "lane " + std::to_string(lane) + "'s register r[" + std::to_string(j) + "] of " +
             op.name + " holds " + op.describe(got) + " (matrix " + std::to_string(j) + "'s row " +
             std::to_string(lane / 4) + " is the one lane " + std::to_string(giver) +
             " gives), but mma.sync.m16n8k16 takes " + op.describe(want) + " there";
    }
  }
  return "";
}

/// Expects every element of C within gamma(2K) sum|a||b| of the double CPU sum; NaN never
/// passes. A wrong C is explained by the first wrong register, where one is found.
void expect_c(const Bf16Problem& p, const std::string& where) {
  const std::vector<float> got = p.learner_c(where);
  const Shape& s = p.s;
  std::vector<double> want(got.size()), bound(got.size());
  const double gamma = rounding_gamma(2 * s.k);
  for (int64_t r = 0; r < s.m; ++r) {
    for (int64_t col = 0; col < s.n; ++col) {
      double sum = 0, abs_sum = 0;
      for (int64_t q = 0; q < s.k; ++q) {
        const double term = double(p.host.a[r * s.k + q]) * double(p.host.b[q * s.n + col]);
        sum += term;
        abs_sum += std::fabs(term);
      }
      want[r * s.n + col] = sum;
      bound[r * s.n + col] = gamma * abs_sum;
    }
  }
  const ElementTally tally = tally_elements(got, want, [&](size_t i) { return bound[i]; });
  if (tally.bad == 0) return;
  const auto i = static_cast<size_t>(tally.first_bad);
  std::string why = first_wrong_register(kA);
  if (why.empty()) why = first_wrong_register(kB);
  throw ExerciseFailure(
      where + ": " + std::to_string(tally.bad) + " elements of C wrong, the first C[" +
      std::to_string(i / s.n) + "][" + std::to_string(i % s.n) + "] = " + format_number(got[i]) +
      ", the CPU gives " + format_number(want[i]) + " (bound " + format_number(bound[i]) + ")" +
      (std::isnan(got[i]) ? ": NaN, never written" : "") + (why.empty() ? "" : "; " + why));
}

void check_fragments(const CheckRun&) {
  expect_bf16_tensor_cores("10.2");
  expect_inside(kA);
  expect_inside(kB);
  uint64_t seed = 102;
  for (const Shape& s : kShapes) {
    Bf16Problem p(s, seed += 2);
    exercise10::mma_tiles(p.a.data(), p.b_cols.data(), p.c.data(), s.m, s.n, s.k);
    expect_c(p, describe(s));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.2", "ldmatrix rows for mma.sync's fragments",
                          check_fragments);
}
