// Exercise 1.2, solved: the Neumaier sum.
#include <cmath>
#include <vector>

#include "exercise.hpp"

namespace exercise01 {

float neumaier_sum(const std::vector<float>& values) {
  float sum = 0, compensation = 0;
  for (float v : values) {
    const float t = sum + v;
    // The rounding error of sum + v is exact to compute from the larger operand: subtracting
    // t from it leaves the part of the smaller one that did not make it into t.
    if (std::fabs(sum) >= std::fabs(v)) {
      compensation += (sum - t) + v;
    } else {
      compensation += (v - t) + sum;
    }
    sum = t;
  }
  return sum + compensation;
}

}  // namespace exercise01
