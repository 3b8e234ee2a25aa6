/**
 * @file chapters/10_tensor_cores/square_waves_kernel.cuh
 * @brief Step 8 of chapter 10: step 7's kernel on the fewest blocks that keep the fewest
 *        waves (every wave but the last full), its tiles in groups of 16 tile rows, so that at
 *        4096^3 and 8192^3 on 132 SMs the tiles in flight at one time cover a square of C and
 *        read the fewest bytes of A and B from DRAM (sm_90a only).
 */
#pragma once

#include <cstdint>

#include "07_tiled_matmul/matmul.cuh"
#include "tma_store_kernel.cuh"
#include "tutorial/harness/block_cycles.cuh"
#include "wgmma_kernel.cuh"

namespace chapter10 {

//! [square_waves]
/**
 * Tile rows of step 8's groups. A wave (the tiles a persistent grid computes at one time: 128
 * on step 8's grid at 4096^3) reads every tile row of A and every tile column of B it touches,
 * all along K: 128 rows of K values a tile row, 256 a tile column. In groups of 8 tile rows, a
 * wave of 128 tiles is 8 tile rows by 16 tile columns (1024 x 4096 of C) and reads
 * 8 x 128 + 16 x 256 = 5120 rows. In groups of 16, it is 16 by 8, a square of 2048 x 2048,
 * and reads 16 x 128 + 8 x 256 = 4096: a fifth fewer bytes for L2 to fetch from DRAM (the SMs
 * read as many from L2 in any order). 16 is tuned for waves of 128 tiles of 128 x 256; other
 * wave sizes would want other groups (exercise 10.7 finds them).
 */
constexpr int64_t kWaveGroupRows = 16;

/// The fewest waves of @p tiles on @p slots places that run at once (SMs, or step 9's clusters),
/// then the fewest places that take them: a grid of balanced_grid() takes the same number of
/// tiles in each place (or one fewer), and every wave but the last is full.
inline int64_t balanced_grid(int64_t tiles, int64_t slots) {
  const int64_t waves = tutorial::ceil_div(tiles, slots);
  return tutorial::ceil_div(tiles, waves);
}

/**
 * @brief Step 8's grid for an m x n C: the fewest waves the SMs allow, then the fewest blocks
 *        that take them, so that every block computes the same number of tiles (or one fewer)
 *        and every wave but the last is full.
 *
 * 512 tiles (4096^3) on 132 SMs take 4 waves with 132 blocks or with 128. With 132, 116 blocks
 * take 4 tiles and 16 take 3: the fourth wave runs on 116 SMs and lasts as long as the others,
 * and wave w starts at tile 132 w: waves 0 to 2 straddle two of step 7's groups of 128 tiles.
 * With 128, each block takes 4 tiles and wave w is tiles 128 w to 128 w + 127.
 * @pre m >= 128 and n >= 1 (at least one tile), as the padding makes them.
 */
inline int64_t balanced_blocks(int64_t m, int64_t n, int sm_count) {
  return balanced_grid(wgmma_blocks(m, n), sm_count);
}

/// Step 8: step 7's block (tma_store_tiles()) in groups of kWaveGroupRows tile rows, on
/// balanced_blocks() blocks.
__device__ void matmul_wgmma_square_waves(const CUtensorMap& a_map, const CUtensorMap& b_map,
                                          const CUtensorMap& c_map, int64_t m, int64_t n,
                                          int64_t k) {
  tma_store_tiles<kWaveGroupRows>(a_map, b_map, c_map, m, n, k);
}
//! [square_waves]

/// matmul_wgmma_square_waves as the harness launches it (clocked_kernel in
/// tutorial/harness/block_cycles.cuh), as step 7's; one block an SM.
inline constexpr auto square_waves_kernel =
    tutorial::clocked_kernel<matmul_wgmma_square_waves, kSpecializedThreads, 1,
                             tutorial::ClockStart::kShared>;

}  // namespace chapter10
