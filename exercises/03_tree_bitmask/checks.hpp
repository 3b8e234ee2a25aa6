// What the checkers of exercises 3.1 and 3.2 share: the CPU reference of block-by-block
// results and the comparison that names the first wrong block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tutorial/grading/exercise.hpp"

namespace check03 {

/// The reduction of each group of @p group consecutive values with @p combine.
template <typename Out, typename Combine>
std::vector<Out> reference_groups(const std::vector<int32_t>& in, int64_t group, Out first,
                                  Combine combine) {
  std::vector<Out> out;
  for (size_t begin = 0; begin < in.size(); begin += group) {
    Out value = first;
    for (size_t i = begin; i < std::min(in.size(), begin + size_t(group)); ++i) {
      value = combine(value, Out{in[i]});
    }
    out.push_back(value);
  }
  return out;
}

/// Fails with the first block whose value differs.
template <typename T>
void expect_groups(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  tutorial::expect(got.size() == want.size(), what + ": " + std::to_string(got.size()) +
                                                  " block results, want " +
                                                  std::to_string(want.size()));
  for (size_t b = 0; b < want.size(); ++b) {
    tutorial::expect(got[b] == want[b], what + ": block " + std::to_string(b) + " gave " +
                                            std::to_string(got[b]) + ", want " +
                                            std::to_string(want[b]));
  }
}

}  // namespace check03
