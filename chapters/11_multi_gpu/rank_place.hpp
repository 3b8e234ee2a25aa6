/**
 * @file chapters/11_multi_gpu/rank_place.hpp
 * @brief This process's place in a job of one process per GPU: its rank (--rank, else the
 *        launcher's), its local rank, which picks its GPU, the job's name, and the file through
 *        which rank 0 hands NCCL's unique id to the others. Host code only, tested without a
 *        GPU (tests/rank_place_test.cpp).
 */
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <thread>

#include "tutorial/harness/errors.hpp"

namespace chapter11 {

/// The most processes a job may have here.
constexpr int kMaxRanks = 1 << 20;

/// This process's place in a job run as one process per GPU; ranks 0: one process drives
/// every GPU.
struct RankPlace {
  int rank = 0;         ///< 0 .. ranks - 1
  int ranks = 0;        ///< processes in the job
  int local_rank = 0;   ///< its place among the job's processes on this host: picks its GPU
  std::string job;      ///< the job's name: new for each launch, the same in every process
  std::string id_file;  ///< where rank 0 leaves NCCL's unique id for the others
};

/// Reads an environment variable: nullptr when it is not set. The program's own environment,
/// or a table in the tests.
using Environment = std::function<const char*(const std::string&)>;

/// This process's environment.
inline const char* process_environment(const std::string& name) {
  return std::getenv(name.c_str());
}

//! [launchers]
/// What a launcher tells each process it starts, in its environment: its rank, the job's size,
/// and its local rank (its place among the job's processes on its host).
struct LauncherVariables {
  const char* rank;
  const char* size;
  const char* local_rank;
};

/// The launchers known here, in the order their variables are read: Open MPI's mpirun, Slurm's
/// srun, then the names torchrun uses (tools/run_ranks.sh sets LOCAL_RANK).
constexpr LauncherVariables kLaunchers[] = {
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
    {"RANK", "WORLD_SIZE", "LOCAL_RANK"},
};

/**
 * @brief The GPU of the process with local rank @p local_rank, among the @p visible_gpus it
 *        sees: local_rank mod visible_gpus.
 *
 * With every GPU of the host visible, local ranks 0, 1, ... take GPUs 0, 1, ...; where the
 * launcher gives each process a GPU of its own (CUDA_VISIBLE_DEVICES), each takes the one it
 * sees. The global rank would collide across hosts: mpirun --map-by node deals ranks 0 and 2
 * to the first host, and 2 mod 2 GPUs is GPU 0 again.
 * @pre 0 <= local_rank, 1 <= visible_gpus
 */
inline int gpu_of(int local_rank, int visible_gpus) {
  return local_rank % visible_gpus;
}
//! [launchers]

/// The value of variable @p name in @p env; "" when it is not set, or set to "".
inline std::string variable(const Environment& env, const char* name) {
  const char* value = env(name);
  return value != nullptr ? std::string(value) : std::string();
}

/**
 * @brief @p text as a rank: a whole decimal number from 0 to @p below - 1.
 * @param[in] what the option or variable it came from, for the error
 * @throws tutorial::UsageError naming @p what for anything else (signs, spaces, too large).
 */
inline int parse_rank(const std::string& text, int below, const std::string& what) {
  const bool digits = !text.empty() && text.size() <= 7 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(text) >= below) {
    throw tutorial::UsageError(what + " = '" + text + "' is not a rank from 0 to " +
                               std::to_string(below - 1));
  }
  return std::stoi(text);
}

/**
 * @brief The job's name: @p given (--job) if not empty, else the launcher's own name for this
 *        launch, else "".
 *
 * A PMIx launcher (Open MPI's mpirun, srun --mpi=pmix) names the launch in PMIX_NAMESPACE;
 * srun in SLURM_JOB_ID and SLURM_STEP_ID. Both are new for each launch and the same in all of
 * its processes, which is what the id file needs.
 * @throws tutorial::UsageError for a name with spaces or control characters (it is the first
 *         line of the id file).
 */
inline std::string job_name(const std::string& given, const Environment& env) {
  std::string job = given;
  if (job.empty()) job = variable(env, "PMIX_NAMESPACE");
  const std::string slurm_job = variable(env, "SLURM_JOB_ID");
  const std::string slurm_step = variable(env, "SLURM_STEP_ID");
  if (job.empty() && !slurm_job.empty() && !slurm_step.empty()) {
    job = slurm_job + "." + slurm_step;
  }
  for (const char c : job) {
    if (static_cast<unsigned char>(c) <= ' ') {
      throw tutorial::UsageError("--job '" + job + "': a job's name takes no spaces");
    }
  }
  return job;
}

