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
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gpus.cuh"
#include "tutorial/errors.hpp"

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
 * @brief NCCL's unique id, the same in every process of the job: rank 0 makes it and writes
 *        it to place.id_file, the others wait for that file (at most 60 s) and read it.
 *
 * The id (128 bytes) names the job's rendezvous: whoever holds it can join. Rank 0 writes it
 * under another name and renames it, so that a reader never sees half of it. Any way of
 * handing 128 bytes to every process works: a file on a disk every host sees, the launcher's
 * environment, MPI_Bcast. @pre the file does not exist before the job starts.
 */
inline ncclUniqueId shared_unique_id(const RankPlace& place) {
  ncclUniqueId id{};
  const std::filesystem::path file(place.id_file);
  if (place.rank == 0) {
    check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    const std::filesystem::path partial(place.id_file + ".partial");
    {
      std::ofstream out(partial, std::ios::binary);
      out.write(id.internal, sizeof id.internal);
      if (!out) throw tutorial::UsageError("cannot write NCCL's id to " + partial.string());
    }
    std::filesystem::rename(partial, file);
    return id;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(file)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw tutorial::UsageError("rank " + std::to_string(place.rank) + ": no NCCL id in " +
                                 file.string() + " after 60 s: is rank 0 running?");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream in(file, std::ios::binary);
  in.read(id.internal, sizeof id.internal);
  if (in.gcount() != std::streamsize(sizeof id.internal)) {
    throw tutorial::UsageError("rank " + std::to_string(place.rank) + ": " + file.string() +
                               " does not hold a whole NCCL id");
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
