// Checker of exercise 3.1: random inputs of awkward sizes against a CPU reference, block by
// block, and an input of more than 2^31 elements.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using check03::expect_groups;
using check03::reference_groups;

/// A value for every index, the same on the host and the device (SplitMix64's finalizer), so
/// that an input of 2^31 elements needs no copy and its reference no host array.
__host__ __device__ int32_t hashed_value(int64_t i) {
  uint64_t z = static_cast<uint64_t>(i) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<int32_t>(z ^ (z >> 31));
}

__global__ void fill_hashed(int32_t* out, int64_t n) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    out[i] = hashed_value(i);
  }
}

/// Past 2^31 elements an index computed in 32 bits wraps: the blocks that cover the elements
/// around 2^31 and the last one are compared with the reference. Needs 8 GiB of device memory;
/// a GPU with less says so and the check is left out.
void expect_blocks_past_2_31() {
  constexpr int64_t kN = (int64_t{1} << 31) + 1000;
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < kN * sizeof(int32_t) + (int64_t{1} << 30)) {
    std::cout << "      (n = 2^31 + 1000 left out: it needs 9 GiB of free device memory)\n";
    return;
  }
  DeviceBuffer<int32_t> d_in(kN);
  fill_hashed<<<1024, 256>>>(d_in.data(), kN);
  CUDA_CHECK(cudaGetLastError());
  const std::vector<int32_t> got = exercise03::block_maxima(d_in.data(), kN);
  const int64_t blocks = (kN + 255) / 256;
  expect(static_cast<int64_t>(got.size()) == blocks,
         "n = 2^31 + 1000: " + std::to_string(got.size()) + " block results, want " +
             std::to_string(blocks));
  for (int64_t b = (int64_t{1} << 23) - 2; b < blocks; ++b) {
    int32_t want = INT32_MIN;
    for (int64_t i = 256 * b; i < std::min(kN, 256 * (b + 1)); ++i) {
      want = std::max(want, hashed_value(i));
    }
    expect(got[b] == want, "n = 2^31 + 1000: block " + std::to_string(b) + " (elements from " +
                               std::to_string(256 * b) + ") gave " + std::to_string(got[b]) +
                               ", want " + std::to_string(want));
  }
}

void check_block_maxima(const CheckRun& run) {
  uint64_t seed = 31;
  for (int64_t n : run.sizes({1, 2, 7, 255, 256, 257, 1000, 4099, 100003, 1 << 18})) {
    // All-negative inputs catch an identity of 0; then mixed signs.
    for (auto [lo, hi] : {std::pair{-1000000, -1}, std::pair{-1000000, 1000000}}) {
      const std::vector<int32_t> h_in = random_ints(n, ++seed, lo, hi);
      const DeviceBuffer<int32_t> d_in(h_in);
      const std::vector<int32_t> want = reference_groups<int32_t>(
          h_in, 256, INT32_MIN, [](int32_t a, int32_t b) { return std::max(a, b); });
      expect_groups(exercise03::block_maxima(d_in.data(), n), want,
                    "n = " + std::to_string(n) + ", values in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]");
    }
  }
  if (!run.small) expect_blocks_past_2_31();
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "3.1", "block maxima with the bitmask tree",
                          check_block_maxima);
}
