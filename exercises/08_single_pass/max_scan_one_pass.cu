// Exercise 8.2: an inclusive max-scan in one pass, with decoupled look-back (see README.md).
#include <cuda/atomic>

#include <climits>

#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise08 {

constexpr int kWarps = kMaxScanThreads / 32;

/**
 * @brief Run by the 32 lanes of warp 0 of the block that scans tile @p tile, whose own maximum
 *        is @p aggregate: returns (in lane 0 at least) the maximum of all tiles before it.
 *
 * Publishes the tile's status word for the tiles after it: kAggregate as soon as it can, then
 * kInclusive (the maximum of the tile and all before it) once it knows it.
 */
__device__ int32_t look_back_max(uint64_t* status, int64_t tile, int32_t aggregate,
                                 uint32_t parity) {
  // TODO(8.2): publish this tile's status and find the maximum of the tiles before it, by
  // reading the status words of its predecessors (see README.md).
  (void)status;
  (void)tile;
  (void)aggregate;
  (void)parity;
  return 0;
}

/// Each block takes the next tile from the counter, scans it (four consecutive elements per
/// thread, warp shuffles, one barrier), gets the maximum before the tile from look_back_max,
/// and writes its elements.
__global__ void __launch_bounds__(kMaxScanThreads)
    max_scan_kernel(const int32_t* in, int64_t n, int32_t* out, uint64_t* status,
                    unsigned int* next_tile, int64_t tiles, uint32_t parity) {
  __shared__ unsigned int taken;
  __shared__ int32_t warp_max[kWarps];
  __shared__ int32_t tile_prefix;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    taken = atomicAdd(next_tile, 1u);
    if (taken == tiles - 1) {  // every tile is handed out: ready for the next call
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(*next_tile)
          .store(0, cuda::std::memory_order_relaxed);
    }
  }
  __syncthreads();
  const int64_t first = int64_t{taken} * kMaxScanTile + 4 * threadIdx.x;
  int32_t x[4];
  int32_t mine = INT32_MIN;  // the identity of max
  for (int k = 0; k < 4; ++k) {
    x[k] = first + k < n ? in[first + k] : INT32_MIN;
    mine = max(mine, x[k]);
  }
  int32_t inclusive = mine;  // over the lanes of the warp
  for (int offset = 1; offset < 32; offset *= 2) {
    const int32_t up = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= offset) inclusive = max(inclusive, up);
  }
  if (lane == 31) warp_max[warp] = inclusive;
  const int32_t up = __shfl_up_sync(0xffffffffu, inclusive, 1);
  __syncthreads();
  int32_t before = lane == 0 ? INT32_MIN : up, aggregate = INT32_MIN;
  for (int w = 0; w < kWarps; ++w) {
    if (w < warp) before = max(before, warp_max[w]);
    aggregate = max(aggregate, warp_max[w]);
  }
  if (warp == 0) {
    const int32_t prefix = look_back_max(status, taken, aggregate, parity);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();
  int32_t running = max(tile_prefix, before);
  for (int k = 0; k < 4; ++k) {
    running = max(running, x[k]);
    if (first + k < n) out[first + k] = running;
  }
}

void max_scan_one_pass(const int32_t* d_in, int64_t n, int32_t* d_out, uint64_t* d_status,
                       unsigned int* d_next_tile, uint32_t parity) {
  throw tutorial::Todo(
      "write look_back_max in exercises/08_single_pass/max_scan_one_pass.cu, then delete this "
      "line");
  const int64_t tiles = max_scan_tiles(n);
  max_scan_kernel<<<static_cast<unsigned int>(tiles), kMaxScanThreads>>>(
      d_in, n, d_out, d_status, d_next_tile, tiles, parity);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise08
