// What the checkers of exercises 11.1 to 11.4 share: where the ranks go (all on GPU 0, then,
// on a machine with several GPUs, spread over them), the ranks' buffers with their known sum,
// a call ordered as exercise.cuh's contract says, and the check of every rank's output.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace check11 {

using exercise11::DeviceScope;
using exercise11::Rank;

/// Every output is poisoned before each call with the poison of tutorial/harness/poison.hpp,
/// 0x7F7F7F7F: no sum of at most kMaxRanks inputs in [-2^20, 2^20] can take that value, so an
/// element never written shows.
constexpr int kPoisonByte = tutorial::poison_byte<int32_t>();
constexpr int32_t kPoison = tutorial::poison_value<int32_t>();
constexpr int32_t kInputBound = 1 << 20;
/// Poisoned elements after each rank's n outputs: a write past the end shows.
constexpr int64_t kGuard = 64;

/// Where each rank's buffers live, and what the messages call it.
struct Placement {
  std::vector<int> devices;  ///< devices[r]: rank r's GPU
  std::string name;          ///< e.g. "3 ranks on GPU 0"
};

/// @p count ranks, all on GPU 0.
inline Placement on_gpu_zero(int count) {
  return {std::vector<int>(size_t(count), 0),
          std::to_string(count) + (count == 1 ? " rank" : " ranks") + " on GPU 0"};
}

/**
 * @brief The placements that spread each of @p counts ranks (2 or more) over this machine's
 *        GPUs, rank r on GPU r mod G, with peer access on between every pair; none where there
 *        is one GPU, or where some pair has no peer access: then it prints a line saying that
 *        this part is not graded, and why.
 */
inline std::vector<Placement> spread_over_gpus(std::initializer_list<int> counts) {
  int gpus = 0;
  CUDA_CHECK(cudaGetDeviceCount(&gpus));
  gpus = std::min(gpus, exercise11::kMaxRanks);
  const std::string part = "      not graded here: the ranks spread over several GPUs";
  if (gpus < 2) {
    std::cout << part << " (this machine has 1 GPU); grade on one with 2 or more to cover it"
              << std::endl;
    return {};
  }
  for (int from = 0; from < gpus; ++from) {
    DeviceScope scope(from);
    for (int to = 0; to < gpus; ++to) {
      if (to == from) continue;
      int access = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&access, from, to));
      if (!access) {
        std::cout << part << " (GPU " << from << " has no peer access to GPU " << to << ")"
                  << std::endl;
        return {};
      }
      const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // not an error here: enabled by an earlier call
      } else {
        CUDA_CHECK(status);
      }
    }
  }
  std::vector<Placement> spread;
  for (int count : counts) {
    if (count < 2) continue;  // one rank: nothing to spread
    Placement p{
        {},
        std::to_string(count) + " ranks over " + std::to_string(std::min(count, gpus)) + " GPUs"};
    for (int r = 0; r < count; ++r) p.devices.push_back(r % gpus);
    spread.push_back(p);
  }
  return spread;
}

/// A rank's stream and two events on its GPU, destroyed with it: the learner's event
/// (Rank::event) and the checker's own, which joins the rank's work back to the caller.
class RankQueue {
 public:
  explicit RankQueue(int device) : device_(device) {
    DeviceScope scope(device);
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming));
  }
  ~RankQueue() {  // no CUDA_CHECK: a destructor must not throw, even after an error
    int previous = 0;
    (void)cudaGetDevice(&previous);
    (void)cudaSetDevice(device_);
    (void)cudaEventDestroy(joined_);
    (void)cudaEventDestroy(event_);
    (void)cudaStreamDestroy(stream_);
    (void)cudaSetDevice(previous);
  }
  RankQueue(const RankQueue&) = delete;
  RankQueue& operator=(const RankQueue&) = delete;
  cudaStream_t stream() const { return stream_; }
  cudaEvent_t event() const { return event_; }
  cudaEvent_t joined() const { return joined_; }

 private:
  int device_;
  cudaStream_t stream_{};
  cudaEvent_t event_{}, joined_{};
};

/**
 * @brief The ranks of one graded call: rank r's input random in [-2^20, 2^20] (seed + r), its
 *        output of n ints with kGuard more after it, its scratch (poisoned once), its stream
 *        and event; and the sum every output should hold.
 */
class RankSet {
 public:
  RankSet(const Placement& placement, int64_t n, uint64_t seed)
      : placement_(placement), n_(n), sum_(size_t(n), 0) {
    const int count = int(placement.devices.size());
    {
      DeviceScope scope(placement.devices[0]);
      go_ = std::make_unique<tutorial::Event>();
    }
    for (int r = 0; r < count; ++r) {
      const int device = placement.devices[size_t(r)];
      const std::vector<int32_t> input =
          tutorial::random_ints(n, seed + uint64_t(r), -kInputBound, kInputBound);
      for (int64_t i = 0; i < n; ++i) sum_[size_t(i)] += input[size_t(i)];
      DeviceScope scope(device);  // the buffers on the rank's GPU
      ins_.emplace_back(input);
      outs_.emplace_back(n + kGuard);
      scratch_.emplace_back(n);
      CUDA_CHECK(cudaMemset(scratch_.back().data(), kPoisonByte, scratch_.back().bytes()));
      queues_.push_back(std::make_unique<RankQueue>(device));
      ranks_.push_back(Rank{device, ins_.back().data(), outs_.back().data(), scratch_.back().data(),
                            queues_.back()->stream(), queues_.back()->event()});
    }
  }
  RankSet(const RankSet&) = delete;
  RankSet& operator=(const RankSet&) = delete;

