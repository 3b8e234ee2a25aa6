// Checker of exercise 10.3: awkward shapes and 4096^3 against cublasGemmEx (BF16 inputs, FP32
// accumulation), element by element; then the speed at 4096^3 against cublasGemmEx in the same
// run, with a target above chapter 10's mma.sync step (0.42x cuBLAS on the chapter's H100,
// 2026-11-27).
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "07_tiled_matmul/cublas_sgemm.cuh"
#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;
using namespace check10;

/// The share of cublasGemmEx's speed the exercise asks for, at 4096^3: above chapter 10's step 2
/// (0.42x on the chapter's page, 2026-11-27; the step's shape in the solution's kernel measured
/// 0.465x, the solution 0.563x: H100, 2026-11-26), which a copy of that kernel does not reach.
constexpr double kShare = 0.52;

/// 1 x 1 x 1, a single row and column, primes, K not a multiple of 8 (no 16-byte row starts),
/// one step along K and many, whole tiles (no padding), sizes one past a tile.
const Shape kShapes[] = {{1, 1, 1},      {2, 3, 5},        {67, 45, 33},     {128, 128, 128},
                         {1, 4097, 3},   {4097, 1, 2},     {129, 257, 9},    {200, 33, 300},
                         {5, 7, 1000},   {256, 384, 128},  {384, 128, 1024}, {257, 129, 129},
                         {640, 512, 24}, {1000, 1000, 100}};

