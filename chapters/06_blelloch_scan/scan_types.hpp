/**
 * @file chapters/06_blelloch_scan/scan_types.hpp
 * @brief The two scans chapters 06 and 08 run, each with its input, its row names and how its
 *        result is checked: int32 -> int64 exactly, float -> float within a rounding bound,
 *        against the CPU references here (the checkers of exercises 6.1 to 6.5 use them too).
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace chapter06 {

using tutorial::Check;
using tutorial::check_from_tally;
using tutorial::ElementTally;
using tutorial::format_number;
using tutorial::sum_tolerance;
using tutorial::tally_elements;

/// The CPU reference of the integer scan, in 64 bits: out[i] = in[0] + ... + in[i].
inline std::vector<int64_t> reference_inclusive_scan(const std::vector<int32_t>& in) {
  std::vector<int64_t> out(in.size());
  int64_t running = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

/// The CPU reference of the float scan, in double precision.
inline std::vector<double> reference_inclusive_scan(const std::vector<float>& in) {
  std::vector<double> out(in.size());
  double running = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

//! [float_check]
/// A float scan: element i within gamma(depth(i)) * (|x_0| + ... + |x_i|) of the reference
/// @p want, which for inputs that are all positive is that prefix itself; the rule also says
/// how close the worst element came to its bound. depth(i) bounds the additions element i went
/// through; depth.text() says how.
template <typename Got, typename Depth>
Check check_positive_scan(std::string what, const std::vector<Got>& got,
                          const std::vector<double>& want, const Depth& depth) {
  const auto tolerance = [&](size_t i) {
    return sum_tolerance(depth(static_cast<int64_t>(i)), std::fabs(want[i]));
  };
  const ElementTally tally = tally_elements(got, want, tolerance);  // one pass finds the worst
  return check_from_tally(std::move(what), got, want, tally,
                          "|error| <= gamma(" + depth.text() + ") * prefix of |x|; worst " +
                              format_number(100 * tally.worst) + "% of it");
}
//! [float_check]

/// The integer scan: int32 in, int64 out. |x| <= 2^20 and n < 2^42 keep every prefix below
/// 2^62: int64 cannot overflow, so the check is exact. Its table comes first: its rows are
/// named by their steps and compared with its first vendor row, at the report's intensity.
struct IntegerScan {
  using In = int32_t;
  using Out = int64_t;
  static constexpr const char* kType = "int64";
  static constexpr const char* kPrefix = "";
  static constexpr const char* kBaseline = "";
  static constexpr double kOpsPerByte = 0;            ///< 0: the report's
  static constexpr bool kEstimatedForVendor = false;  ///< CUB's integer scan is checked exactly
  static std::vector<In> input(int64_t n, uint64_t seed) {
    return tutorial::random_ints(n, seed, -(1 << 20), 1 << 20);
  }
  template <typename Depth>
  static Check check(std::string what, const std::vector<Out>& got,
                     const std::vector<int64_t>& want, const Depth&) {
    return tutorial::check_elements(
        std::move(what), got, want, [](size_t) { return 0.0; }, "exact");
  }
};

/// The float scan: float in and out, inputs in [0.5, 1.5). All positive, so the prefix of
/// |x| in the rounding bound is the reference itself; each prefix of such floats (multiples
/// of 2^-24 below 2^53 * 2^-24) is exact in the double reference. Its rows are named
/// "float: ...", each compared with CUB's float scan at one add per float in and out.
struct FloatScan {
  using In = float;
  using Out = float;
  static constexpr const char* kType = "float";
  static constexpr const char* kPrefix = "float: ";
  static constexpr const char* kBaseline = "float: cub::DeviceScan::InclusiveSum";
  static constexpr double kOpsPerByte = 1.0 / (2 * sizeof(float));
  static constexpr bool kEstimatedForVendor = true;  ///< CUB's bound rests on CubDepthEstimate
  static std::vector<In> input(int64_t n, uint64_t seed) {
    return tutorial::random_floats(n, seed, 0.5f, 1.5f);
  }
  template <typename Depth>
  static Check check(std::string what, const std::vector<Out>& got, const std::vector<double>& want,
                     const Depth& depth) {
    return check_positive_scan(std::move(what), got, want, depth);
  }
};

}  // namespace chapter06
