/**
 * @file chapters/08_single_pass/last_block_reduce.cuh
 * @brief A sum in one launch: every block writes its partial sum, draws a ticket, and the
 *        block that draws the last ticket adds the partials in a fixed order. No memset, no
 *        second launch, and the same bits every run, floats included.
 */
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "04_divergence_free/block_reduce.cuh"
#include "05_atomic_grid/sum_traits.cuh"
#include "tutorial/harness/block_cycles.cuh"

namespace chapter08 {

using chapter05::atomic_add;
using chapter05::SumOf;
using chapter05::SumTraits;

/// Threads per block of the reductions: whole warps, for block_reduce_sum().
constexpr int kReduceThreads = 256;

/// 16-byte loads each thread issues before it adds any (chapter 05's kVectorsInFlight).
constexpr int kVectorsInFlight = 4;

/// How the blocks' sums become one.
enum class Finish {
  kAtomic,     ///< chapter 05: one atomicAdd per block into a result zeroed by a memset first
  kLastBlock,  ///< this chapter: partials, a ticket, and the last block adds them in order
};

/// Where the blocks meet: one partial sum per block, and the ticket counter (0 between
/// launches: the last block puts it back).
template <typename Acc>
struct LastBlockState {
  Acc* partials;
  unsigned int* ticket;
};

/// The grid-stride loop of chapter 05 with 16-byte loads, kVectorsInFlight of them issued
/// before any is added: this thread's share of the sum of @p in.
template <typename T>
__device__ SumOf<T> thread_sum(const T* __restrict__ in, int64_t n) {
  using Vector = typename SumTraits<T>::Vector;
  const Vector* vectors = reinterpret_cast<const Vector*>(in);
  const int64_t vector_count = n / 4;
  const int64_t stride = int64_t{gridDim.x} * kReduceThreads;
  const int64_t thread = int64_t{blockIdx.x} * kReduceThreads + threadIdx.x;
  SumOf<T> sum = 0;
  int64_t i = thread;
  for (; i + (kVectorsInFlight - 1) * stride < vector_count; i += kVectorsInFlight * stride) {
    Vector v[kVectorsInFlight];
#pragma unroll
    for (int j = 0; j < kVectorsInFlight; ++j) v[j] = vectors[i + j * stride];
#pragma unroll
    for (int j = 0; j < kVectorsInFlight; ++j)
      sum += (SumOf<T>(v[j].x) + v[j].y) + (SumOf<T>(v[j].z) + v[j].w);
  }
  for (; i < vector_count; i += stride) {
    const Vector v = vectors[i];
    sum += (SumOf<T>(v.x) + v.y) + (SumOf<T>(v.z) + v.w);
  }
  if (thread < n % 4) sum += in[4 * vector_count + thread];  // the 0-3 after the last vector
  return sum;
}

//! [reduce_one_pass]
/**
 * @brief The sum of @p n values of T into *@p out, with the blocks' sums combined by kFinish.
 *
 * kLastBlock: thread 0 of every block writes its block's sum to partials[blockIdx.x], then
 * takes a ticket with one atomic fetch-add on a counter. The fetch-add is a release (the
 * partial written before it is visible to whoever reads the counter after it) and an acquire
 * (a block that sees every other ticket taken also sees every partial written before them).
 * The block that draws ticket gridDim.x - 1 knows that all the others have written: it adds
 * the partials in index order, so the order of the float additions is fixed by the grid
 * alone, and it puts the counter back to 0 for the next launch.
 * @pre run by blocks of kReduceThreads threads; @p in is 16-byte aligned; kAtomic:
 *      *out is 0 before the launch; kLastBlock: state.partials has gridDim.x slots and
 *      *state.ticket is 0 (as the previous launch left it).
 */
template <Finish kFinish, typename T>
__device__ void reduce_one_pass(const T* __restrict__ in, int64_t n, SumOf<T>* out,
                                LastBlockState<SumOf<T>> state) {
  const SumOf<T> block_sum = chapter04::block_reduce_sum<kReduceThreads>(thread_sum(in, n));
  if constexpr (kFinish == Finish::kAtomic) {
    if (threadIdx.x == 0) atomic_add(out, block_sum);
  } else {
    __shared__ bool last_block;
    if (threadIdx.x == 0) {
      state.partials[blockIdx.x] = block_sum;
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticket(*state.ticket);
      const unsigned int drawn = ticket.fetch_add(1, cuda::std::memory_order_acq_rel);
      last_block = drawn == gridDim.x - 1;
      if (last_block) ticket.store(0, cuda::std::memory_order_relaxed);  // every ticket is drawn
    }
    __syncthreads();  // the barrier passes thread 0's acquire on to the block's other threads
    if (last_block) {
      SumOf<T> total = 0;
      for (unsigned int b = threadIdx.x; b < gridDim.x; b += kReduceThreads) {
        total += state.partials[b];
      }
      total = chapter04::block_reduce_sum<kReduceThreads>(total);
      if (threadIdx.x == 0) *out = total;
    }
  }
}
//! [reduce_one_pass]

/// reduce_one_pass as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh).
template <Finish kFinish, typename T>
inline constexpr auto reduce_one_pass_kernel =
    tutorial::clocked_kernel<reduce_one_pass<kFinish, T>, kReduceThreads>;

/// A launch with nothing in it: what any launch costs, the floor of a one-launch sum.
__global__ inline void empty_kernel() {}

/**
 * @brief The loads of reduce_one_pass and nothing after them (no block sum, no finish): what
 *        reading the input costs in one launch, the floor of any one-launch sum that reads it
 *        the same way.
 *
 * Each thread's sum is added to *@p out only when @p write is true. The timed runs pass
 * false: the flag is there so that the compiler cannot drop loads whose values nobody uses.
 */
template <typename T>
__global__ void __launch_bounds__(kReduceThreads)
    read_input_only(const T* __restrict__ in, int64_t n, SumOf<T>* out, bool write) {
  const SumOf<T> sum = thread_sum(in, n);
  if (write) atomic_add(out, sum);
}

}  // namespace chapter08
