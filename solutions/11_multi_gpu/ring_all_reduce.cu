// Exercise 11.1, solved: the ring all-reduce with copies. Each step, every rank copies one
// chunk from rank r - 1 (cudaMemcpyPeerAsync) and, in the reduce-scatter, adds its own input to
// it with a small kernel; each rank's event marks its last step, and the next step of rank
// r + 1 waits for it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

constexpr int kThreads = 256;

/// out[i] = mine[i] + theirs[i] for 0 <= i < count.
__global__ void add_chunk(const int32_t* mine, const int32_t* theirs, int32_t* out, int64_t count) {
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * kThreads) {
    out[i] = mine[i] + theirs[i];
  }
}

void ring_all_reduce(const std::vector<Rank>& ranks, int64_t n) {
  const int count = static_cast<int>(ranks.size());
  const auto first = [&](int c) { return int64_t(c) * n / count; };  // chunk c's first element
  const auto chunk = [&](int step, int r) { return ((r - step) % count + count) % count; };
  const auto left = [&](int r) { return (r + count - 1) % count; };
  const auto copy = [](int32_t* to, const Rank& receiver, const int32_t* from, const Rank& sender,
                       int64_t elements) {
    CUDA_CHECK(cudaMemcpyPeerAsync(to, receiver.device, from, sender.device,
                                   size_t(elements) * sizeof(int32_t), receiver.stream));
  };
  // Every rank's stream waits for its sender's last step: all waits of a step come before any
  // event of that step is recorded again, so each waits for the step before.
  const auto wait_for_senders = [&] {
    for (int r = 0; r < count; ++r) {
      CUDA_CHECK(cudaStreamWaitEvent(ranks[size_t(r)].stream, ranks[size_t(left(r))].event, 0));
    }
  };
  if (count == 1) {  // a ring of one: the sum is the input
    DeviceScope scope(ranks[0].device);
    copy(ranks[0].out, ranks[0], ranks[0].in, ranks[0], n);
    return;
  }

  // Reduce-scatter: at step s rank r receives chunk r - 1 - s, the sum of the s + 1 inputs
  // before it (at step 0 the sender's input), and adds its own. After N - 1 steps rank r holds
  // the whole sum of chunk r + 1.
  for (int step = 0; step < count - 1; ++step) {  // reduce-scatter
    if (step > 0) wait_for_senders();             // at step 0 the inputs are ready
    for (int r = 0; r < count; ++r) {
      const Rank& me = ranks[size_t(r)];
      const Rank& sender = ranks[size_t(left(r))];
      const int c = chunk(step + 1, r);
      const int64_t at = first(c), elements = first(c + 1) - at;
      DeviceScope scope(me.device);
      if (elements > 0) {
        copy(me.scratch + at, me, (step == 0 ? sender.in : sender.out) + at, sender, elements);
        const int blocks = int(std::min<int64_t>((elements + kThreads - 1) / kThreads, 1024));
        add_chunk<<<blocks, kThreads, 0, me.stream>>>(me.in + at, me.scratch + at, me.out + at,
                                                      elements);
        CUDA_CHECK(cudaGetLastError());
      }
      CUDA_CHECK(cudaEventRecord(me.event, me.stream));
    }
  }
  // All-gather: at step s rank r receives chunk r - s, whole, from rank r - 1, which finished
  // it in the step before (at step 0, the last step of the reduce-scatter). It overwrites a
  // partial sum that rank r + 1 read at step s of the reduce-scatter: the waits, step after
  // step around the ring, put that read first.
  for (int step = 0; step < count - 1; ++step) {  // all-gather
    wait_for_senders();
    for (int r = 0; r < count; ++r) {
      const Rank& me = ranks[size_t(r)];
      const Rank& sender = ranks[size_t(left(r))];
      const int c = chunk(step, r);
      const int64_t at = first(c), elements = first(c + 1) - at;
      DeviceScope scope(me.device);
      if (elements > 0) copy(me.out + at, me, sender.out + at, sender, elements);
      CUDA_CHECK(cudaEventRecord(me.event, me.stream));
    }
  }
}

}  // namespace exercise11
