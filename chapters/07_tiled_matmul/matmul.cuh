/**
 * @file matmul.cuh
 * @brief What the matmul chapters (07, 09) share: their options (matmul_spec), the tile a
 *        block computes (block swizzling), the random problem, the checks of C against cuBLAS
 *        and against a double-precision CPU reference at sampled entries, and their steps
 *        (MatmulRun).
 *
 * Storage: every matrix is row-major; element (r, c) of an R x C matrix is at r * C + c.
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cublas_sgemm.cuh"
#include "fp32_peak.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/gpu_report.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/options.hpp"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"
#include "tutorial/harness/verify.hpp"

namespace tutorial {

/// ceil(a / b) for positive sizes, on the host and in kernels.
__host__ __device__ constexpr int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// The signature every kernel of the matmul chapters shares, so that one loop can launch them
/// all: C = A * B with A m x k, B k x n. The kernel is a lesson's block body in the harness's
/// kernel, clocked_kernel<body, threads> (block_cycles.cuh), which takes the per-block cycle
/// slots first.
using MatmulKernel = void (*)(BlockCycleSlots, const float*, const float*, float*, int64_t, int64_t,
                              int64_t);

/// Elements of a rows x cols matrix. @throws CudaError (exit 3) when the count cannot even be
/// represented: such a matrix cannot fit in any device memory.
inline int64_t matrix_elements(const char* name, int64_t rows, int64_t cols) {
  if (rows > std::numeric_limits<int64_t>::max() / cols) {
    throw CudaError(std::string(name) + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                    " floats) cannot fit in device memory");
  }
  return rows * cols;
}

/// Blocks of a 1-D grid over @p tiles tiles. @throws CudaError past CUDA's 2^31 - 1 blocks.
inline int64_t grid_blocks(int64_t tiles) {
  if (tiles > std::numeric_limits<int32_t>::max()) {
    throw CudaError("a grid of " + std::to_string(tiles) + " blocks exceeds 2^31 - 1");
  }
  return tiles;
}

/// One entry of C = A * B in double precision; A is m x k, B is k x n, both row-major.
inline double reference_matmul_entry(const std::vector<float>& a, const std::vector<float>& b,
                                     int64_t n, int64_t k, int64_t row, int64_t col) {
  double sum = 0;
  for (int64_t i = 0; i < k; ++i) {
    sum += static_cast<double>(a[row * k + i]) * static_cast<double>(b[i * n + col]);
  }
  return sum;
}

/// sum_p |a(row, p)| |b(p, col)| in double: the scale of the bound for one entry of C.
inline double reference_matmul_abs_entry(const std::vector<float>& a, const std::vector<float>& b,
                                         int64_t n, int64_t k, int64_t row, int64_t col) {
  double sum = 0;
  for (int64_t p = 0; p < k; ++p) {
    sum += std::fabs(double(a[row * k + p])) * std::fabs(double(b[p * n + col]));
  }
  return sum;
}

/// The options of a matrix chapter: --m --n --k, each @p size by default, and @p reps runs.
inline OptionSpec matmul_spec(std::string program, int64_t size, int reps) {
  OptionSpec spec;
  spec.program = std::move(program);
  spec.matmul = true;
  spec.default_m = spec.default_n = spec.default_k = size;
  spec.default_reps = reps;
  return spec;
}

/// The inputs, their sizes, and the entries of C checked on the CPU.
struct MatmulProblem {
  int64_t m, n, k;
  std::vector<float> a, b;
  std::vector<std::pair<int64_t, int64_t>> sampled;  ///< (row, col): corners and random ones
};

/// Number of random entries of C checked against the CPU reference (besides the corners).
constexpr int kSampledEntries = 64;

/// A and B uniform in [-1, 1) from opt.seed and the next seed, and the entries to sample.
inline MatmulProblem make_matmul_problem(const Options& opt) {
  MatmulProblem p{opt.m,
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

/// "K", or "2K" for @p error_per_add = 2: the additions gamma() counts, as the checks'
/// rules name them.
inline std::string additions_text(int error_per_add) {
  return error_per_add == 1 ? "K" : std::to_string(error_per_add) + "K";
}

/**
 * @brief Checks the sampled entries of @p c against the double-precision CPU reference.
 *
 * Any float dot product of length K, in any order, with or without FMA, is within
 * gamma(K) sum_p |a_p||b_p| of the exact one (Higham, section 3.1): the rule used here.
 * @p error_per_add = 2 allows each addition twice float's unit roundoff, gamma(2K) (chapter
 * 10: tensor cores that do not always round to nearest).
 */
