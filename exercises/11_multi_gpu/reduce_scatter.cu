// Exercise 11.2: the reduce-scatter of a two-shot all-reduce (see README.md).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

/// out[i] = the sum over every rank q of in.of[q][i], for begin <= i < end.
__global__ void sum_chunk(RankInputs in, int32_t* __restrict__ out, int64_t begin, int64_t end) {
  // TODO(11.2): every out[i] of [begin, end), whatever the grid's size.
  (void)in;
  (void)out;
  (void)begin;
  (void)end;
}

void reduce_scatter(const std::vector<Rank>& ranks, int64_t n) {
  // TODO(11.2): on every rank r, sum_chunk over chunk r (exercise.cuh says which elements)
  // on r's GPU and stream; then delete the next line.
  throw tutorial::Todo(
      "write sum_chunk and its launches in exercises/11_multi_gpu/reduce_scatter.cu");
  (void)ranks;
  (void)n;
}

}  // namespace exercise11
