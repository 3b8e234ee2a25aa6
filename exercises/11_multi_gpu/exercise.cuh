/**
 * @file exercises/11_multi_gpu/exercise.cuh
 * @brief The functions of exercises 11.1 to 11.4, shared by the learner's files and the
 *        checkers, and the small pieces they build on: the ranks of a collective, a device
 *        scope, and the inputs of every rank as one kernel argument.
 *
 * A collective here runs over N logical ranks (1 <= N <= kMaxRanks). Rank r is a set of
 * buffers on one GPU, ranks[r].device, and a stream and an event on that GPU. Several ranks
 * may share one GPU: on a machine with one GPU the checkers put every rank on GPU 0, where a
 * copy from one rank's buffer to another's is an ordinary device-to-device copy and a kernel
 * reads any of them. On a machine with several GPUs they also spread the ranks over them, with
 * peer access on between every pair, as in chapter 11.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "11_multi_gpu/device_scope.hpp"  // DeviceScope, chapter 11's
#include "tutorial/harness/cuda_check.cuh"

namespace exercise11 {

/// The most ranks a collective here takes (a kernel argument holds their pointers).
constexpr int kMaxRanks = 8;

/// One rank of a collective: its buffers, and where its work runs.
struct Rank {
  int device;           ///< the GPU that holds the buffers, the stream and the event
  const int32_t* in;    ///< n ints: this rank's input, never written
  int32_t* out;         ///< n ints: this rank's output, poisoned before a graded call
  int32_t* scratch;     ///< n ints of room, in any state, for this rank's own use
  cudaStream_t stream;  ///< a non-blocking stream on device: this rank's work goes here
  cudaEvent_t event;    ///< an event on device (no timing), free to record on stream
};

//! [ordering]
// The ordering contract of every function here, for the ranks it is given:
// - When the function is called, every earlier operation on any rank has finished, or comes
//   before anything the function enqueues (the caller makes sure): the first step may read
//   any rank's buffers at once.
// - The function enqueues its work on the ranks' streams; it may also wait on the host
//   (cudaStreamSynchronize), though it need not. Between ranks nothing is ordered unless the
//   function orders it: a stream that waits for an event recorded on another rank's stream
//   (cudaStreamWaitEvent) starts its next operation only after that rank's work before the
//   record.
// - After the call, the caller waits for every rank's stream, and then reads every rank's out:
//   all the work must be on the ranks' streams (or finished) by the time the function returns.
//! [ordering]

//! [exercise_11_1]
/// Exercise 11.1: the ring all-reduce. For every rank r and 0 <= i < @p n,
/// ranks[r].out[i] = the sum over every rank q of ranks[q].in[i] (int32, exact), computed as a
/// ring: each rank receives data only from rank r - 1 (mod N), chunk by chunk, in N - 1 steps
/// of reduce-scatter and N - 1 of all-gather. Ordering: see the contract above.
/// @pre 1 <= ranks.size() <= kMaxRanks; n >= 1.
void ring_all_reduce(const std::vector<Rank>& ranks, int64_t n);
//! [exercise_11_1]

//! [exercise_11_2]
/// Exercise 11.2: the reduce-scatter of a two-shot all-reduce. Rank r's chunk is the elements
/// r n / N <= i < (r + 1) n / N (N = ranks.size(), each bound rounded down: the chunks differ
/// in size by at most one, and some are empty when n < N). For every rank r and every i of its
/// chunk, ranks[r].out[i] = the sum over every rank q of ranks[q].in[i], computed by a kernel on
/// rank r's device that reads every rank's input; no other element of ranks[r].out is written.
/// Ordering: see the contract above.
/// @pre 1 <= ranks.size() <= kMaxRanks; n >= 1.
void reduce_scatter(const std::vector<Rank>& ranks, int64_t n);
//! [exercise_11_2]

//! [exercise_11_3]
/// Exercise 11.3 (performance): the all-reduce of exercise 11.1 (every rank's out = the sum of
/// every rank's in, for 0 <= i < @p n), as fast as the checker's target. Ordering: see the
/// contract above. @pre 1 <= ranks.size() <= kMaxRanks; n >= 1.
void fast_ring_all_reduce(const std::vector<Rank>& ranks, int64_t n);
//! [exercise_11_3]

/// Makes a device current for a scope, and puts the one before back: chapter 11's. A kernel
/// launch goes to the current device, and must use a stream of that device.
using chapter11::DeviceScope;

/// Every rank's input, by rank, as one kernel argument (chapter 11's PeerPointers): a kernel on
/// any rank's device may read them all (the same GPU, or a peer's memory over the link).
struct RankInputs {
  const int32_t* of[kMaxRanks];
  int count;
};

/// The inputs of @p ranks as a RankInputs. @pre ranks.size() <= kMaxRanks.
inline RankInputs inputs_of(const std::vector<Rank>& ranks) {
  RankInputs inputs{};
  inputs.count = static_cast<int>(ranks.size());
  for (int r = 0; r < inputs.count; ++r) inputs.of[r] = ranks[size_t(r)].in;
  return inputs;
}

/// The most blocks a rank's kernel may have in exercise 11.4: on one GPU every rank's kernel
/// must run at the same time (each waits for the others), so they must all fit together.
constexpr int kHandshakeBlocks = 8;
/// The flags of a rank in exercise 11.4: one for every block of every rank.
constexpr int kHandshakeFlags = kHandshakeBlocks * kMaxRanks;

/// One rank of exercise 11.4: two inputs that the calls take in turn, an output, and flags.
struct HandshakeRank {
  int device;                ///< the GPU that holds the buffers and the stream
  const int32_t* inputs[2];  ///< n ints each: call c reads inputs[c % 2]
  int32_t* out;              ///< n ints: call c leaves its sum here
  unsigned int* flags;       ///< kHandshakeFlags words on device, all 0 before call 0; yours
  cudaStream_t stream;       ///< a non-blocking stream on device: this rank's work goes here
};

//! [exercise_11_4]
/// Exercise 11.4: call number @p call (0, 1, 2, ... on the same ranks) of a one-shot
/// all-reduce that orders the ranks itself. For every rank r and 0 <= i < @p n,
/// ranks[r].out[i] = the sum over every rank q of ranks[q].inputs[call % 2][i] (int32, exact),
/// computed by one kernel launch on each rank's stream, of at most kHandshakeBlocks blocks, that
/// reads every rank's input itself. The kernels agree through the ranks' flags: no event, no
/// host wait. Ordering: the contract of 11.4 in README.md, not the one above.
/// @pre 1 <= ranks.size() <= kMaxRanks; n >= 1; calls numbered without gaps from 0.
void handshake_all_reduce(const std::vector<HandshakeRank>& ranks, int64_t n, unsigned int call);
//! [exercise_11_4]

}  // namespace exercise11
