/**
 * @file verify.hpp
 * @brief Checking a GPU result against a CPU reference: exactly for integers, within a
 *        rounding-error bound for floats.
 *
 * The float bound. Summing floats in any order is a tree of additions; each addition rounds
 * with relative error at most u = 2^-24. If no input passes through more than k additions on
 * its way to the result (k is the depth of the summation tree), the computed sum s' of the
 * exact sum s obeys
 *
 *     |s' - s| <= gamma(k) * sum |x_i|,    gamma(k) = k u / (1 - k u)
 *
 * (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2). A serial
 * loop has k = n - 1; a tree over n values has k = ceil(log2 n); a kernel whose threads each
 * add c values serially and then meet in a tree of T threads has k = c + ceil(log2 T). Each
 * chapter states its k. The bound is rigorous, so a result outside it is a bug, not bad luck.
 */
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tutorial/harness/host_threads.hpp"

namespace tutorial {

/// The outcome of one comparison, as the report prints it.
struct Check {
  std::string what;  ///< e.g. "sum (reduce_single_block)"
  std::string got;   ///< the GPU's value
  std::string want;  ///< the reference value
  std::string rule;  ///< "exact" or the tolerance used
  bool ok = false;
  /// Shown for information, not part of the verdict: e.g. a vendor's float result, whose
  /// summation order is not documented, so no bound on its rounding can be proved.
  bool informative = false;
};

/// Unit roundoff of float: half the distance from 1 to the next float.
constexpr double kFloatUnitRoundoff = 0x1p-24;

/// gamma(k) = k u / (1 - k u); infinite once k u >= 1 (the bound then says nothing).
inline double rounding_gamma(int64_t k) {
  const double ku = static_cast<double>(k) * kFloatUnitRoundoff;
  return ku < 1 ? ku / (1 - ku) : std::numeric_limits<double>::infinity();
}

/// Error bound of a float sum whose summation tree has depth @p depth (see the file comment).
inline double sum_tolerance(int64_t depth, double sum_abs) {
  return rounding_gamma(depth) * sum_abs;
}

/// Depth of the summation tree of a kernel in which each of @p threads threads first adds
/// ceil(n / threads) values serially, and the threads' partial sums then meet in a tree.
inline int64_t summation_depth(int64_t n, int64_t threads) {
  const int64_t serial = (n + threads - 1) / threads;
  int64_t tree = 0;
  while ((int64_t{1} << tree) < threads) ++tree;
  return serial + tree;
}

/// Prints a double with enough digits to tell a float's rounding from a bug.
inline std::string format_number(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

/// Integers must match exactly.
inline Check check_exact(std::string what, int64_t got, int64_t want) {
  return {std::move(what), std::to_string(got), std::to_string(want), "exact", got == want};
}

/// Floats must lie within @p tolerance of the reference; NaN never passes.
inline Check check_close(std::string what, double got, double want, double tolerance) {
  const bool ok = std::fabs(got - want) <= tolerance;  // false for NaN
  return {std::move(what), format_number(got), format_number(want),
          "|error| <= " + format_number(tolerance), ok};
}

/// What comparing every element found.
struct ElementTally {
  int64_t bad = 0;         ///< how many elements are outside their bound
  int64_t first_bad = -1;  ///< the smallest index of one; -1 when there is none
  double worst = 0;        ///< floats: the largest |error| / tolerance(i) of an inexact element
};

/// Compares elements [begin, end) in one loop: integers exactly, whatever @p tolerance says;
/// floats within tolerance(i), NaN never passing.
template <typename Got, typename Want, typename Tolerance>
ElementTally tally_range(const std::vector<Got>& got, const std::vector<Want>& want,
                         const Tolerance& tolerance, size_t begin, size_t end) {
  ElementTally tally;
  for (size_t i = begin; i < end; ++i) {
    bool ok;
    if constexpr (std::is_integral_v<Got> && std::is_integral_v<Want>) {
      ok = got[i] == want[i];  // exactly: a double cannot tell 2^53 from 2^53 + 1
    } else {
      const double error = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
      const double bound = tolerance(i);
      ok = error <= bound;  // false for NaN
      if (error > 0) tally.worst = std::max(tally.worst, error / bound);
    }
    if (!ok && tally.bad++ == 0) tally.first_bad = static_cast<int64_t>(i);
  }
  return tally;
}

/**
 * @brief Compares every element of @p got with @p want (none when their sizes differ).
 *
 * Above 2^22 elements each host core compares one contiguous chunk (host_threads.hpp); the chunks'
 * tallies are merged in order, so the result is exactly that of one serial loop.
 * @pre tolerance(i) may be called from several threads at once.
 */
template <typename Got, typename Want, typename Tolerance>
ElementTally tally_elements(const std::vector<Got>& got, const std::vector<Want>& want,
                            const Tolerance& tolerance) {
  const size_t count = got.size() == want.size() ? got.size() : 0;
  std::vector<ElementTally> tallies(chunk_count(count));
  for_each_chunk(count, [&](size_t chunk, size_t begin, size_t end) {
    tallies[chunk] = tally_range(got, want, tolerance, begin, end);
  });
  ElementTally total;
  for (const ElementTally& tally : tallies) {
    if (total.first_bad < 0) total.first_bad = tally.first_bad;  // the earliest chunk's first
    total.bad += tally.bad;
    total.worst = std::max(total.worst, tally.worst);
  }
  return total;
}

/// The check that @p tally of @p got against @p want amounts to: the number of mismatches and
/// the first one, so an off-by-one shows where.
template <typename Got, typename Want>
Check check_from_tally(std::string what, const std::vector<Got>& got, const std::vector<Want>& want,
                       const ElementTally& tally, std::string rule) {
  Check check{std::move(what), "", std::to_string(want.size()) + " elements", std::move(rule),
              got.size() == want.size() && tally.bad == 0};
  if (got.size() != want.size()) {
    check.got = std::to_string(got.size()) + " elements";
  } else if (tally.bad == 0) {
    check.got = "all match";
  } else {
    const auto i = static_cast<size_t>(tally.first_bad);
    check.got = std::to_string(tally.bad) + " differ, first at [" + std::to_string(i) +
                "]: " + format_number(static_cast<double>(got[i])) + " vs " +
                format_number(static_cast<double>(want[i]));
  }
  return check;
}

/**
 * @brief Compares every element of @p got with @p want, element i within tolerance(i).
 *
 * The check names the number of mismatches and the first one, so an off-by-one shows where.
 * Integers are compared exactly, whatever @p tolerance says; NaN never passes.
 */
template <typename Got, typename Want, typename Tolerance>
Check check_elements(std::string what, const std::vector<Got>& got, const std::vector<Want>& want,
                     Tolerance tolerance, std::string rule) {
  return check_from_tally(std::move(what), got, want, tally_elements(got, want, tolerance),
                          std::move(rule));
}

}  // namespace tutorial
