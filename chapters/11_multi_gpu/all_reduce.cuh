/**
 * @file chapters/11_multi_gpu/all_reduce.cuh
 * @brief An all-reduce by hand: every GPU ends with the element-wise sum of every GPU's input.
 *        One-shot (each GPU reads all the others' inputs) and two-shot (reduce-scatter, then
 *        all-gather by writing each sum to every GPU), each one kernel per GPU that agrees
 *        with the other GPUs through flags in their memory (a handshake), with peer access and
 *        the CUDA runtime only.
 */
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpus.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace chapter11 {

/// The most GPUs the hand-written all-reduce takes (a kernel argument holds their pointers).
constexpr int kMaxGpus = 8;
constexpr int kCopyThreads = 256;
/// 16-byte vectors each thread loads from every input before it adds any: loads in flight
/// that cover the link's latency.
constexpr int kUnroll = 4;
/// The most blocks a hand-written all-reduce launches on a GPU: each has flags of its own.
constexpr int kMaxBlocks = 1024;
/// How long a handshake waits for another GPU before it stops the program (nanoseconds).
constexpr unsigned long long kHandshakeTimeoutNs = 20'000'000'000ull;

/// One buffer on each GPU, by GPU: the kernels read them all, over the links.
struct PeerPointers {
  const int32_t* of[kMaxGpus];
  int count;
};
/// Buffers a kernel writes, on this GPU or others, by GPU.
struct PeerOutputs {
  int32_t* of[kMaxGpus];
  int count;
};

//! [sum_range]
/**
 * @brief out.of[o][i] = the sum over every GPU g < in.count of in.of[g][i], for every output
 *        o < out.count and the elements of [begin, end) that this block owns; with one input
 *        and one output, a copy.
 *
 * The calling GPU reads and writes the other GPUs' memory directly (peer access), 16 bytes at
 * a time: the loads and stores cross the link as the kernel issues them, no copy first. Each
 * thread first loads kUnroll vectors of every input, then adds: many loads in flight hide the
 * link's latency. Which elements a block owns depends only on begin, end and the grid, so that
 * the same block of another GPU owns the same ones: the handshakes below are between blocks.
 * @pre begin is a multiple of 4 (16-byte aligned vectors); peer access to every buffer.
 */
__device__ inline void sum_range(const PeerPointers& in, const PeerOutputs& out, int64_t begin,
                                 int64_t end) {
  const int64_t thread = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  const int64_t vectors = (end - begin) / 4;
  for (int64_t first = thread; first < vectors; first += kUnroll * stride) {
    int4 sum[kUnroll] = {};
#pragma unroll
    for (int g = 0; g < kMaxGpus; ++g) {  // unrolled: the pointers stay kernel parameters
      if (g >= in.count) break;
      // No __restrict__ or __ldg: another GPU writes these buffers while the kernel runs
      // (before the handshake), so they must not go through the read-only cache.
      const int4* from = reinterpret_cast<const int4*>(in.of[g] + begin);
      int4 x[kUnroll] = {};
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (first + u * stride < vectors) x[u] = from[first + u * stride];
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        sum[u].x += x[u].x, sum[u].y += x[u].y, sum[u].z += x[u].z, sum[u].w += x[u].w;
      }
    }
#pragma unroll
    for (int o = 0; o < kMaxGpus; ++o) {
      if (o >= out.count) break;
      int4* to = reinterpret_cast<int4*>(out.of[o] + begin);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (first + u * stride < vectors) to[first + u * stride] = sum[u];
      }
    }
  }
  for (int64_t i = begin + 4 * vectors + thread; i < end; i += stride) {  // the last 0-3
    int32_t sum = 0;
#pragma unroll
    for (int g = 0; g < kMaxGpus; ++g) {
      if (g < in.count) sum += in.of[g][i];
    }
#pragma unroll
    for (int o = 0; o < kMaxGpus; ++o) {
      if (o < out.count) out.of[o][i] = sum;
    }
  }
}
//! [sum_range]

/// out[i] = the sum over every GPU g of in.of[g][i] for 0 <= i < n, with no handshake: the
/// kernel of the copies between GPUs (one input, one output, either of them on another GPU),
/// whose buffers nobody writes meanwhile.
__global__ void __launch_bounds__(kCopyThreads)
    sum_from_peers(PeerPointers in, int32_t* out, int64_t n) {
  sum_range(in, {{out}, 1}, 0, n);
}

/// One GPU's flags for the handshakes of the hand-written all-reduce, in that GPU's memory.
struct HandshakeFlags {
  /// arrived[b][p]: how many handshakes block b of GPU p has reached; GPU p writes it.
  uint64_t arrived[kMaxBlocks][kMaxGpus];
  /// passed[b]: how many handshakes block b of this GPU has passed; only this GPU uses it.
  uint64_t passed[kMaxBlocks];
};

