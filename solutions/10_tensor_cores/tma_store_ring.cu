// Exercise 10.6, solved: a block's tile of C stored from registers through a ring of swizzled
// shared boxes and TMA stores, as chapter 10's step 7 stores its accumulators.
#include <cuda.h>

#include <cstdint>

#include "10_tensor_cores/tensor_map.cuh"
#include "tma_store_ring.cuh"
#include "tutorial/harness/cuda_check.cuh"

namespace exercise10 {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ void write_box(const TileValues& d, int box, float* buffer) {
  const int row = int(threadIdx.x) / 2;
#pragma unroll
  for (int q = 0; q < kPiecesPerThread; ++q) {
    const int piece = kPiecesPerThread * (int(threadIdx.x) % 2) + q;
    // The 128-byte swizzle: piece p of row r lands at piece p ^ (r % 8) of the row.
    *reinterpret_cast<float4*>(&buffer[row * kBoxCols + 4 * (piece ^ (row % 8))]) = d.piece[box][q];
  }
}

template <int kBuffers>
__device__ void store_tile(const TileValues& d, float* buffers, const CUtensorMap* c_map,
                           int32_t row0, int32_t col0) {
  // Thread 0 issues, commits and waits for every store: bulk groups are a thread's own, and a
  // wait in any other thread would wait for none of them.
  const bool issuer = threadIdx.x == 0;
#pragma unroll  // d is indexed by box: unrolled, it stays in registers
  for (int box = 0; box < kTileBoxes; ++box) {
    float* buffer = buffers + (box % kBuffers) * kBoxFloats;
    // One group a box: when at most kBuffers - 1 are still reading, the one that read this
    // buffer last (kBuffers boxes ago) is done. The barrier passes that on to every writer.
    if (issuer) tma_store_wait_read<kBuffers - 1>();
    __syncthreads();
    write_box(d, box, buffer);
    fence_shared_for_tma();  // each writer's own writes, made visible to TMA's reads
    __syncthreads();         // every writer's writes (and fence) before the store
    if (issuer) {
      tma_store_2d(c_map, col0 + box * kBoxCols, row0, buffer);
      tma_store_commit();
    }
  }
  if (issuer) tma_store_wait_all();  // no buffer is read, and C is written, before the return
}
#endif

/// One block per 64 x 256 tile of C, its tiles taken row by row: the block loads its values
/// (load_tile), stores them with store_tile through @p kBuffers boxes, and is done
/// (leave_buffers). The given steps (tma_store_ring.cuh) poison the buffers before and after.
template <int kBuffers>
__global__ void __launch_bounds__(kStoreThreads)
    store_tiles_kernel(const __grid_constant__ CUtensorMap c_map, const float* __restrict__ values,
                       int64_t m, int64_t n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ unsigned char dynamic_shared[];
  float* const buffers = box_buffers(dynamic_shared);
  const int64_t tile_cols = tutorial::ceil_div(n, kTileCols);
  const int64_t row0 = blockIdx.x / tile_cols * kBoxRows, col0 = blockIdx.x % tile_cols * kTileCols;
  enter_buffers(buffers, kBuffers);
  TileValues d;
  load_tile(d, values, m, n, row0, col0);
  store_tile<kBuffers>(d, buffers, &c_map, int32_t(row0), int32_t(col0));
  leave_buffers(buffers, kBuffers);
#endif
}

template <int kBuffers>
void launch_store_tiles(const CUtensorMap& c_map, const float* d_values, int64_t m, int64_t n) {
  CUDA_CHECK(cudaFuncSetAttribute(store_tiles_kernel<kBuffers>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  buffer_bytes(kBuffers)));
  store_tiles_kernel<kBuffers>
      <<<unsigned(tile_blocks(m, n)), kStoreThreads, buffer_bytes(kBuffers)>>>(c_map, d_values, m,
                                                                               n);
  CUDA_CHECK(cudaGetLastError());
}

void store_tiles(const float* d_values, float* d_c, int64_t m, int64_t n, int buffers) {
  const CUtensorMap c_map = chapter10::plain_c_tensor_map(d_c, m, n, kBoxRows);
  if (buffers == 1) launch_store_tiles<1>(c_map, d_values, m, n);
  if (buffers == 2) launch_store_tiles<2>(c_map, d_values, m, n);
  if (buffers == 3) launch_store_tiles<3>(c_map, d_values, m, n);
}

}  // namespace exercise10
