/**
 * @file chapters/01_cpu_loop/main.cpp
 * @brief Chapter 01: the serial sum on the CPU, the baseline of every later chapter.
 *
 * Shows: how to time a loop and turn the time into GB/s; why a 32-bit integer sum overflows
 * (without committing the undefined behaviour); why a long float sum drifts, and two cures.
 * Leaves out: threads and SIMD on the CPU; the GPU starts in chapter 02.
 */
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "cpu_sums.hpp"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/reference.hpp"

namespace {

using namespace tutorial;

/// Host-side timing: steady_clock around each call, one warm-up, the median of @p reps.
template <typename Sum>
Row time_cpu(const std::string& name, double bytes, int reps, Sum&& sum) {
  volatile double sink = static_cast<double>(sum());  // warm-up; `volatile` keeps the call
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    sink = static_cast<double>(sum());
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  (void)sink;
  Row row;
  row.name = name;
  row.work = bytes;
  row.ms = summarize(samples);
  return row;
}

/// "model name" from /proc/cpuinfo where there is one.
std::string describe_cpu() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    const size_t colon = line.find(':');
    if (line.rfind("model name", 0) == 0 && colon + 2 < line.size()) {
      return line.substr(colon + 2) + ", one thread";
    }
  }
  return "host CPU, one thread";
}

const ChapterInfo kChapter{"01_cpu_loop", "the serial sum on the CPU",
                           "int64 loop, 4 accumulators"};

Report run_lesson(const Options& opt) {
  const int64_t n = opt.n;
  Report report = make_report(kChapter, opt.reps);
  report.device = describe_cpu();
  report.problem = "n = " + std::to_string(n) + " int32 in [-2^30, 2^30] and n float in [0, 1)" +
                   ", seed " + std::to_string(opt.seed);

  // Input: large integers, so that a 32-bit accumulator overflows within a few additions.
  const std::vector<int32_t> ints = random_ints(n, opt.seed, -(1 << 30), 1 << 30);
  const std::vector<float> floats = random_floats(n, opt.seed + 1, 0.0f, 1.0f);

  // Reference (common/reference.hpp): the exact integer sum, the float sum in double.
  const int64_t int_reference = reference_sum(ints);
  const double float_reference = reference_sum(floats);
  const double sum_abs = reference_sum_abs(floats);

  // Integers: the reference (reference.hpp) is the plain 64-bit loop; the four-accumulator
  // loop adds in another order and must agree exactly. The 32-bit one is shown, not trusted.
  report.checks.push_back(check_exact("int64 loop, 4 accumulators",
                                      chapter01::sum_int64_unrolled(ints), int_reference));
  const chapter01::Int32Sum narrow = chapter01::sum_int32_wrapping(ints);
  report.notes.push_back("a 32-bit accumulator would end at " + std::to_string(narrow.wrapped) +
                         " instead of " + std::to_string(int_reference) + ": " +
                         std::to_string(narrow.overflows) + " of the " + std::to_string(n) +
                         " additions overflowed int32");

  // Floats: pairwise and Kahan within their rounding bounds (verify.hpp). The serial loop is
  // shown, not checked: its bound, gamma(n - 1) sum|x|, says nothing at these sizes.
  const float serial = chapter01::sum_float_serial(floats);
  const float pairwise = chapter01::sum_float_pairwise(floats.data(), floats.size());
  const float kahan = chapter01::sum_float_kahan(floats);
  report.checks.push_back(
      check_close("float pairwise", pairwise, float_reference,
                  sum_tolerance(chapter01::pairwise_depth(n, chapter01::kPairwiseLeaf), sum_abs)));
  report.checks.push_back(
      check_close("float Kahan", kahan, float_reference, chapter01::kahan_tolerance(n, sum_abs)));
  for (const auto& [name, value] :
       {std::pair{"serial", serial}, std::pair{"pairwise", pairwise}, std::pair{"Kahan", kahan}}) {
    const double error = value - float_reference;
    report.notes.push_back(std::string("float ") + name + " sum is off by " + format_number(error) +
                           " (relative " + format_number(error / float_reference) + ")");
  }

  // Timing: bytes the loop must read, over the median time.
  const double int_bytes = double(n) * sizeof(int32_t);
  const double float_bytes = double(n) * sizeof(float);
  report.rows.push_back(
      time_cpu("int64 loop", int_bytes, opt.reps, [&] { return chapter01::sum_int64(ints); }));
  report.rows.push_back(time_cpu("int64 loop, 4 accumulators", int_bytes, opt.reps,
                                 [&] { return chapter01::sum_int64_unrolled(ints); }));
  report.rows.push_back(time_cpu("float serial", float_bytes, opt.reps,
                                 [&] { return chapter01::sum_float_serial(floats); }));
  report.rows.push_back(time_cpu("float pairwise", float_bytes, opt.reps, [&] {
    return chapter01::sum_float_pairwise(floats.data(), floats.size());
  }));
  report.rows.push_back(time_cpu("float Kahan", float_bytes, opt.reps,
                                 [&] { return chapter01::sum_float_kahan(floats); }));
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{kChapter.program(), int64_t{1} << 24};
  spec.default_reps = 5;  // the slowest loop (Kahan) takes tens of milliseconds at 2^24
  return run_main(argc, argv, spec, run_lesson);
}
