/**
 * @file shared_trace.cuh
 * @brief Recording a kernel's shared-memory accesses from its own indexing, for --explain.
 *
 * A kernel that can be explained names its shared arrays through shared_array<kRecord>():
 *
 *     __shared__ long long partial_memory[kBlockThreads];
 *     const auto partial = shared_array<kRecord>(partial_memory, 0);
 *     ... partial[tid] += partial[tid + offset]; ...
 *
 * With kRecord = false (every timed run) `partial` is the plain pointer and the kernel is
 * exactly what it was. With kRecord = true it is a TracedShared: every read and write through
 * it still happens, and each lane also writes down the address it touched, which lanes of its
 * warp issued the access with it (__activemask()), and the warp's access number. The host
 * (bank_turns.hpp) turns these records into banks and turns. Nothing is modelled: the
 * addresses come from the kernel's own index arithmetic, run on the GPU.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tutorial/explain/bank_turns.hpp"
#include "tutorial/harness/cuda_check.cuh"
#include "tutorial/harness/device_buffer.cuh"

namespace tutorial {

/// Where the records go: set by SharedRecorder before a recorded launch.
struct SharedTraceSink {
  SharedAccessRecord* records;
  unsigned* count;  ///< records written so far (may pass capacity: then some are lost)
  unsigned capacity;
  unsigned* warp_accesses;  ///< per warp of the block: accesses numbered so far
};

/// The sink of this program's recorded launches (one block at a time). Static: each
/// translation unit that includes this header has its own.
static __device__ SharedTraceSink shared_trace_sink;

/// Records one lane's access of @p bytes bytes at @p p (element @p index of array @p array).
/// The lanes that run this together are the lanes of one warp-wide shared-memory instruction:
/// the first of them numbers the access for all.
__device__ inline void record_shared_access(const void* p, int bytes, bool store, int array,
                                            int index) {
  const SharedTraceSink& sink = shared_trace_sink;
  const unsigned together = __activemask();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;  // 1-D blocks
  const int leader = __ffs(together) - 1;
  unsigned number = 0;
  if (lane == leader) number = atomicAdd(sink.warp_accesses + warp, 1u);
  number = __shfl_sync(together, number, leader);
  const unsigned slot = atomicAdd(sink.count, 1u);
  if (slot < sink.capacity) {
    // One whole record, padding included (zeroed): every byte the host copies is written.
    sink.records[slot] = SharedAccessRecord{number,
                                            static_cast<uint32_t>(__cvta_generic_to_shared(p)),
                                            index,
                                            static_cast<uint8_t>(warp),
                                            static_cast<uint8_t>(lane),
                                            static_cast<uint8_t>(bytes),
                                            static_cast<uint8_t>(store ? 1 : 0),
                                            static_cast<uint8_t>(array),
                                            {0, 0, 0}};
  }
}

/// One element of a traced array: reading it or writing it records the access.
template <typename T>
class TracedRef {
 public:
  __device__ TracedRef(T* p, int array, int index) : p_(p), array_(array), index_(index) {}

  __device__ operator T() const {
    record_shared_access(p_, sizeof(T), false, array_, index_);
    return *p_;
  }
  __device__ const TracedRef& operator=(T value) const {
    record_shared_access(p_, sizeof(T), true, array_, index_);
    *p_ = value;
    return *this;
  }
  __device__ const TracedRef& operator=(const TracedRef& other) const {
    return *this = static_cast<T>(other);  // a load of other, then a store here
  }
  __device__ const TracedRef& operator+=(T value) const {
    return *this = static_cast<T>(*this) + value;  // a load, then a store
  }

 private:
  T* p_;
  int array_;
  int index_;
};

/// A traced shared array (or a row of a traced 2-D array): indexing gives a TracedRef (or the
/// traced row).
template <typename T>
class TracedShared {
 public:
  /// @p origin: the array's first element, from which element indices are counted.
  __device__ TracedShared(T* base, int array, const void* origin)
      : base_(base), array_(array), origin_(origin) {}

  __device__ auto operator[](int i) const {
    if constexpr (std::is_array_v<T>) {
      return TracedShared<std::remove_extent_t<T>>(base_[i], array_, origin_);
    } else {
      return TracedRef<T>(base_ + i, array_, index_of(base_ + i));
    }
  }

  /// Reads the @p V (e.g. float4) that starts at element @p i: one access of sizeof(V) bytes.
  template <typename V>
  __device__ V load_vector(int i) const {
    record_shared_access(base_ + i, sizeof(V), false, array_, index_of(base_ + i));
    return *reinterpret_cast<const V*>(base_ + i);
  }

 private:
  __device__ int index_of(const void* p) const {
    using Scalar = std::remove_all_extents_t<T>;
    return static_cast<int>((static_cast<const char*>(p) - static_cast<const char*>(origin_)) /
                            sizeof(Scalar));
  }

  T* base_;
  int array_;
  const void* origin_;
};

/// The shared array @p memory as the kernel uses it: the plain pointer, or, when recording,
/// a TracedShared numbered @p array (its position in the host's list of TracedArray).
template <bool kRecord, typename T, int N>
__device__ auto shared_array(T (&memory)[N], int array) {
  if constexpr (kRecord) {
    return TracedShared<T>(memory, array, memory);
  } else {
    return static_cast<T*>(memory);
  }
}

/// The element type of a shared array as a kernel uses it: T for a T* or a TracedShared<T>.
template <typename Shared>
struct SharedElement;
template <typename T>
struct SharedElement<T*> {
  using type = T;
};
template <typename T>
struct SharedElement<TracedShared<T>> {
  using type = T;
};
template <typename Shared>
using shared_element_t = typename SharedElement<Shared>::type;

/// Sets up the sink for recorded launches and collects what they wrote.
class SharedRecorder {
 public:
  explicit SharedRecorder(unsigned capacity = 1u << 18)
      : records_(capacity), count_(1), warp_accesses_(32) {}

  /// Clears the counts and points the device's sink here; the next launches record.
  void start() {
    CUDA_CHECK(cudaMemset(count_.data(), 0, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(warp_accesses_.data(), 0, 32 * sizeof(unsigned)));
    const SharedTraceSink sink{records_.data(), count_.data(),
                               static_cast<unsigned>(records_.size()), warp_accesses_.data()};
    CUDA_CHECK(cudaMemcpyToSymbol(shared_trace_sink, &sink, sizeof sink));
  }

  /// Waits for the recorded launches and returns their records.
  /// @throws CudaError when more accesses were made than the recorder holds.
  std::vector<SharedAccessRecord> collect() const {
    CUDA_CHECK(cudaDeviceSynchronize());
    const unsigned count = count_.to_host()[0];
    if (count > records_.size()) {
      throw CudaError("the recorded launch made " + std::to_string(count) +
                      " shared accesses, more than the recorder holds");
    }
    // Only the records written: the rest of the buffer was never initialized.
    std::vector<SharedAccessRecord> written(count);
    CUDA_CHECK(cudaMemcpy(written.data(), records_.data(), count * sizeof(SharedAccessRecord),
                          cudaMemcpyDeviceToHost));
    return written;
  }

 private:
  DeviceBuffer<SharedAccessRecord> records_;
  DeviceBuffer<unsigned> count_;
  DeviceBuffer<unsigned> warp_accesses_;
};

}  // namespace tutorial
