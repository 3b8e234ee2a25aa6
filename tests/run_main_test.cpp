// Exit codes: every failure maps to its code, and nothing but a verified report gives 0.
#include "tutorial/chapter_main.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tutorial {
namespace {

const OptionSpec kSpec{"prog", 8};

template <typename Lesson>
int run(std::vector<const char*> args, Lesson lesson) {
  args.insert(args.begin(), "prog");
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code =
      run_main(static_cast<int>(args.size()), const_cast<char**>(args.data()), kSpec, lesson);
  testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  return code;
}

Report verified_report(const Options&) {
  Report r;
  r.checks.push_back(check_exact("x", 1, 1));
  return r;
}

TEST(RunMain, ExitCodes) {
  EXPECT_EQ(run({}, verified_report), kExitVerified);
  EXPECT_EQ(run({"--json"}, verified_report), kExitVerified);
  EXPECT_EQ(run({"--help"}, [](const Options&) -> Report { throw CudaError("never run"); }),
            kExitVerified);
  EXPECT_EQ(run({},
                [](const Options&) {
                  Report r;
                  r.checks.push_back(check_exact("x", 1, 2));
                  return r;
                }),
            kExitWrongResult);
  EXPECT_EQ(run({}, [](const Options&) { return Report{}; }), kExitWrongResult);
  EXPECT_EQ(run({"--n", "0"}, verified_report), kExitUsage);
  EXPECT_EQ(run({"--bogus"}, verified_report), kExitUsage);
  EXPECT_EQ(run({}, [](const Options&) -> Report { throw UsageError("bad input"); }), kExitUsage);
  EXPECT_EQ(run({}, [](const Options&) -> Report { throw CudaError("oom"); }), kExitCudaError);
  EXPECT_EQ(run({}, [](const Options&) -> Report { throw NoDeviceError("none"); }), kExitNoDevice);
}

TEST(RunMain, UsageErrorPrintsReasonAndUsage) {
  testing::internal::CaptureStderr();
  const char* args[] = {"prog", "--n", "zero"};
  run_main(3, const_cast<char**>(args), kSpec, verified_report);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("prog: error: bad size 'zero'"), std::string::npos) << err;
  EXPECT_NE(err.find("usage: prog"), std::string::npos) << err;
}

}  // namespace
}  // namespace tutorial
