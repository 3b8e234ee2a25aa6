// What the checkers of exercises 4.1 and 4.2 share: the comparison of block-by-block results
// that names the first wrong block.
#pragma once

#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"

namespace check04 {

/// Fails with the first block whose result differs from the reference.
template <typename T, typename Same, typename Show>
void expect_blocks(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                   Same same, Show show) {
  tutorial::expect(got.size() == want.size(), what + ": " + std::to_string(got.size()) +
                                                  " block results, want " +
                                                  std::to_string(want.size()));
  for (size_t b = 0; b < want.size(); ++b) {
    tutorial::expect(same(got[b], want[b]), what + ": block " + std::to_string(b) + " gave " +
                                                show(got[b]) + ", want " + show(want[b]));
  }
}

}  // namespace check04
