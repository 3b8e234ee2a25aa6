// Checker of exercise 11.4: calls of the one-shot all-reduce back to back, with no host wait
// between them, over 1, 2, 3, 4 and 8 ranks on GPU 0, then spread over the GPUs where there are
// several. Before each call a producer writes every rank's input of that call, one rank's
// late: it starts after a spin of kLateNs, while the others' calls may already run. After each
// call a kernel on each rank compares every element of its output (and the guard after it)
// with the sum, then poisons it again for the next call.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using namespace check11;
using exercise11::HandshakeRank;

/// How long the late rank's producer waits before it writes: far longer than the other ranks'
/// calls take, so that a call that reads an input before its producer is done reads the old one.
constexpr unsigned long long kLateNs = 5'000'000;
constexpr int kThreads = 256;

/// Holds the stream for @p ns nanoseconds: the late producer's head start for the others.
__global__ void spin(unsigned long long ns) {
  const unsigned long long start = global_timer_ns();
  while (global_timer_ns() - start < ns) {
  }
}

/// in[i] = source[i] + call: a rank's input of call @p call, different from every other call's.
__global__ void produce(const int32_t* source, int32_t* in, int64_t n, unsigned int call) {
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * kThreads) {
    in[i] = source[i] + int32_t(call);
  }
}

/// What a rank's check of one call found: how many elements were wrong, and the first of them
/// packed as (index << 32) | value, so that one atomicMin keeps the lowest index with its value.
struct Tally {
  unsigned long long wrong;
  unsigned long long first;
};

/// Compares out[i] with sum[i] + ranks x call for i < n, and the kGuard elements after n with
/// the poison, into *tally; then poisons all of them again for the next call.
__global__ void check_and_poison(int32_t* out, const int32_t* sum, int64_t n, int32_t ranks,
                                 unsigned int call, Tally* tally) {
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n + kGuard;
       i += int64_t{gridDim.x} * kThreads) {
    const int32_t want = i < n ? sum[i] + ranks * int32_t(call) : kPoison;
    if (out[i] != want) {
      atomicAdd(&tally->wrong, 1ull);
      atomicMin(&tally->first, (static_cast<unsigned long long>(i) << 32) | uint32_t(out[i]));
    }
    out[i] = kPoison;
  }
}

/// A rank's buffers for exercise 11.4, on its GPU.
struct RankBuffers {
  DeviceBuffer<int32_t> source, sum, input0, input1, out;
  DeviceBuffer<unsigned int> flags;
  DeviceBuffer<Tally> tallies;  ///< one per call
};

/**
 * @brief The ranks of one graded run of @p calls calls: rank r's source random in [-2^20, 2^20]
 *        (seed + r), its input of call c = source + c, its output of n ints with kGuard more,
 *        its flags (zero), and the sum every output should hold.
 */
class HandshakeSet {
 public:
  HandshakeSet(const Placement& placement, int64_t n, uint64_t seed, int calls)
      : placement_(placement), n_(n), calls_(calls), sum_(size_t(n), 0) {
    const int count = int(placement.devices.size());
    std::vector<std::vector<int32_t>> sources;
    for (int r = 0; r < count; ++r) {
      sources.push_back(random_ints(n, seed + uint64_t(r), -kInputBound, kInputBound));
      for (int64_t i = 0; i < n; ++i) sum_[size_t(i)] += sources.back()[size_t(i)];
    }
    for (int r = 0; r < count; ++r) {
      const int device = placement.devices[size_t(r)];
      DeviceScope scope(device);
      buffers_.push_back(std::make_unique<RankBuffers>(RankBuffers{
          DeviceBuffer<int32_t>(sources[size_t(r)]), DeviceBuffer<int32_t>(sum_),
          DeviceBuffer<int32_t>(n), DeviceBuffer<int32_t>(n), DeviceBuffer<int32_t>(n + kGuard),
          DeviceBuffer<unsigned int>(exercise11::kHandshakeFlags), DeviceBuffer<Tally>(calls)}));
      RankBuffers& b = *buffers_.back();
      // The inputs start poisoned: a call that reads one before its producer wrote it is wrong.
      for (DeviceBuffer<int32_t>* poisoned : {&b.input0, &b.input1, &b.out}) {
        CUDA_CHECK(cudaMemset(poisoned->data(), kPoisonByte, poisoned->bytes()));
      }
      CUDA_CHECK(cudaMemset(b.flags.data(), 0, b.flags.bytes()));
      const std::vector<Tally> clean(size_t(calls), Tally{0, ~0ull});
      b.tallies.copy_from(clean);
      queues_.push_back(std::make_unique<RankQueue>(device));
      ranks_.push_back(HandshakeRank{device,
                                     {b.input0.data(), b.input1.data()},
                                     b.out.data(),
                                     b.flags.data(),
                                     queues_.back()->stream()});
      CUDA_CHECK(cudaDeviceSynchronize());  // the set-up before the ranks' streams start
    }
  }

