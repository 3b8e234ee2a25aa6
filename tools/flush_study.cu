/**
 * @file tools/flush_study.cu
 * @brief Why the timer flushes L2 with a read (docs/measuring.md): one plain read kernel
 *        timed after no flush, after a memset of 2 x L2 (the old flush) and after a read of
 *        2 x L2 (the project's), at sizes from a fraction of L2 to many times it.
 *
 *     build/bin/flush_study [--n 2^28] [--reps 50]     # --n: the largest size, in ints
 *
 * Prints a Markdown table: median microseconds, GB/s and the spread of each cell.
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/report.hpp"

namespace {

using namespace tutorial;

struct Flush {
  L2Flush mode;
  const char* name;
};
constexpr Flush kFlushes[] = {{L2Flush::kNone, "no flush"},
                              {L2Flush::kWrite, "memset 2 x L2 (old)"},
                              {L2Flush::kRead, "read 2 x L2 (used)"}};

/// The sizes: 2^20, 2^22, 2^24 ints and the largest, @p n, rounded down to whole int4s.
std::vector<int64_t> sizes(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t s : {int64_t{1} << 20, int64_t{1} << 22, int64_t{1} << 24}) {
    if (s < n) out.push_back(s);
  }
  out.push_back(std::max<int64_t>(4, n / 4 * 4));
  return out;
}

int study(const Options& opt) {
  const DeviceFacts device = query_device();
  std::cout << "device: " << device.describe() << "\n"
            << "kernel: read_only_pass (int4 loads, nothing written), median of " << opt.reps
            << " runs; build " << build_type() << "\n\n"
            << "| ints | MiB |";
  for (const Flush& f : kFlushes) std::cout << " " << f.name << ": us, GB/s, spread |";
  std::cout << "\n|---|---|";
  for (size_t i = 0; i < std::size(kFlushes); ++i) std::cout << "---|";
  std::cout << "\n";

  const std::vector<int64_t> counts = sizes(opt.n);
  DeviceBuffer<int32_t> data(counts.back());
  data.copy_from(random_ints(counts.back(), opt.seed, -1000, 1000));  // real data, not zeros
  DeviceBuffer<int> sink(1);
  for (int64_t n : counts) {
    const double bytes = double(n) * sizeof(int32_t);
    std::cout << "| 2^" << format_number(std::log2(double(n))) << " | "
              << format_number(bytes / (1 << 20)) << " |";
    for (const Flush& f : kFlushes) {
      Timer timer(device, f.mode);
      const Summary ms = timer.time_ms(opt.reps, [&] {
        launch_read_only_pass(device, data.data(), int64_t(bytes), sink.data());
      });
      std::cout << " " << detail::fixed(1e3 * ms.median, 1) << ", "
                << detail::fixed(bytes / (ms.median * 1e-3) / 1e9, 0) << ", "
                << detail::fixed(100 * ms.spread(), 1) << "% |";
    }
    std::cout << "\n";
  }
  std::cout << "\nDRAM peak from the device attributes: " << detail::fixed(device.peak_gbs(), 0)
            << " GB/s\n";
  return kExitVerified;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{"flush_study", int64_t{1} << 28};
  spec.default_reps = 50;
  return run_program(argc, argv, spec, study);
}
