// Checker of exercise 1.2: a sum Kahan gets wrong, and random mixed magnitudes within
// Neumaier's error bound of a double reference.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/verify.hpp"

namespace {

using namespace tutorial;

void check_neumaier(const CheckRun&) {
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

int main(int argc, char** argv) {
  return run_exercise(argc, argv, "1.2", "Neumaier's compensated sum", check_neumaier);
}
