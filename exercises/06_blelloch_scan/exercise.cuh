/**
 * @file exercises/06_blelloch_scan/exercise.cuh
 * @brief The functions of exercises 6.1-6.5, shared by the learner's files and the checker,
 *        and the Blelloch tree they build on (any operator, any slot layout).
 */
#pragma once

#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstdint>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace exercise06 {

/// The + of a sum scan; its identity is 0.
struct Plus {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

/// The max of a max-scan; its identity is the smallest value of the type (INT32_MIN for int32).
struct Max {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};

/// Element i of the tree lives in slot i (no padding).
struct UnpaddedSlot {
  __device__ int operator()(int i) const { return i; }
};

/**
 * @brief Exclusive scan with @p op of the @p count values in shared memory @p tree, in place:
 *        element i becomes op(x_0, ..., x_{i-1}), element 0 becomes @p identity. Element i
 *        lives in tree[slot(i)].
 * @return op of all count values, in thread 0 only.
 * @pre count is a power of two, 2 <= count <= 2 * blockDim.x; all threads of the block call it
 *      (it has barriers) after storing the values; identity is the identity of op.
 */
template <typename T, typename Op, typename Slot>
__device__ T block_exclusive_scan(T* tree, int count, T identity, Op op, Slot slot) {
  const int t = threadIdx.x;
  int stride = 1;
  for (; stride < count; stride *= 2) {  // up-sweep: the last of each run of 2 * stride
    __syncthreads();
    if (t < count / (2 * stride)) {
      const int right = 2 * stride * (t + 1) - 1;
      tree[slot(right)] = op(tree[slot(right - stride)], tree[slot(right)]);
    }
  }
  T all = identity;
  if (t == 0) {
    all = tree[slot(count - 1)];
    tree[slot(count - 1)] = identity;
  }
  for (stride = count / 2; stride >= 1; stride /= 2) {  // down-sweep
    __syncthreads();
    if (t < count / (2 * stride)) {
      const int right = 2 * stride * (t + 1) - 1;
      const T left_value = tree[slot(right - stride)];
      tree[slot(right - stride)] = tree[slot(right)];
      tree[slot(right)] = op(tree[slot(right)], left_value);
    }
  }
  __syncthreads();
  return all;
}

//! [exercise_6_1]
/// Exercise 6.1: the slot of element @p i in a padded tree of elements of @p element_bytes
/// (4 or 8) bytes, such that the tree's strided accesses have no bank conflicts.
/// @pre 0 <= i < 4096.
__host__ __device__ int padded_slot(int i, int element_bytes);

/// Exercise 6.1: exclusive sum of @p n <= 2048 int32 values into int64, by one block whose
/// tree uses padded_slot().
void exclusive_scan_padded(const int32_t* d_in, int n, int64_t* d_out);
//! [exercise_6_1]

//! [exercise_6_2]
/// Exercise 6.2: inclusive sum of @p n int32 values into int64 by one block, in one pass.
/// @pre 1 <= n <= 2048.
void inclusive_scan_tile(const int32_t* d_in, int n, int64_t* d_out);
//! [exercise_6_2]

/// The predicate of exercise 6.3: keep the multiples of 3.
__host__ __device__ inline bool keep(int32_t x) {
  return x % 3 == 0;
}

//! [exercise_6_3]
/// Exercise 6.3: copies the elements x of @p d_in with keep(x) to the front of @p d_out, in
/// their order, and returns how many. @pre n >= 1; d_out has room for n elements.
int64_t compact(const int32_t* d_in, int64_t n, int32_t* d_out);
//! [exercise_6_3]

//! [exercise_6_4]
/// Exercise 6.4: out[i] = max(in[0], ..., in[i]) for any @p n, 1 <= n <= 2048 * 2048.
void inclusive_max_scan(const int32_t* d_in, int64_t n, int32_t* d_out);
//! [exercise_6_4]

//! [exercise_6_5]
/// Exercise 6.5: the int64 scratch elements fast_exclusive_scan() gets for @p n elements: two
/// per tile and level of a scan-then-propagate with tiles of 64 or more elements, with room
/// to spare.
constexpr int64_t fast_scan_scratch_elements(int64_t n) {
  return n / 16 + 1024;
}

/// Exercise 6.5 (performance): exclusive sum of the @p n int32 values at @p d_in into int64
/// at @p d_out, as fast as the checker's target. Only enqueues the work on the default stream
/// (the checker times it): no allocation, no copy, no synchronization; @p d_scratch holds
/// fast_scan_scratch_elements(n) int64 values for your own use, in any state at the start.
/// @pre 1 <= n <= 2^30; d_in and d_out are 16-byte aligned (as cudaMalloc returns them).
void fast_exclusive_scan(const int32_t* d_in, int64_t n, int64_t* d_out, int64_t* d_scratch);
//! [exercise_6_5]

/// For exercise 6.3: an exclusive sum of @p n int64 values at @p d_in into @p d_out, on the
/// device (cub::DeviceScan::ExclusiveSum, with its temporary storage).
inline void exclusive_sum(const int64_t* d_in, int64_t n, int64_t* d_out) {
  size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, d_in, d_out, n));
  tutorial::DeviceBuffer<unsigned char> temp(static_cast<int64_t>(bytes));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, d_in, d_out, n));
}

}  // namespace exercise06
