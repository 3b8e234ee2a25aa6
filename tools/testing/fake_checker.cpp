// A stand-in for an exercise checker, one per row the grader prints (tools/CMakeLists.txt
// builds it once per FAKE_MODE_*), for the grader's own tests.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

int main(int, char** argv) {
#if defined(FAKE_MODE_no_device)  // a GPU checker on a machine without a GPU: no row, exit 77
  std::cerr << argv[0] << ": no CUDA device found; this program needs an NVIDIA GPU\n";
  return 77;
#endif
  (void)argv;
  std::cout << "      a line the checker prints before its row\n";
#if defined(FAKE_MODE_pass) || defined(FAKE_MODE_race)
  std::cout << "PASS  0.1  a fake" << std::endl;
  return 0;
#elif defined(FAKE_MODE_fail)
  std::cout << "FAIL  0.2  a fake: wrong" << std::endl;
  return 1;
#elif defined(FAKE_MODE_todo)
  std::cout << "TODO  0.3  a fake: do it" << std::endl;
  return 1;
#elif defined(FAKE_MODE_hang)
  std::this_thread::sleep_for(std::chrono::seconds(60));
  return 0;
#elif defined(FAKE_MODE_crash)
  std::abort();
#elif defined(FAKE_MODE_stopped)  // a checker whose kernel stopped its own hang (exercise 10.4)
  std::cout << "TIMEOUT  0.8  a fake: waited 2 s on empty[0]" << std::endl;
  return 1;
#endif
}
