/**
 * @file exercises/10_tensor_cores/cluster_table.cuh
 * @brief Exercise 10.5's shared parts: a lookup table of 65536 32-bit entries, 256 KiB, more
 *        than one block may have of shared memory (227 KiB on an H100), split over the four
 *        blocks of a thread-block cluster, 64 KiB each; and the given steps of the kernel
 *        around the learner's.
 *
 * The given steps run the blocks of a cluster out of step on purpose, so that a missing
 * cluster.sync() gives wrong outputs on every run, not now and then:
 * - load_slice() poisons the block's slice first (kSlicePoison), and the block of rank r
 *   starts its load r x kLateNs late: a block that reads a peer's slice before the peer has
 *   loaded it reads the poison;
 * - take_turn(): the block of rank r starts its translations r x kLateNs late, so that rank 0
 *   finishes first and the others still read its slice after it;
 * - leave_slice(): poisons the slice as the block ends, as the next block the SM gives that
 *   shared memory would overwrite it: a peer that still reads it reads the poison. (A read
 *   after the block has ended stopped the kernel on an H100 and an H200, 2026-11-26; under
 *   compute-sanitizer racecheck it read the poison.)
 * None of them changes a right answer. They cost about 2 x 3 x kLateNs per cluster, nothing
 * that matters to an exercise graded for correctness alone.
 *
 * Clusters, their barrier and distributed shared memory are plain sm_90, which later GPUs run
 * too: the learner's device code is compiled where __CUDA_ARCH__ >= 900 (cooperative_groups
 * has no cluster_group below) and runs on compute capability 9.0 and newer.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tutorial/harness/block_cycles.cuh"  // global_timer_ns()
#include "tutorial/harness/poison.hpp"

namespace exercise10 {

/// Blocks in a cluster: they hold the table together, each one slice.
constexpr int kClusterBlocks = 4;
/// The table: one 32-bit entry for each 16-bit code.
constexpr int kTableEntries = 1 << 16;
/// Entries a block holds in its shared memory, and their bytes (64 KiB).
constexpr int kSliceEntries = kTableEntries / kClusterBlocks;
constexpr int kSliceBytes = kSliceEntries * int(sizeof(uint32_t));
constexpr int kTableThreads = 256;
/// How late each rank of a cluster is behind the one before it (load_slice(), take_turn()):
/// far longer than a block takes to load its slice (a few microseconds) or to make one pass
/// over its codes, so that what a missing barrier lets happen early or late always happens.
constexpr uint64_t kLateNs = 20'000;
/// What a slice holds before it is loaded and after its block has left: the harness's second
/// poison, 0x80808080, so that it differs from the outputs' (0x7F7F7F7F). No table entry is
/// this value (the checker's tables leave it out), so a read of it is always wrong.
constexpr uint32_t kSlicePoison = tutorial::poison_value<uint32_t>(tutorial::Poison::kSecond);

static_assert(kTableEntries % kClusterBlocks == 0, "the slices must cover the table");
static_assert(kSliceEntries % (4 * kTableThreads) == 0, "a slice is copied in whole uint4 rows");

//! [exercise_10_5]
/// Exercise 10.5: entry @p code of the table, read in the shared memory of the block of this
/// block's cluster that holds it. Block r of the cluster (its rank) holds entries
/// r x kSliceEntries to r x kSliceEntries + kSliceEntries - 1, in that order, in its slice;
/// @p slice is this block's, at the same offset in every block's shared memory.
/// @pre every block of the cluster has loaded its slice and has not left.
__device__ uint32_t lookup(const uint32_t* slice, uint32_t code);

/// Exercise 10.5's kernel (cluster_table.cu): out[i] = table[codes[i]] for i < n, on
/// @p clusters clusters of kClusterBlocks blocks, each cluster with the whole table in its
/// blocks' shared memory. @pre n, clusters >= 1; @p d_table holds kTableEntries entries, 16-byte
/// aligned; compute capability 9.0.
void translate_codes(const uint32_t* d_table, const uint16_t* d_codes, uint32_t* d_out, int64_t n,
                     int64_t clusters);
//! [exercise_10_5]

/// Every thread of the block waits until @p ns nanoseconds have passed on the GPU's clock.
__device__ inline void wait_ns(uint64_t ns) {
  const uint64_t until = tutorial::global_timer_ns() + ns;
  while (tutorial::global_timer_ns() < until) {
  }
}

/// The block of rank @p rank: its slice of @p table, entries rank x kSliceEntries on, into
/// @p slice (kSliceBytes of shared memory). The slice is poisoned first, and the load starts
/// rank x kLateNs late. Each thread writes the same 16-byte words both times, so that its load
/// follows its poison in program order; no barrier follows: the kernel's must.
__device__ inline void load_slice(uint32_t* slice, const uint32_t* table, unsigned int rank) {
  uint4* to = reinterpret_cast<uint4*>(slice);
  for (int i = int(threadIdx.x); i < kSliceEntries / 4; i += kTableThreads) {
    to[i] = make_uint4(kSlicePoison, kSlicePoison, kSlicePoison, kSlicePoison);
  }
  wait_ns(rank * kLateNs);
  const uint4* from = reinterpret_cast<const uint4*>(table + int64_t{rank} * kSliceEntries);
  for (int i = int(threadIdx.x); i < kSliceEntries / 4; i += kTableThreads) to[i] = from[i];
}

/// The block of rank @p rank starts its translations rank x kLateNs late.
__device__ inline void take_turn(unsigned int rank) {
  wait_ns(rank * kLateNs);
}

/// The block is done with its slice: its threads poison the words they loaded, as the SM's
/// next block would overwrite them. @pre no block of the cluster reads the slice any more.
__device__ inline void leave_slice(uint32_t* slice) {
  uint4* words = reinterpret_cast<uint4*>(slice);
  for (int i = int(threadIdx.x); i < kSliceEntries / 4; i += kTableThreads) {
    words[i] = make_uint4(kSlicePoison, kSlicePoison, kSlicePoison, kSlicePoison);
  }
}

}  // namespace exercise10
