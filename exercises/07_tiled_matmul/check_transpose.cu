// Checker of exercise 7.2: awkward shapes, every element compared, nothing written past the
// output; then its speed against a device-to-device copy of the same bytes in the same run.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;
using namespace check07;

/// The share of a device-to-device copy's speed the exercise asks for.
constexpr double kShare = 0.7;

/// Expects @p d_out to hold the transpose of @p h_in (rows x cols) and the guard after it.
void expect_transpose(const DeviceBuffer<float>& d_out, const std::vector<float>& h_in,
                      int64_t rows, int64_t cols, const std::string& where) {
  const std::vector<float> out = d_out.to_host();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const float got = out[c * rows + r], want = h_in[r * cols + c];
      if (got == want) continue;  // the message is made only for the first wrong element
      throw ExerciseFailure(where + ": out[" + std::to_string(c) + "][" + std::to_string(r) +
                            "] = " + format_number(got) + ", want in[" + std::to_string(r) + "][" +
                            std::to_string(c) + "] = " + format_number(want));
    }
  }
  expect_guard_intact(out, rows * cols, where);
}

void check_transpose(const CheckRun& run) {
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
    expect_transpose(d_out, h_in, rows, cols, std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (run.small) return;

  // Each element read once and written once, like a copy: nearly as fast as one. Each timed
  // call transposes fresh floats (seed 720 + call), and all of its output is checked.
  constexpr int64_t kSide = 4096;
  DeviceBuffer<float> d_in(kSide * kSide);
  DeviceBuffer<float> d_out(kSide * kSide + kGuard);
  const EveryCall every{[&](int call) {
                          fill_random_floats(d_in.data(), kSide * kSide, 720 + call, -1.0f, 1.0f);
                          d_out.poison();
                        },
                        [&](int call) {
                          expect_transpose(d_out,
                                           random_floats(kSide * kSide, 720 + call, -1.0f, 1.0f),
                                           kSide, kSide, "4096 x 4096, " + timed_call(call));
                        }};
  std::cout << "      speed at 4096 x 4096:" << std::endl;
  expect_speed(
      2.0 * sizeof(float) * kSide * kSide,
      Timed{"yours", [&] { exercise07::transpose(d_in.data(), d_out.data(), kSide, kSide); }},
      Timed{"cudaMemcpyAsync of the same bytes",
            [&] {
              CUDA_CHECK(cudaMemcpyAsync(d_out.data(), d_in.data(), d_in.bytes(),
                                         cudaMemcpyDeviceToDevice));
            }},
      kShare, every);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "7.2",
                          "transpose through shared memory, no bank conflicts (performance)",
                          check_transpose);
}
