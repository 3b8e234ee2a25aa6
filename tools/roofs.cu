/**
 * @file tools/roofs.cu
 * @brief The roofs of the roofline (docs/roofline.md) on this GPU: DRAM bandwidth, theoretical
 *        and measured; L2 bandwidth, measured; the FP32 FMA rate, theoretical.
 *
 *     build/bin/roofs [--n 2^28] [--reps 50] [--json]   # --n: the DRAM buffer, in ints
 *
 * Prints a short table, or with --json one JSON object; tools/compare.py runs it before the
 * chapters and keeps that object in comparison.json under "roofs".
 */
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>

#include "07_tiled_matmul/fp32_peak.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/device_facts.cuh"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/random.hpp"
#include "tutorial/harness/report.hpp"

namespace {

using namespace tutorial;

/**
 * @brief Reads @p count 16-byte words @p passes times over, from L2, and writes nothing (in
 *        practice): read_only_pass, repeated inside one launch.
 *
 * Why not read_only_pass itself, once per timed run: over a buffer that fits in L2 one launch
 * lasts a few microseconds, and the launch, the first blocks' start and the last blocks' tail
 * cost about as much again, whatever the size; that number would be the launch's, not L2's.
 * Here the fixed cost is paid once for many passes. The loads are __ldcg (cached in L2, not in
 * L1): every pass a thread reads the same words, which its SM's L1 would otherwise serve.
 */
__global__ void read_l2_resident(const int4* __restrict__ data, int64_t count, int passes,
                                 int* sink) {
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  int bits = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
      const int4 v = __ldcg(data + i);
      bits ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  if (bits == kReadPassNeverWritten) *sink = bits;
}

/// What one read measurement found.
struct Read {
  int64_t buffer_bytes = 0;  ///< the bytes of the buffer read
  int64_t bytes = 0;         ///< bytes read per timed run (all passes over the buffer)
  Summary ms;                ///< milliseconds per timed run
  double gbs() const { return bytes / (ms.median * 1e-3) / 1e9; }
};

/// The DRAM roof as measured: the plain read kernel over @p bytes, each run from a clean L2.
Read measure_dram(const DeviceFacts& device, const int32_t* data, int64_t bytes, int reps,
                  int* sink) {
  Timer timer(device);
  return {bytes, bytes,
          timer.time_ms(reps, [&] { launch_read_only_pass(device, data, bytes, sink); })};
}

/// The L2 roof as measured: a quarter of L2 (it stays there: nothing flushes it between runs),
/// read as many times as makes about @p total_bytes, in one launch per timed run.
Read measure_l2(const DeviceFacts& device, const int32_t* data, int64_t total_bytes, int reps,
                int* sink) {
  const int64_t bytes = device.l2_bytes / 4 / 16 * 16;
  const int passes = static_cast<int>(std::max<int64_t>(1, total_bytes / bytes));
  Timer timer(device, L2Flush::kNone);  // time_ms's warm-up run brings the buffer into L2
  const Summary ms = timer.time_ms(reps, [&] {
    // launch_read_only_pass's grid: enough blocks to fill the device
    read_l2_resident<<<4 * device.sm_count, 512>>>(reinterpret_cast<const int4*>(data), bytes / 16,
                                                   passes, sink);
  });
  return {bytes, bytes * passes, ms};
}

void print_json(const DeviceFacts& device, const Read& dram, const Read& l2, int reps) {
  using detail::json_number;
  std::cout << "{\"device\": " << detail::json_string(device.describe())
            << ", \"build_type\": " << detail::json_string(build_type()) << ", \"reps\": " << reps
            << ", \"dram_peak_gbs\": " << json_number(device.peak_gbs())
            << ", \"dram_measured_gbs\": " << json_number(dram.gbs())
            << ", \"dram_spread\": " << json_number(dram.ms.spread())
            << ", \"dram_buffer_bytes\": " << dram.buffer_bytes
            << ", \"l2_measured_gbs\": " << json_number(l2.gbs())
            << ", \"l2_spread\": " << json_number(l2.ms.spread())
            << ", \"l2_buffer_bytes\": " << l2.buffer_bytes
            << ", \"fp32_peak_gflops\": " << json_number(fp32_peak_gflops(device)) << "}\n";
}

void print_text(const DeviceFacts& device, const Read& dram, const Read& l2, int reps) {
  using detail::fixed;
  std::cout << "device: " << device.describe() << "\n"
            << "median of " << reps << " runs; build " << build_type() << "\n"
            << "  DRAM peak     " << fixed(device.peak_gbs(), 0) << " GB/s (device attributes)\n"
            << "  DRAM measured " << fixed(dram.gbs(), 0) << " GB/s, spread "
            << fixed(100 * dram.ms.spread(), 1) << "% (read_only_pass over "
            << format_bytes(double(dram.buffer_bytes)) << ", clean L2 before each run)\n"
            << "  L2 measured   " << fixed(l2.gbs(), 0) << " GB/s, spread "
            << fixed(100 * l2.ms.spread(), 1) << "% (" << format_bytes(double(l2.buffer_bytes))
            << " kept in L2, read " << l2.bytes / l2.buffer_bytes << " times per run)\n"
            << "  " << describe_fp32_peak(device) << "\n";
}

int measure(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t bytes = opt.n * int64_t{sizeof(int32_t)} / 16 * 16;
  if (bytes < 8 * int64_t{device.l2_bytes}) {  // else part of it would be read from L2
    throw UsageError("--n " + std::to_string(opt.n) + " ints: the DRAM buffer must be at least " +
                     "8 x L2 = " + std::to_string(2 * int64_t{device.l2_bytes}) + " ints");
  }
  // real data, not zeros, as in tools/flush_study.cu
  const DeviceBuffer<int32_t> data(
      random_ints(bytes / int64_t{sizeof(int32_t)}, opt.seed, -1000, 1000));
  DeviceBuffer<int> sink(1);
  const Read dram = measure_dram(device, data.data(), bytes, opt.reps, sink.data());
  const Read l2 = measure_l2(device, data.data(), bytes, opt.reps, sink.data());
  if (opt.json) {
    print_json(device, dram, l2, opt.reps);
  } else {
    print_text(device, dram, l2, opt.reps);
  }
  return kExitVerified;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec{"roofs", int64_t{1} << 28};
  spec.default_reps = 50;
  return run_program(argc, argv, spec, measure);
}
