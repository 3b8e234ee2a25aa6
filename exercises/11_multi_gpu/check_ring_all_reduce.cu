// Checker of exercise 11.1: the ring all-reduce of 1, 2, 3, 4 and 8 ranks on GPU 0, then spread
// over the GPUs where there are several, at sizes from 1 (fewer elements than ranks) to millions,
// primes among them; every element of every rank's output compared with the sum, and nothing
// written past its end.
#include <cstdint>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"

namespace {

using namespace tutorial;
using namespace check11;

void check_ring_all_reduce(const CheckRun& run) {
  uint64_t seed = 1110;
  for_each_placement({1, 2, 3, 4, 8}, [&](const Placement& placement) {
    for (int64_t n : run.sizes({1, 2, 3, 4, 5, 7, 8, 9, 31, 257, 1000, 4099, 65537, 1000003})) {
      RankSet set(placement, n, seed += 10);
      set.run(exercise11::ring_all_reduce);
      set.expect_all_reduced();
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "11.1", "a ring all-reduce with copies",
                          check_ring_all_reduce);
}
