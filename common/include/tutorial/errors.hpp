/**
 * @file errors.hpp
 * @brief The exit codes every program of the tutorial uses, and the exceptions behind them.
 *
 * A program never returns 0 after a failure. main() lets these exceptions fly and
 * tutorial::run_main() (chapter_main.hpp) turns each into its exit code, so buffers and events
 * are released by their destructors on every path.
 */
#pragma once

#include <stdexcept>
#include <string>

namespace tutorial {

/// Exit codes, the same in every chapter and checker.
enum ExitCode : int {
  kExitVerified = 0,     ///< the result matched the reference
  kExitWrongResult = 1,  ///< the program ran but a result was wrong
  kExitUsage = 2,        ///< bad command line or input; a one-line reason and the usage follow
  kExitCudaError = 3,    ///< a CUDA call failed, out-of-memory included
  kExitNoDevice = 77,    ///< no CUDA device; CTest reports the test as skipped
};

/// A bad command line or an input the program cannot take (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A failed CUDA call, with the call, file and line in the message (exit 3).
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// No CUDA device could be used (exit 77).
struct NoDeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tutorial
