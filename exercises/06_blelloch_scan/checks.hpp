// What the checkers of exercises 6.1 to 6.5 share: the sizes they grade, the CPU reference of
// an exclusive scan, and the comparison that names the first wrong element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "06_blelloch_scan/scan_types.hpp"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/random.hpp"

namespace check06 {

/// The sizes an exercise is graded on: awkward ones up to @p max, then four random ones (under
/// --small: only those up to CheckRun::kSmallLimit).
inline std::vector<int64_t> sizes_up_to(int64_t max, uint64_t seed, const tutorial::CheckRun& run) {
  std::vector<int64_t> sizes;
  for (int64_t n : {1, 2, 3, 31, 1023, 1024, 1025, 2047, 2048, 2049, 4097, 65537, 300007}) {
    if (n <= max && (!run.small || n <= tutorial::CheckRun::kSmallLimit)) sizes.push_back(n);
  }
  tutorial::SplitMix64 rng(seed);
  const int64_t largest = run.small ? std::min(max, tutorial::CheckRun::kSmallLimit) : max;
  for (int k = 0; k < 4; ++k) sizes.push_back(1 + static_cast<int64_t>(rng.next() % largest));
  return sizes;
}

/// Expects the first want.size() elements of @p got to equal @p want, naming the first miss.
template <typename Got, typename Want>
void expect_prefix_equal(const std::vector<Got>& got, const std::vector<Want>& want,
                         const std::string& what) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (static_cast<int64_t>(got[i]) == static_cast<int64_t>(want[i])) continue;
    throw tutorial::ExerciseFailure(what + ": element [" + std::to_string(i) + "] is " +
                                    std::to_string(got[i]) + ", want " + std::to_string(want[i]));
  }
}

inline std::vector<int64_t> exclusive_reference(const std::vector<int32_t>& in) {
  std::vector<int64_t> out = chapter06::reference_inclusive_scan(in);
  std::rotate(out.rbegin(), out.rbegin() + 1, out.rend());
  out[0] = 0;
  return out;
}

}  // namespace check06
