// Checker of exercise 10.4: the ring's sums of random tiles, exact, word by word, for 1, 2,
// kRingStages - 1, kRingStages, kRingStages + 1 and many steps a job, with several jobs per
// block (the ring carried from job to job) and with one block per SM. A wait that gives up
// (mbarrier_ring.cuh) ends the kernel, and with it the CUDA context: the checker then names
// the barriers and parities that never came in a TIMEOUT row, and stops.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "mbarrier_ring.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using exercise10::kRingStages;
using exercise10::kTileWords;

/// Compiled like the learner's kernel: its PTX version says whether the build holds code for
/// compute capability 9.0 or newer.
__global__ void probe_kernel() {}

/// Exercise 10.4 needs compute capability 9.0, of the GPU and of this build's code: elsewhere the
/// checker says why it cannot run and exits 77 (the grader's SKIP).
void expect_sm90() {
  require_compute_capability(reinterpret_cast<const void*>(probe_kernel), 90,
                             "exercise 10.4's mbarrier waits by parity, byte counts and bulk "
                             "copies");
}

/// One graded run: jobs of @p steps tiles each, on @p blocks blocks.
struct Case {
  int64_t steps, jobs;
  int blocks;
};

std::string describe(const Case& c) {
  return "steps = " + std::to_string(c.steps) + ", " + std::to_string(c.jobs) + " jobs on " +
         std::to_string(c.blocks) + (c.blocks == 1 ? " block" : " blocks");
}

/// "the producer (block 1) waited 2 s on empty[0] for its phase of parity 0".
std::string describe(const volatile exercise10::StuckWait& w) {
  const std::string who = w.warp == 0 ? "the producer (block " + std::to_string(w.block) + ")"
                                      : "consumer warp " + std::to_string(w.warp) + " of block " +
                                            std::to_string(w.block);
  char seconds[16];
  std::snprintf(seconds, sizeof seconds, "%.0f", exercise10::kWaitLimitNs / 1e9);
  return who + " waited " + seconds + " s on " + (w.empty ? "empty[" : "full[") +
         std::to_string(w.stage) + "] for its phase of parity " + std::to_string(w.parity);
}

/// The stuck waits of both sides, and what would have completed each.
std::string describe(const volatile exercise10::WaitTimeouts& t) {
  std::string what;
  if (t.producer.seen) what = describe(t.producer);
  if (t.consumer.seen) what += (what.empty() ? "" : ", and ") + describe(t.consumer);
  what += ": it never completed. An empty barrier completes a phase when all " +
          std::to_string(exercise10::kConsumerWarps) +
          " consumer warps have released the stage once; a full barrier when the producer has "
          "filled the stage and its " +
          std::to_string(exercise10::kTileBytes) +
          " bytes have landed; a new barrier's phase of parity 1 counts as complete";
  return what;
}

/// The row's title, printed by run_gpu_exercise() and by a TIMEOUT row.
constexpr const char* kTitle = "a three-stage mbarrier ring: parities and releases";

/**
 * @brief A wait that gave up has stopped the kernel: prints the TIMEOUT row (a hang, caught
 *        within seconds; the grader runs no sanitizer on it, which would only see the kernel
 *        stopped again) and ends the process at once. The CUDA context died with the kernel,
 *        so there is nothing left to free or to run.
 */
[[noreturn]] void stop_on_timeout(const std::string& where, const std::string& passed) {
  std::cout << "TIMEOUT  10.4  " << kTitle << ": " << where << ": "
            << describe(*exercise10::wait_timeouts()) << passed << std::endl;
  std::_Exit(kExitWrongResult);
}

/// Words after the sums that must keep their poison (tutorial/harness/poison.hpp): a write past the
/// end shows.
constexpr int64_t kGuardWords = 64;

