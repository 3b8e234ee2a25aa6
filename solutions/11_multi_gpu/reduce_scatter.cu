// Exercise 11.2, solved: the reduce-scatter of a two-shot all-reduce. Rank r's GPU sums chunk r
// of every rank's input, reading the other ranks' buffers where they lie (on the same GPU, or
// over the link with peer access), and writes nothing else.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

constexpr int kThreads = 256;

/// out[i] = the sum over every rank q of in.of[q][i], for begin <= i < end.
__global__ void sum_chunk(RankInputs in, int32_t* __restrict__ out, int64_t begin, int64_t end) {
  for (int64_t i = begin + int64_t{blockIdx.x} * kThreads + threadIdx.x; i < end;
       i += int64_t{gridDim.x} * kThreads) {
    int32_t sum = 0;
#pragma unroll
    for (int q = 0; q < kMaxRanks; ++q) {  // unrolled: the pointers stay kernel parameters
      if (q < in.count) sum += in.of[q][i];
    }
    out[i] = sum;
  }
}

void reduce_scatter(const std::vector<Rank>& ranks, int64_t n) {
  const RankInputs in = inputs_of(ranks);
  const int64_t count = int64_t(ranks.size());
  for (int64_t r = 0; r < count; ++r) {
    const int64_t begin = r * n / count, end = (r + 1) * n / count;
    if (begin == end) continue;  // an empty chunk (n < N): a launch of 0 blocks is an error
    const Rank& me = ranks[size_t(r)];
    DeviceScope scope(me.device);
    const int blocks = int(std::min<int64_t>((end - begin + kThreads - 1) / kThreads, 1024));
    sum_chunk<<<blocks, kThreads, 0, me.stream>>>(in, me.out, begin, end);
    CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace exercise11
