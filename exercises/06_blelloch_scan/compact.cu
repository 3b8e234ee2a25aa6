// Exercise 6.3: stream compaction built on a scan (see README.md).
#include "exercise.cuh"
#include "tutorial/device_buffer.cuh"
#include "tutorial/exercise.hpp"

namespace exercise06 {

int64_t compact(const int32_t* d_in, int64_t n, int32_t* d_out) {
  // TODO(6.3): three steps, then return the count.
  //  1. a kernel writes flags[i] = keep(in[i]) ? 1 : 0 (int64 flags, in a DeviceBuffer);
  //  2. exclusive_sum(flags, n, offsets) (exercise.cuh) gives each kept element its place;
  //  3. a kernel copies every kept in[i] to out[offsets[i]].
  // The count is offsets[n-1] + flags[n-1]: copy those two values back. Use 64-bit indices.
  (void)d_in;
  (void)n;
  (void)d_out;
  throw tutorial::Todo("write compact in exercises/06_blelloch_scan/compact.cu");
}

}  // namespace exercise06
