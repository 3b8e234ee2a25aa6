/**
 * @file chapters/10_tensor_cores/bf16_matmul.cuh
 * @brief The problem of chapter 10 and its yardstick: C (float) = A (BF16) * B (BF16) with
 *        FP32 accumulation, cublasGemmEx doing the same, the checks of every step's C, and
 *        the chapter's run of its step table.
 *
 * Storage: A is row-major (m x k); B is column-major (k x n), stored as n rows of k values,
 * so that both operands are contiguous along K, the way the tensor cores take them; C is
 * row-major. Every dimension is padded with zeros to a multiple of kPad: the kernels handle
 * whole tiles only, cuBLAS gets the same padded matrices, and the checks look at the m x n
 * that was asked for.
 */
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "07_tiled_matmul/cublas_sgemm.cuh"
#include "07_tiled_matmul/matmul.cuh"
#include "sm_clock.hpp"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/report.hpp"
#include "tutorial/harness/steps.cuh"
#include "tutorial/harness/verify.hpp"

namespace chapter10 {

using tutorial::BlockCycleSlots;
using tutorial::ceil_div;
using tutorial::Check;
using tutorial::DeviceBuffer;
using tutorial::MatmulProblem;
using tutorial::Report;
using tutorial::Row;
using tutorial::Step;
using tutorial::Timer;
using tutorial::VendorStep;

/// Every dimension is padded to a multiple of this: the largest tile of the chapter.
constexpr int64_t kPad = 128;

/// The name of cuBLAS's row: the yardstick of every step.
constexpr const char* kCublasRow = "cublasGemmEx (BF16, FP32 accumulate)";

/// The signature steps 1 and 2 share: C (m x n) = A (m x k) * B (k x n), with B given by
/// columns (b_cols[col * k + p] = B(p, col)); m, n, k multiples of kPad. The kernel is the
/// step's block body in the harness's kernel (clocked_kernel, tutorial/harness/block_cycles.cuh),
/// which takes the per-block cycle slots first.
using Bf16Kernel = void (*)(BlockCycleSlots, const __nv_bfloat16*, const __nv_bfloat16*, float*,
                            int64_t, int64_t, int64_t);

/// The float nearest to... the BF16 nearest to @p x: 8 bits of significand, float's exponent.
inline float round_to_bf16(float x) {
  return __bfloat162float(__float2bfloat16_rn(x));
}

/// @p rows x @p cols row-major values into a zero-padded @p rows_pad x @p cols_pad row-major
/// BF16 matrix; with @p transpose, the padded cols_pad x rows_pad transpose instead.
inline std::vector<__nv_bfloat16> padded_bf16(const std::vector<float>& values, int64_t rows,
                                              int64_t cols, int64_t rows_pad, int64_t cols_pad,
                                              bool transpose) {
  std::vector<__nv_bfloat16> out(size_t(rows_pad * cols_pad), __float2bfloat16_rn(0.0f));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t at = transpose ? c * rows_pad + r : r * cols_pad + c;
      out[size_t(at)] = __float2bfloat16_rn(values[size_t(r * cols + c)]);
    }
  }
  return out;
}

//! [gemm_ex]
/// C = A * B by cublasGemmEx: BF16 inputs, FP32 accumulation (CUBLAS_COMPUTE_32F), float C,
/// on the chapter's padded matrices.
class CublasBf16Gemm {
 public:
  CublasBf16Gemm(int64_t m, int64_t n, int64_t k) : m_(m), n_(n), k_(k) {}

