/**
 * @file errors.hpp
 * @brief The exit codes every program of the tutorial uses, and the exceptions behind them.
 *
 * A program never returns 0 after a failure. main() lets these exceptions fly and
 * tutorial::run_main() (chapter_main.hpp) turns each into its exit code, so buffers and events
 * are released by their destructors on every path.
 */
#pragma once

#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>

namespace tutorial {

/// Exit codes, the same in every chapter and checker.
enum ExitCode : int {
  kExitVerified = 0,     ///< the result matched the reference
  kExitWrongResult = 1,  ///< the program ran but a result was wrong
  kExitUsage = 2,        ///< bad command line or input; a one-line reason and the usage follow
  kExitCudaError = 3,    ///< a CUDA call failed, out-of-memory included
  kExitHostMemory = 4,   ///< the host (not the GPU) ran out of memory for this size
  kExitInternal = 70,    ///< an unexpected error: a bug in the program (sysexits' EX_SOFTWARE)
  kExitNoDevice = 77,    ///< no CUDA device; CTest reports the test as skipped
};

/// A bad command line or an input the program cannot take (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A failed CUDA call, with the call, file and line in the message (exit 3).
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
  /// The failure of @p call at @p file:@p line, with the library's name and text for its status.
  CudaError(const char* call, const char* file, int line, const char* name, const char* text)
      : std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                           ": " + name + " (" + text + ")") {}
};

/// No CUDA device could be used (exit 77).
struct NoDeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/**
 * @brief Call inside a catch block: names the exception in flight on stderr, after
 *        @p program, and returns its exit code. Each cause gets its own code and words: a CUDA
 *        failure is never reported as a usage error, nor a bug of the program as a CUDA error.
 */
inline int exit_code_of_current_exception(const std::string& program) {
  try {
    throw;
  } catch (const UsageError& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return kExitNoDevice;
  } catch (const CudaError& e) {
    std::cerr << program << ": CUDA error: " << e.what() << "\n";
    return kExitCudaError;
  } catch (const std::length_error&) {  // a std::vector larger than the address space
    std::cerr << program << ": error: this size needs more host memory than this machine "
              << "can address\n";
    return kExitHostMemory;
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": error: out of host memory for this size\n";
    return kExitHostMemory;
  } catch (const std::exception& e) {  // not the GPU's fault nor the user's: a bug
    std::cerr << program << ": internal error (a bug in the program): " << e.what() << "\n";
    return kExitInternal;
  } catch (...) {
    std::cerr << program << ": internal error (a bug in the program): unknown exception\n";
    return kExitInternal;
  }
}

}  // namespace tutorial
