// Checker of exercise 1.1: the edges and 100000 random pairs against a 64-bit reference, and a
// reading of overflow.cpp for what the exercise forbids (wider types, builtins).
#include <cctype>
#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

/// The identifiers of C++ source @p text, comments and string literals left out (a scan, not a
/// std::regex: libstdc++'s regex recurses per character and can overflow the stack).
std::vector<std::string> identifiers(const std::string& text) {
  std::vector<std::string> words;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i != std::string::npos) i += 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\') ++i;  // an escaped character, e.g. \"
      }
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = i;
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
        ++i;
      }
      words.push_back(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return words;
}

/// Fails if the learner's file names a type wider than 32 bits, a floating-point type or a
/// compiler builtin: each would answer the question without the reasoning it asks for.
void expect_no_wide_types(const std::string& path) {
  std::ifstream file(path);
  expect(file.good(), "cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  const std::set<std::string> banned = {"long",      "int64_t",       "uint64_t",     "intmax_t",
                                        "uintmax_t", "int_least64_t", "int_fast64_t", "__int128",
                                        "double",    "float"};
  for (const std::string& word : identifiers(text.str())) {
    expect(banned.count(word) == 0 && word.rfind("__builtin", 0) != 0,
           "overflow.cpp uses '" + word +
               "': the exercise allows 32-bit integers only, and no builtins");
  }
}

void check_overflow(const CheckRun&) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  std::vector<std::pair<int32_t, int32_t>> cases = {{0, 0},
                                                    {kMax, 0},
                                                    {kMax, 1},
                                                    {kMax, -1},
                                                    {kMin, 0},
                                                    {kMin, -1},
                                                    {kMin, 1},
                                                    {kMax, kMax},
                                                    {kMin, kMin},
                                                    {kMax, kMin},
                                                    {1 << 30, 1 << 30},
                                                    {-(1 << 30), -(1 << 30)},
                                                    {-(1 << 30), -(1 << 30) - 1},
                                                    {(1 << 30), (1 << 30) - 1}};
  const auto a = random_ints(100000, 11, kMin, kMax), b = random_ints(100000, 12, kMin, kMax);
  for (size_t i = 0; i < a.size(); ++i) cases.emplace_back(a[i], b[i]);
  for (auto [x, y] : cases) {
    const int64_t exact = int64_t{x} + y;  // the checker may use 64 bits; you may not
    const bool want = exact < kMin || exact > kMax;
    expect(exercise01::add_would_overflow(x, y) == want,
           std::to_string(x) + " + " + std::to_string(y) + ": should be " +
               (want ? "an overflow" : "no overflow"));
  }
  expect_no_wide_types(TUTORIAL_LEARNER_FILE);
}

}  // namespace

int main(int argc, char** argv) {
  return run_exercise(argc, argv, "1.1", "overflow test without undefined behaviour",
                      check_overflow);
}