  void operator()(const __nv_bfloat16* d_a, const __nv_bfloat16* d_b_cols, float* d_c) const {
    const float alpha = 1, beta = 0;
    // cuBLAS is column-major. The row-major m x n C is the column-major n x m C^T = B^T A^T:
    // b_cols read column-major is B (k x n, leading dimension k), taken transposed (OP_T);
    // the row-major A read column-major is A^T (k x m, leading dimension k), taken as it is.
    tutorial::check_cublas(
        cublasGemmEx_64(handle_.get(), CUBLAS_OP_T, CUBLAS_OP_N, n_, m_, k_, &alpha, d_b_cols,
                        CUDA_R_16BF, k_, d_a, CUDA_R_16BF, k_, &beta, d_c, CUDA_R_32F, n_,
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx_64", __FILE__, __LINE__);
  }

 private:
  tutorial::CublasHandle handle_;
  int64_t m_, n_, k_;
};
//! [gemm_ex]

/// NVML's reading of the SM clock during one row's timed runs (Bf16MatmulRun::clock_notes).
struct RowClock {
  std::string name;            ///< the row's name
  unsigned int nvml_mhz;       ///< the median of NVML's readings
  unsigned long long reasons;  ///< NVML's clock-event reasons, OR-ed over the readings
};

/// The PCI bus id of the current device ("0000:19:00.0"), which NVML finds it by.
inline std::string current_pci_bus_id() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  char id[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(id, int(sizeof id), device));
  return id;
}

/**
 * @brief A and B (rounded to BF16), C, cuBLAS and its C; makes the chapter's steps on them,
 *        checks each step's C and times every step next to cuBLAS (run_steps()).
 *
 * The tolerance: a product of two BF16 values (8 significant bits each) is exact in float,
 * so only the additions round. The tensor cores add with at least float's precision but not
 * always round to nearest (Fasi, Higham, Mikaitis and Pranesh, "Numerical behavior of NVIDIA
 * tensor cores", 2021, found truncation). The allowance, a model rather than a proof: each
 * addition may err by twice float's unit roundoff, so an entry is within gamma(2K) S of the
 * exact one, S = sum_p |a_ip||b_pj|; a kernel and cuBLAS within 2 gamma(2K) S of each other. S
 * comes from cuBLAS on |A| and |B| (within a factor 1 - gamma(2K) of the exact S: all its terms are
 * positive).
 */
class Bf16MatmulRun {
 public:
  explicit Bf16MatmulRun(const tutorial::Options& opt)
      : m_pad_(ceil_div(opt.m, kPad) * kPad),
        n_pad_(ceil_div(opt.n, kPad) * kPad),
        k_pad_(ceil_div(opt.k, kPad) * kPad),
        a_(tutorial::matrix_elements("A", m_pad_, k_pad_)),
        b_cols_(tutorial::matrix_elements("B", k_pad_, n_pad_)),
        c_(tutorial::matrix_elements("C", m_pad_, n_pad_)),
        problem_(bf16_problem(opt)),
        gemm_(m_pad_, n_pad_, k_pad_),
        reference_(
            problem_,
            [this](const std::vector<float>& a, const std::vector<float>& b) {
              return cublas_product(a, b);
            },
            "cublasGemmEx", 2) {}

  int64_t m_pad() const { return m_pad_; }
  int64_t n_pad() const { return n_pad_; }
  int64_t k_pad() const { return k_pad_; }
  const MatmulProblem& problem() const { return problem_; }
  /// 2 m n k for the m, n, k asked for (the padding is work done, not work asked).
  double flops() const {
    return 2.0 * double(problem_.m) * double(problem_.n) * double(problem_.k);
  }

  /// The device matrices the kernels read and write (A, B by columns, C; padded).
  const __nv_bfloat16* a() const { return a_.data(); }
  const __nv_bfloat16* b_cols() const { return b_cols_.data(); }
  float* c() const { return c_.data(); }

  /// A step of the chapter's table (tutorial/harness/steps.cuh): @p launch enqueues @p kernel,
  /// of @p blocks blocks, on a(), b_cols() and c(), given the BlockCycleSlots to record into.
  /// The run must outlive the step.
  Step step(std::string id, std::string teaches, const void* kernel, int64_t blocks,
            std::function<void(BlockCycleSlots)> launch) const {
    return {std::move(id), std::move(teaches),      kernel,
            blocks,        double(m_pad_ * n_pad_), std::move(launch)};
  }

  /// step() for a kernel of the chapter's Bf16Kernel signature, on @p blocks blocks of
  /// @p threads threads.
  Step step(std::string id, std::string teaches, Bf16Kernel kernel, int64_t blocks,
            int threads) const {
    return step(std::move(id), std::move(teaches), reinterpret_cast<const void*>(kernel), blocks,
                [this, kernel, blocks, threads](BlockCycleSlots slots) {
                  kernel<<<unsigned(blocks), threads>>>(slots, a_.data(), b_cols_.data(), c_.data(),
                                                        m_pad_, n_pad_, k_pad_);
                });
  }

  /// cublasGemmEx on the same matrices: the vendor row. The run must outlive it.
  VendorStep cublas_step() const {
    return {kCublasRow, [this] { gemm_(a_.data(), b_cols_.data(), c_.data()); }};
  }

  /**
   * @brief The chapter's verify(id, run), as tutorial::run_steps takes it: poisons C, lets
   *        @p run enqueue the work of row @p id once, and checks the m x n of C it leaves. A step's
   * C: every element against cuBLAS's, within 2 gamma(2K) S, and the sampled entries against the
   * CPU. cuBLAS's C (kCublasRow): the sampled entries against the CPU.
   */
  std::vector<Check> verify(const std::string& id, const std::function<void()>& run) {
    c_.poison();
    run();
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> got = logical_c();
    if (id == kCublasRow) return {check_sampled("cublasGemmEx (BF16)", got)};
    return {reference_.check(id, got), check_sampled(id, got)};
  }

