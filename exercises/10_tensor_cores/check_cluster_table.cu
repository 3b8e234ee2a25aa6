// Checker of exercise 10.5: random codes translated through a random table split over the
// shared memory of a cluster's four blocks, every output compared with the host's table,
// exactly: n = 1 (one block with work, its three peers with none), sizes that are not a
// multiple of the block or the grid, on one to a few clusters, then a million codes and 2^24 + 3
// codes on more clusters than the GPU holds at once. The given steps of the kernel
// (cluster_table.cuh) make a missing cluster.sync() show in the first cases with more than one
// block at work: rank 0 reads its peers' slices while they are still poisoned, ranks 1 to 3
// read rank 0's after it has left.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster_table.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using exercise10::kClusterBlocks;
using exercise10::kSliceEntries;
using exercise10::kSlicePoison;
using exercise10::kTableEntries;

/// Compiled like the learner's kernel: its PTX version says whether the build holds code for
/// compute capability 9.0 or newer.
__global__ void probe_kernel() {}

/// Exercise 10.5 needs compute capability 9.0, of the GPU and of this build's code: elsewhere the
/// checker says why it cannot run and exits 77 (the grader's SKIP).
void expect_sm90() {
  require_compute_capability(reinterpret_cast<const void*>(probe_kernel), 90,
                             "exercise 10.5's thread-block clusters and distributed shared memory");
}

/// One graded run: @p n codes on @p clusters clusters.
struct Case {
  int64_t n, clusters;
};

std::string describe(const Case& c) {
  return "n = " + std::to_string(c.n) + " on " + std::to_string(c.clusters) +
         (c.clusters == 1 ? " cluster" : " clusters");
}

/// " (passed before it: n = 1, 1000)", or nothing when @p sizes is empty.
std::string passed_note(const std::vector<int64_t>& sizes) {
  std::string note;
  for (int64_t n : sizes)
    note += (note.empty() ? " (passed before it: n = " : ", ") + std::to_string(n);
  return note.empty() ? note : note + ")";
}

/// A random table with no entry equal to the slices' poison or the outputs', so that a read of
/// either is always wrong.
std::vector<uint32_t> random_table(uint64_t seed) {
  std::vector<uint32_t> table(kTableEntries);
  fill_random(table, seed, [](SplitMix64& rng) {
    const auto v = static_cast<uint32_t>(rng.next() >> 32);
    return v == kSlicePoison || v == poison_value<uint32_t>() ? v ^ 1u : v;
  });
  return table;
}

/// What a wrong output @p got (for code @p code) is, as far as the checker can tell.
std::string explain(uint32_t got, uint32_t code, const std::vector<uint32_t>& table) {
  const std::string held = " (entry " + std::to_string(code) + " is held by the block of rank " +
                           std::to_string(code / kSliceEntries) + ", at " +
                           std::to_string(code % kSliceEntries) + " in its slice)";
  if (got == kSlicePoison) {
    return held +
           ": it is the poison of a slice, read before the slice's block had loaded it or "
           "after that block had left";
  }
  if (got == poison_value<uint32_t>()) return held + ": the output's poison, never written";
  for (uint32_t e = 0; e < uint32_t(kTableEntries); ++e) {
    if (table[e] == got) return held + ": it is entry " + std::to_string(e) + " of the table";
  }
  return held;
}

/// Words after the outputs that must keep their poison: a write past the end shows.
constexpr int64_t kGuardWords = 64;

/// Runs @p c on random codes and a random table and expects every output. @p passed: the sizes
/// of the cases that passed before it, named in a failure.
void expect_translations(const Case& c, uint64_t seed, const std::string& passed) {
  const std::string where = describe(c);
  const std::vector<uint32_t> table = random_table(seed);
  std::vector<uint16_t> codes(size_t(c.n));
  fill_random(codes, seed + 1, [](SplitMix64& rng) { return static_cast<uint16_t>(rng.next()); });
  const DeviceBuffer<uint32_t> d_table(table);
  const DeviceBuffer<uint16_t> d_codes(codes);
  DeviceBuffer<uint32_t> d_out(c.n + kGuardWords);
  d_out.poison();

  exercise10::translate_codes(d_table.data(), d_codes.data(), d_out.data(), c.n, c.clusters);
  try {
    CUDA_CHECK(cudaDeviceSynchronize());
  } catch (const CudaError& e) {
    // On an H100 and an H200 (2026-11-26), a read of the shared memory of a block that had
    // ended stopped the kernel with cudaErrorLaunchFailure, even with no other block to take
    // that memory: a probe of one cluster whose ranks 1 to 3 ended right after cluster.sync().
    throw CudaError(std::string(e.what()) + ": the kernel stopped, " + where +
                    ". A block that reads the shared memory of a block of its cluster that has "
                    "already ended stops it so (seen on an H100 and an H200)" +
                    passed);
  }

  const std::vector<uint32_t> got = d_out.to_host();
  for (int64_t i = 0; i < kGuardWords; ++i) {
    expect(got[size_t(c.n + i)] == poison_value<uint32_t>(),
           where + ": wrote past the end of the outputs (word " + std::to_string(i) + " after it)");
  }
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < c.n; ++i) {
    if (got[size_t(i)] != table[codes[size_t(i)]]) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return;
  const uint32_t code = codes[size_t(first)];
  throw ExerciseFailure(where + ": " + std::to_string(bad) + " of " + std::to_string(c.n) +
                        " outputs wrong; the first, out[" + std::to_string(first) + "] for code " +
                        std::to_string(code) + ", is " + std::to_string(got[size_t(first)]) +
                        ", not " + std::to_string(table[code]) +
                        explain(got[size_t(first)], code, table) + passed);
}

void check_cluster_table(const CheckRun& run) {
  expect_sm90();
  const int64_t sms = query_device().sm_count;
  // n = 1: one thread at work. 1000 on one cluster: every block makes one pass, ranks 1 to 3
  // with codes too (the case that catches a missing barrier). Then sizes that are not a
  // multiple of the block (256) or the grid, on 2 and 3 clusters; about one cluster for every
  // four SMs; and as many clusters as SMs, more than the GPU holds at once.
  std::vector<Case> cases = {{1, 1}, {1000, 1}, {4097, 2}, {65537, 3}};
  if (!run.small) {
    cases.push_back({1'000'003, std::max<int64_t>(1, sms / kClusterBlocks)});
    cases.push_back({(int64_t{1} << 24) + 3, sms});
  }
  std::vector<int64_t> passed;
  uint64_t seed = 1050;
  for (const Case& c : cases) {
    if (run.small && c.n > CheckRun::kSmallLimit) continue;
    expect_translations(c, seed += 7, passed_note(passed));
    passed.push_back(c.n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.5", "a table in a cluster's distributed shared memory",
                          check_cluster_table);
}
