// Checker of exercise 10.2. First the registers themselves: the kernel of fragments.cu
// multiplies the 16 x 16 identity by a B whose every element is a number that names its place,
// so that each element of C is the element of B that mma.sync received in that place, and a
// wrong register is named with its lane and what it holds. Then random BF16 matrices, every
// element of C compared with a double-precision CPU sum.
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;
using namespace check10;
using exercise10::kMmaTile;

/// M x N x K, each a multiple of 16: one tile and one step, one tile and many steps, several.
const Shape kShapes[] = {{16, 16, 16}, {16, 16, 64}, {32, 48, 32}, {64, 32, 160}};

/// @p values, each exact in BF16, as BF16.
std::vector<__nv_bfloat16> to_bf16(const std::vector<float>& values) {
  std::vector<__nv_bfloat16> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = __float2bfloat16_rn(values[i]);
  return out;
}

/// The probe's B(p, j): 1 + 16 p + j, 1 to 256, each exact in BF16 (8 significant bits) and in
/// a float sum of one product by 1 and fifteen by 0.
int probe_value(int p, int j) {
  return 1 + kMmaTile * p + j;
}

/// "B(8, 0)", or, where C holds no element of B's tile, the value and where it may come from.
std::string name_probe_value(float value) {
  const double code = double(value) - 1;
  if (code >= 0 && code < kMmaTile * kMmaTile && code == std::floor(code)) {
    const int c = int(code);
    return "B(" + std::to_string(c / kMmaTile) + ", " + std::to_string(c % kMmaTile) + ")";
  }
  if (std::isnan(value)) {
    return "NaN (no element of B's tile: a NaN read from the padding after a row spreads over "
           "its column of C, since 0 x NaN is NaN)";
  }
  return format_number(value) + " (no element of B's tile: the padding after a row?)";
}

/**
 * @brief Expects every register of every lane to hold the two elements of B that
 *        mma.sync.m16n8k16 takes there, and names the first one that does not.
 *
 * C = I B, so C(p, j) is what the mma took as B(p, j): the value in that place of the
 * fragments. The place of B(p, j): lane 4 (j % 8) + (p % 8) / 2, register 2 (j / 8) + p / 8
 * (r[0], r[1] columns 0-7 at k 0-7 and 8-15; r[2], r[3] columns 8-15), the lower 16 bits for
 * even p.
 */
void expect_registers() {
  const Shape s{kMmaTile, kMmaTile, kMmaTile};
  Bf16Problem p(s, 102);
  std::vector<float> identity(kMmaTile * kMmaTile, 0.0f), b(kMmaTile * kMmaTile);
  for (int i = 0; i < kMmaTile; ++i) identity[i * kMmaTile + i] = 1.0f;
  for (int q = 0; q < kMmaTile; ++q) {
    for (int j = 0; j < kMmaTile; ++j) b[q * kMmaTile + j] = float(probe_value(q, j));
  }
  p.a.copy_from(to_bf16(identity));
  const DeviceBuffer<__nv_bfloat16> d_b(to_bf16(b));
  exercise10::mma_tiles(p.a.data(), d_b.data(), p.c.data(), s.m, s.n, s.k);
  const std::vector<float> c = p.learner_c("the identity times B (" + describe(s) + ")");
  for (int lane = 0; lane < 32; ++lane) {
    for (int j = 0; j < 4; ++j) {
      const int col = lane / 4 + 8 * (j / 2), k = 2 * (lane % 4) + 8 * (j % 2);
      const float low = c[k * kMmaTile + col], high = c[(k + 1) * kMmaTile + col];
      if (low == probe_value(k, col) && high == probe_value(k + 1, col)) continue;
      throw ExerciseFailure(
          "lane " + std::to_string(lane) + "'s register r[" + std::to_string(j) + "] of B holds " +
          name_probe_value(low) + " and " + name_probe_value(high) +
          " (the lower and upper 16 bits), but mma.sync.m16n8k16 takes B(" + std::to_string(k) +
          ", " + std::to_string(col) + ") and B(" + std::to_string(k + 1) + ", " +
          std::to_string(col) + ") there (seen by multiplying the identity by a B whose element " +
          "(p, j) is 1 + 16 p + j)");
    }
  }
}

/// Expects every element of C within gamma(2K) sum|a||b| of the double CPU sum; NaN never
/// passes.
void expect_product(const Shape& s, uint64_t seed) {
  Bf16Problem p(s, seed);  // its host B is row-major, already rounded to BF16
  const DeviceBuffer<__nv_bfloat16> d_b(to_bf16(p.host.b));
  exercise10::mma_tiles(p.a.data(), d_b.data(), p.c.data(), s.m, s.n, s.k);
  const std::string where = describe(s);
  const std::vector<float> got = p.learner_c(where);
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
  throw ExerciseFailure(
      where + ": " + std::to_string(tally.bad) + " elements of C wrong, the first C[" +
      std::to_string(i / s.n) + "][" + std::to_string(i % s.n) + "] = " + format_number(got[i]) +
      ", the CPU gives " + format_number(want[i]) + " (bound " + format_number(bound[i]) + ")" +
      (std::isnan(got[i]) ? ": NaN, never written" : ""));
}

void check_fragments(const CheckRun&) {
  expect_bf16_tensor_cores("10.2");
  expect_registers();
  uint64_t seed = 102;
  for (const Shape& s : kShapes) expect_product(s, seed += 2);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.2", "B's fragments from a row-major tile",
                          check_fragments);
}
