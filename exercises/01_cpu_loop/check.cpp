// Checker of exercises 1.1 and 1.2.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "tutorial/exercise.hpp"
#include "tutorial/random.hpp"
#include "tutorial/reference.hpp"
#include "tutorial/verify.hpp"

namespace {

using namespace tutorial;

void check_overflow() {
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
}

void check_neumaier() {
  // Kahan loses this one (the 1s vanish when 1e8 enters); Neumaier keeps them: sum = 2.
  const std::vector<float> hard{1.0f, 1e8f, 1.0f, -1e8f};
  const float hard_sum = exercise01::neumaier_sum(hard);
  expect(hard_sum == 2.0f, "{1, 1e8, 1, -1e8} should sum to 2, got " + format_number(hard_sum));
  // Random mixed magnitudes: within Neumaier's bound 2u |s| + O(n u^2) sum|x| of the exact sum.
  uint64_t seed = 40;
  for (int64_t n : {1, 2, 3, 17, 1000, 65537, 1000003}) {
    std::vector<float> x = random_floats(n, ++seed, -1.0f, 1.0f);
    for (size_t i = 0; i < x.size(); i += 7) x[i] *= 1e6f;  // every 7th value is huge
    const double want = reference_sum(x), abs_sum = reference_sum_abs(x);
    const double u = kFloatUnitRoundoff;
    const double bound = 2 * u * std::fabs(want) + 4 * double(n) * u * u * abs_sum;
    const float got = exercise01::neumaier_sum(x);
    expect(std::fabs(got - want) <= bound,
           "n = " + std::to_string(n) + ": got " + format_number(got) + ", want " +
               format_number(want) + " within " + format_number(bound));
  }
}

}  // namespace

int main() {
  return run_checker([](Grader& grader) {
    grader.exercise("1.1", "overflow test without undefined behaviour", check_overflow);
    grader.exercise("1.2", "Neumaier's compensated sum", check_neumaier);
  });
}