  /**
   * @brief tutorial::run_steps for this chapter, in its two halves: checks cuBLAS and then each
   *        of @p steps (verify_steps with verify()), then times every step and cuBLAS in the same
   *        run (time_steps), with NVML reading the SM clock during each row's timed runs
   *        (clock_notes()). cuBLAS's check is reported first: its C (the constructor's) is
   *        the one every step's C is compared with. cuBLAS is timed after the steps, or before
   *        them where @p cublas_first: at large sizes a long run holds the GPU at its power
   *        limit, where the SMs' clock falls and what is timed later runs slower (at 8192^3
   *        the page measures both).
   *        @pre every step can run here.
   */
  void run_steps(Report& report, Timer& timer, int reps, const std::vector<Step>& steps,
                 bool cublas_first = false) {
    const auto check = [this](const std::string& id, const std::function<void()>& run) {
      return verify(id, run);
    };
    tutorial::verify_steps(report, {}, {cublas_step()}, check);
    tutorial::verify_steps(report, steps, {}, check);
    const auto around = [this](auto&& measure) { return with_clock(measure); };
    const auto time_cublas = [&] {
      tutorial::time_steps(report, timer, reps, flops(), {}, {cublas_step()}, around);
    };
    if (cublas_first) time_cublas();
    tutorial::time_steps(report, timer, reps, flops(), steps, {}, around);
    if (!cublas_first) time_cublas();
  }

  /// The SM clock of each row, two ways: the blocks' own cycles over the global timer in the
  /// cycle-recorded launch that follows the timed runs (Row::clock_mhz), and the median of
  /// NVML's readings every millisecond during the timed runs (warm-up and flushes included),
  /// with the reasons NVML gave for holding the clock down. The tensor cores' peak falls with
  /// the clock.
  std::vector<std::string> clock_notes(const Report& report) const {
    std::vector<std::string> notes;
    for (const RowClock& clock : clocks_) {
      double own = 0;
      for (const Row& row : report.rows) {
        if (row.name == clock.name) own = row.clock_mhz;
      }
      char line[256];
      std::snprintf(
          line, sizeof line,
          "SM clock of %s: %s by its blocks' cycles / global timer; NVML during the "
          "timed runs: %s",
          clock.name.c_str(), own > 0 ? (std::to_string(int(own + 0.5)) + " MHz").c_str() : "-",
          clock_.available()
              ? (std::to_string(clock.nvml_mhz) + " MHz (reasons 0x" + hex(clock.reasons) + ")")
                    .c_str()
              : "not read (no NVML)");
      notes.push_back(line);
    }
    return notes;
  }

 private:
  /// Runs @p measure, which times one row and returns it, while NVML reads the SM clock; keeps
  /// the reading for clock_notes().
  template <typename Measure>
  Row with_clock(Measure&& measure) {
    clock_.start();
    Row row = measure();
    clocks_.push_back({row.name, SmClockSampler::median(clock_.stop()), clock_.reasons()});
    return row;
  }
  static std::string hex(unsigned long long value) {
    char text[24];
    std::snprintf(text, sizeof text, "%llx", value);
    return text;
  }
  /// make_matmul_problem's A and B, every value rounded to BF16: the CPU reference then
  /// multiplies exactly the values the GPU multiplies.
  static MatmulProblem bf16_problem(const tutorial::Options& opt) {
    MatmulProblem p = tutorial::make_matmul_problem(opt);
    for (float& x : p.a) x = round_to_bf16(x);
    for (float& x : p.b) x = round_to_bf16(x);
    return p;
  }
  /// cuBLAS's C (the m x n asked for) for A and B holding @p a and @p b, zero-padded (left on
  /// the device). C is poisoned before every cuBLAS call: initcheck does not count the stores of
  /// cuBLAS's Hopper kernels as writes (seen on the H100), so C must already be set when they
  /// run; and again after the copy back.
  std::vector<float> cublas_product(const std::vector<float>& a, const std::vector<float>& b) {
    upload(a, b);
    c_.poison();
    gemm_(a_.data(), b_cols_.data(), c_.data());
    std::vector<float> product = logical_c();
    c_.poison();
    return product;
  }
  void upload(const std::vector<float>& a, const std::vector<float>& b) {
    const MatmulProblem& p = problem_;
    a_.copy_from(padded_bf16(a, p.m, p.k, m_pad_, k_pad_, false));
    b_cols_.copy_from(padded_bf16(b, p.k, p.n, k_pad_, n_pad_, true));
  }
  /// The m x n that was asked for, out of the padded C.
  std::vector<float> logical_c() const {
    const std::vector<float> padded = c_.to_host();
    std::vector<float> c(size_t(problem_.m * problem_.n));
    for (int64_t r = 0; r < problem_.m; ++r) {
      for (int64_t col = 0; col < problem_.n; ++col) {
        c[size_t(r * problem_.n + col)] = padded[size_t(r * n_pad_ + col)];
      }
    }
    return c;
  }
  /// The sampled entries against the CPU, allowing twice float's roundoff per addition.
  Check check_sampled(const std::string& name, const std::vector<float>& c) const {
    return tutorial::check_sampled(name, c, problem_, 2);
  }

  int64_t m_pad_, n_pad_, k_pad_;
  DeviceBuffer<__nv_bfloat16> a_, b_cols_;
  DeviceBuffer<float> c_;
  MatmulProblem problem_;
  CublasBf16Gemm gemm_;
  tutorial::MatmulReference reference_;  // after the members it is made from; leaves C poisoned
  SmClockSampler clock_{current_pci_bus_id().c_str()};
  std::vector<RowClock> clocks_;
};

}  // namespace chapter10
