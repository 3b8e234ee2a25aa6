/**
 * @file chapters/06_blelloch_scan/scan_types.hpp
 * @brief The two scans chapters 06 and 08 run, each with its input, its row names and how its
 *        result is checked: int32 -> int64 exactly, float -> float within a rounding bound.
 */
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tutorial/harness/random.hpp"
#include "tutorial/harness/verify.hpp"

namespace chapter06 {

using tutorial::Check;

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
    return tutorial::check_scan_exact(std::move(what), got, want);
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
    return tutorial::check_positive_scan(std::move(what), got, want, depth);
  }
};

}  // namespace chapter06
