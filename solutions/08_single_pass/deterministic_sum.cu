// Exercise 8.3, solved: a float sum whose bits do not depend on the grid. The input is cut into
// chunks whose size n alone decides; whichever block takes a chunk sums it in the same fixed
// order, and the last block adds the chunk sums in a fixed order that depends on their number
// alone. The grid decides only which block does which chunk, never which floats are added to
// which.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include "04_divergence_free/block_reduce.cuh"
#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise08 {

constexpr int kThreads = 256;
constexpr int kVectorsInFlight = 4;

/// Floats per step of a chunk's size: each thread loads kVectorsInFlight float4 per step.
constexpr int64_t kChunkStep = int64_t{4} * kVectorsInFlight * kThreads;

/// The floats per chunk for n: the fewest steps that cut n into at most kSumMaxBlocks chunks.
/// A function of n alone (never of the grid); a multiple of 4, so every chunk starts 16-byte
/// aligned.
constexpr int64_t chunk_size(int64_t n) {
  const int64_t steps = (n + kChunkStep - 1) / kChunkStep;
  return kChunkStep * ((steps + kSumMaxBlocks - 1) / kSumMaxBlocks);
}

/// This thread's share of in[begin, end), begin a multiple of 4: float4 number threadIdx.x of
/// the range, then + kThreads, + 2 kThreads, ..., added in index order, (x + y) + (z + w) each;
/// then the 0-3 floats after the last whole float4, one per thread from thread 0. Which floats a
/// thread adds, and in which order, depends on begin and end only.
__device__ float thread_chunk_sum(const float* __restrict__ in, int64_t begin, int64_t end) {
  const float4* vectors = reinterpret_cast<const float4*>(in + begin);
  const int64_t count = (end - begin) / 4;
  float sum = 0.0f;
  int64_t v = threadIdx.x;
  for (; v + (kVectorsInFlight - 1) * kThreads < count; v += kVectorsInFlight * kThreads) {
    float4 x[kVectorsInFlight];  // every load issued before any is added
    for (int j = 0; j < kVectorsInFlight; ++j) x[j] = vectors[v + j * kThreads];
    for (int j = 0; j < kVectorsInFlight; ++j) sum += (x[j].x + x[j].y) + (x[j].z + x[j].w);
  }
  for (; v < count; v += kThreads)
    sum += (vectors[v].x + vectors[v].y) + (vectors[v].z + vectors[v].w);
  if (threadIdx.x < (end - begin) % 4) sum += in[begin + 4 * count + threadIdx.x];
  return sum;
}

/// Blocks take chunks grid-stride; each chunk's sum (threads in a fixed order, then the fixed
/// shuffle tree of block_reduce_sum) goes to partials[chunk]. Then chapter 08's ticket: the
/// block that draws the last one adds partials[0, chunks) with a tree fixed by the number of
/// chunks alone, and puts the ticket back to 0.
__global__ void __launch_bounds__(kThreads)
    chunked_sum(const float* __restrict__ in, int64_t n, int64_t chunk, float* sum_out,
                float* partials, unsigned int* ticket) {
  const int64_t chunks = (n + chunk - 1) / chunk;
  for (int64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const int64_t end = (c + 1) * chunk < n ? (c + 1) * chunk : n;
    const float chunk_sum =
        chapter04::block_reduce_sum<kThreads>(thread_chunk_sum(in, c * chunk, end));
    if (threadIdx.x == 0) partials[c] = chunk_sum;
    __syncthreads();  // the next block_reduce_sum reuses the shared memory warp 0 reads now
  }

  __shared__ bool last;
  if (threadIdx.x == 0) {
    // Release: this block's chunk sums, written by this thread, are visible to whoever sees
    // the ticket; acquire: the last block sees every chunk sum written before a ticket.
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> count(*ticket);
    last = count.fetch_add(1, cuda::std::memory_order_acq_rel) == gridDim.x - 1;
    if (last) count.store(0, cuda::std::memory_order_relaxed);  // every ticket is drawn
  }
  __syncthreads();  // passes thread 0's acquire on to the block's other threads
  if (!last) return;
  float total = 0.0f;
  for (int64_t c = threadIdx.x; c < chunks; c += kThreads) total += partials[c];
  total = chapter04::block_reduce_sum<kThreads>(total);
  if (threadIdx.x == 0) *sum_out = total;
}

void deterministic_sum(const float* d_in, int64_t n, float* d_sum, float* d_partials,
                       unsigned int* d_ticket, int blocks) {
  const int64_t chunk = chunk_size(n);
  chunked_sum<<<blocks, kThreads>>>(d_in, n, chunk, d_sum, d_partials, d_ticket);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise08
