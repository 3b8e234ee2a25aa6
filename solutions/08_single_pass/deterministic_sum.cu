// Exercise 8.3, solved: a float sum in one launch, the same bits every call, faster than CUB:
// chapter 08's last block, with 16-byte loads and a grid sized so that each thread has four in
// flight.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/block_reduce.cuh"
#include "tutorial/cuda_check.cuh"

namespace exercise08 {

constexpr int kThreads = 256;
constexpr int kVectorsInFlight = 4;

/// Grid-stride over float4 with kVectorsInFlight loads issued before any is added; block sums;
/// the block that draws the last ticket adds the partials in index order and resets the ticket.
__global__ void __launch_bounds__(kThreads)
    last_block_sum(const float* in, int64_t n, float* sum_out, float* partials,
                   unsigned int* ticket) {
  const float4* vectors = reinterpret_cast<const float4*>(in);
  const int64_t count = n / 4, stride = int64_t{gridDim.x} * kThreads;
  const int64_t thread = int64_t{blockIdx.x} * kThreads + threadIdx.x;
  float sum = 0.0f;
  int64_t i = thread;
  for (; i + (kVectorsInFlight - 1) * stride < count; i += kVectorsInFlight * stride) {
    float4 v[kVectorsInFlight];
    for (int j = 0; j < kVectorsInFlight; ++j) v[j] = vectors[i + j * stride];
    for (int j = 0; j < kVectorsInFlight; ++j) sum += (v[j].x + v[j].y) + (v[j].z + v[j].w);
  }
  for (; i < count; i += stride)
    sum += (vectors[i].x + vectors[i].y) + (vectors[i].z + vectors[i].w);
  if (thread < n % 4) sum += in[4 * count + thread];
  sum = tutorial::block_reduce_sum<kThreads>(sum);

  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> count_ref(*ticket);
    last = count_ref.fetch_add(1, cuda::std::memory_order_acq_rel) == gridDim.x - 1;
    if (last) count_ref.store(0, cuda::std::memory_order_relaxed);
  }
  __syncthreads();
  if (!last) return;
  float total = 0.0f;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += kThreads) total += partials[b];
  total = tutorial::block_reduce_sum<kThreads>(total);
  if (threadIdx.x == 0) *sum_out = total;
}

void deterministic_sum(const float* d_in, int64_t n, float* d_sum, float* d_partials,
                       unsigned int* d_ticket) {
  // As many blocks as fit on the GPU at once, found once (the queries cost more than a small
  // sum), and no more than four float4 per thread need.
  static const int resident = [] {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, last_block_sum, kThreads, 0));
    return sms * per_sm;
  }();
  constexpr int64_t kPerBlock = 4 * kVectorsInFlight * kThreads;
  const int64_t useful = (n + kPerBlock - 1) / kPerBlock;
  const int blocks =
      static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({useful, resident, kSumMaxBlocks})));
  last_block_sum<<<blocks, kThreads>>>(d_in, n, d_sum, d_partials, d_ticket);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise08
