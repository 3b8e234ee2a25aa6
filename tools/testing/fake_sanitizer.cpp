// A stand-in for compute-sanitizer, for the grader's tests: called as
// `fake_sanitizer --tool T --error-exitcode C program --small`, it reports one race, as
// racecheck words it, when T is racecheck and the program's name contains "race"; otherwise
// it reports nothing and exits 0 (it never runs the program).
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 6) return 2;
  const std::string tool = argv[2], program = argv[5];
  std::cout << "========= COMPUTE-SANITIZER\n";
  if (tool == "racecheck" && program.find("race") != std::string::npos) {
    std::cout << "========= Error: Race reported between Write access at f()+0x10 in "
                 "race.cu:3\n=========     and Read access at f()+0x20 in race.cu:4\n"
                 "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    return std::atoi(argv[4]);
  }
  std::cout << "========= ERROR SUMMARY: 0 errors\n";
  return 0;
}
