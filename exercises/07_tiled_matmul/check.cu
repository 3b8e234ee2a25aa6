// Checker of exercises 7.1 to 7.4: random inputs of awkward shapes against CPU references.
// Every output is poisoned (NaN) before the call, with kGuard poisoned elements past its end
// that must still be NaN after it: a write past the edge shows even without compute-sanitizer.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"
#include "tutorial/verify.hpp"

namespace {

using namespace tutorial;

struct Shape {
  int64_t m, n, k;
};

/// 1 x 1 x 1, single rows and columns, primes, sizes just past a tile, long K.
const Shape kShapes[] = {{1, 1, 1},      {1, 4097, 1}, {4097, 1, 2},    {2, 3, 5},
                         {67, 45, 33},   {31, 97, 64}, {128, 128, 128}, {129, 257, 9},
                         {200, 33, 300}, {5, 7, 1000}, {17, 513, 16},   {96, 80, 47}};

/// Poisoned elements after each output.
constexpr int64_t kGuard = 64;

std::string describe(const Shape& s) {
  return "m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) +
         ", k = " + std::to_string(s.k);
}

/// True when @p x still holds the poison pattern (all bits set).
bool is_poison(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits == 0xFFFFFFFFu;
}

/// Expects the kGuard elements after the first @p size of @p out to hold the poison still.
void expect_guard_intact(const std::vector<float>& out, int64_t size, const std::string& where) {
  for (int64_t i = size; i < size + kGuard; ++i) {
    expect(is_poison(out[i]), where + ": wrote past the end of the output (element " +
                                  std::to_string(i - size) + " after it)");
  }
}

/// A, B random in [-1, 1) on the host and the device, and C (with its guard) poisoned.
struct MatmulInputs {
  Shape s;
  std::vector<float> a, b;
  DeviceBuffer<float> d_a, d_b, d_c;

  MatmulInputs(const Shape& shape, uint64_t seed)
      : s(shape),
        a(random_floats(shape.m * shape.k, seed, -1.0f, 1.0f)),
        b(random_floats(shape.k * shape.n, seed + 1, -1.0f, 1.0f)),
        d_a(a),
        d_b(b),
        d_c(shape.m * shape.n + kGuard) {
    d_c.poison();
  }
};

/**
 * @brief Expects @p got (C and its guard) to hold alpha * A * B + beta * c0 (c0 only when
 *        beta != 0).
 *
 * The float dot product is within gamma(k) S of the exact one, S = sum_p |a_ip||b_pj|, in
 * any order; scaling by alpha, adding beta * c0 and rounding add at most two more roundings:
 * |error| <= gamma(k + 2) (|alpha| S + |beta| |c0|).
 */
void expect_gemm(const std::string& where, const MatmulInputs& in, float alpha, float beta,
                 const std::vector<float>& c0, const std::vector<float>& got) {
  const auto [m, n, k] = in.s;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0, scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = in.a[i * k + p], y = in.b[p * n + j];
        dot += x * y;
        scale += std::fabs(x * y);
      }
      double want = alpha * dot;
      double bound = std::fabs(alpha) * scale;
      if (beta != 0) {
        want += double(beta) * c0[i * n + j];
        bound += std::fabs(double(beta) * c0[i * n + j]);
      }
      const double g = got[i * n + j];
      expect(std::fabs(g - want) <= rounding_gamma(k + 2) * bound,
             where + ": C[" + std::to_string(i) + "][" + std::to_string(j) +
                 "] = " + format_number(g) + ", want " + format_number(want) +
                 (std::isnan(g) ? " (NaN: never written, or computed from a NaN)" : ""));
    }
  }
  expect_guard_intact(got, m * n, where);
}

void check_any_shape() {
  uint64_t seed = 71;
  for (const Shape& s : kShapes) {
    MatmulInputs in(s, seed += 2);
    exercise07::matmul_any_shape(in.d_a.data(), in.d_b.data(), in.d_c.data(), s.m, s.n, s.k);
    expect_gemm(describe(s), in, 1, 0, {}, in.d_c.to_host());
  }
}

void check_transpose() {
  const std::pair<int64_t, int64_t> sizes[] = {{1, 1},      {1, 4097},   {4097, 1},
                                               {31, 33},    {32, 32},    {33, 31},
                                               {100, 1000}, {1000, 999}, {257, 1023}};
  uint64_t seed = 72;
  for (const auto& [rows, cols] : sizes) {
    const std::vector<float> h_in = random_floats(rows * cols, ++seed, -1.0f, 1.0f);
    const DeviceBuffer<float> d_in(h_in);
    DeviceBuffer<float> d_out(rows * cols + kGuard);
    d_out.poison();
    exercise07::transpose(d_in.data(), d_out.data(), rows, cols);
    const std::vector<float> out = d_out.to_host();
    const std::string where = std::to_string(rows) + " x " + std::to_string(cols);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const float got = out[c * rows + r], want = h_in[r * cols + c];
        expect(got == want, where + ": out[" + std::to_string(c) + "][" + std::to_string(r) +
                                "] = " + format_number(got) + ", want in[" + std::to_string(r) +
                                "][" + std::to_string(c) + "] = " + format_number(want));
      }
    }
    expect_guard_intact(out, rows * cols, where);
  }
}

void check_gemm() {
  // beta = 0 with C full of NaN: C must not be read. alpha = 0: C = beta * C.
  const std::pair<float, float> scalars[] = {
      {1.5f, 0.0f}, {-0.75f, 0.5f}, {0.0f, 2.0f}, {1.0f, 1.0f}};
  uint64_t seed = 73;
  for (const Shape& s : kShapes) {
    for (const auto& [alpha, beta] : scalars) {
      MatmulInputs in(s, seed += 3);
      std::vector<float> c0;
      if (beta != 0) {
        c0 = random_floats(s.m * s.n, seed + 2, -1.0f, 1.0f);
        in.d_c.copy_from(c0);  // the guard after it stays poisoned
      }
      exercise07::gemm(alpha, in.d_a.data(), in.d_b.data(), beta, in.d_c.data(), s.m, s.n, s.k);
      expect_gemm(describe(s) + ", alpha = " + format_number(alpha) +
                      ", beta = " + format_number(beta) + (beta == 0 ? " (C held NaN)" : ""),
                  in, alpha, beta, c0, in.d_c.to_host());
    }
  }
}

void check_rectangular() {
  uint64_t seed = 74;
  for (const auto& [shape, name] : {std::pair{exercise07::TileShape::kTall, "tall 32 x 8"},
                                    std::pair{exercise07::TileShape::kWide, "wide 8 x 32"}}) {
    for (const Shape& s : kShapes) {
      MatmulInputs in(s, seed += 2);
      exercise07::matmul_rectangular(shape, in.d_a.data(), in.d_b.data(), in.d_c.data(), s.m, s.n,
                                     s.k);
      expect_gemm(std::string(name) + " tiles, " + describe(s), in, 1, 0, {}, in.d_c.to_host());
    }
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    query_device();  // no GPU: exit 77
    grader.exercise("7.1", "tiled matmul for any shape (edge guards)", check_any_shape);
    grader.exercise("7.2", "transpose through shared memory, no bank conflicts", check_transpose);
    grader.exercise("7.3", "C = alpha * A * B + beta * C", check_gemm);
    grader.exercise("7.4", "rectangular tiles", check_rectangular);
  });
}
