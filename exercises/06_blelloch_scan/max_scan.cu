// Exercise 6.4: an inclusive max-scan of any length (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

void inclusive_max_scan(const int32_t* d_in, int64_t n, int32_t* d_out) {
  // TODO(6.4): write d_out[i] = max(d_in[0], ..., d_in[i]) for any n from 1 to 2048 * 2048,
  // with block_exclusive_scan and Max (exercise.cuh), the way chapter 06 scans sums of any
  // length. The inputs may all be negative.
  (void)d_in;
  (void)n;
  (void)d_out;
  throw tutorial::Todo("write inclusive_max_scan in exercises/06_blelloch_scan/max_scan.cu");
}

}  // namespace exercise06
