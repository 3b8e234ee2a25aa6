/**
 * @file stats.hpp
 * @brief Min, median and max of a set of samples (timings, per-block cycle counts).
 */
#pragma once

#include <algorithm>
#include <vector>

namespace tutorial {

/// Min / median / max of some samples; all zero when there were none.
struct Summary {
  double min = 0;
  double median = 0;
  double max = 0;

  /// Run-to-run noise: (max - min) / median, 0 when there is no median. Two rows whose
  /// medians differ by less than their spreads are not told apart by this run.
  double spread() const { return median > 0 ? (max - min) / median : 0; }
};

/// Summarises @p samples (taken by value: it is sorted). The median of an even count is the
/// mean of the two middle samples.
inline Summary summarize(std::vector<double> samples) {
  if (samples.empty()) return {};
  std::sort(samples.begin(), samples.end());
  const size_t mid = samples.size() / 2;
  const double median = samples.size() % 2 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
  return {samples.front(), median, samples.back()};
}

}  // namespace tutorial
