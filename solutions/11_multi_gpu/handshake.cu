// Exercise 11.4, solved: the one-shot all-reduce with one handshake a call. Block b of every
// rank tells block b of every rank that it has reached the call (a release store into that
// rank's flags), and waits until every rank has told it the same (acquire loads of its own
// flags); only then does it read the inputs. The two inputs the calls take in turn make this
// one handshake enough: an input is rewritten two calls later, and no rank reaches that call's
// handshake before every rank has finished the call that read it.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

constexpr int kThreads = 256;

/// Every rank's flags, by rank, as one kernel argument.
struct RankFlags {
  unsigned int* of[kMaxRanks];
};

using SystemFlag = cuda::atomic_ref<unsigned int, cuda::thread_scope_system>;

/// out[i] = the sum over every rank q of in.of[q][i], for 0 <= i < n, after block b of every
/// rank has reached call @p call. Flag [b][q] of rank r holds the last call block b of rank q
/// has reached, plus 1 (0: none yet).
__global__ void __launch_bounds__(kThreads)
    sum_after_handshake(RankInputs in, RankFlags flags, int32_t* __restrict__ out, int64_t n,
                        int self, unsigned int call) {
  const int peer = threadIdx.x;
  if (peer < in.count) {
    // Release: the input this rank's producer wrote before this kernel is visible to whoever
    // sees the flag. System scope: the reader may be another GPU.
    SystemFlag(flags.of[peer][blockIdx.x * kMaxRanks + self])
        .store(call + 1, cuda::std::memory_order_release);
    // At least, not equal: a rank may already have gone on to the next call and written
    // call + 2.
    const SystemFlag mine(flags.of[self][blockIdx.x * kMaxRanks + peer]);
    while (mine.load(cuda::std::memory_order_acquire) < call + 1) {
    }
  }
  __syncthreads();  // every rank has reached this call: the whole block may read
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * kThreads) {
    int32_t sum = 0;
#pragma unroll
    for (int q = 0; q < kMaxRanks; ++q) {  // unrolled: the pointers stay kernel parameters
      if (q < in.count) sum += in.of[q][i];
    }
    out[i] = sum;
  }
}

void handshake_all_reduce(const std::vector<HandshakeRank>& ranks, int64_t n, unsigned int call) {
  const int count = static_cast<int>(ranks.size());
  RankInputs in{};
  RankFlags flags{};
  in.count = count;
  for (int r = 0; r < count; ++r) {
    in.of[r] = ranks[size_t(r)].inputs[call % 2];
    flags.of[r] = ranks[size_t(r)].flags;
  }
  // The same grid on every rank: block b hands off to block b.
  const int blocks = int(std::min<int64_t>((n + kThreads - 1) / kThreads, kHandshakeBlocks));
  for (int r = 0; r < count; ++r) {
    const HandshakeRank& me = ranks[size_t(r)];
    DeviceScope scope(me.device);
    sum_after_handshake<<<blocks, kThreads, 0, me.stream>>>(in, flags, me.out, n, r, call);
    CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace exercise11
