/**
 * @file options.hpp
 * @brief The command line every chapter shares: --n (or --m --n --k), --reps, --seed, --json,
 *        --help; sizes such as 1000, 16M or 2^24; and a chapter's own options (ExtraOption).
 */
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tutorial/harness/errors.hpp"

namespace tutorial {

/**
 * @brief Parses a size: a positive integer, optionally with a binary suffix K, M or G
 *        (1024, 1024^2, 1024^3), or a power written base^exponent.
 *
 * Examples: "1000" -> 1000, "16M" -> 16777216, "2^24" -> 16777216, "3k" -> 3072.
 * @throws UsageError for zero, negative numbers, garbage or values past 2^62.
 */
inline int64_t parse_size(const std::string& text) {
  constexpr int64_t kMax = int64_t{1} << 62;
  const auto fail = [&](const char* why) { return UsageError("bad size '" + text + "': " + why); };
  const auto parse_digits = [&](const std::string& digits) {
    if (digits.empty()) throw fail("expected a positive integer");
    int64_t value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') throw fail("expected a positive integer");
      if (value > (kMax - (c - '0')) / 10) throw fail("too large");
      value = value * 10 + (c - '0');
    }
    return value;
  };

  int64_t value = 0;
  const size_t caret = text.find('^');
  if (caret != std::string::npos) {
    const int64_t base = parse_digits(text.substr(0, caret));
    const int64_t exponent = parse_digits(text.substr(caret + 1));
    value = 1;
    // Past 62 steps any base > 1 overflows; stop there (1^huge is still 1, 0^k is rejected).
    for (int64_t i = 0; i < std::min<int64_t>(exponent, 63); ++i) {
      if (base != 0 && value > kMax / base) throw fail("too large");
      value *= base;
    }
  } else {
    // A trailing K, M or G multiplies by 1024^1, ^2 or ^3.
    const size_t power =
        text.empty() ? std::string::npos : std::string("kmg").find(std::tolower(text.back()));
    const int64_t multiplier = power == std::string::npos ? 1 : int64_t{1} << (10 * (power + 1));
    std::string digits = text;
    if (multiplier != 1) digits.pop_back();
    value = parse_digits(digits);
    if (value > kMax / multiplier) throw fail("too large");
    value *= multiplier;
  }
  if (value < 1) throw fail("must be at least 1");
  return value;
}

/// An option of one chapter's own, beyond the shared ones: a flag such as --explain (no
/// value_name) or an option with a value such as --tune N.
struct ExtraOption {
  std::string name;           ///< "--explain"
  std::string value_name;     ///< "N"; empty for a flag
  std::string help;           ///< one line for the usage text
  std::string default_value;  ///< the value when the option is not given (options with a value)
};

/// What a chapter's command line asks for.
struct Options {
  int64_t n = 0;      ///< elements (reductions, scan) or columns of C (matmul)
  int64_t m = 0;      ///< rows of A and C (matmul only)
  int64_t k = 0;      ///< columns of A, rows of B (matmul only)
  int reps = 20;      ///< timed repetitions after the warm-up
  uint64_t seed = 1;  ///< seed of the random input
  bool json = false;  ///< print one JSON object instead of the text report
  bool help = false;  ///< print the usage and exit 0
  /// The chapter's own options (OptionSpec::extra) by name: the value given or the default;
  /// a flag is present only when given, with an empty value.
  std::map<std::string, std::string> extra;

  /// For a flag: true when it was given. An option with a value always has one (given, or
  /// its default), so for those it is always true.
  bool has(const std::string& name) const { return extra.count(name) > 0; }
  /// The value of the chapter's option @p name.
  /// @throws std::logic_error when the chapter did not declare it as an option with a value
  ///         (a bug of the chapter: exit 70).
  const std::string& value(const std::string& name) const {
    const auto found = extra.find(name);
    if (found == extra.end()) throw std::logic_error("option " + name + " has no value");
    return found->second;
  }
};

