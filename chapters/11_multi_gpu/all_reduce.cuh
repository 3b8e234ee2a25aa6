/**
 * @file chapters/11_multi_gpu/all_reduce.cuh
 * @brief An all-reduce by hand: every GPU ends with the element-wise sum of every GPU's input.
 *        One-shot (each GPU reads all the others' inputs) and two-shot (reduce-scatter, then
 *        all-gather), with peer access and the CUDA runtime only.
 */
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpus.cuh"
#include "tutorial/cuda_check.cuh"

namespace chapter11 {

/// The most GPUs the hand-written all-reduce takes (a kernel argument holds their pointers).
constexpr int kMaxGpus = 8;
constexpr int kCopyThreads = 256;

/// One buffer on each GPU, by GPU: the kernels read them all, over the links.
struct PeerPointers {
  const int32_t* of[kMaxGpus];
  int count;
};

//! [sum_from_peers]
/**
 * @brief out[i] = the sum over every GPU g of in.of[g][i], for @p begin <= i < @p end.
 *
 * The calling GPU reads the other GPUs' memory directly (peer access), 16 bytes at a time:
 * the loads cross the link as the kernel issues them, no copy first.
 * @pre begin is a multiple of 4 (16-byte aligned vectors); peer access to every in.of[g].
 */
__global__ void __launch_bounds__(kCopyThreads)
    sum_from_peers(PeerPointers in, int32_t* __restrict__ out, int64_t begin, int64_t end) {
  const int64_t thread = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  const int64_t vectors = (end - begin) / 4;
  for (int64_t v = thread; v < vectors; v += stride) {
    const int64_t i = begin + 4 * v;
    int4 sum = {0, 0, 0, 0};
#pragma unroll
    for (int g = 0; g < kMaxGpus; ++g) {  // unrolled: the pointers stay kernel parameters
      if (g < in.count) {
        const int4 x = *reinterpret_cast<const int4*>(in.of[g] + i);
        sum.x += x.x, sum.y += x.y, sum.z += x.z, sum.w += x.w;
      }
    }
    *reinterpret_cast<int4*>(out + i) = sum;
  }
  for (int64_t i = begin + 4 * vectors + thread; i < end; i += stride) {  // the last 0-3
    int32_t sum = 0;
#pragma unroll
    for (int g = 0; g < kMaxGpus; ++g) {
      if (g < in.count) sum += in.of[g][i];
    }
    out[i] = sum;
  }
}
//! [sum_from_peers]

/**
 * @brief The all-gather of the two-shot all-reduce: out[i] = outs.of[owner][i] for every i
 *        outside this GPU's own chunk, owner = i / chunk (the GPU that reduced it).
 * @pre chunk a multiple of 4; n <= outs.count * chunk; peer access to every outs.of[g].
 */
__global__ void __launch_bounds__(kCopyThreads)
    gather_chunks(PeerPointers outs, int32_t* __restrict__ out, int64_t n, int64_t chunk,
                  int self) {
  const int64_t thread = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  const int64_t vectors = n / 4;
  for (int64_t v = thread; v < vectors; v += stride) {
    const int64_t i = 4 * v, owner = i / chunk;  // a vector never straddles two chunks
    if (owner != self) {
      *reinterpret_cast<int4*>(out + i) = *reinterpret_cast<const int4*>(outs.of[owner] + i);
    }
  }
  for (int64_t i = 4 * vectors + thread; i < n; i += stride) {
    if (i / chunk != self) out[i] = outs.of[i / chunk][i];
  }
}

//! [all_reduce_by_hand]
/**
 * @brief The hand-written all-reduce over the GPUs of @p queues: inputs ins[g], outputs
 *        outs[g], the first n ints of each.
 *
 * Between the GPUs there is no barrier inside a kernel: the host orders them with events.
 * One-shot needs none (each GPU reads only inputs, which nobody writes, and writes only its
 * own output). Two-shot reads the other GPUs' outputs: each GPU's stream first waits for the
 * last operation of every other GPU (so nobody overwrites a chunk a slower GPU is still
 * gathering), and once more between the reduce-scatter and the all-gather (so nobody gathers
 * a chunk before its owner has reduced it).
 */
class AllReduceByHand {
 public:
  AllReduceByHand(std::vector<DeviceQueue*> queues, std::vector<const int32_t*> ins,
                  std::vector<int32_t*> outs, std::vector<int> blocks)
      : queues_(std::move(queues)), outs_(std::move(outs)), blocks_(std::move(blocks)) {
    const int count = static_cast<int>(queues_.size());
    if (count > kMaxGpus) throw std::runtime_error("more than 8 GPUs: raise kMaxGpus");
    in_.count = out_.count = count;
    for (int g = 0; g < count; ++g) in_.of[g] = ins[g], out_.of[g] = outs_[g];
  }

  /// Every GPU reads every input and sums: (count - 1) n ints cross into each GPU.
  void one_shot(int64_t n) {
    for (size_t g = 0; g < queues_.size(); ++g) {
      launch(g, [&](cudaStream_t s, int blocks) {
        sum_from_peers<<<blocks, kCopyThreads, 0, s>>>(in_, outs_[g], 0, n);
      });
    }
  }

  /// GPU g reduces chunk g from every input (reduce-scatter), then fetches the other chunks
  /// from their owners (all-gather): 2 (count - 1) / count n ints cross into each GPU.
  void two_shot(int64_t n) {
    const int64_t count = int64_t(queues_.size());
    const int64_t chunk = ((n + count - 1) / count + 3) / 4 * 4;  // whole 16-byte vectors
    wait_for_every_gpu();
    for (size_t g = 0; g < queues_.size(); ++g) {
      const int64_t begin = std::min<int64_t>(n, int64_t(g) * chunk);
      const int64_t end = std::min<int64_t>(n, begin + chunk);
      launch(g, [&](cudaStream_t s, int blocks) {
        sum_from_peers<<<blocks, kCopyThreads, 0, s>>>(in_, outs_[g], begin, end);
      });
    }
    wait_for_every_gpu();
    for (size_t g = 0; g < queues_.size(); ++g) {
      launch(g, [&](cudaStream_t s, int blocks) {
        gather_chunks<<<blocks, kCopyThreads, 0, s>>>(out_, outs_[g], n, chunk, int(g));
      });
    }
  }

 private:
  void wait_for_every_gpu() {
    for (DeviceQueue* q : queues_) {
      DeviceScope scope(q->device());
      for (DeviceQueue* other : queues_) {
        if (other != q) CUDA_CHECK(cudaStreamWaitEvent(q->stream(), other->done(), 0));
      }
    }
  }
  template <typename Launch>
  void launch(size_t g, Launch&& kernel) {
    DeviceScope scope(queues_[g]->device());
    kernel(queues_[g]->stream(), blocks_[g]);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(queues_[g]->done(), queues_[g]->stream()));
  }

  std::vector<DeviceQueue*> queues_;
  std::vector<int32_t*> outs_;
  PeerPointers in_{}, out_{};
  std::vector<int> blocks_;
};
//! [all_reduce_by_hand]

}  // namespace chapter11
