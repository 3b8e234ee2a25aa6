/**
 * @file chapters/11_multi_gpu/main.cu
 * @brief Chapter 11: chapter 05's sum across every GPU of the machine: the topology, copies
 *        between GPUs three ways, an all-reduce by hand (one-shot and two-shot) and NCCL's,
 *        each checked exactly on every GPU.
 *
 * The input: n int32 on every GPU (each its own seed); the all-reduce leaves their element-wise
 * sum on every GPU. Times are per operation, from the host's clock (events cannot be compared
 * across GPUs), nccl-tests' way: a batch of operations back to back per sample.
 * Shows: peer access, cudaMemcpyPeerAsync, kernels that read another GPU's memory, ordering
 * GPUs with events, algorithm and bus bandwidth, ncclAllReduce and ncclReduce.
 * Leaves out (for now): one process per GPU (ncclCommInitRank), the chart of the sweep.
 */
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "all_reduce.cuh"
#include "gpus.cuh"
#include "tutorial/chapter_main.hpp"
#include "tutorial/device_buffer.cuh"
#include "tutorial/gpu_report.cuh"
#ifdef TUTORIAL_HAVE_NCCL
#include "nccl_collectives.cuh"
#endif

namespace {

using namespace tutorial;
using namespace chapter11;

const ChapterInfo kChapter{
    "11_multi_gpu", "several GPUs: peer copies, an all-reduce by hand and with NCCL", "two_shot"};

/// Every GPU's queue, input and output, and the sum every output must hold.
class Cluster {
 public:
  Cluster(int count, int64_t n, uint64_t seed) : n_(n), expected_(size_t(n), 0) {
    for (int g = 0; g < count; ++g) {
      DeviceScope scope(g);
      queues_.push_back(std::make_unique<DeviceQueue>(g));
      const std::vector<int32_t> input = reduction_input(n, seed + uint64_t(g));
      for (int64_t i = 0; i < n; ++i) expected_[size_t(i)] += input[size_t(i)];
      ins_.emplace_back(input);
      outs_.emplace_back(n);
      int sms = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g));
      blocks_.push_back(4 * sms);  // enough to keep every SM's loads in flight
      // The upload ran on the legacy default stream, which the queues' non-blocking streams
      // do not wait for.
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  int count() const { return int(queues_.size()); }
  int64_t n() const { return n_; }
  std::vector<DeviceQueue*> queues() const {
    std::vector<DeviceQueue*> q;
    for (const auto& queue : queues_) q.push_back(queue.get());
    return q;
  }
  std::vector<const int32_t*> ins() const {
    std::vector<const int32_t*> p;
    for (const auto& b : ins_) p.push_back(b.data());
    return p;
  }
  std::vector<int32_t*> outs() const {
    std::vector<int32_t*> p;
    for (const auto& b : outs_) p.push_back(b.data());
    return p;
  }
  const std::vector<int>& blocks() const { return blocks_; }

