// Exercise 6.3: stream compaction built on a scan (see README.md).
#include "exercise.cuh"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

int64_t compact(const int32_t* d_in, int64_t n, int32_t* d_out) {
  // TODO(6.3): copy the elements x of d_in with keep(x) to the front of d_out, in their
  // order, and return how many there are, for any n >= 1. Build it on a scan: exclusive_sum
  // (exercise.cuh) is there for that.
  (void)d_in;
  (void)n;
  (void)d_out;
  throw tutorial::Todo("write compact in exercises/06_blelloch_scan/compact.cu");
}

}  // namespace exercise06
