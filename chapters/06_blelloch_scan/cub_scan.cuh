/**
 * @file chapters/06_blelloch_scan/cub_scan.cuh
 * @brief The yardstick of the scan chapters (06, 08) and exercise 6.5:
 *        cub::DeviceScan::InclusiveSum or ExclusiveSum doing the same scan, with the same
 *        types, timed in the same run.
 *
 * Chapter 08 and exercise 6.5's checker include it from here
 * (#include "06_blelloch_scan/cub_scan.cuh").
 */
#pragma once

#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace tutorial {

/// Reads an input element as the output type. CUB adds in the type of its input, so an int32
/// input must be read as int64 for CUB to add in 64 bits like the chapter's kernels do; the
/// bytes read stay 4 per element.
template <typename Out>
struct ReadAs {
  template <typename In>
  __host__ __device__ Out operator()(In x) const {
    return Out(x);
  }
};

/// Which CUB call a CubScan makes.
enum class CubCall {
  kInclusiveSum,       ///< DeviceScan::InclusiveSum (int32 input read as int64: see ReadAs)
  kExclusiveSum,       ///< DeviceScan::ExclusiveSum (the same)
  kInclusiveScanInit,  ///< DeviceScan::InclusiveScanInit(+, Out(0)): raw input pointer, and
                       ///< the type of the initial value sets the type CUB adds in
};

/// The CUB scan @p call of @p n values of @p In into @p Out, temporary storage included.
template <typename In, typename Out>
class CubScan {
 public:
  /// Asks CUB how much temporary storage the scan needs (CUB's first call) and allocates it.
  CubScan(const In* d_in, Out* d_out, int64_t n, CubCall call)
      : d_in_(d_in), d_out_(d_out), n_(n), call_(call) {
    size_t bytes = 0;
    CUDA_CHECK(dispatch(nullptr, bytes));
    temp_ = DeviceBuffer<unsigned char>(static_cast<int64_t>(bytes));
  }
  /// Enqueues the scan on the default stream (CUB's second call: the work itself).
  void operator()() {
    size_t bytes = temp_.bytes();
    CUDA_CHECK(dispatch(temp_.data(), bytes));
  }

 private:
  /// A 32-bit count where it fits, as most callers pass: CUB then uses 32-bit offsets.
  cudaError_t dispatch(void* temp, size_t& bytes) const {
    if (n_ <= std::numeric_limits<int>::max()) return dispatch(temp, bytes, static_cast<int>(n_));
    return dispatch(temp, bytes, n_);
  }
  template <typename Count>
  cudaError_t dispatch(void* temp, size_t& bytes, Count count) const {
    if (call_ == CubCall::kInclusiveScanInit) {
      return cub::DeviceScan::InclusiveScanInit(temp, bytes, d_in_, d_out_, ::cuda::std::plus<>{},
                                                Out(0), count);
    }
    if constexpr (std::is_same_v<In, Out>) {
      return sum(temp, bytes, d_in_, count);
    } else {
      return sum(temp, bytes, thrust::make_transform_iterator(d_in_, ReadAs<Out>{}), count);
    }
  }
  template <typename Iterator, typename Count>
  cudaError_t sum(void* temp, size_t& bytes, Iterator in, Count count) const {
    return call_ == CubCall::kInclusiveSum
               ? cub::DeviceScan::InclusiveSum(temp, bytes, in, d_out_, count)
               : cub::DeviceScan::ExclusiveSum(temp, bytes, in, d_out_, count);
  }

  const In* d_in_;
  Out* d_out_;
  int64_t n_;
  CubCall call_;
  DeviceBuffer<unsigned char> temp_;
};

/// The depth of CUB's float scan additions (verify.hpp's k) is not ours to bound exactly. It
/// scans tiles of (at least) 1024 elements in order, each tile adding its predecessors'
/// prefix, so element i passes through about i / 1024 tile additions and a few dozen inside
/// its tile: an estimate, not a proof, so CUB's float checks are shown but do not decide.
struct CubDepthEstimate {
  int64_t operator()(int64_t i) const { return std::min<int64_t>(i, i / 1024 + 64); }
  std::string text() const { return "min(i, i/1024 + 64)"; }
};

}  // namespace tutorial
