/**
 * @file exercise_gpu.cuh
 * @brief What the GPU exercise checkers add to exercise.hpp: a main() that first makes sure
 *        there is a GPU (exit 77 if not), and the timed check of a performance exercise, which
 *        measures the learner's code and its target in the same run.
 */
#pragma once

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "tutorial/device_facts.cuh"
#include "tutorial/exercise.hpp"
#include "tutorial/measure.cuh"

namespace tutorial {

/// run_exercise() for an exercise that needs a GPU: without one the checker exits 77.
template <typename Check>
int run_gpu_exercise(int argc, char** argv, const std::string& id, const std::string& title,
                     Check&& check) {
  return run_exercise(argc, argv, id, title, [&](const CheckRun& run) {
    query_device();  // throws NoDeviceError: exit 77
    check(run);
  });
}

/// One side of a timed comparison: a name, and a callable that enqueues the work.
template <typename Launch>
struct Timed {
  std::string name;
  Launch launch;
};

template <typename Launch>
Timed(std::string, Launch) -> Timed<Launch>;

/// Median milliseconds to GB/s for @p bytes moved per run.
inline double gigabytes_per_second(double bytes, double ms) {
  return bytes / (ms * 1e6);
}

/**
 * @brief The check of a performance exercise: times @p yours and @p target alternately in
 *        one process (the median of @p reps runs each, every run from a cold L2, as the
 *        chapters time), prints both, and fails unless yours reaches @p share of the target's
 *        speed. Check correctness first: a fast wrong answer is not a pass.
 * @param bytes what one run moves to and from memory, for the GB/s printed beside the times.
 */
template <typename Yours, typename Target>
void expect_speed(double bytes, const Timed<Yours>& yours, const Timed<Target>& target,
                  double share, int reps = 30) {
  const DeviceFacts device = query_device();
  Timer timer(device);
  // Target, yours, target again: a GPU that warms up or throttles during the run shows as a
  // difference between the two target times, and the faster of the two is the bar.
  const double target_first = timer.time_ms(reps, target.launch).median;
  const double yours_ms = timer.time_ms(reps, yours.launch).median;
  const double target_ms = std::min(target_first, timer.time_ms(reps, target.launch).median);
  const double needed_ms = target_ms / share;
  char line[512];
  std::snprintf(line, sizeof line,
                "      %-34s %9.4f ms %8.1f GB/s\n      %-34s %9.4f ms %8.1f GB/s\n"
                "      %-34s %9.4f ms %8.1f GB/s (%.0f%% of the target's speed, on %s)",
                yours.name.c_str(), yours_ms, gigabytes_per_second(bytes, yours_ms),
                ("target: " + target.name).c_str(), target_ms,
                gigabytes_per_second(bytes, target_ms), "needed: at most", needed_ms,
                gigabytes_per_second(bytes, needed_ms), 100 * share, device.name.c_str());
  std::cout << line << std::endl;
  char verdict[160];
  std::snprintf(verdict, sizeof verdict, "%.4f ms is %.0f%% of the target's speed; %.0f%% needed",
                yours_ms, 100 * target_ms / yours_ms, 100 * share);
  expect(yours_ms <= needed_ms, std::string("correct but too slow: ") + verdict);
}

}  // namespace tutorial
