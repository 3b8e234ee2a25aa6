// Exercise 6.4: an inclusive max-scan of any length (see README.md).
#include "exercise.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

constexpr int kThreads = 1024;
constexpr int kTile = 2 * kThreads;

/// Block b max-scans tile b (inclusive or exclusive) and writes the tile's maximum to
/// tile_max[b] unless tile_max is null.
__global__ void max_scan_tiles(const int32_t* in, int64_t n, int32_t* out, int32_t* tile_max,
                               bool inclusive) {
  __shared__ int32_t tree[kTile];
  const int t = threadIdx.x;
  const int64_t first = int64_t{blockIdx.x} * kTile;
  const int64_t i0 = first + t, i1 = first + t + kThreads;
  // Past n: INT32_MIN, the identity of max (0 would beat all-negative inputs).
  const int32_t x0 = i0 < n ? in[i0] : INT32_MIN;
  const int32_t x1 = i1 < n ? in[i1] : INT32_MIN;
  tree[t] = x0;
  tree[t + kThreads] = x1;
  const int32_t all = block_exclusive_scan(tree, kTile, int32_t{INT32_MIN}, Max{}, UnpaddedSlot{});
  if (i0 < n) out[i0] = inclusive ? Max{}(tree[t], x0) : tree[t];
  if (i1 < n) out[i1] = inclusive ? Max{}(tree[t + kThreads], x1) : tree[t + kThreads];
  if (t == 0 && tile_max != nullptr) tile_max[blockIdx.x] = all;
}

/// Block k folds the maximum of the tiles before tile k + 1 into every element of it.
__global__ void fold_tile_prefix(int32_t* out, int64_t n, const int32_t* tile_prefix) {
  const int64_t tile = int64_t{blockIdx.x} + 1;
  const int32_t before = tile_prefix[tile];
  const int64_t end = (tile + 1) * kTile < n ? (tile + 1) * kTile : n;
  for (int64_t i = tile * kTile + threadIdx.x; i < end; i += kThreads) {
    out[i] = Max{}(out[i], before);
  }
}

void inclusive_max_scan(const int32_t* d_in, int64_t n, int32_t* d_out) {
  const int64_t tiles = (n + kTile - 1) / kTile;  // at most kTile: one block scans them all
  tutorial::DeviceBuffer<int32_t> tile_max(tiles), tile_prefix(tiles);
  max_scan_tiles<<<static_cast<unsigned>(tiles), kThreads>>>(d_in, n, d_out, tile_max.data(), true);
  CUDA_CHECK(cudaGetLastError());
  if (tiles == 1) return;
  max_scan_tiles<<<1, kThreads>>>(tile_max.data(), tiles, tile_prefix.data(), nullptr, false);
  fold_tile_prefix<<<static_cast<unsigned>(tiles - 1), kThreads>>>(d_out, n, tile_prefix.data());
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace exercise06
