/**
 * @file exercise.hpp
 * @brief What the exercise checkers share: the TODO marker a learner deletes, the failure a
 *        check throws, and the main() of a checker, which grades one exercise and prints its
 *        row (PASS, FAIL or TODO) for the grader (tools/grade.cmake).
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/verify.hpp"

namespace tutorial {

/// Thrown by an exercise not yet done. Delete the line that throws it when you do the task.
struct Todo : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A check of an exercise failed; the message says what was expected and what came.
struct ExerciseFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The row of the exercise being graded, "  id  title" (set by run_exercise()), for a check that
/// must print its row and end at once (exercise_gpu.cuh: a timed call that hangs).
inline std::string& current_row() {
  static std::string row;
  return row;
}

/// Throws ExerciseFailure with @p message unless @p ok.
inline void expect(bool ok, const std::string& message) {
  if (!ok) throw ExerciseFailure(message);
}

/// Expects @p got to be the exact sum of @p values.
inline void expect_int_sum(long long got, const std::vector<int32_t>& values,
                           const std::string& what) {
  const long long want = reference_sum(values);
  expect(got == want, what + ": got " + std::to_string(got) + ", want " + std::to_string(want));
}

/// Expects @p got to be the sum of @p values within the error bound of any summation order:
/// n - 1 float additions are within gamma(n - 1) sum |x| of the exact sum (NaN never passes).
inline void expect_float_sum(float got, const std::vector<float>& values, const std::string& what) {
  const double want = reference_sum(values);
  const double bound =
      rounding_gamma(static_cast<int64_t>(values.size())) * reference_sum_abs(values);
  expect(std::fabs(got - want) <= bound,
         what + ": got " + format_number(got) + ", want " + format_number(want) + " within " +
             format_number(bound) + (std::isnan(got) ? " (NaN: never written?)" : ""));
}

/**
 * @brief What one run of a checker covers. The grader runs each GPU checker in full (every
 *        size, and the timing of a performance exercise), then under compute-sanitizer with
 *        `--small`: a few small sizes and no timing, since the sanitizers make a kernel
 *        hundreds of times slower and a timing under them means nothing.
 */
struct CheckRun {
  bool small = false;

  /// Sizes at most this large are all a --small run grades.
  static constexpr int64_t kSmallLimit = 5000;

  /// The sizes of @p all that this run grades: all of them, or under --small the small ones.
  std::vector<int64_t> sizes(std::initializer_list<int64_t> all) const {
    std::vector<int64_t> kept;
    for (int64_t n : all) {
      if (!small || n <= kSmallLimit) kept.push_back(n);
    }
    return kept;
  }
};

/**
 * @brief The main() of every checker: grades exercise @p id with @p check (a callable taking
 *        a const CheckRun&, throwing Todo or ExerciseFailure, returning on success) and prints
 *        the exercise's row last: `PASS  id  title`, `TODO  id  title: what to do` or
 *        `FAIL  id  title: what went wrong`. Lines the check prints before it (timings, notes)
 *        belong to the row.
 *
 * Options: `--small` (see CheckRun). Exit codes: 0 PASS, 1 FAIL or TODO, 2 bad option,
 * 3 a CUDA error (printed as a FAIL row too), 77 no CUDA device (GPU exercises).
 */
template <typename Check>
int run_exercise(int argc, char** argv, const std::string& id, const std::string& title,
                 Check&& check) {
  CheckRun run;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      run.small = true;
    } else {
      std::cerr << argv[0] << ": error: unknown option " << argv[i] << "\nusage: " << argv[0]
                << " [--small]   (grades exercise " << id << ")\n";
      return kExitUsage;
    }
  }
  const std::string row = "  " + id + "  " + title;
  current_row() = row;
  try {
    check(run);
    std::cout << "PASS" << row << std::endl;
    return kExitVerified;
  } catch (const Todo& todo) {
    std::cout << "TODO" << row << ": " << todo.what() << std::endl;
  } catch (const ExerciseFailure& failure) {
    std::cout << "FAIL" << row << ": " << failure.what() << std::endl;
  } catch (const CudaError& error) {  // e.g. an out-of-bounds access in the learner's kernel
    std::cout << "FAIL" << row << ": CUDA error: " << error.what() << std::endl;
    return kExitCudaError;
  } catch (...) {
    return exit_code_of_current_exception(argv[0]);  // no GPU: 77
  }
  return kExitWrongResult;
}

}  // namespace tutorial