/// Every GPU's flags, by GPU, and which GPU is the caller.
struct FlagPointers {
  HandshakeFlags* of[kMaxGpus];
  int count;
  int self;
};

using SystemFlag = cuda::atomic_ref<uint64_t, cuda::thread_scope_system>;

/// Waits until @p flag holds at least @p number; stops the program with a message (a trap)
/// if that takes longer than kHandshakeTimeoutNs, instead of hanging without a word.
__device__ inline void wait_for_flag(const SystemFlag& flag, uint64_t number, int self, int peer) {
  const unsigned long long start = tutorial::global_timer_ns();
  while (flag.load(cuda::std::memory_order_acquire) < number) {
    if (tutorial::global_timer_ns() - start > kHandshakeTimeoutNs) {
      printf(
          "chapter 11: GPU %d, block %d waited %llu s at handshake %llu for GPU %d: its "
          "kernel is not running\n",
          self, int(blockIdx.x), kHandshakeTimeoutNs / 1'000'000'000ull,
          static_cast<unsigned long long>(number), peer);
      __trap();
    }
  }
}

//! [handshake]
/**
 * @brief Handshake number @p number of this block with the same block of every GPU: it returns
 *        once every GPU's block has reached it, and then everything each of those blocks wrote
 *        before it is visible to this block.
 *
 * Thread p (p < GPUs) tells GPU p "this block has reached handshake number": a store with
 * release order at system scope, into GPU p's memory. Release publishes every write this block
 * made before it (the first __syncthreads puts the other threads' writes before the store).
 * Then thread p waits until GPU p has told this GPU the same: a load with acquire order at
 * system scope, after which GPU p's writes from before its store are visible; the second
 * __syncthreads passes that on to the whole block. Device scope would not do: it covers one
 * GPU only. The numbers only grow, so no flag is ever reset, and a GPU already one handshake
 * further (it has written number + 1) passes the test too.
 */
__device__ inline void handshake(const FlagPointers& flags, uint64_t number) {
  __syncthreads();
  const int peer = threadIdx.x;
  if (peer < flags.count) {
    SystemFlag(flags.of[peer]->arrived[blockIdx.x][flags.self])
        .store(number, cuda::std::memory_order_release);
    wait_for_flag(SystemFlag(flags.of[flags.self]->arrived[blockIdx.x][peer]), number, flags.self,
                  peer);
  }
  __syncthreads();
}
//! [handshake]

/// The handshakes this block passed in the launches before on this GPU (stream order makes the
/// last launch's count visible).
__device__ inline uint64_t handshakes_passed(const FlagPointers& flags) {
  return flags.of[flags.self]->passed[blockIdx.x];
}
/// Keeps @p number, the handshakes this block has passed, for the next launch.
__device__ inline void remember_handshakes(const FlagPointers& flags, uint64_t number) {
  if (threadIdx.x == 0) flags.of[flags.self]->passed[blockIdx.x] = number;
}

//! [all_reduce_kernels]
/**
 * @brief One-shot: every GPU reads every input and sums; (GPUs - 1) n ints cross into each GPU.
 *
 * Two handshakes. Before the sum ("ready"): every GPU's input of this call has been written
 * (by the work before this kernel on that GPU's stream). After it ("done"): no GPU reads this
 * GPU's input any more, so the work after this kernel may overwrite it.
 */
__global__ void __launch_bounds__(kCopyThreads)
    all_reduce_one_shot(PeerPointers in, int32_t* __restrict__ out, int64_t n, FlagPointers flags) {
  uint64_t number = handshakes_passed(flags);
  handshake(flags, ++number);  // ready
  sum_range(in, {{out}, 1}, 0, n);
  handshake(flags, ++number);  // done
  remember_handshakes(flags, number);
}

/// The elements of chunk @p c of the two-shot all-reduce: [c chunk, (c + 1) chunk), cut at n.
__device__ inline int64_t chunk_begin(int c, int64_t n, int64_t chunk) {
  return c * chunk < n ? c * chunk : n;
}

/**
 * @brief Two-shot: GPU g sums chunk g of every input (reduce-scatter) and writes the sums into
 *        every GPU's output, its own and the others' over the links (all-gather): 2 (GPUs - 1)
 *        / GPUs n ints cross into each GPU, half of them read by it, half written to it.
 *
 * Two handshakes, as in the one-shot. Ready: every input written. Done: every GPU has read
 * what it needs of this GPU's input, and has written its chunk into this GPU's output (its
 * release makes those stores visible here), so the output is whole and the input free. Writing
 * the sums to their readers (a push) rather than letting each reader fetch them from the owner
 * (a pull) saves the handshake between the two halves, and the link carries stores, which need
 * no request sent the other way.
 * @pre chunk a multiple of 4; n <= outs.count * chunk.
 */