/**
 * @brief This process's place from --ranks, --rank, --id-file and --job (each "" when not
 *        given) and the launcher's variables in @p env, checked.
 *
 * - ranks: --ranks; 0 or "": no job (one process drives every GPU), and nothing else is read.
 * - rank: --rank, else the rank variable of the first launcher in kLaunchers that set one;
 *   that launcher's size, where it gives one, must then equal --ranks (a job started with
 *   -np 1 and --ranks 2 would wait for a rank that never comes).
 * - local rank: OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, LOCAL_RANK, the first that is set,
 *   else the rank (all on one host).
 * - job: --job, else the launcher's (job_name); needed when there are several ranks.
 * A variable set to "" counts as not set.
 * @throws tutorial::UsageError (exit 2) naming the option or variable that is missing or is
 *         not a rank of the job.
 */
inline RankPlace rank_place(const std::string& ranks, const std::string& rank,
                            const std::string& id_file, const std::string& job,
                            const Environment& env = process_environment) {
  RankPlace place;
  place.ranks = ranks.empty() ? 0 : parse_rank(ranks, kMaxRanks, "--ranks");
  if (place.ranks == 0) return place;
  if (id_file.empty()) throw tutorial::UsageError("--id-file is needed with --ranks");
  place.id_file = id_file;
  if (!rank.empty()) {
    place.rank = parse_rank(rank, place.ranks, "--rank");
  } else {
    const LauncherVariables* launcher = nullptr;
    for (const LauncherVariables& l : kLaunchers) {
      if (launcher == nullptr && !variable(env, l.rank).empty()) launcher = &l;
    }
    if (launcher == nullptr) {
      throw tutorial::UsageError(
          "--rank is needed: no launcher's rank in the environment (OMPI_COMM_WORLD_RANK, "
          "SLURM_PROCID, RANK)");
    }
    place.rank = parse_rank(variable(env, launcher->rank), place.ranks, launcher->rank);
    const std::string size = variable(env, launcher->size);
    if (!size.empty() && parse_rank(size, kMaxRanks + 1, launcher->size) != place.ranks) {
      throw tutorial::UsageError(std::string(launcher->size) + " = " + size +
                                 " processes, but --ranks " + std::to_string(place.ranks));
    }
  }
  place.local_rank = place.rank;
  for (const LauncherVariables& l : kLaunchers) {
    const std::string local = variable(env, l.local_rank);
    if (!local.empty()) {
      place.local_rank = parse_rank(local, place.ranks, l.local_rank);
      break;
    }
  }
  place.job = job_name(job, env);
  if (place.job.empty() && place.ranks > 1) {
    throw tutorial::UsageError(
        "--job is needed: a name new for each launch and the same in every process "
        "(tools/run_ranks.sh passes one; mpirun and srun give their own)");
  }
  return place;
}

//! [id_file]
/**
 * @brief Rank 0's side: writes @p id (NCCL's unique id) to place.id_file, after a first line
 *        "job <place.job>", replacing any file left there by an earlier job.
 *
 * The file is written under a name of its own and renamed: a reader never sees half of it,
 * and the rename replaces an old file in one step.
 * @throws tutorial::UsageError when the file cannot be written.
 */
inline void write_id_file(const RankPlace& place, const std::string& id) {
  const std::string partial = place.id_file + ".partial" + std::to_string(std::random_device{}());
  {
    std::ofstream out(partial, std::ios::binary);
    out << "job " << place.job << "\n" << id;
    if (!out) throw tutorial::UsageError("cannot write NCCL's id to " + partial);
  }
  std::error_code error;
  std::filesystem::rename(partial, place.id_file, error);
  if (error) {
    throw tutorial::UsageError("cannot rename " + partial + " to " + place.id_file + ": " +
                               error.message());
  }
}

/**
 * @brief The other ranks' side: waits until place.id_file holds this job's id, @p bytes long,
 *        and returns it.
 *
 * A file that is missing, or that names another job (left by an earlier one: this job's rank
 * 0 will replace it), is waited out, at most @p patience: never taken.
 * @throws tutorial::UsageError after @p patience, saying what the file held.
 */
inline std::string read_id_file(const RankPlace& place, size_t bytes,
                                std::chrono::seconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  for (;;) {
    std::string found = "no file";
    std::ifstream in(place.id_file, std::ios::binary);
    if (in) {
      std::string first_line;
      std::getline(in, first_line);
      const std::string id{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      if (first_line != "job " + place.job) {
        found = "'" + first_line + "', another job's file (left by an earlier one?)";
      } else if (id.size() != bytes) {
        found = "this job's name but not a whole id";
      } else {
        return id;
      }
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw tutorial::UsageError("rank " + std::to_string(place.rank) + ": still " + found +
                                 " in " + place.id_file + " after " +
                                 std::to_string(patience.count()) + " s: is rank 0 of job '" +
                                 place.job + "' running?");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// Rank 0, once every rank has joined: the id is no longer needed, and no later job finds the
/// file. Nothing is thrown: a file that cannot be removed is only untidy.
inline void remove_id_file(const RankPlace& place) {
  std::error_code ignored;
  std::filesystem::remove(place.id_file, ignored);
}
//! [id_file]

}  // namespace chapter11
