/**
 * @file exercise_gpu.cuh
 * @brief What the GPU exercise checkers add to exercise.hpp: a main() that first makes sure
 *        there is a GPU (exit 77 if not), and the timed check of a performance exercise, which
 *        measures the learner's code and its target in the same run and judges every timed call
 *        as kernel competitions learned to: fresh input before each call, each call's output
 *        checked, a time limit on each call.
 */
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/stats.hpp"
#include "tutorial/harness/verify.hpp"

namespace tutorial {

/// run_exercise() for an exercise that needs a GPU: without one the checker exits 77.
template <typename Check>
int run_gpu_exercise(int argc, char** argv, const std::string& id, const std::string& title,
                     Check&& check) {
  return run_exercise(argc, argv, id, title, [&](const CheckRun& run) {
    query_device();  // throws NoDeviceError: exit 77
    check(run);
  });
}

/// why_kernel_cannot_run for a checker: when @p kernel cannot run here, throws NoDeviceError
/// with the reason (exit 77, the grader's SKIP), never a wrong result from an empty kernel.
inline void require_compute_capability(const void* kernel, int needed, const std::string& what) {
  const std::string why = why_kernel_cannot_run(kernel, needed, what, query_device());
  if (!why.empty()) throw NoDeviceError(why + ": cannot run here");
}

/// One side of a timed comparison: a name, and a callable that enqueues the work.
template <typename Launch>
struct Timed {
  std::string name;
  Launch launch;
};

template <typename Launch>
Timed(std::string, Launch) -> Timed<Launch>;

/// Median milliseconds to GB/s for @p bytes moved per run.
inline double gigabytes_per_second(double bytes, double ms) {
  return bytes / (ms * 1e6);
}

/// Value number @p i + 1 of SplitMix64(@p seed) (random.hpp), on the host or the device: the
/// fill kernels below make on the device exactly what random_ints and random_floats make on the
/// host, so that a checker can give a timed call fresh input in a few microseconds and compute
/// its reference on the host from the same seed.
__host__ __device__ inline uint64_t splitmix_value(uint64_t seed, uint64_t i) {
  constexpr uint64_t kStep = 0x9E3779B97F4A7C15ull;  // SplitMix64's step
  uint64_t z = seed + (i + 1) * kStep;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// out[i] = random_ints(n, seed, lo, lo + span - 1)[i], as an Int (int32_t, or int8_t for
/// values in [-128, 127], uint16_t for values in [0, 65535]).
template <typename Int>
__global__ void fill_random_ints_kernel(Int* out, int64_t n, uint64_t seed, int32_t lo,
                                        uint64_t span) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    out[i] = static_cast<Int>(lo + static_cast<int64_t>(splitmix_value(seed, i) % span));
  }
}

/// out[i] = random_floats(n, seed, lo, hi)[i].
__global__ inline void fill_random_floats_kernel(float* out, int64_t n, uint64_t seed, float lo,
                                                 float hi) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const float unit = static_cast<float>(splitmix_value(seed, i) >> 40) * 0x1p-24f;
    out[i] = lo + (hi - lo) * unit;
  }
}

/// Overwrites @p d_out with random_ints(@p n, @p seed, @p lo, @p hi), on the default stream.
/// @pre lo <= hi, both within the range of Int.
template <typename Int>
void fill_random_ints(Int* d_out, int64_t n, uint64_t seed, int32_t lo, int32_t hi) {
  const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo) + 1;
  fill_random_ints_kernel<<<1024, 256>>>(d_out, n, seed, lo, span);
  CUDA_CHECK(cudaGetLastError());
}

/// Overwrites @p d_out with random_floats(@p n, @p seed, @p lo, @p hi), on the default stream.
inline void fill_random_floats(float* d_out, int64_t n, uint64_t seed, float lo, float hi) {
  fill_random_floats_kernel<<<1024, 256>>>(d_out, n, seed, lo, hi);
  CUDA_CHECK(cudaGetLastError());
}