inline Check check_sampled(const std::string& name, const std::vector<float>& c,
                           const MatmulProblem& p, int error_per_add = 1) {
  std::vector<float> got;
  std::vector<double> want, tolerance;
  for (const auto& [row, col] : p.sampled) {
    got.push_back(c[row * p.n + col]);
    want.push_back(reference_matmul_entry(p.a, p.b, p.n, p.k, row, col));
    tolerance.push_back(rounding_gamma(error_per_add * p.k) *
                        reference_matmul_abs_entry(p.a, p.b, p.n, p.k, row, col));
  }
  const std::string k = additions_text(error_per_add);
  return check_elements(
      "C (" + name + "), " + std::to_string(p.sampled.size()) + " sampled entries vs CPU double",
      got, want, [&](size_t i) { return tolerance[i]; }, "|error| <= gamma(" + k + ") sum|a||b|");
}

/// |x| of every element: the vendor's product of |A| and |B| gives the scale of the error bound.
inline std::vector<float> absolute(std::vector<float> values) {
  for (float& v : values) v = std::fabs(v);
  return values;
}

/**
 * @brief The vendor's C, the C every kernel is compared with, and the bound each element of a
 *        kernel's C must be within. Chapters 07 and 09 (cublasSgemm) and 10 (cublasGemmEx).
 *
 * The vendor on |A| and |B| gives S = sum_p |a_ip||b_pj| for every entry (to within a factor
 * 1 - gamma(K): all its terms are positive); the vendor on A and B gives the C every kernel is
 * compared with, itself checked against the CPU at the sampled entries (check_sampled). A
 * kernel and the vendor are each within gamma(K) S of the exact C, so within 2 gamma(K) S of
 * each other; S <= S_vendor / (1 - gamma(K)). With @p error_per_add = 2, each addition may err
 * by twice float's unit roundoff: gamma(2K) (chapter 10's tensor cores).
 */
class MatmulReference {
 public:
  /// @param product product(a, b) multiplies the M x K values @p a by the K x N values @p b
  ///        with the vendor library and returns the M x N C, row-major.
  template <typename Product>
  MatmulReference(const MatmulProblem& p, Product&& product, std::string vendor,
                  int error_per_add = 1)
      : abs_product_(product(absolute(p.a), absolute(p.b))),
        vendor_c_(product(p.a, p.b)),
        vendor_(std::move(vendor)),
        rule_("|error| <= 2 gamma(" + additions_text(error_per_add) + ") sum|a||b|") {
    const double gamma = rounding_gamma(error_per_add * p.k);
    scale_ = gamma < 1 ? 2 * gamma / (1 - gamma) : std::numeric_limits<double>::infinity();
  }
  const std::vector<float>& vendor_c() const { return vendor_c_; }
  /// How far element @p i of a kernel's C may be from the vendor's.
  double tolerance(size_t i) const { return scale_ * double(abs_product_[i]); }
  /// Element by element against the vendor, with the rule in the name.
  Check check(const std::string& name, const std::vector<float>& c) const {
    return check_elements(
        "C (" + name + ") vs " + vendor_, c, vendor_c_, [&](size_t i) { return tolerance(i); },
        rule_);
  }

 private:
  std::vector<float> abs_product_, vendor_c_;
  std::string vendor_, rule_;
  double scale_ = 0;
};

/**
 * @brief What a matmul chapter's run needs before its kernels: A, B and C on the device, the
 *        problem, cuBLAS, and cuBLAS's C (MatmulReference; C is left poisoned); and what its
 *        step table needs: a step from a kernel (step()), cuBLAS as the vendor step
 *        (cublas_step()) and the check of one run (verify(), run_steps' verify).
 *
 * The device buffers come first: a size that cannot fit fails there (exit 3), before any
 * input is made; the cuBLAS handle is created before any timing.
 */
struct MatmulRun {
  explicit MatmulRun(const Options& opt)
      : a(matrix_elements("A", opt.m, opt.k)),
        b(matrix_elements("B", opt.k, opt.n)),
        c(matrix_elements("C", opt.m, opt.n)),
        problem(make_matmul_problem(opt)),
        sgemm(opt.m, opt.n, opt.k),
        reference(
            problem,
            [this](const std::vector<float>& a_values, const std::vector<float>& b_values) {
              return cublas_product(a_values, b_values);
            },
            "cublasSgemm") {}

