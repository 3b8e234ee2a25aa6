/**
 * @file chapters/11_multi_gpu/nccl_collectives.cuh
 * @brief NCCL, the library everyone uses for collectives: one communicator over every GPU of
 *        this process, ncclAllReduce and ncclReduce. Built only where CMake found NCCL
 *        (TUTORIAL_HAVE_NCCL; cmake/FindNCCL.cmake).
 */
#pragma once

#include <nccl.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gpus.cuh"
#include "rank_place.hpp"
#include "tutorial/harness/errors.hpp"

namespace chapter11 {

/// Throws CudaError (exit 3) naming @p call if @p result is not ncclSuccess.
inline void check_nccl(ncclResult_t result, const char* call) {
  if (result != ncclSuccess) {
    throw tutorial::CudaError(std::string(call) + " failed: " + ncclGetErrorString(result));
  }
}

//! [nccl_all_reduce]
/**
 * @brief One NCCL communicator per GPU of this process (ncclCommInitAll), and the two
 *        collectives of the chapter on the chapter's buffers.
 *
 * Each call is issued for every GPU inside one group (ncclGroupStart / ncclGroupEnd): one
 * thread drives several GPUs, and NCCL starts them together instead of waiting for the first
 * GPU's part to find its partners.
 */
class NcclCollectives {
 public:
  explicit NcclCollectives(std::vector<DeviceQueue*> queues) : queues_(std::move(queues)) {
    std::vector<int> devices;
    for (DeviceQueue* q : queues_) devices.push_back(q->device());
    comms_.resize(devices.size());
    check_nccl(ncclCommInitAll(comms_.data(), int(devices.size()), devices.data()),
               "ncclCommInitAll");
  }
  ~NcclCollectives() {
    for (ncclComm_t comm : comms_) (void)ncclCommDestroy(comm);
  }
  NcclCollectives(const NcclCollectives&) = delete;
  NcclCollectives& operator=(const NcclCollectives&) = delete;

  /// outs[g] = the sum over every GPU of ins[g], on every GPU.
  void all_reduce(const std::vector<const int32_t*>& ins, const std::vector<int32_t*>& outs,
                  int64_t n) {
    grouped("ncclAllReduce", [&](size_t g) {
      return ncclAllReduce(ins[g], outs[g], size_t(n), ncclInt32, ncclSum, comms_[g],
                           queues_[g]->stream());
    });
  }

  /// outs[0] = the sum over every GPU of ins[g], on GPU 0 only (the root).
  void reduce(const std::vector<const int32_t*>& ins, const std::vector<int32_t*>& outs,
              int64_t n) {
    grouped("ncclReduce", [&](size_t g) {
      return ncclReduce(ins[g], outs[g], size_t(n), ncclInt32, ncclSum, 0, comms_[g],
                        queues_[g]->stream());
    });
  }

 private:
  /// @p call(g) for every GPU inside one group; the group is closed before any error is thrown.
  template <typename Call>
  void grouped(const char* what, Call&& call) {
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    ncclResult_t first = ncclSuccess;
    for (size_t g = 0; g < queues_.size(); ++g) {
      const ncclResult_t result = call(g);
      if (first == ncclSuccess) first = result;
    }
    const ncclResult_t end = ncclGroupEnd();
    check_nccl(first, what);
    check_nccl(end, "ncclGroupEnd");
  }

  std::vector<DeviceQueue*> queues_;
  std::vector<ncclComm_t> comms_;
};
//! [nccl_all_reduce]

//! [one_process_per_gpu]
/**
 * @brief NCCL's unique id, the same in every process of the job: rank 0 makes it and leaves it
 *        in place.id_file under the job's name; the others wait for this job's file (at most
 *        60 s) and read it (rank_place.hpp).
 *
 * The id (128 bytes) names the job's rendezvous: whoever holds it can join. Any way of
 * handing 128 bytes to every process works: a file on a disk every host sees, the launcher's
 * environment, MPI_Bcast.
 */
inline ncclUniqueId shared_unique_id(const RankPlace& place) {
  ncclUniqueId id{};
  if (place.rank == 0) {
    check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    write_id_file(place, std::string(id.internal, sizeof id.internal));
  } else {
    const std::string bytes = read_id_file(place, sizeof id.internal, std::chrono::seconds(60));
    bytes.copy(id.internal, sizeof id.internal);
  }
  return id;
}

/// This process's NCCL communicator, one rank of @p ranks, joined through @p id.
class NcclRank {
 public:
  NcclRank(int ranks, const ncclUniqueId& id, int rank) {
    check_nccl(ncclCommInitRank(&comm_, ranks, id, rank), "ncclCommInitRank");
  }
  ~NcclRank() { (void)ncclCommDestroy(comm_); }
  NcclRank(const NcclRank&) = delete;
  NcclRank& operator=(const NcclRank&) = delete;

  /// out = the sum over every rank of its in; the same call in every process.
  void all_reduce(const int32_t* in, int32_t* out, int64_t n, cudaStream_t stream) {
    check_nccl(ncclAllReduce(in, out, size_t(n), ncclInt32, ncclSum, comm_, stream),
               "ncclAllReduce");
  }

 private:
  ncclComm_t comm_{};
};
//! [one_process_per_gpu]

}  // namespace chapter11
