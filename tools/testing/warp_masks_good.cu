// A fixture of tools/warp_masks.cmake's test: masks it must accept. Full masks spelled four
// ways, a name defined as one, a mask computed at run time from a branch's condition.
constexpr unsigned kFull = 0xFFFFFFFFu;
__device__ int warp_sum(int v, bool p, int lane) {
  v += __shfl_down_sync(0xffffffffu, v, 16);
  v += __shfl_xor_sync(~0u, v, 8);
  v += __shfl_up_sync(-1, v, 1);
  v += __shfl_sync(kFull, v, 0);
  const unsigned low = __ballot_sync(0xFFFFFFFF, lane < 8);
  if (lane < 8) v += __shfl_down_sync(low, v, 4, 8);
  __syncwarp();
  // __shfl_down_sync(0xffff, v, 1) in a comment is not a call
  return v + static_cast<int>(__any_sync(0xffffffff, p));
}
