/**
 * @file chapters/06_blelloch_scan/blelloch_tree.cuh
 * @brief The Blelloch tree in shared memory: the up-sweep (a reduction that keeps its partial
 *        sums), the down-sweep (which turns them into an exclusive prefix sum), and the padding
 *        that keeps the tree's strided accesses free of bank conflicts.
 */
#pragma once

#include "tutorial/explain/shared_trace.cuh"

namespace chapter06 {

/// log2 of how many elements of @p T fill one row of shared memory (32 banks of 4 bytes).
/// A warp's 4-byte accesses are served 32 at a time; 8-byte accesses are served as two
/// half-warps of 16, so for them a row holds 16 elements.
template <typename T>
constexpr int log2_elements_per_bank_row() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "the padding is worked out for 4- and 8-byte elements");
  return sizeof(T) == 4 ? 5 : 4;
}

//! [conflict_free_slot]
/// Where element @p i of a padded tree lives: one empty slot after every row of elements,
/// and one more after every row of rows. Accesses with a power-of-two stride, which all land
/// in one bank without it, are spread over all banks. Parentheses around every shift: in C++
/// `a >> b + c` means `a >> (b + c)`.
template <typename T>
__host__ __device__ constexpr int conflict_free_slot(int i) {
  constexpr int kLog = log2_elements_per_bank_row<T>();
  return i + (i >> kLog) + (i >> (2 * kLog));
}
//! [conflict_free_slot]

/// Slot of element @p i: padded or not.
template <bool Padded, typename T>
__host__ __device__ constexpr int tree_slot(int i) {
  return Padded ? conflict_free_slot<T>(i) : i;
}

/// Slots a tree of @p count elements occupies (the size of its shared array).
template <bool Padded, typename T>
constexpr int tree_slots(int count) {
  return tree_slot<Padded, T>(count - 1) + 1;
}

//! [tree_up_sweep]
/**
 * @brief Up-sweep: after step d, the last element of every run of 2^(d+1) holds that run's
 *        sum; the root (element count-1) ends with the sum of all.
 * @param tree the shared array: a pointer, or a TracedShared when --explain records it.
 * @pre count is a power of two, 2 <= count <= 2 * blockDim.x; every thread of the block calls
 *      it (it contains barriers); the count values are in @p tree.
 */
template <bool Padded, typename Tree>
__device__ void tree_up_sweep(Tree tree, int count) {
  using T = tutorial::shared_element_t<Tree>;
  const int t = threadIdx.x;
  int stride = 1;
  for (int active = count / 2; active > 0; active /= 2) {
    __syncthreads();  // the previous step (or the caller's stores) must be visible
    if (t < active) {
      const int left = stride * (2 * t + 1) - 1;
      tree[tree_slot<Padded, T>(left + stride)] += tree[tree_slot<Padded, T>(left)];
    }
    stride *= 2;
  }
}
//! [tree_up_sweep]

//! [tree_exclusive_scan]
/**
 * @brief Exclusive prefix sum of the @p count values in @p tree, in place:
 *        tree[i] becomes tree[0] + ... + tree[i-1], and tree[0] becomes 0.
 * @return the sum of all count values, in thread 0 only.
 * @pre as tree_up_sweep(); on return every thread may read any element.
 */
template <bool Padded, typename Tree>
__device__ auto tree_exclusive_scan(Tree tree, int count) {
  using T = tutorial::shared_element_t<Tree>;
  tree_up_sweep<Padded>(tree, count);
  const int t = threadIdx.x;
  const int root = tree_slot<Padded, T>(count - 1);
  T total{};
  if (t == 0) {  // thread 0 wrote the root in the last up-sweep step: no barrier needed
    total = tree[root];
    tree[root] = T(0);
  }
  // Down-sweep: each parent hands its prefix to its left child, and its prefix plus the left
  // child's up-sweep sum to its right child.
  for (int active = 1, stride = count / 2; stride > 0; active *= 2, stride /= 2) {
    __syncthreads();
    if (t < active) {
      const int left = tree_slot<Padded, T>(stride * (2 * t + 1) - 1);
      const int right = tree_slot<Padded, T>(stride * (2 * t + 2) - 1);
      const T left_sum = tree[left];
      tree[left] = tree[right];
      tree[right] += left_sum;
    }
  }
  __syncthreads();
  return total;
}
//! [tree_exclusive_scan]

}  // namespace chapter06
