// Exercise 1.2: the Neumaier sum (see README.md).
#include <vector>

#include "exercise.hpp"
#include "tutorial/exercise.hpp"

namespace exercise01 {

float neumaier_sum(const std::vector<float>& values) {
  // TODO(1.2): like Kahan's loop in chapters/01_cpu_loop/cpu_sums.hpp, but compute what each
  // addition lost from whichever operand is larger in magnitude, and add the accumulated
  // compensation once, at the end. Delete the next line when done.
  throw tutorial::Todo("write neumaier_sum in exercises/01_cpu_loop/neumaier.cpp");
}

}  // namespace exercise01