/// Which options a program takes, and their defaults.
struct OptionSpec {
  std::string program;             ///< name shown in the usage line
  int64_t default_n = 1;           ///< default --n
  bool matmul = false;             ///< also takes --m and --k
  int64_t default_m = 1;           ///< default --m (matmul)
  int64_t default_k = 1;           ///< default --k (matmul)
  int default_reps = 20;           ///< default --reps
  std::vector<ExtraOption> extra;  ///< the chapter's own options, if any
};

/// The usage text for @p spec, printed by --help and after every usage error.
inline std::string usage(const OptionSpec& spec) {
  std::string text = "usage: " + spec.program;
  text += spec.matmul ? " [--m M] [--n N] [--k K]" : " [--n N]";
  text += " [--reps R] [--seed S] [--json]";
  for (const ExtraOption& o : spec.extra) {
    text += " [" + o.name + (o.value_name.empty() ? "" : " " + o.value_name) + "]";
  }
  text += " [--help]\n";
  if (spec.matmul) {
    text += "  --m M, --n N, --k K  C (MxN) = A (MxK) * B (KxN)   (defaults " +
            std::to_string(spec.default_m) + ", " + std::to_string(spec.default_n) + ", " +
            std::to_string(spec.default_k) + ")\n";
  } else {
    text += "  --n N       number of elements (default " + std::to_string(spec.default_n) + ")\n";
  }
  text +=
      "              sizes take a suffix K, M, G (powers of 1024) or a power: 16M, 2^24\n"
      "  --reps R    timed repetitions after one warm-up; the median is reported (default " +
      std::to_string(spec.default_reps) +
      ")\n"
      "  --seed S    seed of the random input (default 1)\n"
      "  --json      print the report as one JSON object\n"
      "  --help      print this text\n";
  for (const ExtraOption& o : spec.extra) {
    std::string left = "  " + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
    left.resize(std::max<size_t>(left.size() + 1, 14), ' ');
    text += left + o.help;
    if (!o.default_value.empty()) text += " (default " + o.default_value + ")";
    text += "\n";
  }
  return text;
}

/**
 * @brief Parses argv into Options.
 * @throws UsageError naming the offending argument (unknown option, missing or bad value).
 */
inline Options parse_options(int argc, const char* const* argv, const OptionSpec& spec) {
  Options options;
  options.n = spec.default_n;
  options.m = spec.default_m;
  options.k = spec.default_k;
  options.reps = spec.default_reps;
  for (const ExtraOption& o : spec.extra) {
    if (!o.value_name.empty()) options.extra[o.name] = o.default_value;
  }
  const auto extra_option = [&](const std::string& name) -> const ExtraOption* {
    for (const ExtraOption& o : spec.extra) {
      if (o.name == name) return &o;
    }
    return nullptr;
  };
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError("option " + arg + " needs a value");
      return args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--json") {
      options.json = true;
    } else if (arg == "--n") {
      options.n = parse_size(value());
    } else if (spec.matmul && arg == "--m") {
      options.m = parse_size(value());
    } else if (spec.matmul && arg == "--k") {
      options.k = parse_size(value());
    } else if (arg == "--reps") {
      const int64_t reps = parse_size(value());
      if (reps > 100000) throw UsageError("--reps " + std::to_string(reps) + " is too many");
      options.reps = static_cast<int>(reps);
    } else if (arg == "--seed") {
      const std::string& text = value();
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
          text.size() > 19) {
        throw UsageError("bad seed '" + text + "': expected a non-negative integer");
      }
      options.seed = std::stoull(text);
    } else if (const ExtraOption* own = extra_option(arg)) {
      if (own->value_name.empty()) {
        options.extra[arg] = "";
      } else {
        const std::string& given = value();
        if (given.rfind("--", 0) == 0) throw UsageError("option " + arg + " needs a value");
        options.extra[arg] = given;
      }
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  return options;
}

}  // namespace tutorial