  /// e.g. "3 ranks on GPU 0, n = 1000"
  std::string what() const { return placement_.name + ", n = " + std::to_string(n_); }
  /// The rank whose producer starts late in call @p call: each rank in turn (none for one rank).
  int late_rank(int call) const { return ranks_.size() > 1 ? call % int(ranks_.size()) : -1; }

  /// Enqueues every call: each rank's producer (the late one after its spin), the learner's
  /// call, and each rank's check. Nothing waits on the host until all are enqueued.
  void run_calls() {
    const int blocks = int(std::min<int64_t>((n_ + kGuard + kThreads - 1) / kThreads, 256));
    for (int call = 0; call < calls_; ++call) {
      for (int r = 0; r < int(ranks_.size()); ++r) {
        const HandshakeRank& rank = ranks_[size_t(r)];
        DeviceScope scope(rank.device);
        if (r == late_rank(call)) spin<<<1, 1, 0, rank.stream>>>(kLateNs);
        produce<<<blocks, kThreads, 0, rank.stream>>>(buffers_[size_t(r)]->source.data(),
                                                      const_cast<int32_t*>(rank.inputs[call % 2]),
                                                      n_, unsigned(call));
        CUDA_CHECK(cudaGetLastError());
      }
      exercise11::handshake_all_reduce(ranks_, n_, unsigned(call));
      CUDA_CHECK(cudaGetLastError());
      for (int r = 0; r < int(ranks_.size()); ++r) {
        const HandshakeRank& rank = ranks_[size_t(r)];
        RankBuffers& b = *buffers_[size_t(r)];
        DeviceScope scope(rank.device);
        check_and_poison<<<blocks, kThreads, 0, rank.stream>>>(
            rank.out, b.sum.data(), n_, int32_t(ranks_.size()), unsigned(call),
            b.tallies.data() + call);
        CUDA_CHECK(cudaGetLastError());
      }
    }
    for (const HandshakeRank& rank : ranks_) {
      DeviceScope scope(rank.device);
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  /// Throws ExerciseFailure for the first call, in order, that left a wrong element on a rank.
  void expect_every_call_right() const {
    std::vector<std::vector<Tally>> tallies;
    for (const auto& b : buffers_) tallies.push_back(b->tallies.to_host());
    for (int call = 0; call < calls_; ++call) {
      for (int r = 0; r < int(ranks_.size()); ++r) {
        const Tally& t = tallies[size_t(r)][size_t(call)];
        if (t.wrong == 0) continue;
        const int64_t i = int64_t(t.first >> 32);
        const int32_t got = int32_t(uint32_t(t.first & 0xFFFFFFFFu));
        const int late = late_rank(call);
        throw ExerciseFailure(
            what() + ", call " + std::to_string(call) +
            (late >= 0 ? " (rank " + std::to_string(late) + "'s producer " +
                             std::to_string(kLateNs / 1000000) + " ms late)"
                       : "") +
            ": " + std::to_string(t.wrong) + " of rank " + std::to_string(r) +
            "'s elements wrong, the first out[" + std::to_string(i) + "] = " + std::to_string(got) +
            (i >= n_ ? ", written past the end of its " + std::to_string(n_) + " elements"
                     : ", want " + std::to_string(sum_[size_t(i)] + int32_t(ranks_.size()) * call) +
                           (got == kPoison ? " (the poison: never written)" : "")));
      }
    }
  }

 private:
  Placement placement_;
  int64_t n_;
  int calls_;
  std::vector<int32_t> sum_;  ///< the sum of call 0; call c's is sum_ + ranks x c
  std::vector<std::unique_ptr<RankBuffers>> buffers_;
  std::vector<std::unique_ptr<RankQueue>> queues_;
  std::vector<HandshakeRank> ranks_;
};

void check_handshake(const CheckRun& run) {
  uint64_t seed = 1140;
  for_each_placement({1, 2, 3, 4, 8}, [&](const Placement& placement) {
    const int calls = std::max(2, 2 * int(placement.devices.size()));  // each rank late twice
    for (int64_t n : run.sizes({1, 2, 3, 5, 31, 1000, 4099, 65537, 1000003})) {
      HandshakeSet set(placement, n, seed += 10, calls);
      set.run_calls();
      set.expect_every_call_right();
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  // One hardware queue per stream (the default is 8 for all of a GPU's streams): a rank's call
  // must never wait in a shared queue behind another rank's late producer.
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0);
  return run_gpu_exercise(argc, argv, "11.4", "a one-shot all-reduce with its handshake",
                          check_handshake);
}
