/**
 * @file chapters/02_single_block_sum/main.cu
 * @brief Chapter 02: the first kernel. One block of threads sums the whole array.
 *
 * Shows: a kernel launch; threads striding over the input so that neighbouring threads read
 * neighbouring elements; partial sums in shared memory; __syncthreads(); per-block cycle
 * counts with clock64(), and a measurement of why clock64() readings of different SMs cannot
 * be subtracted.
 * Leaves out: more than one block (chapter 03), a parallel final sum (chapters 03 and 04).
 */
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cub_sum.cuh"
#include "reduction_input.cuh"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/measure.cuh"
#include "tutorial/harness/reference.hpp"
#include "tutorial/harness/steps.cuh"

namespace {

using namespace tutorial;

/// One block as large as CUDA allows: every thread of the only block is one more load in
/// flight, and a single block is all this chapter gets.
constexpr int kBlockThreads = 1024;

//! [reduce_single_block]
/// The whole sum in one block: each thread adds every kBlockThreads-th element into its own
/// register, writes that partial sum to shared memory, and thread 0 adds the partial sums.
/// A __device__ function: code that runs on the GPU, called by GPU code (the kernel below).
/// @pre run by every thread of one block of kBlockThreads threads; `out` points at one value.
__device__ void reduce_single_block(const int32_t* __restrict__ in, int64_t n,
                                    long long* __restrict__ out) {
  __shared__ long long partial[kBlockThreads];

  // Stride by the block size: in each step the 1024 threads read 1024 consecutive ints, so a
  // warp's 32 loads fall in one 128-byte segment (coalesced). 64-bit: n may pass 2^31.
  long long sum = 0;
  for (int64_t i = threadIdx.x; i < n; i += kBlockThreads) sum += in[i];
  partial[threadIdx.x] = sum;

  // Thread 0 reads every thread's slot next: all of them must have been written.
  __syncthreads();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int t = 0; t < kBlockThreads; ++t) total += partial[t];  // 1024 dependent adds
    *out = total;
  }
}
//! [reduce_single_block]

//! [sum_kernel]
/// The kernel: a __global__ function is what the host launches, and every thread of the grid
/// runs it. Its work is the function above. (The harness launches that same function inside
/// a kernel of its own, clocked_blocks in tutorial/harness/block_cycles.cuh, which also reads the
/// SM's clock when the block starts and ends: the cycles/block column of the report.)
__global__ void sum_kernel(const int32_t* __restrict__ in, int64_t n, long long* __restrict__ out) {
  reduce_single_block(in, n, out);
}
//! [sum_kernel]

//! [sum_on_gpu]
/// The sum of @p h_in on the GPU the way a first CUDA program computes it, with none of the
/// tutorial's harness: allocate device memory, copy the input there, launch, check the launch,
/// copy the result back, free. Every CUDA call returns an error code; CUDA_CHECK stops the
/// program with the call's name and the error's when one is not cudaSuccess.
long long sum_on_gpu(const std::vector<int32_t>& h_in) {
  const int64_t n = int64_t(h_in.size());
  const size_t bytes = size_t(n) * sizeof(int32_t);
  int32_t* d_in = nullptr;
  long long* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));  // memory on the GPU, where the kernel will read
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
  // A value no sum here can take, so that a kernel that never writes *d_out cannot pass.
  CUDA_CHECK(cudaMemset(d_out, 0x7F, sizeof(long long)));

  sum_kernel<<<1, kBlockThreads>>>(d_in, n, d_out);  // 1 block of kBlockThreads threads
  CUDA_CHECK(cudaGetLastError());  // did the launch start? (a bad configuration fails here)

  long long sum = 0;  // this copy waits for the kernel, and reports an error it ran into
  CUDA_CHECK(cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_in));
  return sum;
}
//! [sum_on_gpu]

//! [read_sm_clocks]
/// One reading per block of the SM's cycle counter and of the GPU-wide nanosecond timer,
/// taken back to back, with the SM the block ran on.
__global__ void read_sm_clocks(long long* cycles, unsigned long long* ns, unsigned* sm) {
  if (threadIdx.x != 0) return;
  unsigned sm_id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm_id));
  ns[blockIdx.x] = global_timer_ns();
  cycles[blockIdx.x] = clock64();
  sm[blockIdx.x] = sm_id;
}
//! [read_sm_clocks]

