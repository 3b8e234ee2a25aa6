/**
 * @file chapter_main.hpp
 * @brief The one place where exceptions become exit codes (errors.hpp), so a chapter's main()
 *        can read as the lesson's outline and never return 0 after a failure.
 */
#pragma once

#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <stdexcept>

#include "tutorial/errors.hpp"
#include "tutorial/options.hpp"
#include "tutorial/report.hpp"

namespace tutorial {

/**
 * @brief Parses the options, runs @p lesson, prints its report and returns the exit code.
 *
 * @p lesson takes the Options and returns a Report. Usage errors print a one-line reason and
 * the usage (exit 2), and so does a size larger than the machine can address; CUDA errors print
 * the failing call (exit 3), as does running out of memory or any other error; a missing
 * device says so (exit 77); a report that is not verified gives exit 1.
 *
 * For tools/compare.py: when the environment variable TUTORIAL_REPORT_JSON names a file, the
 * JSON report is also written there, so one run gives both the text and the numbers.
 */
template <typename Lesson>
int run_main(int argc, char** argv, const OptionSpec& spec, Lesson lesson) {
  try {
    const Options options = parse_options(argc, argv, spec);
    if (options.help) {
      std::cout << usage(spec);
      return kExitVerified;
    }
    const Report report = lesson(options);
    if (options.json) {
      print_json(std::cout, report);
    } else {
      print_text(std::cout, report);
    }
    if (const char* path = std::getenv("TUTORIAL_REPORT_JSON")) {
      std::ofstream file(path);
      print_json(file, report);
      if (!file)
        std::cerr << spec.program << ": could not write the JSON report to " << path << "\n";
    }
    return report.verified() ? kExitVerified : kExitWrongResult;
  } catch (const UsageError& e) {
    std::cerr << spec.program << ": error: " << e.what() << "\n" << usage(spec);
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    std::cerr << spec.program << ": " << e.what() << "\n";
    return kExitNoDevice;
  } catch (const CudaError& e) {
    std::cerr << spec.program << ": CUDA error: " << e.what() << "\n";
    return kExitCudaError;
  } catch (const std::length_error&) {  // a std::vector larger than the address space
    std::cerr << spec.program << ": error: this size is more than this machine can hold\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << spec.program << ": out of host memory for this size\n";
    return kExitCudaError;
  } catch (const std::exception& e) {  // anything else still fails loudly, never with 0
    std::cerr << spec.program << ": error: " << e.what() << "\n";
    return kExitCudaError;
  }
}

}  // namespace tutorial