  /// The vendor row's id.
  static constexpr const char* kCublasId = "cublasSgemm (FP32)";

  /// 2MNK: the FLOPs of one product.
  double flops() const { return 2.0 * double(problem.m) * double(problem.n) * double(problem.k); }

  /// The step @p id: @p kernel on a 1-D grid of @p blocks x @p threads, computing C = A * B
  /// (M x N elements). The step refers to this run, which must outlive it.
  Step step(std::string id, std::string teaches, MatmulKernel kernel, int64_t blocks, int threads) {
    return {std::move(id),
            std::move(teaches),
            reinterpret_cast<const void*>(kernel),
            blocks,
            double(problem.m * problem.n),
            [this, kernel, blocks, threads](BlockCycleSlots slots) {
              kernel<<<unsigned(blocks), threads>>>(slots, a.data(), b.data(), c.data(), problem.m,
                                                    problem.n, problem.k);
            }};
  }

  /// cublasSgemm on the same matrices: the table's yardstick.
  VendorStep cublas_step() {
    return {kCublasId, [this] { sgemm(a.data(), b.data(), c.data()); }};
  }

  /**
   * @brief run_steps' verify: C is poisoned, @p run enqueues one run, and a step's C is checked
   *        element by element against cuBLAS's (MatmulReference::check), cuBLAS's own C against
   *        the CPU at the sampled entries (check_sampled). An element the run does not write is
   *        still NaN, and a kernel that read C would spread the NaN: NaN never passes.
   */
  Check verify(const std::string& id, const std::function<void()>& run) {
    c.poison();
    run();
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> got = c.to_host();
    return id == kCublasId ? check_sampled("cublasSgemm", got, problem) : reference.check(id, got);
  }

  /**
   * @brief The headline's second check: runs @p headline once more on a poisoned C and checks
   *        it at the sampled entries against the CPU (check_sampled).
   * @param headline find_step(steps, the headline's id); nullptr (no such step) is a bug.
   * @throws std::logic_error when @p headline is nullptr.
   */
  Check check_headline_sampled(const Step* headline) {
    if (headline == nullptr) throw std::logic_error("the headline is none of the steps");
    c.poison();
    headline->launch(BlockCycleSlots{});
    CUDA_CHECK(cudaGetLastError());
    return check_sampled(headline->id, c.to_host(), problem);
  }

  DeviceBuffer<float> a, b, c;
  MatmulProblem problem;
  CublasRowMajorSgemm sgemm;
  MatmulReference reference;  // last: made from the members above; leaves C poisoned

 private:
  /// cuBLAS's C for A and B holding @p a_values and @p b_values (left on the device); C is
  /// poisoned before the call and after the copy back.
  std::vector<float> cublas_product(const std::vector<float>& a_values,
                                    const std::vector<float>& b_values) {
    a.copy_from(a_values);
    b.copy_from(b_values);
    c.poison();
    sgemm(a.data(), b.data(), c.data());
    std::vector<float> product = c.to_host();
    c.poison();
    return product;
  }
};

/// The report of a matmul chapter: the problem described, rates in GFLOP/s against the FP32
/// peak, and the roofline's intensity: 2MNK FLOPs over A and B read once and C written once.
inline Report start_matmul_report(const ChapterInfo& chapter, const DeviceFacts& device,
                                  const Options& opt) {
  const int64_t m = opt.m, n = opt.n, k = opt.k;
  Report report = start_report(chapter, device, opt);
  report.problem =
      "C (" + std::to_string(m) + " x " + std::to_string(n) + ") = A (" + std::to_string(m) +
      " x " + std::to_string(k) + ") * B (" + std::to_string(k) + " x " + std::to_string(n) +
      "), float, row-major, entries uniform in [-1, 1), seed " + std::to_string(opt.seed);
  report.rate_unit = "GFLOP/s";
  report.peak_rate = fp32_peak_gflops(device);
  report.ops_per_byte = 2.0 * double(m) * double(n) * double(k) /
                        (sizeof(float) * (double(m) * k + double(k) * n + double(m) * n));
  report.op_name = "FLOP";
  report.notes.push_back(describe_fp32_peak(device));
  report.notes.push_back(
      "cublasSgemm with CUBLAS_DEFAULT_MATH: FP32 FMAs, TF32 tensor cores off; row-major C "
      "computed as the column-major C^T = B^T * A^T (operands swapped)");
  return report;
}

}  // namespace tutorial