__global__ void __launch_bounds__(kCopyThreads)
    all_reduce_two_shot(PeerPointers in, PeerOutputs outs, int64_t n, int64_t chunk,
                        FlagPointers flags) {
  const int self = flags.self;
  uint64_t number = handshakes_passed(flags);
  handshake(flags, ++number);  // ready
  sum_range(in, outs, chunk_begin(self, n, chunk), chunk_begin(self + 1, n, chunk));
  handshake(flags, ++number);  // done
  remember_handshakes(flags, number);
}
//! [all_reduce_kernels]

//! [all_reduce_by_hand]
/**
 * @brief The hand-written all-reduce over the GPUs of @p queues: inputs ins[g], outputs
 *        outs[g], the first n ints of each. Each call is one kernel on every GPU's stream; the
 *        GPUs agree through their flags, with no event between them and no host in the way,
 *        so calls can follow each other freely, and be captured in a CUDA graph.
 *
 * - One call at a time: the flags hold the count of handshakes, which every call advances.
 * - Every block of a GPU must be able to run at once, and the same blocks on every GPU: each
 *   waits for its partners on the other GPUs. So the grid is the same on every GPU and at most
 *   what fits on the smallest of them (the occupancy calculator says how many blocks that is).
 */
class AllReduceByHand {
 public:
  AllReduceByHand(std::vector<DeviceQueue*> queues, std::vector<const int32_t*> ins,
                  std::vector<int32_t*> outs)
      : queues_(std::move(queues)) {
    const int count = static_cast<int>(queues_.size());
    if (count > kMaxGpus) throw std::runtime_error("more than 8 GPUs: raise kMaxGpus");
    in_.count = outs_.count = flags_.count = count;
    max_blocks_ = kMaxBlocks;
    for (int g = 0; g < count; ++g) {
      DeviceScope scope(queues_[size_t(g)]->device());
      in_.of[g] = ins[size_t(g)], outs_.of[g] = outs[size_t(g)];
      flag_buffers_.emplace_back(1);
      flags_.of[g] = flag_buffers_.back().data();
      CUDA_CHECK(cudaMemset(flags_.of[g], 0, sizeof(HandshakeFlags)));
      max_blocks_ = std::min({max_blocks_, resident_blocks(g, all_reduce_one_shot),
                              resident_blocks(g, all_reduce_two_shot)});
    }
    CUDA_CHECK(cudaDeviceSynchronize());  // the flags are zero before any stream uses them
  }

  void one_shot(int64_t n) {
    for (int g = 0; g < flags_.count; ++g) {
      launch(g, n, [&](cudaStream_t s, int blocks, FlagPointers flags) {
        all_reduce_one_shot<<<blocks, kCopyThreads, 0, s>>>(in_, outs_.of[g], n, flags);
      });
    }
  }

  void two_shot(int64_t n) {
    const int64_t count = flags_.count;
    const int64_t chunk = ((n + count - 1) / count + 3) / 4 * 4;  // whole 16-byte vectors
    for (int g = 0; g < flags_.count; ++g) {
      launch(g, chunk, [&](cudaStream_t s, int blocks, FlagPointers flags) {
        all_reduce_two_shot<<<blocks, kCopyThreads, 0, s>>>(in_, outs_, n, chunk, flags);
      });
    }
  }

 private:
  /// Blocks of @p kernel that GPU @p g runs at once: about 4 per SM (enough to keep the loads
  /// in flight), fewer if fewer fit.
  template <typename Kernel>
  static int resident_blocks(int g, Kernel kernel) {
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kCopyThreads, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g));
    return std::min(per_sm, 4) * sms;
  }
  /// Launches GPU @p g's kernel with enough blocks for @p elements ints each (one pass of
  /// kUnroll vectors per thread), the same number on every GPU.
  template <typename Launch>
  void launch(int g, int64_t elements, Launch&& kernel) {
    const int64_t per_block = int64_t{4} * kUnroll * kCopyThreads;
    const int blocks =
        int(std::clamp<int64_t>((elements + per_block - 1) / per_block, 1, max_blocks_));
    FlagPointers flags = flags_;
    flags.self = g;
    DeviceScope scope(queues_[size_t(g)]->device());
    kernel(queues_[size_t(g)]->stream(), blocks, flags);
    CUDA_CHECK(cudaGetLastError());
  }

  std::vector<DeviceQueue*> queues_;
  PeerPointers in_{};
  PeerOutputs outs_{};
  std::vector<tutorial::DeviceBuffer<HandshakeFlags>> flag_buffers_;
  FlagPointers flags_{};
  int max_blocks_ = 0;
};
//! [all_reduce_by_hand]

}  // namespace chapter11
