// A checker that fails, as a learner's unfinished exercise does: grade.cmake must fail on it
// (the test grade.fails_on_a_failing_checker in tools/CMakeLists.txt).
#include <iostream>

int main() {
  std::cout << "FAIL  0.1  an exercise that fails on purpose\n0 of 1 exercises pass\n";
  return 1;
}
