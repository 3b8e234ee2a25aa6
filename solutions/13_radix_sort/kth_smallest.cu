// Exercise 13.3, solved: the key of rank k by radix selection. Four rounds, top digit first: a
// histogram of the digit over the keys whose higher digits are those found so far (chapter 12's
// histogram per block, 16-byte loads), then one block finds the digit that holds rank k.
#include <cuda_runtime.h>

#include <algorithm>

#include "exercise.cuh"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_facts.cuh"

namespace exercise13 {

constexpr int kThreads = 256;
constexpr int kDigits = 256;
/// Where the search keeps its state in d_scratch: the 256 counts of this round's digit, the
/// rank still sought among the keys that match the digits found, and those digits (in place).
constexpr int kRankWord = kDigits;
constexpr int kPrefixWord = kDigits + 1;
static_assert(kPrefixWord < kKthScratchWords, "the state fits in the scratch");

/// One block: the counts zeroed, the rank sought is k, no digit found yet.
__global__ void start_search_kernel(unsigned long long* state, int64_t k) {
  state[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    state[kRankWord] = static_cast<unsigned long long>(k);
    state[kPrefixWord] = 0;
  }
}

/// Counts digit (key >> @p shift) & 255 of the keys whose bits under @p higher equal those of
/// the digits found: the block's counts in shared memory, read with 16-byte loads, added to the
/// state's counts at the end. The n % 4 keys after the last whole vector go to block 0.
__global__ void __launch_bounds__(kThreads)
    match_histogram_kernel(const uint32_t* __restrict__ keys, int64_t n, int shift, uint32_t higher,
                           unsigned long long* state) {
  __shared__ uint32_t counts[kDigits];
  counts[threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any add
  const uint32_t prefix = static_cast<uint32_t>(state[kPrefixWord]);
  const auto add_key = [&](uint32_t key) {
    if (((key ^ prefix) & higher) == 0) atomicAdd(&counts[(key >> shift) & (kDigits - 1)], 1u);
  };
  const uint4* vectors = reinterpret_cast<const uint4*>(keys);
  const int64_t vector_count = n / 4, stride = int64_t{gridDim.x} * kThreads;
  for (int64_t v = int64_t{blockIdx.x} * kThreads + threadIdx.x; v < vector_count; v += stride) {
    const uint4 four = vectors[v];
    add_key(four.x);
    add_key(four.y);
    add_key(four.z);
    add_key(four.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) add_key(keys[4 * vector_count + threadIdx.x]);
  __syncthreads();  // every add is in before the counts are read
  const uint32_t c = counts[threadIdx.x];
  if (c != 0) atomicAdd(&state[threadIdx.x], static_cast<unsigned long long>(c));
}

/// One block: thread d finds how many matching keys have a digit below d (a scan of the 256
/// counts in shared memory); the thread whose digit holds the rank sought appends its digit and
/// takes the keys below it off the rank. The counts are zeroed for the next round; after the
/// last round (@p shift 0) the key is complete and goes to @p result.
__global__ void select_digit_kernel(unsigned long long* state, int shift, uint32_t* result) {
  __shared__ unsigned long long inclusive[kDigits];
  const int d = threadIdx.x;
  const unsigned long long count = state[d];
  const unsigned long long rank = state[kRankWord];
  inclusive[d] = count;
  // An inclusive scan of the counts, Hillis-Steele: log2(256) steps, each adding the sum
  // offset places down.
  for (int offset = 1; offset < kDigits; offset *= 2) {
    __syncthreads();  // every sum of the last step is in
    const unsigned long long add = d >= offset ? inclusive[d - offset] : 0;
    __syncthreads();  // every read of this step is done before any write
    inclusive[d] += add;
  }
  const unsigned long long below = inclusive[d] - count;
  state[d] = 0;
  if (below <= rank && rank < inclusive[d]) {  // one thread: the counts add up past the rank
    const uint32_t prefix = static_cast<uint32_t>(state[kPrefixWord]) | (uint32_t(d) << shift);
    state[kRankWord] = rank - below;
    state[kPrefixWord] = prefix;
    if (shift == 0) *result = prefix;
  }
}

void kth_smallest(const uint32_t* d_keys, int64_t n, int64_t k, uint32_t* d_result,
                  unsigned long long* d_scratch) {
  // As many blocks as fit on the GPU at once, found once; fewer for a small input.
  static const int64_t resident = [] {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, match_histogram_kernel,
                                                             kThreads, 0));
    return int64_t{per_sm} * tutorial::query_device().sm_count;
  }();
  const int64_t blocks =
      std::max(int64_t{1}, std::min(resident, (n / 4 + kThreads - 1) / kThreads));
  start_search_kernel<<<1, kThreads>>>(d_scratch, k);
  CUDA_CHECK(cudaGetLastError());
  for (int shift = 24; shift >= 0; shift -= 8) {
    // The bits above this digit: none in the first round, the digits found in the later ones.
    const uint32_t higher = shift == 24 ? 0u : 0xFFFFFFFFu << (shift + 8);
    match_histogram_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(d_keys, n, shift, higher,
                                                                        d_scratch);
    CUDA_CHECK(cudaGetLastError());
    select_digit_kernel<<<1, kThreads>>>(d_scratch, shift, d_result);
    CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace exercise13