  /// Every output set to 0x7F7F7F7F, a value no sum of these inputs can take, and finished
  /// before the queues' streams (non-blocking: they do not wait for the default stream) run.
  void poison_outputs() {
    for (int g = 0; g < count(); ++g) {
      DeviceScope scope(g);
      CUDA_CHECK(cudaMemset(outs_[size_t(g)].data(), 0x7F, outs_[size_t(g)].bytes()));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  /// GPU @p g's output against the sum, every element exactly.
  Check check_output(const std::string& what, int g) const {
    return check_elements(
        what + ", GPU " + std::to_string(g), outs_[size_t(g)].to_host(), expected_,
        [](size_t) { return 0.0; }, "exact");
  }
  /// Runs @p operation once on poisoned outputs and checks the outputs of GPUs [0, @p upto).
  template <typename Operation>
  void run_and_check(Report& report, const std::string& what, int upto, Operation&& operation) {
    poison_outputs();
    operation();
    CUDA_CHECK(cudaGetLastError());
    synchronize_all(queues());
    for (int g = 0; g < upto; ++g) report.checks.push_back(check_output(what, g));
  }

 private:
  int64_t n_;
  std::vector<int32_t> expected_;
  std::vector<std::unique_ptr<DeviceQueue>> queues_;
  std::vector<DeviceBuffer<int32_t>> ins_, outs_;
  std::vector<int> blocks_;
};

/// Operations per timed sample: enough that one sample moves about 64 MiB, at most 100.
int batch_for(int64_t bytes) {
  return int(std::clamp<int64_t>((int64_t{64} << 20) / std::max<int64_t>(bytes, 1), 1, 100));
}

/// Bus bandwidth over algorithm bandwidth for an all-reduce over @p count GPUs: each GPU must
/// send and receive 2 (count - 1) / count of the data (nccl-tests' busbw); 1 for one GPU, where
/// nothing crosses a link and the column shows the algorithm bandwidth.
double bus_factor(int count) {
  return count > 1 ? 2.0 * (count - 1) / count : 1.0;
}

/// A row of the report: @p name timed as an all-reduce of @p bytes (GB/s: bus bandwidth).
template <typename Operation>
void time_all_reduce(Report& report, const Cluster& cluster, int reps, const std::string& name,
                     bool vendor, Operation&& operation) {
  const int64_t bytes = cluster.n() * int64_t(sizeof(int32_t));
  Row row;
  row.name = name;
  row.vendor = vendor;
  row.work = double(bytes) * bus_factor(cluster.count());
  row.ms = time_across_gpus(reps, batch_for(bytes), cluster.queues(), operation);
  report.rows.push_back(row);
}

/// A pinned host buffer, for the copies staged through the host.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes) { CUDA_CHECK(cudaMallocHost(&data_, bytes)); }
  ~PinnedBuffer() { (void)cudaFreeHost(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

//! [copies]
/// GPU 0's input into GPU 1's output three ways, and both ways at once: staged through the
/// host, by the copy engines (cudaMemcpyPeerAsync), and by a kernel on GPU 1 reading GPU 0's
/// memory. GB/s: bytes per direction over time.
void time_copies(Report& report, Cluster& cluster, int reps) {
  const size_t bytes = size_t(cluster.n()) * sizeof(int32_t);
  const std::vector<DeviceQueue*> q = cluster.queues();
  const std::vector<const int32_t*> in = cluster.ins();
  const std::vector<int32_t*> out = cluster.outs();
  PinnedBuffer host(bytes);
  const auto row = [&](const std::string& name, double work, auto&& operation) {
    Row r;
    r.name = name;
    r.work = work;
    r.ms = time_across_gpus(reps, batch_for(int64_t(bytes)), q, operation);
    report.rows.push_back(r);
  };
  row("copy 0 -> 1 through the host", double(bytes), [&] {
    CUDA_CHECK(cudaMemcpyAsync(host.data(), in[0], bytes, cudaMemcpyDeviceToHost, q[0]->stream()));
    CUDA_CHECK(cudaEventRecord(q[0]->done(), q[0]->stream()));
    CUDA_CHECK(cudaStreamWaitEvent(q[1]->stream(), q[0]->done(), 0));
    CUDA_CHECK(cudaMemcpyAsync(out[1], host.data(), bytes, cudaMemcpyHostToDevice, q[1]->stream()));
    CUDA_CHECK(cudaEventRecord(q[1]->done(), q[1]->stream()));
    CUDA_CHECK(cudaStreamWaitEvent(q[0]->stream(), q[1]->done(), 0));  // host buffer reused
  });
  row("copy 0 -> 1 cudaMemcpyPeerAsync", double(bytes),
      [&] { CUDA_CHECK(cudaMemcpyPeerAsync(out[1], 1, in[0], 0, bytes, q[0]->stream())); });
  row("copy 0 <-> 1 cudaMemcpyPeerAsync, both ways", 2.0 * double(bytes), [&] {
    CUDA_CHECK(cudaMemcpyPeerAsync(out[1], 1, in[0], 0, bytes, q[0]->stream()));
    CUDA_CHECK(cudaMemcpyPeerAsync(out[0], 0, in[1], 1, bytes, q[1]->stream()));
  });
  PeerPointers from_0{};
  from_0.of[0] = in[0];
  from_0.count = 1;
  row("copy 0 -> 1 kernel on GPU 1 reading GPU 0", double(bytes), [&] {
    DeviceScope scope(1);
    sum_from_peers<<<cluster.blocks()[1], kCopyThreads, 0, q[1]->stream()>>>(from_0, out[1], 0,
                                                                             cluster.n());
    CUDA_CHECK(cudaGetLastError());
  });
}
//! [copies]

Report run_lesson(const Options& opt) {
  const DeviceFacts device = query_device();
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  count = std::min(count, kMaxGpus);
  Report report = start_report(kChapter, device, opt);
  report.peak_rate = 0;     // no attribute gives a link's bandwidth
  report.clean_l2 = false;  // collectives are timed as nccl-tests does: no flush
  report.problem = std::to_string(opt.n) + " int32 on each of " + std::to_string(count) +
                   " GPU(s), uniform in [-2^20, 2^20], seed " + std::to_string(opt.seed) +
                   " + the GPU's number; all-reduce: their element-wise sum on every GPU";
  for (int g = 0; g < count; ++g) {
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, g));
    report.notes.push_back("GPU " + std::to_string(g) + ": " + props.name);
  }
  for (const std::string& line : describe_topology(count)) report.notes.push_back(line);
  const bool peers = count == 1 || enable_peer_access(count);
  if (count == 1) {
    report.notes.push_back(
        "one GPU: the all-reduce is a copy of the input and nothing crosses a link; the copies "
        "between GPUs are left out. Run on a machine with two or more GPUs to see them.");
  } else if (!peers) {
    report.notes.push_back(
        "some GPUs here cannot read each other's memory (no peer access): the copies between "
        "GPUs and the hand-written all-reduce, which need it, are left out");
  }

  Cluster cluster(count, opt.n, opt.seed);
  if (count > 1 && peers) time_copies(report, cluster, opt.reps);
  if (peers) {
    AllReduceByHand by_hand(cluster.queues(), cluster.ins(), cluster.outs(), opt.n,
                            cluster.blocks());
    cluster.run_and_check(report, "one_shot", count, [&] { by_hand.one_shot(); });
    time_all_reduce(report, cluster, opt.reps, "one_shot", false, [&] { by_hand.one_shot(); });
    cluster.run_and_check(report, "two_shot", count, [&] { by_hand.two_shot(); });
    time_all_reduce(report, cluster, opt.reps, "two_shot", false, [&] { by_hand.two_shot(); });
  }
#ifdef TUTORIAL_HAVE_NCCL
  NcclCollectives nccl(cluster.queues());
  const auto all_reduce = [&] { nccl.all_reduce(cluster.ins(), cluster.outs(), opt.n); };
  const auto reduce = [&] { nccl.reduce(cluster.ins(), cluster.outs(), opt.n); };
  cluster.run_and_check(report, "ncclAllReduce", count, all_reduce);
  time_all_reduce(report, cluster, opt.reps, "ncclAllReduce", true, all_reduce);
  cluster.run_and_check(report, "ncclReduce (root GPU 0)", 1, reduce);
  time_all_reduce(report, cluster, opt.reps, "ncclReduce (root GPU 0)", false, reduce);
  report.rows.back().baseline = "ncclAllReduce";
#else
  report.notes.push_back(
      "built without NCCL (CMake did not find it): its rows are left out; see the page");
#endif
  if (!peers && !report.rows.empty()) report.headline = report.rows.front().name;  // NCCL's
  report.notes.push_back(
      "GB/s of the all-reduce rows: bus bandwidth = bytes / time x 2 (GPUs - 1) / GPUs, "
      "nccl-tests' busbw (bytes / time on one GPU); of the copy rows: bytes per direction / "
      "time");
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec;
  spec.program = kChapter.program();
  spec.default_n = int64_t{1} << 26;  // 256 MiB on each GPU: the issue's bar size
  spec.default_reps = 10;
  return run_main(argc, argv, spec, run_lesson);
}