/// Reads every SM's clock64() at (nearly) the same moment and says how far apart the
/// counters are, after removing the part explained by the readings' different times.
std::string measure_clock_skew(const DeviceFacts& device) {
  const int blocks = device.sm_count;  // about one block per SM
  DeviceBuffer<long long> cycles(blocks);
  DeviceBuffer<unsigned long long> ns(blocks);
  DeviceBuffer<unsigned> sm(blocks);
  read_sm_clocks<<<blocks, 32>>>(cycles.data(), ns.data(), sm.data());
  CUDA_CHECK(cudaGetLastError());
  const std::vector<long long> c = cycles.to_host();
  const std::vector<unsigned long long> t = ns.to_host();
  const std::vector<unsigned> s = sm.to_host();

  // If the counters were one clock, cycles - ns * (cycles per ns) would be the same on every
  // SM. Its spread is how far apart the counters are.
  const double cycles_per_ns = device.sm_clock_khz / 1e6;
  double lowest = 1e300, highest = -1e300;
  unsigned long long first = t[0], last = t[0];
  for (int b = 0; b < blocks; ++b) {
    const double since_first_ns = double(int64_t(t[b] - t[0]));  // may be negative
    const double offset = double(c[b]) - since_first_ns * cycles_per_ns;
    lowest = std::min(lowest, offset);
    highest = std::max(highest, offset);
    first = std::min(first, t[b]);
    last = std::max(last, t[b]);
  }
  std::vector<unsigned> distinct(s);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  // %globaltimer ticks in steps of up to a microsecond, so offsets closer than two of its
  // ticks (in cycles) are as good as equal.
  const double spread = highest - lowest, resolution = 2 * 1000 * cycles_per_ns;
  const std::string measured = "clock64() read on " + std::to_string(distinct.size()) +
                               " SMs within " + format_number((last - first) / 1e3) +
                               " us of each other (%globaltimer) differed by " +
                               format_number(spread) + " cycles beyond what that time explains";
  if (spread <= resolution) {
    return measured + ": on this GPU the counters agree, but CUDA does not promise that";
  }
  return measured + " (" + format_number(spread / cycles_per_ns / 1e3) +
         " us at the peak clock): cycles of different SMs cannot be subtracted";
}

/// Times what it cost to get the input onto the GPU: the same values copied again from
/// (pageable) host memory with cudaMemcpy, timed like the kernels, next to @p kernel's time.
std::string time_upload(Timer& timer, const Options& opt, DeviceBuffer<int32_t>& d_in,
                        const Row& kernel) {
  const std::vector<int32_t> h_in = reduction_input(opt.n, opt.seed);
  const Summary ms = timer.time_ms(opt.reps, [&] { d_in.copy_from(h_in); });
  const double gbs = double(d_in.bytes()) / (ms.median * 1e-3) / 1e9;
  using detail::fixed;
  return "copying the input to the GPU (cudaMemcpy from pageable host memory) took " +
         fixed(ms.median, 3) + " ms (median of " + std::to_string(opt.reps) + ", " + fixed(gbs, 1) +
         " GB/s), " + fixed(ms.median / kernel.ms.median, 1) +
         " x this kernel's time: a GPU pays off when the data already lives there";
}

const ChapterInfo kChapter{"02_single_block_sum", "one block sums the whole array",
                           "reduce_single_block"};

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  const int64_t n = opt.n;
  Report report = start_reduction_report(kChapter, device, opt);
  report.problem = describe_reduction_input(n, opt.seed);

  // Input on the device with its exact 64-bit reference; the result is poisoned before each check.
  DeviceReductionInput input = upload_reduction_input(n, opt.seed);
  const DeviceBuffer<int32_t>& d_in = input.values;
  DeviceBuffer<long long> d_out(1);
  const auto launch = [&](BlockCycleSlots slots) {
    clocked_kernel<reduce_single_block><<<1, kBlockThreads>>>(slots, d_in.data(), n, d_out.data());
  };
  const std::vector<Step> steps = {
      {"reduce_single_block",
       "one block strides over the whole array; thread 0 adds its threads' partial sums",
       reinterpret_cast<const void*>(clocked_kernel<reduce_single_block>), 1, double(n), launch},
  };
  CubSum<int32_t, long long> cub_sum(d_in.data(), d_out.data(), n);

  // The step and CUB checked on a poisoned sum, then both timed in the same run.
  Timer timer(device);
  run_steps(report, timer, opt.reps, double(n) * sizeof(int32_t), steps,
            {{"cub::DeviceReduce::Sum", [&] { cub_sum(); }}}, [&](const std::string& id, auto run) {
              return check_device_sum(id, d_out.data(), input.sum, run);
            });
  // The same kernel through the plain host program of the page (sum_on_gpu).
  report.checks.push_back(check_exact("sum (sum_on_gpu, the whole host program)",
                                      sum_on_gpu(reduction_input(n, opt.seed)), input.sum));

  report.notes.push_back(time_upload(timer, opt, input.values, report.rows.front()));
  report.notes.push_back("one block runs on one SM of " + std::to_string(device.sm_count) +
                         ": the other SMs are idle, which is why the GB/s are far from peak");
  report.notes.push_back(measure_clock_skew(device));
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  const OptionSpec spec{kChapter.program(), int64_t{1} << 24};  // 64 MiB: more than L2
  return run_main(argc, argv, spec, run_lesson);
}
