// Exercise 1.1, solved: detect int32 overflow before it happens.
#include <cstdint>
#include <limits>

#include "exercise.hpp"

namespace exercise01 {

bool add_would_overflow(int32_t a, int32_t b) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  // For b > 0 the sum overflows when a > kMax - b; kMax - b cannot overflow since b > 0.
  // For b < 0 it overflows when a < kMin - b; kMin - b cannot overflow since b < 0.
  return b > 0 ? a > kMax - b : a < kMin - b;
}

}  // namespace exercise01
