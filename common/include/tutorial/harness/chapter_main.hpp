/**
 * @file chapter_main.hpp
 * @brief The one place where exceptions become exit codes (errors.hpp), so a chapter's main()
 *        can read as the lesson's outline and never return 0 after a failure. (The run_main()
 *        of a chapter with --explain is tutorial/explain/explain_main.hpp's.)
 */
#pragma once

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/options.hpp"
#include "tutorial/harness/report.hpp"

namespace tutorial {

/**
 * @brief The frame of every program: parses the options, prints the usage for --help, runs
 *        @p body (which takes the Options and returns the exit code) and turns every
 *        exception into its exit code (errors.hpp); a usage error also prints the usage.
 */
template <typename Body>
int run_program(int argc, char** argv, const OptionSpec& spec, Body body) {
  try {
    const Options options = parse_options(argc, argv, spec);
    if (options.help) {
      std::cout << usage(spec);
      return kExitVerified;
    }
    return body(options);
  } catch (const UsageError& e) {
    std::cerr << spec.program << ": error: " << e.what() << "\n" << usage(spec);
    return kExitUsage;
  } catch (...) {
    return exit_code_of_current_exception(spec.program);
  }
}

/// Runs @p lesson with @p options, prints its report (text or JSON, and the JSON file named by
/// TUTORIAL_REPORT_JSON) and returns the exit code.
template <typename Lesson>
int report_lesson(const OptionSpec& spec, const Options& options, Lesson lesson) {
  const Report report = lesson(options);
  if (!report.rows.empty() && report.headline_row() == nullptr) {  // declared once, kept true
    throw std::logic_error("the headline '" + report.headline + "' names no row");
  }
  if (options.json) {
    print_json(std::cout, report);
  } else {
    print_text(std::cout, report);
  }
  if (const char* path = std::getenv("TUTORIAL_REPORT_JSON")) {
    std::ofstream file(path);
    print_json(file, report);
    if (!file) std::cerr << spec.program << ": could not write the JSON report to " << path << "\n";
  }
  return report.verified() ? kExitVerified : kExitWrongResult;
}

/**
 * @brief Parses the options, runs @p lesson, prints its report and returns the exit code.
 *
 * @p lesson takes the Options and returns a Report. Usage errors print a one-line reason and
 * the usage (exit 2); CUDA errors print the failing call (exit 3), running out of device memory
 * included; a missing device says so (exit 77); a report that is not verified gives exit 1.
 * The host running out of memory is exit 4, and any other exception is a bug of the program,
 * reported as an internal error (exit 70): neither is blamed on CUDA or on the command line.
 *
 * For tools/compare.py: when the environment variable TUTORIAL_REPORT_JSON names a file, the
 * JSON report is also written there, so one run gives both the text and the numbers.
 */
template <typename Lesson>
int run_main(int argc, char** argv, const OptionSpec& spec, Lesson lesson) {
  return run_program(argc, argv, spec,
                     [&](const Options& options) { return report_lesson(spec, options, lesson); });
}

}  // namespace tutorial