/// The factor of row @p row in the timed call with @p seed: +-2^e with e in [-2, 2]. A matrix
/// product whose rows of A are scaled so has its rows of C scaled by the same factors, exactly,
/// whatever the order of its additions: a power of two changes no rounding (no value here
/// comes near overflow or underflow).
__host__ __device__ inline float row_scale(uint64_t seed, int64_t row) {
  const uint64_t bits = splitmix_value(seed, static_cast<uint64_t>(row));
  const float magnitude = 0.25f * static_cast<float>(1 << (bits % 5));  // 1/4, 1/2, 1, 2, 4
  return (bits >> 32) & 1 ? -magnitude : magnitude;
}

/// out (rows x cols, row-major) = base with row r multiplied by row_scale(seed, r).
template <typename T>
__global__ void scale_rows_kernel(const T* base, T* out, int64_t rows, int64_t cols,
                                  uint64_t seed) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < rows * cols;
       i += int64_t{gridDim.x} * blockDim.x) {
    out[i] = T(static_cast<float>(base[i]) * row_scale(seed, i / cols));
  }
}

/// Overwrites @p d_out with @p d_base, its rows scaled as scale_rows_kernel says.
template <typename T>
void scale_rows(const T* d_base, T* d_out, int64_t rows, int64_t cols, uint64_t seed) {
  scale_rows_kernel<<<1024, 256>>>(d_base, d_out, rows, cols, seed);
  CUDA_CHECK(cudaGetLastError());
}

/**
 * @brief Expects @p got, the C (rows x cols) of a timed call whose A had its rows scaled
 *        (scale_rows with @p seed), to be @p want (the vendor's C of the unscaled A) with the
 *        same rows scaled: every element within its @p tolerance times |row_scale| (NaN never
 *        passes).
 */
template <typename Tolerance>
void expect_scaled_rows(const std::vector<float>& got, const std::vector<float>& want,
                        const Tolerance& tolerance, int64_t rows, int64_t cols, uint64_t seed,
                        const std::string& where, const std::string& vendor) {
  std::vector<float> scale(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) scale[size_t(r)] = row_scale(seed, r);
  std::vector<float> scaled(want.size());
  for (size_t i = 0; i < want.size(); ++i) scaled[i] = scale[i / size_t(cols)] * want[i];
  const auto bound = [&](size_t i) {
    return std::fabs(double(scale[i / size_t(cols)])) * tolerance(i);
  };
  const ElementTally tally = tally_elements(got, scaled, bound);
  if (tally.bad == 0) return;
  const auto i = static_cast<size_t>(tally.first_bad);
  throw ExerciseFailure(where + ": " + std::to_string(tally.bad) + " elements of C wrong, the " +
                        "first C[" + std::to_string(i / size_t(cols)) + "][" +
                        std::to_string(i % size_t(cols)) + "] = " + format_number(got[i]) + ", " +
                        vendor + " gives " + format_number(scaled[i]) + " (bound " +
                        format_number(bound(i)) + ")" +
                        (std::isnan(got[i]) ? ": NaN, never written or computed from a NaN" : ""));
}

/**
 * @brief How each timed call of the learner's code is judged (all of it outside the timed
 *        region). Calls are numbered from 0, the warm-up.
 *
 * - fresh(call) gives the call input no earlier call saw, in the same buffers (new values at
 *   the same pointers, so that an answer that keeps an earlier call's result returns a stale
 *   one), and poisons the learner's output, so that a call that writes nothing shows. It runs
 *   before each call of the target too: both sides are timed on the same kind of input, from
 *   the same state of L2.
 * - check(call) throws ExerciseFailure unless the output of that call is right for its input.
 */
struct EveryCall {
  std::function<void(int call)> fresh;
  std::function<void(int call)> check;
};

/// "timed call 7", or "the warm-up call" for call 0, for the checks' messages.
inline std::string timed_call(int call) {
  return call == 0 ? std::string("the warm-up call") : "timed call " + std::to_string(call);
}

/// No call may take longer than this many times the time the learner needs, nor than
/// kCallLimitFloorSeconds: a call past its limit is taken for a hang.
constexpr double kCallLimitFactor = 100;
constexpr double kCallLimitFloorSeconds = 2;

/**
 * @brief Waits until @p stop has happened, at most @p limit_s seconds. Past that the call is
 *        taken for a hang: the checker prints its TIMEOUT row and ends at once, since every
 *        CUDA call after a hung kernel (the buffers' destructors too) would wait for it.
 */
