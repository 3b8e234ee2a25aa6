// Checker of exercise 11.2: the reduce-scatter of 1, 2, 3, 4 and 8 ranks on GPU 0, then spread
// over the GPUs where there are several: rank r's chunk [r n / N, (r + 1) n / N) must hold the
// sum, and every other element of its output (and the guard after it) the poison.
#include <cstdint>
#include <utility>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"

namespace {

using namespace tutorial;
using namespace check11;

void check_reduce_scatter(const CheckRun& run) {
  uint64_t seed = 1120;
  for_each_placement({1, 2, 3, 4, 8}, [&](const Placement& placement) {
    const int64_t ranks = int64_t(placement.devices.size());
    for (int64_t n : run.sizes({1, 2, 3, 4, 5, 7, 8, 9, 31, 257, 1000, 4099, 65537, 1000003})) {
      RankSet set(placement, n, seed += 10);
      set.run(exercise11::reduce_scatter);
      set.expect_outputs(
          [&](int r) {
            return std::pair<int64_t, int64_t>{r * n / ranks, (r + 1) * n / ranks};
          },
          "its chunk");
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "11.2", "the reduce-scatter of a two-shot all-reduce",
                          check_reduce_scatter);
}
