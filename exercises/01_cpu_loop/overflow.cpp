// Exercise 1.1: detect int32 overflow before it happens (see README.md).
#include <cstdint>
#include <limits>

#include "exercise.hpp"
#include "tutorial/grading/exercise.hpp"

namespace exercise01 {

bool add_would_overflow(int32_t a, int32_t b) {
  // TODO(1.1): return true exactly when the mathematical a + b lies outside
  // [INT32_MIN, INT32_MAX]. Do not compute a + b in 32 bits, use a wider type or call a
  // compiler builtin. Delete the next line when done.
  throw tutorial::Todo("write add_would_overflow in exercises/01_cpu_loop/overflow.cpp");
}

}  // namespace exercise01
