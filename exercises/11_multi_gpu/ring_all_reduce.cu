// Exercise 11.1: the ring all-reduce, with copies (see README.md).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

constexpr int kThreads = 256;

/// out[i] = mine[i] + theirs[i] for 0 <= i < count: the addition of a reduce-scatter step. A
/// launch of 0 blocks is an error: launch it only for a chunk that has elements.
__global__ void add_chunk(const int32_t* mine, const int32_t* theirs, int32_t* out, int64_t count) {
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * kThreads) {
    out[i] = mine[i] + theirs[i];
  }
}

void ring_all_reduce(const std::vector<Rank>& ranks, int64_t n) {
  // TODO(11.1): every rank's out = the sum of every rank's in, by a ring: N - 1 steps of
  // reduce-scatter, then N - 1 of all-gather, each rank receiving only from rank r - 1, on the
  // ranks' streams and ordered by their events (see README.md); then delete the next line.
  throw tutorial::Todo("write the ring in exercises/11_multi_gpu/ring_all_reduce.cu");
  (void)ranks;
  (void)n;
}

}  // namespace exercise11
