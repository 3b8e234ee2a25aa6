// A fixture of tools/warp_masks.cmake's test: four constant masks that leave out lanes which
// execute the call.
constexpr unsigned kHalf = 0x0000ffffu;
#define LOW_LANES 255
__device__ int warp_sum(int v, bool p) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffff, v, offset);
  }
  /* __shfl_down_sync(0x1, v, 1) in a comment over
     two lines is not a call */
  const unsigned votes = __ballot_sync(kHalf, p);
  __syncwarp(LOW_LANES);
  __syncwarp(0x7fffffffU);
  return v + static_cast<int>(votes);
}
