// Exercise 1.2: the Neumaier sum (see README.md).
#include <vector>

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"

namespace exercise01 {

float neumaier_sum(const std::vector<float>& values) {
  // TODO(1.2): return the Kahan-Babuska-Neumaier sum of values, in float arithmetic. Unlike
  // Kahan's loop in chapters/01_cpu_loop/cpu_sums.hpp, it must sum {1, 1e8, 1, -1e8} to 2.
  // Delete the next line when done.
  throw tutorial::Todo("write neumaier_sum in exercises/01_cpu_loop/neumaier.cpp");
}

}  // namespace exercise01