/// " (passed before it: steps = 1, 2, 3)", or nothing when @p steps is empty.
std::string passed_note(const std::vector<int64_t>& steps) {
  std::string note;
  for (int64_t s : steps)
    note += (note.empty() ? " (passed before it: steps = " : ", ") + std::to_string(s);
  return note.empty() ? note : note + ")";
}

/// Runs @p c on random tiles and expects every word of every job's sum. @p passed: the step
/// counts of the cases that passed before it, named in a failure.
void expect_sums(const Case& c, uint64_t seed, const std::string& passed) {
  const std::string where = describe(c);
  std::vector<uint32_t> tiles(size_t(c.jobs * c.steps * kTileWords));
  fill_random(tiles, seed, [](SplitMix64& rng) { return static_cast<uint32_t>(rng.next() >> 32); });
  std::vector<uint32_t> want(size_t(c.jobs * kTileWords), 0);
  for (int64_t job = 0; job < c.jobs; ++job) {
    for (int64_t s = 0; s < c.steps; ++s) {
      const uint32_t* tile = &tiles[size_t((job * c.steps + s) * kTileWords)];
      for (int64_t w = 0; w < kTileWords; ++w) want[size_t(job * kTileWords + w)] += tile[w];
    }
  }
  const DeviceBuffer<uint32_t> d_tiles(tiles);
  DeviceBuffer<uint32_t> d_sums(c.jobs * kTileWords + kGuardWords);
  d_sums.poison();

  try {
    exercise10::sum_job_tiles(d_tiles.data(), d_sums.data(), c.jobs, c.steps, c.blocks);
    CUDA_CHECK(cudaDeviceSynchronize());
  } catch (const CudaError&) {
    const volatile exercise10::WaitTimeouts& stuck = *exercise10::wait_timeouts();
    if (stuck.producer.seen || stuck.consumer.seen) stop_on_timeout(where, passed);
    throw;  // another error: its FAIL row says which
  }

  const std::vector<uint32_t> got = d_sums.to_host();
  for (int64_t i = 0; i < kGuardWords; ++i) {
    expect(got[size_t(c.jobs * kTileWords + i)] == tutorial::poison_value<uint32_t>(),
           where + ": wrote past the end of the sums (word " + std::to_string(i) + " after it)");
  }
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < c.jobs * kTileWords; ++i) {
    if (got[size_t(i)] != want[size_t(i)]) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return;
  throw ExerciseFailure(
      where + ": " + std::to_string(bad) + " of " + std::to_string(c.jobs * kTileWords) +
      " words of the sums wrong; the first, word " + std::to_string(first % kTileWords) +
      " of job " + std::to_string(first / kTileWords) + ", is " +
      std::to_string(got[size_t(first)]) + ", not " + std::to_string(want[size_t(first)]) +
      " (a tile added before it landed, a stale one added again, or one "
      "overwritten while it was read)" +
      passed);
}

void check_mbarrier_ring(const CheckRun& run) {
  expect_sm90();
  // 5 jobs on 2 blocks: block 0 takes jobs 0, 2 and 4, block 1 jobs 1 and 3, so each ring
  // runs on from job to job. The step counts: one, fewer than the stages, as many, one more
  // (the second round), and many rounds.
  std::vector<Case> cases;
  for (int64_t steps : {int64_t{1}, int64_t{2}, int64_t{kRingStages}, int64_t{kRingStages + 1},
                        int64_t{7}, int64_t{64}}) {
    cases.push_back({steps, 5, 2});
  }
  if (!run.small) {
    const int sms = query_device().sm_count;
    cases.push_back({10, 2 * int64_t{sms} + 3, sms});  // every SM, 2 or 3 jobs each
    cases.push_back({500, 2, 1});                      // one ring, 1000 uses
  }
  std::vector<int64_t> passed;
  uint64_t seed = 1040;
  for (const Case& c : cases) {
    expect_sums(c, seed += 7, passed_note(passed));
    passed.push_back(c.steps);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.4", kTitle, check_mbarrier_ring);
}
