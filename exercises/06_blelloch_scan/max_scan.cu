// Exercise 6.4: an inclusive max-scan of any length (see README.md).
#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/exercise.hpp"

namespace exercise06 {

void inclusive_max_scan(const int32_t* d_in, int64_t n, int32_t* d_out) {
  // TODO(6.4): the chapter's scan-then-propagate, with max instead of +:
  //  1. a kernel scans each tile of 2048 elements with block_exclusive_scan and Max{}, writes
  //     the inclusive result, and writes the tile's maximum to tile_max[tile];
  //  2. one block scans tile_max (exclusive: each tile gets the maximum of the tiles before);
  //  3. a kernel folds that into every element of tiles 1, 2, ...
  // The identity of max is not 0: the inputs may all be negative.
  (void)d_in;
  (void)n;
  (void)d_out;
  throw tutorial::Todo("write inclusive_max_scan in exercises/06_blelloch_scan/max_scan.cu");
}

}  // namespace exercise06