inline void wait_within(cudaEvent_t stop, double limit_s, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const cudaError_t status = cudaEventQuery(stop);
    if (status != cudaErrorNotReady) {
      CUDA_CHECK(status);
      return;
    }
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
    if (waited.count() > limit_s) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.1f", limit_s);
      std::cout << "TIMEOUT" << current_row() << ": " << what << " had not finished after "
                << seconds << " s, its time limit: a hang? Does every loop end, and every "
                << "thread that a barrier or a spin waits for reach it?" << std::endl;
      std::_Exit(kExitWrongResult);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

/**
 * @brief Times @p launch @p reps times (after one warm-up call) as Timer::time_ms does, each
 *        call from a cold L2, but with every.fresh(call) before each call and, when @p judged,
 *        every.check(call) after it; each call must end within @p limit_s seconds.
 */
template <typename Launch>
Summary time_calls(Timer& timer, int reps, Launch& launch, const EveryCall& every, bool judged,
                   double limit_s, const std::string& name) {
  Event start, stop;
  std::vector<double> samples;
  for (int call = 0; call <= reps; ++call) {
    every.fresh(call);
    timer.flush_l2();
    CUDA_CHECK(cudaEventRecord(start.get()));
    launch();
    CUDA_CHECK(cudaEventRecord(stop.get()));
    CUDA_CHECK(cudaGetLastError());
    wait_within(stop.get(), limit_s, name + "'s " + timed_call(call));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (call > 0) samples.push_back(ms);
    if (judged) every.check(call);
  }
  return summarize(samples);
}

/**
 * @brief The check of a performance exercise: times @p yours and @p target alternately in
 *        one process (the median of @p reps calls each, every call from a cold L2, as the
 *        chapters time), prints both, and fails unless yours reaches @p share of the target's
 *        speed. Every call of yours, the warm-up included, gets fresh input and has its output
 *        checked (@p every), and must end within its time limit. Check correctness first: a
 *        fast wrong answer is not a pass.
 * @param bytes what one call moves to and from memory, for the GB/s printed beside the times.
 */
template <typename Yours, typename Target>
void expect_speed(double bytes, const Timed<Yours>& yours, const Timed<Target>& target,
                  double share, const EveryCall& every, int reps = 30) {
  const DeviceFacts device = query_device();
  Timer timer(device);
  Yours yours_launch = yours.launch;
  Target target_launch = target.launch;
  // Target, yours, target again: a GPU that warms up or throttles during the run shows as a
  // difference between the two target times, and the faster of the two is the bar.
  const double target_limit_s = 10 * kCallLimitFloorSeconds;
  const double target_first =
      time_calls(timer, reps, target_launch, every, false, target_limit_s, target.name).median;
  const double limit_s =
      std::max(kCallLimitFloorSeconds, kCallLimitFactor * target_first / share / 1000);
  const double yours_ms =
      time_calls(timer, reps, yours_launch, every, true, limit_s, yours.name).median;
  const double target_ms = std::min(
      target_first,
      time_calls(timer, reps, target_launch, every, false, target_limit_s, target.name).median);
  const double needed_ms = target_ms / share;
  char line[640];
  std::snprintf(line, sizeof line,
                "      %-34s %9.4f ms %8.1f GB/s\n      %-34s %9.4f ms %8.1f GB/s\n"
                "      %-34s %9.4f ms %8.1f GB/s (%.0f%% of the target's speed, on %s)\n"
                "      each of your %d calls had fresh input, its output checked, and %.1f s "
                "at most",
                yours.name.c_str(), yours_ms, gigabytes_per_second(bytes, yours_ms),
                ("target: " + target.name).c_str(), target_ms,
                gigabytes_per_second(bytes, target_ms), "needed: at most", needed_ms,
                gigabytes_per_second(bytes, needed_ms), 100 * share, device.name.c_str(), reps + 1,
                limit_s);
  std::cout << line << std::endl;
  char verdict[160];
  std::snprintf(verdict, sizeof verdict, "%.4f ms is %.0f%% of the target's speed; %.0f%% needed",
                yours_ms, 100 * target_ms / yours_ms, 100 * share);
  expect(yours_ms <= needed_ms, std::string("correct but too slow: ") + verdict);
}

}  // namespace tutorial
