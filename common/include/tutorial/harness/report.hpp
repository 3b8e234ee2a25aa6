/**
 * @file report.hpp
 * @brief The report every chapter prints, in one shape: what ran and where, the checks, a
 *        table of timings, cycles and rates next to the vendor library, and the verdict.
 *        print_json() prints the same facts as one JSON object for tools/compare.py.
 */
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tutorial/harness/stats.hpp"
#include "tutorial/harness/verify.hpp"

// The build type CMake compiled this program with (common/CMakeLists.txt defines it).
#ifndef TUTORIAL_BUILD_TYPE
#define TUTORIAL_BUILD_TYPE ""
#endif

namespace tutorial {

/// The build type of this program: "Release", "Debug", ... or "unknown".
inline std::string build_type() {
  const std::string type = TUTORIAL_BUILD_TYPE;
  return type.empty() ? "unknown" : type;
}

/// What a chapter declares once: its directory name (the program is "ch" + id), one line of
/// what it does, and the name of its headline row, the one that stands for the chapter in the
/// side-by-side table (tools/compare.py).
struct ChapterInfo {
  std::string id;        ///< e.g. "05_atomic_grid"
  std::string title;     ///< e.g. "grid-stride loop, block shuffles, one atomicAdd per block"
  std::string headline;  ///< the name of one of the report's rows
  std::string program() const { return "ch" + id; }
};

/// One timed variant: a kernel of the chapter, or the vendor library doing the same work.
struct Row {
  std::string name;                     ///< kernel or library call
  Summary ms;                           ///< wall time per run in milliseconds
  double work = 0;                      ///< bytes moved (GB/s) or operations (GFLOP/s) per run
  std::optional<Summary> block_cycles;  ///< per-block clock64() cycles, where recorded
  double grid_span_us = 0;              ///< first block start to last block end; 0 = unknown
  bool vendor = false;                  ///< CUB / cuBLAS: the yardstick of the other rows
  std::string baseline;  ///< the vendor row this row is compared with; empty: the first one
  /// Elements one block of the cycle-recorded launch covers on average (input elements of a
  /// sum or scan, elements of C in a matrix product); 0 = unknown.
  double elements_per_block = 0;
  /// Operations per byte of this row's work, where it differs from the report's (another type).
  double ops_per_byte = 0;
  /// No row of the report does the same work: no ratio to a baseline is shown.
  bool stands_alone = false;
  /// The SM clock of the cycle-recorded launch: per block, its cycles over its %globaltimer
  /// nanoseconds; the median over blocks, in MHz; 0 = unknown. (Last, so that the tests' rows
  /// written field by field keep their meaning.)
  double clock_mhz = 0;
  /// The symbol of the row's kernel (steps.cuh's kernel_symbol): how tools/profile.py finds
  /// the row's counters; empty for a vendor row.
  std::string symbol;
  std::string teaches;  ///< what the row's step teaches (steps.cuh's Step::teaches)
};

/// Everything a chapter reports.
struct Report {
  std::string chapter;             ///< directory name, e.g. "02_single_block_sum"
  std::string title;               ///< one line: what the chapter does
  std::string device;              ///< the device, from its attributes
  std::string problem;             ///< the input: size, type, seed
  std::string rate_unit = "GB/s";  ///< "GB/s" or "GFLOP/s"
  double peak_rate = 0;            ///< the device's theoretical peak in rate_unit; 0 = unknown
  int reps = 0;                    ///< timed repetitions behind each median
  std::string headline;            ///< the row that stands for the chapter in comparisons
  std::vector<Check> checks;       ///< every result compared with its reference
  std::vector<Row> rows;           ///< the timed variants, vendor rows included
  std::vector<std::string> notes;  ///< what this run shows beyond the table
  std::string build_type = tutorial::build_type();  ///< timings of a non-Release build mislead
  bool clean_l2 = false;  ///< each timed run started from a flushed L2 (measure.cuh's Timer)
  /// Arithmetic intensity of the algorithm: operations (op_name) per byte it must move through
  /// device memory, for the roofline (docs/roofline.md); 0 = unknown.
  double ops_per_byte = 0;
  std::string op_name;  ///< what one operation is, e.g. "int64 add" or "FLOP"