  const std::vector<Rank>& ranks() const { return ranks_; }
  int64_t n() const { return n_; }
  /// e.g. "3 ranks on GPU 0, n = 1000"
  std::string what() const { return placement_.name + ", n = " + std::to_string(n_); }

  /**
   * @brief Enqueues @p collective(ranks, n) as exercise.cuh's contract says: it starts after
   *        everything enqueued before on GPU 0's legacy default stream (every rank's stream
   *        waits for an event recorded there), and that stream waits for everything it
   *        enqueued on the ranks' streams. The Timer of expect_speed records its events on
   *        that stream, so a time covers the whole collective.
   */
  void enqueue(const std::function<void(const std::vector<Rank>&, int64_t)>& collective) {
    {
      DeviceScope scope(placement_.devices[0]);
      CUDA_CHECK(cudaEventRecord(go_->get(), 0));
      for (const Rank& rank : ranks_) CUDA_CHECK(cudaStreamWaitEvent(rank.stream, go_->get(), 0));
    }
    collective(ranks_, n_);
    CUDA_CHECK(cudaGetLastError());
    DeviceScope scope(placement_.devices[0]);  // the learner's code may have left another
    for (size_t r = 0; r < ranks_.size(); ++r) {
      CUDA_CHECK(cudaEventRecord(queues_[r]->joined(), ranks_[r].stream));
      CUDA_CHECK(cudaStreamWaitEvent(0, queues_[r]->joined(), 0));
    }
  }

  /// Poisons every output (and its guard), calls @p collective once, and waits for all of it.
  void run(const std::function<void(const std::vector<Rank>&, int64_t)>& collective) {
    for (size_t r = 0; r < ranks_.size(); ++r) {
      DeviceScope scope(ranks_[r].device);
      CUDA_CHECK(cudaMemset(outs_[r].data(), kPoisonByte, outs_[r].bytes()));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    enqueue(collective);
    for (const Rank& rank : ranks_) {
      DeviceScope scope(rank.device);
      CUDA_CHECK(cudaStreamSynchronize(rank.stream));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  /**
   * @brief Expects rank r's output to hold the sum at every i of [begin, end) = @p owned(r),
   *        and the poison everywhere else (its other elements and the kGuard after it).
   */
  void expect_outputs(const std::function<std::pair<int64_t, int64_t>(int)>& owned,
                      const std::string& part) const {
    for (int r = 0; r < int(ranks_.size()); ++r) {
      const std::vector<int32_t> out = outs_[size_t(r)].to_host();
      const auto [begin, end] = owned(r);
      const std::string at = what() + ": rank " + std::to_string(r) + "'s out[";
      int64_t wrong = 0, first = -1;
      for (int64_t i = begin; i < end; ++i) {
        if (out[size_t(i)] != sum_[size_t(i)] && wrong++ == 0) first = i;
      }
      if (wrong > 0) {
        const int32_t got = out[size_t(first)];
        throw tutorial::ExerciseFailure(what() + ": " + std::to_string(wrong) + " of rank " +
                                        std::to_string(r) + "'s elements wrong, the first out[" +
                                        std::to_string(first) + "] = " + std::to_string(got) +
                                        ", want " + std::to_string(sum_[size_t(first)]) +
                                        (got == kPoison ? " (the poison: never written)" : ""));
      }
      for (int64_t i = 0; i < n_ + kGuard; ++i) {
        if ((i >= begin && i < end) || out[size_t(i)] == kPoison) continue;
        throw tutorial::ExerciseFailure(
            at + std::to_string(i) + "] = " + std::to_string(out[size_t(i)]) + " was written" +
            (i >= n_ ? ", past the end of its " + std::to_string(n_) + " elements"
                     : ", outside " + part + " [" + std::to_string(begin) + ", " +
                           std::to_string(end) + ")"));
      }
    }
  }

  /// Expects every rank's output to hold the sum at every i < n, and its guard intact.
  void expect_all_reduced() const {
    expect_outputs([&](int) { return std::pair<int64_t, int64_t>{0, n_}; }, "its n elements");
  }

 private:
  Placement placement_;
  int64_t n_;
  std::vector<int32_t> sum_;
  std::unique_ptr<tutorial::Event> go_;  ///< on GPU 0: where a call may start
  std::vector<tutorial::DeviceBuffer<int32_t>> ins_, outs_, scratch_;
  std::vector<std::unique_ptr<RankQueue>> queues_;
  std::vector<Rank> ranks_;
};

/**
 * @brief Grades @p check(placement) for each count of @p counts: all ranks on GPU 0 first (so
 *        that an exercise still TODO says so before anything is printed), then spread over the
 *        GPUs where this machine has several, or a line saying that part was not graded.
 */
inline void for_each_placement(std::initializer_list<int> counts,
                               const std::function<void(const Placement&)>& check) {
  for (int count : counts) check(on_gpu_zero(count));
  for (const Placement& p : spread_over_gpus(counts)) check(p);
}

}  // namespace check11
