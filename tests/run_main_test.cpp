// Exit codes: every failure maps to its code and its words on stderr, after the program's
// name, and nothing but a verified report gives 0. The same for run_program, for
// exit_code_of_current_exception itself and for the exercise checkers' run_exercise.
#include "tutorial/harness/chapter_main.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"

namespace tutorial {
namespace {

const OptionSpec kSpec{"ch99_test", 8};

/// What a run left behind.
struct Outcome {
  int code;
  std::string out;
  std::string err;
};

template <typename Run>
Outcome capture(Run run) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = run();
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  return {code, out, err};
}

template <typename Lesson>
Outcome run(std::vector<const char*> args, Lesson lesson) {
  args.insert(args.begin(), kSpec.program.c_str());
  return capture([&] {
    return run_main(static_cast<int>(args.size()), const_cast<char**>(args.data()), kSpec, lesson);
  });
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

Report verified_report(const Options&) {
  Report r;
  r.checks.push_back(check_exact("x", 1, 1));
  return r;
}

/// Each way a program can fail by throwing, with the exit code and the words that must follow
/// "<program>: " on stderr.
struct Failure {
  const char* name;
  std::function<void()> thrower;
  int code;
  std::string message;
};

const std::vector<Failure>& failures() {
  static const std::vector<Failure> all = {
      {"UsageError", [] { throw UsageError("bad input"); }, kExitUsage, "error: bad input"},
      {"NoDeviceError", [] { throw NoDeviceError("no CUDA device"); }, kExitNoDevice,
       "no CUDA device"},
      {"CudaError", [] { throw CudaError("cudaMalloc: out of memory"); }, kExitCudaError,
       "CUDA error: cudaMalloc: out of memory"},
      {"bad_alloc", [] { throw std::bad_alloc(); }, kExitHostMemory, "error: out of host memory"},
      {"length_error", [] { throw std::length_error("vector"); }, kExitHostMemory,
       "error: this size needs more host memory"},
      {"runtime_error", [] { throw std::runtime_error("oops"); }, kExitInternal,
       "internal error (a bug in the program): oops"},
      {"logic_error", [] { throw std::logic_error("broken"); }, kExitInternal,
       "internal error (a bug in the program): broken"},
      {"int", [] { throw 42; }, kExitInternal,
       "internal error (a bug in the program): unknown exception"},
  };
  return all;
}

TEST(ExitCodeOfCurrentException, EachCauseItsCodeAndWords) {
  for (const Failure& f : failures()) {
    const Outcome o = capture([&] {
      try {
        f.thrower();
      } catch (...) {
        return exit_code_of_current_exception("prog");
      }
      return -1;
    });
    EXPECT_EQ(o.code, f.code) << f.name;
    EXPECT_TRUE(starts_with(o.err, "prog: " + f.message)) << f.name << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << f.name << ": one line";
    EXPECT_EQ(o.out, "") << f.name;
  }
}

TEST(RunMain, EachExceptionOfTheLessonGivesItsCodeOnStderr) {
  for (const Failure& f : failures()) {
    int ran = 0;
    const Outcome o = run({}, [&](const Options&) -> Report {
      ++ran;
      f.thrower();
      return verified_report(Options{});
    });
    EXPECT_EQ(ran, 1) << f.name;
    EXPECT_EQ(o.code, f.code) << f.name;
    EXPECT_TRUE(starts_with(o.err, "ch99_test: " + f.message)) << f.name << ": " << o.err;
    EXPECT_EQ(o.out, "") << f.name;  // no report, no error text on stdout
    // Only a usage error prints the usage too.
    EXPECT_EQ(o.err.find("usage: ch99_test") != std::string::npos, f.code == kExitUsage)
        << f.name << ": " << o.err;
  }
}

TEST(RunMain, VerifiedReportGivesZero) {
  const Outcome text = run({}, verified_report);
  EXPECT_EQ(text.code, kExitVerified);
  EXPECT_NE(text.out.find("verdict: VERIFIED"), std::string::npos) << text.out;
  EXPECT_EQ(text.err, "");
  const Outcome json = run({"--json"}, verified_report);
  EXPECT_EQ(json.code, kExitVerified);
  EXPECT_TRUE(starts_with(json.out, "{\"chapter\"")) << json.out;
  EXPECT_NE(json.out.find("\"verified\": true"), std::string::npos) << json.out;
}

TEST(RunMain, AnythingButAVerifiedReportIsAWrongResult) {
  const auto with_checks = [](std::vector<Check> checks) {
    return [checks](const Options&) {
      Report r;
      r.checks = checks;
      return r;
    };
  };
  Check informative = check_close("vendor", 1.0, 1.0, 0.5);  // within, yet decides nothing
  informative.informative = true;
  const struct {
    const char* name;
    std::vector<Check> checks;
  } cases[] = {
      {"no checks", {}},
      {"only an informative check", {informative}},
      {"a wrong check", {check_exact("x", 1, 2)}},
      {"a wrong check among right ones",
       {check_exact("x", 1, 1), check_exact("y", 1, 2), informative}},
  };
  for (const auto& c : cases) {
    const Outcome o = run({}, with_checks(c.checks));
    EXPECT_EQ(o.code, kExitWrongResult) << c.name;
    EXPECT_NE(o.out.find("verdict: WRONG RESULT"), std::string::npos) << c.name << "\n" << o.out;
  }
  // An informative check that fails does not spoil a verified report either.
  informative.ok = false;
  EXPECT_EQ(run({}, with_checks({check_exact("x", 1, 1), informative})).code, kExitVerified);
}

TEST(RunMain, HeadlineThatNamesNoRowIsABug) {
  const Outcome o = run({}, [](const Options&) {
    Report r = verified_report(Options{});
    r.headline = "renamed";
    r.rows.push_back(Row{"kernel", {1, 1, 1}, 1e6});
    return r;
  });
  EXPECT_EQ(o.code, kExitInternal);
  EXPECT_TRUE(starts_with(o.err, "ch99_test: internal error")) << o.err;
  EXPECT_NE(o.err.find("'renamed' names no row"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");  // no report printed
  // The same report with the headline naming its row is fine.
  EXPECT_EQ(run({},
                [](const Options&) {
                  Report r = verified_report(Options{});
                  r.headline = "kernel";
                  r.rows.push_back(Row{"kernel", {1, 1, 1}, 1e6});
                  return r;
                })
                .code,
            kExitVerified);
}

TEST(RunMain, HelpPrintsUsageAndDoesNotRunTheLesson) {
  for (const char* help : {"--help", "-h"}) {
    int ran = 0;
    const Outcome o = run({help}, [&](const Options& options) {
      ++ran;
      return verified_report(options);
    });
    EXPECT_EQ(o.code, kExitVerified) << help;
    EXPECT_EQ(ran, 0) << help;
    EXPECT_TRUE(starts_with(o.out, "usage: ch99_test")) << o.out;
    EXPECT_EQ(o.err, "") << help;
  }
}

TEST(RunMain, BadCommandLinePrintsReasonAndUsage) {
  for (const std::vector<const char*>& args :
       std::vector<std::vector<const char*>>{{"--n", "zero"}, {"--n", "0"}, {"--bogus"}, {"--n"}}) {
    int ran = 0;
    const Outcome o = run(args, [&](const Options& options) {
      ++ran;
      return verified_report(options);
    });
    EXPECT_EQ(o.code, kExitUsage) << args[0];
    EXPECT_EQ(ran, 0) << args[0];
    EXPECT_TRUE(starts_with(o.err, "ch99_test: error: ")) << o.err;
    EXPECT_NE(o.err.find("usage: ch99_test"), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "") << args[0];
  }
  const Outcome o = run({"--n", "zero"}, verified_report);
  EXPECT_TRUE(starts_with(o.err, "ch99_test: error: bad size 'zero'")) << o.err;
}

TEST(RunMain, WritesTheJsonReportWhereTheEnvironmentSays) {
  const std::string path = testing::TempDir() + "run_main_test_report.json";
  std::remove(path.c_str());
  ASSERT_EQ(setenv("TUTORIAL_REPORT_JSON", path.c_str(), 1), 0);
  const Outcome o = run({}, verified_report);
  unsetenv("TUTORIAL_REPORT_JSON");
  EXPECT_EQ(o.code, kExitVerified);
  EXPECT_NE(o.out.find("verdict: VERIFIED"), std::string::npos);  // the text still on stdout
  std::ifstream file(path);
  const std::string json{std::istreambuf_iterator<char>(file), {}};
  std::ostringstream want;
  print_json(want, verified_report(Options{}));
  EXPECT_EQ(json, want.str());
  std::remove(path.c_str());
}

TEST(RunProgram, ReturnsTheBodysCodeAndMapsItsExceptions) {
  const auto program = [](std::vector<const char*> args, std::function<int(const Options&)> body) {
    args.insert(args.begin(), "tool");
    return capture([&] {
      return run_program(static_cast<int>(args.size()), const_cast<char**>(args.data()),
                         OptionSpec{"tool", 8}, body);
    });
  };
  EXPECT_EQ(program({}, [](const Options&) { return 0; }).code, 0);
  EXPECT_EQ(program({}, [](const Options&) { return 5; }).code, 5);
  EXPECT_EQ(program({"--n", "3"}, [](const Options& o) { return int(o.n); }).code, 3);
  int ran = 0;
  const Outcome help = program({"--help"}, [&](const Options&) {
    ++ran;
    return 9;
  });
  EXPECT_EQ(help.code, kExitVerified);
  EXPECT_EQ(ran, 0);
  EXPECT_TRUE(starts_with(help.out, "usage: tool"));
  for (const Failure& f : failures()) {
    const Outcome o = program({}, [&](const Options&) {
      f.thrower();
      return 0;
    });
    EXPECT_EQ(o.code, f.code) << f.name;
    EXPECT_TRUE(starts_with(o.err, "tool: " + f.message)) << f.name << ": " << o.err;
    EXPECT_EQ(o.err.find("usage: tool") != std::string::npos, f.code == kExitUsage) << f.name;
    EXPECT_EQ(o.out, "") << f.name;
  }
}

// The checkers' main(): one exercise's row last on stdout, exit 0 only when it passed,
// --small passed on to the check, and the exceptions a check does not catch mapped as the
// chapters map them.
TEST(RunExercise, RowAndExitCodes) {
  const auto checker = [](std::vector<std::string> args,
                          std::function<void(const CheckRun&)> check) {
    args.insert(args.begin(), "checker");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return capture([&] {
      return run_exercise(static_cast<int>(argv.size()), argv.data(), "1.2", "sum", check);
    });
  };
  const Outcome pass = checker({}, [](const CheckRun& run) {
    EXPECT_FALSE(run.small);
    std::cout << "      a timing\n";
  });
  EXPECT_EQ(pass.code, kExitVerified);
  EXPECT_EQ(pass.out, "      a timing\nPASS  1.2  sum\n");
  EXPECT_EQ(pass.err, "");

  bool small = false;
  EXPECT_EQ(checker({"--small"}, [&](const CheckRun& run) { small = run.small; }).code,
            kExitVerified);
  EXPECT_TRUE(small);
  const Outcome usage = checker({"--big"}, [](const CheckRun&) { ADD_FAILURE() << "ran"; });
  EXPECT_EQ(usage.code, kExitUsage);
  EXPECT_NE(usage.err.find("unknown option --big"), std::string::npos) << usage.err;

  const Outcome todo = checker({}, [](const CheckRun&) { throw Todo("write the loop"); });
  EXPECT_EQ(todo.code, kExitWrongResult);
  EXPECT_EQ(todo.out, "TODO  1.2  sum: write the loop\n");
  const Outcome wrong = checker({}, [](const CheckRun&) { expect(false, "got 3, want 4"); });
  EXPECT_EQ(wrong.code, kExitWrongResult);
  EXPECT_EQ(wrong.out, "FAIL  1.2  sum: got 3, want 4\n");
  const Outcome cuda = checker({}, [](const CheckRun&) { throw CudaError("illegal address"); });
  EXPECT_EQ(cuda.code, kExitCudaError);
  EXPECT_EQ(cuda.out, "FAIL  1.2  sum: CUDA error: illegal address\n");

  // Any other exception ends the checker with its own code, named on stderr (no GPU: 77).
  for (const Failure& f : failures()) {
    if (f.code == kExitCudaError) continue;  // the exercise's FAIL row, above
    const Outcome o = checker({}, [&](const CheckRun&) { f.thrower(); });
    EXPECT_EQ(o.code, f.code) << f.name;
    EXPECT_TRUE(starts_with(o.err, "checker: " + f.message)) << f.name << ": " << o.err;
  }
}

}  // namespace
}  // namespace tutorial
