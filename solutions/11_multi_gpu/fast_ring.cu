// Exercise 11.3, solved: the ring all-reduce of 11.1 kept on the GPU, with each reduce step one
// kernel that reads the sender's chunk where it lies (no copy into scratch first), 16 bytes at
// a time, and no host waits: every step of every rank is enqueued at once, ordered by events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

constexpr int kThreads = 256;

/// out[i] = mine[i] + theirs[i] for 0 <= i < count, four ints (16 bytes) per load and store,
/// then the last 0-3 one at a time. theirs may lie on another GPU (peer access).
/// @pre the three pointers are 16-byte aligned.
__global__ void __launch_bounds__(kThreads)
    add_chunk_vectors(const int32_t* __restrict__ mine, const int32_t* __restrict__ theirs,
                      int32_t* __restrict__ out, int64_t count) {
  const int64_t thread = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const int64_t stride = int64_t{gridDim.x} * kThreads, vectors = count / 4;
  for (int64_t v = thread; v < vectors; v += stride) {
    const int4 a = reinterpret_cast<const int4*>(mine)[v];
    const int4 b = reinterpret_cast<const int4*>(theirs)[v];
    reinterpret_cast<int4*>(out)[v] = int4{a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
  }
  for (int64_t i = 4 * vectors + thread; i < count; i += stride) out[i] = mine[i] + theirs[i];
}

void fast_ring_all_reduce(const std::vector<Rank>& ranks, int64_t n) {
  const int count = static_cast<int>(ranks.size());
  // Chunks of whole 16-byte vectors: every chunk starts 16-byte aligned; the last may be short
  // and the ones after it empty.
  const int64_t size = ((n + count - 1) / count + 3) / 4 * 4;
  const auto first = [&](int c) { return std::min<int64_t>(n, c * size); };
  const auto chunk = [&](int step, int r) { return ((r - step) % count + count) % count; };
  const auto left = [&](int r) { return (r + count - 1) % count; };
  const auto wait_for_senders = [&] {  // all of a step's waits before its records, as in 11.1
    for (int r = 0; r < count; ++r) {
      CUDA_CHECK(cudaStreamWaitEvent(ranks[size_t(r)].stream, ranks[size_t(left(r))].event, 0));
    }
  };
  const auto copy = [](int32_t* to, const Rank& receiver, const int32_t* from, const Rank& sender,
                       int64_t elements) {
    CUDA_CHECK(cudaMemcpyPeerAsync(to, receiver.device, from, sender.device,
                                   size_t(elements) * sizeof(int32_t), receiver.stream));
  };
  if (count == 1) {
    DeviceScope scope(ranks[0].device);
    copy(ranks[0].out, ranks[0], ranks[0].in, ranks[0], n);
    return;
  }
  int blocks_per_gpu = 0;  // enough blocks to keep every SM's loads in flight, shared by ranks
  CUDA_CHECK(
      cudaDeviceGetAttribute(&blocks_per_gpu, cudaDevAttrMultiProcessorCount, ranks[0].device));
  blocks_per_gpu *= 4;

  for (int step = 0; step < count - 1; ++step) {  // reduce-scatter
    if (step > 0) wait_for_senders();
    for (int r = 0; r < count; ++r) {
      const Rank& me = ranks[size_t(r)];
      const Rank& sender = ranks[size_t(left(r))];
      const int c = chunk(step + 1, r);
      const int64_t at = first(c), elements = first(c + 1) - at;
      DeviceScope scope(me.device);
      if (elements > 0) {
        const int blocks =
            int(std::min<int64_t>((elements / 4 + kThreads - 1) / kThreads + 1, blocks_per_gpu));
        add_chunk_vectors<<<blocks, kThreads, 0, me.stream>>>(
            me.in + at, (step == 0 ? sender.in : sender.out) + at, me.out + at, elements);
        CUDA_CHECK(cudaGetLastError());
      }
      CUDA_CHECK(cudaEventRecord(me.event, me.stream));
    }
  }
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