/// C = A * B by cublasGemmEx on exercise.cuh's layout: BF16 inputs, FP32 accumulation
/// (CUBLAS_COMPUTE_32F), float C; chapter 10's yardstick.
class CublasBf16Gemm {
 public:
  explicit CublasBf16Gemm(const Shape& s) : s_(s) {}
  void operator()(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c) const {
    const float alpha = 1, beta = 0;
    // Column-major cuBLAS computes C^T = B^T A^T: b_cols read column-major is B (k x n, leading
    // dimension k), taken transposed; the row-major A read column-major is A^T (k x m).
    check_cublas(cublasGemmEx_64(handle_.get(), CUBLAS_OP_T, CUBLAS_OP_N, s_.n, s_.m, s_.k, &alpha,
                                 d_b_cols, CUDA_R_16BF, s_.k, d_a, CUDA_R_16BF, s_.k, &beta, d_c,
                                 CUDA_R_32F, s_.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx_64", __FILE__, __LINE__);
  }

 private:
  CublasHandle handle_;
  Shape s_;
};

/// |x| of every value: the problem whose product is S = sum_p |a_ip||b_pj|.
Bf16Problem absolute(const Shape& s, uint64_t seed) {
  Bf16Problem p(s, seed);
  for (float& x : p.host.a) x = std::fabs(x);
  for (float& x : p.host.b) x = std::fabs(x);
  std::vector<__nv_bfloat16> a(p.host.a.size()), b_cols(p.host.b.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = __float2bfloat16_rn(p.host.a[i]);
  for (int64_t q = 0; q < s.k; ++q) {
    for (int64_t col = 0; col < s.n; ++col) {
      b_cols[col * s.k + q] = __float2bfloat16_rn(p.host.b[q * s.n + col]);
    }
  }
  p.a.copy_from(a);
  p.b_cols.copy_from(b_cols);
  return p;
}

/**
 * @brief One graded problem (Bf16Problem) with cuBLAS's C as the reference, chapter 10's rule:
 *        the learner's C within 2 gamma(2K) S of cuBLAS's, S from cuBLAS on |A| and |B| (over
 *        1 - gamma(2K), since cuBLAS's S may be that much short); cuBLAS itself checked against
 *        a double CPU sum at 68 sampled entries within gamma(2K) S.
 */
struct GemmCase {
  GemmCase(const Shape& s, uint64_t seed) : p(s, seed), gemm(s), vendor_c(s.m * s.n) {
    {
      const Bf16Problem abs_p = absolute(s, seed);
      DeviceBuffer<float> abs_c(s.m * s.n);
      gemm(abs_p.a.data(), abs_p.b_cols.data(), abs_c.data());
      abs_product = abs_c.to_host();
    }
    vendor_c.poison();
    gemm(p.a.data(), p.b_cols.data(), vendor_c.data());
    want = vendor_c.to_host();
    const double gamma = rounding_gamma(2 * s.k);
    scale = gamma < 1 ? 2 * gamma / (1 - gamma) : std::numeric_limits<double>::infinity();
    const Check vendor = check_sampled("cublasGemmEx (BF16)", want, p.host, 2);
    expect(vendor.ok, describe(s) + ": the reference is wrong: " + vendor.what + ": " + vendor.got +
                          " (" + vendor.rule + ")");
  }

  /// Expects every element of the learner's C within its bound of cuBLAS's (NaN never passes)
  /// and the guard after it intact.
  void expect_c(const std::string& where) const {
    const std::vector<float> got = p.learner_c(where);
    const auto bound = [&](size_t i) { return scale * double(abs_product[i]); };
    const ElementTally tally = tally_elements(got, want, bound);
    if (tally.bad == 0) return;
    const auto i = static_cast<size_t>(tally.first_bad);
    throw ExerciseFailure(
        where + ": " + std::to_string(tally.bad) + " elements of C wrong, the first C[" +
        std::to_string(i / p.s.n) + "][" + std::to_string(i % p.s.n) +
        "] = " + format_number(got[i]) + ", cublasGemmEx gives " + format_number(want[i]) +
        " (bound " + format_number(bound(i)) + ")" +
        (std::isnan(got[i]) ? ": NaN, never written or computed from a NaN" : ""));
  }

  void run_yours() {
    exercise10::fast_bf16_gemm(p.a.data(), p.b_cols.data(), p.c.data(), p.s.m, p.s.n, p.s.k);
  }

  Bf16Problem p;
  CublasBf16Gemm gemm;
  DeviceBuffer<float> vendor_c;
  std::vector<float> want, abs_product;
  double scale = 0;
};

void check_fast_bf16_gemm(const CheckRun& run) {
  expect_bf16_tensor_cores("10.3");
  uint64_t seed = 104;
  for (const Shape& s : graded_shapes(kShapes, run, 1 << 18)) {
    GemmCase gc(s, seed += 3);
    gc.run_yours();
    gc.expect_c(describe(s));
  }
  if (run.small) return;

  const Shape s{4096, 4096, 4096};
  GemmCase gc(s, 1040);
  gc.run_yours();
  gc.expect_c(describe(s));
  // Each timed call multiplies an A whose rows are scaled by powers of two (new values at the
  // same pointer, seed 1041 + call; exact in BF16), and all of its C is checked against
  // cuBLAS's, scaled alike.
  DeviceBuffer<__nv_bfloat16> d_a_base(s.m * s.k);
  CUDA_CHECK(cudaMemcpy(d_a_base.data(), gc.p.a.data(), gc.p.a.bytes(), cudaMemcpyDeviceToDevice));
  const EveryCall every{[&](int call) {
                          scale_rows(d_a_base.data(), gc.p.a.data(), s.m, s.k, 1041 + call);
                          gc.p.c.poison();
                        },
                        [&](int call) {
                          const std::string where = describe(s) + ", " + timed_call(call);
                          expect_scaled_rows(
                              gc.p.learner_c(where), gc.want,
                              [&](size_t i) { return gc.scale * double(gc.abs_product[i]); }, s.m,
                              s.n, 1041 + call, where, "cublasGemmEx");
                        }};
  std::cout << "      speed at 4096^3 (137.4 GFLOP; GB/s counts A, B and C once):" << std::endl;
  expect_speed(2.0 * (s.m * s.k + s.k * s.n) + 4.0 * s.m * s.n,
               Timed{"yours", [&] { gc.run_yours(); }},
               Timed{"cublasGemmEx (BF16, FP32 accumulate)",
                     [&] { gc.gemm(gc.p.a.data(), gc.p.b_cols.data(), gc.vendor_c.data()); }},
               kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.3",
                          "mma.sync past the chapter's step 2, 0.52x cuBLAS (performance)",
                          check_fast_bf16_gemm);
}
