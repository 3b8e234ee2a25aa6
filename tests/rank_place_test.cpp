// Tests of chapter 11's place of a process in a job of one process per GPU (rank_place.hpp):
// the rank and the local rank read from a launcher's variables, the GPU each local rank takes,
// the job's name, and an id file that an earlier job left behind, which must never be taken.
#include "rank_place.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>

namespace {

using chapter11::RankPlace;
using tutorial::UsageError;

/// An environment that holds exactly @p variables.
chapter11::Environment environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const std::string& name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

/// rank_place for a job of @p ranks with --rank @p rank ("": not given), in @p env.
RankPlace place_in(const std::string& ranks, const std::string& rank,
                   const std::map<std::string, std::string>& env) {
  return chapter11::rank_place(ranks, rank, "/tmp/id", "job1", environment(env));
}

/// The message of the UsageError that @p call throws ("" when it throws none).
template <typename Call>
std::string usage_error_of(Call&& call) {
  try {
    call();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(LocalRank, ReadsOpenMpiThenSlurmThenLocalRank) {
  const std::map<std::string, std::string> all = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"SLURM_LOCALID", "2"}, {"LOCAL_RANK", "3"}};
  EXPECT_EQ(place_in("8", "5", all).local_rank, 1);
  EXPECT_EQ(place_in("8", "5", {{"SLURM_LOCALID", "2"}, {"LOCAL_RANK", "3"}}).local_rank, 2);
  EXPECT_EQ(place_in("8", "5", {{"LOCAL_RANK", "3"}}).local_rank, 3);
}

TEST(LocalRank, IsTheRankWithoutALauncher) {
  EXPECT_EQ(place_in("8", "5", {}).local_rank, 5);
  EXPECT_EQ(place_in("8", "5", {{"LOCAL_RANK", ""}}).local_rank, 5);  // "" is not set
}

TEST(LocalRank, RejectsNonsenseNamingTheVariable) {
  for (const std::string bad : {"x", "-1", "1.5", " 1", "+1", "0x1", "99999999999", "8"}) {
    const std::string message = usage_error_of([&] {
      place_in("8", "0", {{"SLURM_LOCALID", bad}});
    });
    EXPECT_NE(message.find("SLURM_LOCALID = '" + bad + "' is not a rank from 0 to 7"),
              std::string::npos)
        << bad << ": " << message;
  }
}

TEST(LocalRank, TakesAVisibleGpu) {
  EXPECT_EQ(chapter11::gpu_of(0, 8), 0);
  EXPECT_EQ(chapter11::gpu_of(7, 8), 7);
  EXPECT_EQ(chapter11::gpu_of(3, 1), 0);  // the launcher gave each process its own GPU
  EXPECT_EQ(chapter11::gpu_of(5, 4), 1);  // more processes than GPUs: two share one
}

TEST(LocalRank, KeepsTwoProcessesOfAHostApartWhereTheRankWouldNot) {
  // mpirun --map-by node over two hosts of two GPUs: ranks 0 and 2 on the first host.
  const RankPlace second = place_in("4", "",
                                    {{"OMPI_COMM_WORLD_RANK", "2"},
                                     {"OMPI_COMM_WORLD_SIZE", "4"},
                                     {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
  EXPECT_EQ(second.rank, 2);
  EXPECT_EQ(chapter11::gpu_of(second.local_rank, 2), 1);
  EXPECT_EQ(chapter11::gpu_of(second.rank, 2), 0);  // rank 0's GPU
}

TEST(LauncherRank, ComesFromTheFirstLauncherWhenRankIsNotGiven) {
  EXPECT_EQ(place_in("4", "", {{"OMPI_COMM_WORLD_RANK", "3"}, {"SLURM_PROCID", "1"}}).rank, 3);
  EXPECT_EQ(place_in("4", "", {{"SLURM_PROCID", "1"}, {"RANK", "2"}}).rank, 1);
  EXPECT_EQ(place_in("4", "", {{"RANK", "2"}, {"WORLD_SIZE", "4"}}).rank, 2);
}

TEST(LauncherRank, TheGivenRankWins) {
  EXPECT_EQ(place_in("4", "0", {{"OMPI_COMM_WORLD_RANK", "3"}}).rank, 0);
}

TEST(LauncherRank, TheLaunchersSizeMustBeTheJobs) {
  const std::string message = usage_error_of([] {
    place_in("2", "", {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}});
  });
  EXPECT_NE(message.find("SLURM_NTASKS = 1 processes, but --ranks 2"), std::string::npos)
      << message;
  EXPECT_EQ(usage_error_of([] { place_in("2", "", {{"RANK", "1"}, {"WORLD_SIZE", "2"}}); }), "");
}

TEST(LauncherRank, IsNeededAndMustBeBelowRanks) {
  EXPECT_NE(usage_error_of([] { place_in("2", "", {}); }).find("--rank is needed"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] { place_in("2", "2", {}); }).find("--rank = '2'"), std::string::npos);
  EXPECT_NE(usage_error_of([] {
              place_in("2", "", {{"RANK", "5"}});
            }).find("RANK = '5'"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] { place_in("two", "0", {}); }).find("--ranks = 'two'"),
            std::string::npos);
}

TEST(LauncherRank, NoJobReadsNothing) {
  EXPECT_EQ(place_in("0", "", {{"RANK", "nonsense"}}).ranks, 0);
  EXPECT_EQ(chapter11::rank_place("", "", "", "", environment({})).ranks, 0);
}

TEST(JobName, GivenElseTheLaunchers) {
  const auto env = environment(
      {{"PMIX_NAMESPACE", "prterun-host-42@1"}, {"SLURM_JOB_ID", "77"}, {"SLURM_STEP_ID", "3"}});
  EXPECT_EQ(chapter11::job_name("mine", env), "mine");
  EXPECT_EQ(chapter11::job_name("", env), "prterun-host-42@1");
  EXPECT_EQ(chapter11::job_name("", environment({{"SLURM_JOB_ID", "77"}, {"SLURM_STEP_ID", "3"}})),
            "77.3");
  EXPECT_EQ(chapter11::job_name("", environment({{"SLURM_JOB_ID", "77"}})), "");
  EXPECT_THROW(chapter11::job_name("two words", env), UsageError);
}

TEST(JobName, IsNeededWithSeveralRanksOnly) {
  const auto none = environment({});
  EXPECT_NE(usage_error_of([&] {
              chapter11::rank_place("2", "0", "/tmp/id", "", none);
            }).find("--job is needed"),
            std::string::npos);
  EXPECT_EQ(chapter11::rank_place("1", "0", "/tmp/id", "", none).job, "");
  EXPECT_NE(usage_error_of([&] {
              chapter11::rank_place("2", "0", "", "j", none);
            }).find("--id-file is needed"),
            std::string::npos);
}

/// A new directory for one test's id files, removed after it.
class IdFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("rank_place_test." + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  RankPlace place(int rank, const std::string& job) const {
    RankPlace p;
    p.rank = rank;
    p.ranks = 2;
    p.job = job;
    p.id_file = (dir_ / "nccl_id").string();
    return p;
  }
  std::filesystem::path dir_;
};

/// 128 bytes that a text reader would trip on: zeros, newlines and every other byte value.
std::string awkward_id(char seed) {
  std::string id;
  for (int i = 0; i < 128; ++i) id.push_back(static_cast<char>(seed + 37 * i));
  id[5] = '\0';
  id[6] = '\n';
  return id;
}

TEST_F(IdFile, ReachesTheOtherRankWhole) {
  chapter11::write_id_file(place(0, "job1"), awkward_id(1));
  EXPECT_EQ(chapter11::read_id_file(place(1, "job1"), 128, std::chrono::seconds(0)), awkward_id(1));
  std::ifstream in(place(0, "job1").id_file);
  std::string first_line;
  std::getline(in, first_line);
  EXPECT_EQ(first_line, "job job1");
}

TEST_F(IdFile, AnEarlierJobsFileIsNeverTaken) {
  chapter11::write_id_file(place(0, "earlier"), awkward_id(1));
  const std::string message = usage_error_of(
      [&] { chapter11::read_id_file(place(1, "this"), 128, std::chrono::seconds(1)); });
  EXPECT_NE(message.find("rank 1: still 'job earlier', another job's file"), std::string::npos)
      << message;
  EXPECT_NE(message.find("is rank 0 of job 'this' running?"), std::string::npos) << message;
}

TEST_F(IdFile, TheWaiterTakesTheFileOnceRankZeroReplacesTheEarlierOne) {
  chapter11::write_id_file(place(0, "earlier"), awkward_id(1));
  std::thread rank_zero([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    chapter11::write_id_file(place(0, "this"), awkward_id(2));
  });
  const std::string id = chapter11::read_id_file(place(1, "this"), 128, std::chrono::seconds(30));
  rank_zero.join();
  EXPECT_EQ(id, awkward_id(2));
}

TEST_F(IdFile, NoFileIsWaitedForThenNamed) {
  const std::string message = usage_error_of(
      [&] { chapter11::read_id_file(place(1, "this"), 128, std::chrono::seconds(1)); });
  EXPECT_NE(message.find("still no file in"), std::string::npos) << message;
}

TEST_F(IdFile, HalfAnIdIsNotTaken) {
  chapter11::write_id_file(place(0, "this"), awkward_id(1).substr(0, 64));
  const std::string message = usage_error_of(
      [&] { chapter11::read_id_file(place(1, "this"), 128, std::chrono::seconds(1)); });
  EXPECT_NE(message.find("not a whole id"), std::string::npos) << message;
}

TEST_F(IdFile, IsRemovedOnceEveryRankHasJoined) {
  chapter11::write_id_file(place(0, "this"), awkward_id(1));
  chapter11::remove_id_file(place(0, "this"));
  EXPECT_FALSE(std::filesystem::exists(place(0, "this").id_file));
  EXPECT_TRUE(std::filesystem::is_empty(dir_));  // no partial file left either
  chapter11::remove_id_file(place(0, "this"));   // a second time: nothing to do, no error
}

}  // namespace