  /// True when at least one check decides the verdict and every such check passed
  /// (informative checks are shown but decide nothing).
  bool verified() const {
    int deciding = 0;
    for (const Check& c : checks) {
      if (c.informative) continue;
      if (!c.ok) return false;
      ++deciding;
    }
    return deciding > 0;
  }

  /// The row named by the headline, or nullptr.
  const Row* headline_row() const {
    for (const Row& row : rows) {
      if (row.name == headline) return &row;
    }
    return nullptr;
  }
};

/// A report that already states what @p chapter declares, the reps and the build type.
inline Report make_report(const ChapterInfo& chapter, int reps) {
  Report report;
  report.chapter = chapter.id;
  report.title = chapter.title;
  report.headline = chapter.headline;
  report.reps = reps;
  return report;
}

/// The warning every report of a build that is not Release carries.
inline std::string build_warning(const Report& r) {
  return r.build_type == "Release" ? std::string()
                                   : "this is a " + r.build_type +
                                         " build: its timings are not comparable with a Release "
                                         "build's (cmake --preset default builds Release)";
}

/// Work per second of @p row in the report's unit (work / median time / 1e9).
inline double rate_of(const Row& row) {
  return row.ms.median > 0 ? row.work / (row.ms.median * 1e-3) / 1e9 : 0;
}

/// Median cycles a block spent per element it covers: the cycles of blocks of different sizes
/// made comparable. A block's cycles run from its start to its end on its SM, which it shares
/// with the other blocks resident there; empty when not recorded.
inline std::optional<double> cycles_per_element(const Row& row) {
  if (!row.block_cycles || row.elements_per_block <= 0) return std::nullopt;
  return row.block_cycles->median / row.elements_per_block;
}

/// Throughput of @p row relative to its vendor row (1.0 = as fast): the one @p row names as
/// its baseline, else the first vendor row; empty when there is none or the row stands alone.
inline std::optional<double> vs_vendor(const Report& report, const Row& row) {
  if (row.stands_alone) return std::nullopt;
  for (const Row& vendor : report.rows) {
    const bool yardstick = row.baseline.empty() ? vendor.vendor : vendor.name == row.baseline;
    if (yardstick && row.ms.median > 0) return vendor.ms.median / row.ms.median;
  }
  return std::nullopt;
}

namespace detail {
inline std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}
inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}
inline std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}
inline std::string json_summary(const Summary& s) {
  return "{\"min\": " + json_number(s.min) + ", \"median\": " + json_number(s.median) +
         ", \"max\": " + json_number(s.max) + "}";
}
inline std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}
inline std::string pad_left(const std::string& text, size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}
}  // namespace detail

/// The human-readable report.
inline void print_text(std::ostream& out, const Report& r) {
  using detail::fixed;
  using detail::pad;
  using detail::pad_left;
  out << "== " << r.chapter << ": " << r.title << " ==\n";
  out << "device : " << r.device << "\n";
  out << "input  : " << r.problem << "\n";
  if (!build_warning(r).empty()) out << "WARNING: " << build_warning(r) << "\n";
  for (const Check& c : r.checks) {
    const char* verdict = c.informative ? (c.ok ? "within (not part of the verdict)"
                                                : "OUTSIDE (not part of the verdict)")
                                        : (c.ok ? "OK" : "WRONG");
    out << "check  : " << c.what << ": got " << c.got << " | reference " << c.want << " | "
        << c.rule << " | " << verdict << "\n";
  }
  if (!r.rows.empty()) {
    size_t name_width = 6;
    for (const Row& row : r.rows) name_width = std::max(name_width, row.name.size());
    out << "timing : median of " << r.reps << " runs after a warm-up"
        << (r.clean_l2 ? ", each from a clean L2" : "") << "; spread = (max - min) / median\n";
    out << "  " << pad("kernel", name_width) << "  median ms    min ms    max ms  spread"
        << pad_left(r.rate_unit, 10) << "  % peak   cycles/block min / median / max"
        << "  cyc/elem     span us  vs vendor\n";
    for (const Row& row : r.rows) {
      const double rate = rate_of(row);
      const std::optional<double> ratio = vs_vendor(r, row);
      const std::optional<double> per_element = cycles_per_element(row);
      std::string cycles = "-";
      if (row.block_cycles) {
        cycles = fixed(row.block_cycles->min, 0) + " / " + fixed(row.block_cycles->median, 0) +
                 " / " + fixed(row.block_cycles->max, 0);
      }
      out << "  " << pad(row.name, name_width) << pad_left(fixed(row.ms.median, 4), 11)
          << pad_left(fixed(row.ms.min, 4), 10) << pad_left(fixed(row.ms.max, 4), 10)
          << pad_left(fixed(100 * row.ms.spread(), 1) + "%", 8) << pad_left(fixed(rate, 1), 10)
          << pad_left(r.peak_rate > 0 ? fixed(100 * rate / r.peak_rate, 1) : "-", 8) << "   "
          << pad(cycles, 33)
          << pad_left(per_element ? fixed(*per_element, *per_element < 1000 ? 2 : 0) : "-", 9)
          << pad_left(row.grid_span_us > 0 ? fixed(row.grid_span_us, 1) : "-", 10)
          << pad_left(ratio ? fixed(100 * *ratio, 1) + "%" : "-", 11) << "\n";
    }
  }
  for (const std::string& note : r.notes) out << "note   : " << note << "\n";
  out << "verdict: " << (r.verified() ? "VERIFIED" : "WRONG RESULT") << "\n";
}

