/**
 * @file explain_main.hpp
 * @brief The --explain flag and run_main() for a chapter that has it (chapters 03, 04, 06, 07):
 *        with the flag, the chapter's explanation runs instead of its lesson.
 */
#pragma once

#include <iostream>

#include "tutorial/explain/explain_report.hpp"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/options.hpp"

namespace tutorial {

/// The --explain flag of the chapters whose lesson is an access pattern.
inline ExtraOption explain_option() {
  return {"--explain", "",
          "print the shared-memory banks and turns of each warp's accesses, recorded "
          "from the kernels (with --json: as JSON)"};
}

/**
 * @brief run_main() for a chapter with --explain (explain_option() in spec.extra): with the
 *        flag, @p explain (which takes the Options and returns an Explanation) runs instead of
 *        the lesson, and its tables (or, with --json, its JSON) are printed. Exit 0 when every
 *        recorded kernel computed the right result, 1 otherwise; errors as in run_main().
 */
template <typename Lesson, typename Explain>
int run_main(int argc, char** argv, const OptionSpec& spec, Lesson lesson, Explain explain) {
  return run_program(argc, argv, spec, [&](const Options& options) -> int {
    if (!options.has("--explain")) return report_lesson(spec, options, lesson);
    const Explanation e = explain(options);
    if (options.json) {
      print_explanation_json(std::cout, e);
    } else {
      print_explanation_text(std::cout, e);
    }
    return e.verified() ? kExitVerified : kExitWrongResult;
  });
}

}  // namespace tutorial
