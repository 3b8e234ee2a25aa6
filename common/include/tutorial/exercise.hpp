/**
 * @file exercise.hpp
 * @brief What the exercise checkers share: the TODO marker a learner deletes, and the grader
 *        that runs each exercise's checks and prints one PASS / FAIL / TODO line for it.
 */
#pragma once

#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "tutorial/errors.hpp"

namespace tutorial {

/// Thrown by an exercise not yet done. Delete the line that throws it when you do the task.
struct Todo : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A check of an exercise failed; the message says what was expected and what came.
struct ExerciseFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws ExerciseFailure with @p message unless @p ok.
inline void expect(bool ok, const std::string& message) {
  if (!ok) throw ExerciseFailure(message);
}

/// Runs the exercises of one chapter and prints the learner's board.
class Grader {
 public:
  /// Runs @p checks (a callable that throws Todo or ExerciseFailure, or returns on success).
  template <typename Checks>
  void exercise(const std::string& id, const std::string& title, Checks&& checks) {
    ++total_;
    try {
      checks();
      ++passed_;
      std::cout << "PASS  " << id << "  " << title << "\n";
    } catch (const Todo& todo) {
      std::cout << "TODO  " << id << "  " << title << ": " << todo.what() << "\n";
    } catch (const ExerciseFailure& failure) {
      std::cout << "FAIL  " << id << "  " << title << ": " << failure.what() << "\n";
    } catch (const CudaError& error) {  // e.g. an out-of-bounds access in the learner's kernel
      std::cout << "FAIL  " << id << "  " << title << ": CUDA error: " << error.what() << "\n";
    }
  }
  /// The exit code: 0 when every exercise passed, 1 otherwise.
  int finish() const {
    std::cout << passed_ << " of " << total_ << " exercises pass\n";
    return passed_ == total_ ? kExitVerified : kExitWrongResult;
  }

 private:
  int total_ = 0;
  int passed_ = 0;
};

/**
 * @brief The main() of every checker: runs @p grade_all (which takes a Grader&), turning a
 *        missing device into exit 77, a CUDA error into exit 3 and the rest as the chapters
 *        do (errors.hpp).
 */
template <typename GradeAll>
int run_checker(GradeAll&& grade_all) {
  try {
    Grader grader;
    grade_all(grader);
    return grader.finish();
  } catch (...) {
    return exit_code_of_current_exception("checker");
  }
}

}  // namespace tutorial