/// The same facts as one JSON object (one line).
inline void print_json(std::ostream& out, const Report& r) {
  using detail::json_number;
  using detail::json_string;
  out << "{\"chapter\": " << json_string(r.chapter) << ", \"title\": " << json_string(r.title)
      << ", \"device\": " << json_string(r.device) << ", \"problem\": " << json_string(r.problem)
      << ", \"rate_unit\": " << json_string(r.rate_unit)
      << ", \"peak_rate\": " << (r.peak_rate > 0 ? json_number(r.peak_rate) : "null")
      << ", \"reps\": " << r.reps << ", \"build_type\": " << json_string(r.build_type)
      << ", \"headline\": " << json_string(r.headline)
      << ", \"ops_per_byte\": " << (r.ops_per_byte > 0 ? json_number(r.ops_per_byte) : "null")
      << ", \"op_name\": " << json_string(r.op_name)
      << ", \"verified\": " << (r.verified() ? "true" : "false") << ", \"checks\": [";
  for (size_t i = 0; i < r.checks.size(); ++i) {
    const Check& c = r.checks[i];
    out << (i ? ", " : "") << "{\"what\": " << json_string(c.what)
        << ", \"got\": " << json_string(c.got) << ", \"want\": " << json_string(c.want)
        << ", \"rule\": " << json_string(c.rule) << ", \"ok\": " << (c.ok ? "true" : "false")
        << ", \"informative\": " << (c.informative ? "true" : "false") << "}";
  }
  out << "], \"rows\": [";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const Row& row = r.rows[i];
    const double rate = rate_of(row);
    const std::optional<double> ratio = vs_vendor(r, row);
    out << (i ? ", " : "") << "{\"name\": " << json_string(row.name)
        << ", \"vendor\": " << (row.vendor ? "true" : "false")
        << ", \"baseline\": " << (row.baseline.empty() ? "null" : json_string(row.baseline))
        << ", \"symbol\": " << (row.symbol.empty() ? "null" : json_string(row.symbol))
        << ", \"teaches\": " << (row.teaches.empty() ? "null" : json_string(row.teaches))
        << ", \"ops_per_byte\": " << (row.ops_per_byte > 0 ? json_number(row.ops_per_byte) : "null")
        << ", \"ms\": " << detail::json_summary(row.ms)
        << ", \"spread\": " << json_number(row.ms.spread()) << ", \"rate\": " << json_number(rate)
        << ", \"percent_of_peak\": "
        << (r.peak_rate > 0 ? json_number(100 * rate / r.peak_rate) : "null")
        << ", \"block_cycles\": "
        << (row.block_cycles ? detail::json_summary(*row.block_cycles) : "null")
        << ", \"cycles_per_element\": "
        << (cycles_per_element(row) ? json_number(*cycles_per_element(row)) : "null")
        << ", \"grid_span_us\": " << (row.grid_span_us > 0 ? json_number(row.grid_span_us) : "null")
        << ", \"vs_vendor\": " << (ratio ? json_number(*ratio) : "null") << "}";
  }
  out << "], \"notes\": [";
  for (size_t i = 0; i < r.notes.size(); ++i) out << (i ? ", " : "") << json_string(r.notes[i]);
  out << "]}\n";
}

}  // namespace tutorial
