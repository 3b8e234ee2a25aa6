/**
 * @file chapters/05_atomic_grid/sum_traits.cuh
 * @brief What the grid-wide sums of chapters 05 and 08 add in, the 16-byte vector they load,
 *        and the atomicAdd they finish with.
 */
#pragma once

#include <cstdint>

namespace chapter05 {

/// What a sum of T is accumulated in: 64 bits for ints, so that 2^31 values of magnitude 2^31
/// cannot overflow; float for floats, as CUB does for a float output. And the 16-byte vector
/// of four T one load instruction reads.
template <typename T>
struct SumTraits;
template <>
struct SumTraits<int32_t> {
  using Acc = long long;
  using Vector = int4;
};
template <>
struct SumTraits<float> {
  using Acc = float;
  using Vector = float4;
};
template <typename T>
using SumOf = typename SumTraits<T>::Acc;

/// Adds @p value to *out for the whole grid. atomicAdd has no signed 64-bit form; adding the
/// same bits as unsigned gives the same result, since both wrap modulo 2^64 alike.
__device__ inline void atomic_add(long long* out, long long value) {
  atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(value));
}
__device__ inline void atomic_add(float* out, float value) {
  atomicAdd(out, value);
}

}  // namespace chapter05
