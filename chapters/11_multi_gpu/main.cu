/**
 * @file chapters/11_multi_gpu/main.cu
 * @brief Chapter 11: chapter 05's sum across every GPU of the machine: the topology, copies
 *        between GPUs three ways, an all-reduce by hand (one-shot and two-shot) and NCCL's,
 *        each checked exactly on every GPU.
 *
 * The input: n int32 on every GPU (each its own seed), rewritten before every call by a
 * producer kernel; the all-reduce leaves their element-wise sum on every GPU. Times are per
 * call, taken on the GPUs: events around calls that every GPU starts at once from a gate.
 * Shows: peer access, copies between GPUs, kernels that read another GPU's memory, a handshake
 * between GPUs through flags in each other's memory, algorithm and bus bandwidth, ncclAllReduce
 * and ncclReduce.
 * With --ranks: one process per GPU (ncclCommInitRank), the shape that scales to many hosts.
 */
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "02_single_block_sum/reduction_input.cuh"
#include "all_reduce.cuh"
#include "gpus.cuh"
#include "producer.cuh"
#include "rank_place.hpp"
#include "tutorial/harness/chapter_main.hpp"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/gpu_report.cuh"
#ifdef TUTORIAL_HAVE_NCCL
#include "nccl_collectives.cuh"
#endif

namespace {

using namespace tutorial;
using namespace chapter11;

const ChapterInfo kChapter{
    "11_multi_gpu", "several GPUs: peer copies, an all-reduce by hand and with NCCL", "two_shot"};

/// Calls of a collective (or copies) per timed sample: enough that a sample moves about 64 MiB,
/// from 2 to 50. At least 2, so that each call has other inputs than the call before; at most
/// 50, so that the host can enqueue them all while the GPUs wait at the gate.
int calls_for(int64_t bytes) {
  return int(std::clamp<int64_t>((int64_t{64} << 20) / std::max<int64_t>(bytes, 1), 2, 50));
}

/**
 * @brief Every GPU's queue, the buffers of its collectives, and the sum every output must
 *        hold. GPU g's input of call c is its own random numbers (its source) plus c, written
 *        by the producer before the call; the sum of call c is sum[i] + GPUs x c.
 */
class Cluster {
 public:
  Cluster(int count, int64_t n, uint64_t seed) : n_(n) {
    for (int g = 0; g < count; ++g) {  // device memory first: a size that cannot fit says so
      DeviceScope scope(g);
      queues_.push_back(std::make_unique<DeviceQueue>(g));
      sources_.emplace_back(n);
      sums_.emplace_back(n);
      ins_.emplace_back(n);
      outs_.emplace_back(n);
      wrong_.emplace_back(2);  // [0] counted; [1] thrown away (the producer timed alone)
      int sms = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g));
      blocks_.push_back(4 * sms);  // enough to keep every SM's loads in flight
    }
    sum_.assign(size_t(n), 0);
    for (int g = 0; g < count; ++g) {
      const std::vector<int32_t> input = reduction_input(n, seed + uint64_t(g));
      for (int64_t i = 0; i < n; ++i) sum_[size_t(i)] += input[size_t(i)];
      DeviceScope scope(g);
      sources_[size_t(g)].copy_from(input);
      ins_[size_t(g)].copy_from(input);  // call 0's input: what the copies copy
    }
    for (int g = 0; g < count; ++g) {
      DeviceScope scope(g);
      sums_[size_t(g)].copy_from(sum_);
      CUDA_CHECK(cudaMemset(wrong_[size_t(g)].data(), 0, wrong_[size_t(g)].bytes()));
      // The uploads ran on the legacy default stream, which the queues' non-blocking streams
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
  /// Blocks for a kernel over @p elements ints on GPU @p g: one per 256, at most about 4 an SM.
  int blocks_for(int64_t elements, int g) const {
    return int(
        std::clamp<int64_t>((elements + kCopyThreads - 1) / kCopyThreads, 1, blocks_[size_t(g)]));
  }

  /**
   * @brief Enqueues on every GPU the producer of call @p call over the first @p elements
   *        (produce_input): it writes the call's input, and checks the outputs of the first
   *        @p checked GPUs against the sum of call @p previous, counting the wrong elements
   *        (or throwing the count away, with @p discard).
   */
  void produce(int64_t elements, int call, int previous, int checked, bool discard) {
    for (int g = 0; g < count(); ++g) {
      DeviceScope scope(g);
      const size_t at = size_t(g);
      produce_input<<<blocks_for(elements, g), kCopyThreads, 0, queues_[at]->stream()>>>(
          sources_[at].data(), sums_[at].data(), outs_[at].data(), ins_[at].data(), elements, call,
          previous, count(), g < checked, wrong_[at].data() + (discard ? 1 : 0));
      CUDA_CHECK(cudaGetLastError());
    }
  }
  /// Sets every GPU's count of wrong sums to 0.
  void forget_wrong_sums() {
    for (int g = 0; g < count(); ++g) {
      DeviceScope scope(g);
      CUDA_CHECK(cudaMemset(wrong_[size_t(g)].data(), 0, sizeof(unsigned long long)));
    }
  }
  /// The wrong sums GPU @p g's producers have counted since forget_wrong_sums().
  unsigned long long wrong_sums(int g) const {
    unsigned long long wrong = 0;
    CUDA_CHECK(cudaMemcpy(&wrong, wrong_[size_t(g)].data(), sizeof wrong, cudaMemcpyDeviceToHost));
    return wrong;
  }

  /// Every output poisoned (poison.hpp: 0x7F7F7F7F, a value no sum of these inputs can take),
  /// and finished before the queues' streams (non-blocking: they do not wait for the default
  /// stream) run.
  void poison_outputs() {
    for (int g = 0; g < count(); ++g) {
      DeviceScope scope(g);
      outs_[size_t(g)].poison();
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  /// The first @p elements of GPU @p g's output against the sum of call @p call, every one
  /// exactly.
  Check check_sum(const std::string& what, int g, int64_t elements, int call) const {
    std::vector<int32_t> want(sum_.begin(), sum_.begin() + elements);
    for (int32_t& w : want) w += count() * call;
    return check_elements(
        what + ", GPU " + std::to_string(g), first(outs_[size_t(g)], elements), want,
        [](size_t) { return 0.0; }, "exact");
  }
  /// GPU @p to's output against GPU @p from's input (a copy), every element exactly.
  Check check_copy(const std::string& what, int from, int to) const {
    return check_elements(
        what, first(outs_[size_t(to)], n_), first(ins_[size_t(from)], n_),
        [](size_t) { return 0.0; }, "exact");
  }
  /// Runs @p operation once on poisoned outputs, waits for every GPU, and adds @p check's
  /// checks to @p report.
  template <typename Operation, typename Checks>
  void run_and_check(Report& report, Operation&& operation, Checks&& checks) {
    poison_outputs();
    operation();
    CUDA_CHECK(cudaGetLastError());
    synchronize_all(queues());
    checks(report.checks);
  }

 private:
  static std::vector<int32_t> first(const DeviceBuffer<int32_t>& buffer, int64_t elements) {
    std::vector<int32_t> host(static_cast<size_t>(elements));
    CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), size_t(elements) * sizeof(int32_t),
                          cudaMemcpyDeviceToHost));
    return host;
  }

  int64_t n_;
  std::vector<int32_t> sum_;  ///< the sum of call 0: every GPU's source, added
  std::vector<std::unique_ptr<DeviceQueue>> queues_;
  std::vector<DeviceBuffer<int32_t>> sources_, sums_, ins_, outs_;
  std::vector<DeviceBuffer<unsigned long long>> wrong_;
  std::vector<int> blocks_;
};

/// Bus bandwidth over algorithm bandwidth for an all-reduce over @p count GPUs: each GPU must
/// send and receive 2 (count - 1) / count of the data (nccl-tests' busbw); 1 for one GPU, where
/// nothing crosses a link and the column shows the algorithm bandwidth. (For a reduce
/// nccl-tests' factor is 1.)
double all_reduce_bus_factor(int count) {
  return count > 1 ? 2.0 * (count - 1) / count : 1.0;
}

/// One collective of the chapter, run at a size: its row name, its bus factor, whether it is
/// the yardstick, the GPUs whose output holds the sum, and how to run it on n elements.
struct Collective {
  std::string name;
  double bus_factor;
  bool vendor;
  int gpus_with_sum;
  std::function<void(int64_t)> run;
};

//! [check_and_time]
/**
 * @brief Checks and times @p c at @p elements into a row named @p name, as a program would run
 *        it: on every GPU, each call follows the producer of its inputs, back to back, with no
 *        host in between (time_on_gpus).
 *
 * The outputs are poisoned first. Each call's producer checks the sum the call before left on
 * every GPU that gets one; after the last call the host checks every element of those GPUs'
 * outputs. A call's time is that of producer and collective together, less the producer's
 * own, timed alone the same way.
 */
void check_and_time(Report& report, Cluster& cluster, int reps, const Collective& c,
                    const std::string& name, int64_t elements) {
  const int64_t bytes = elements * int64_t(sizeof(int32_t));
  const int calls = calls_for(bytes);
  const auto previous = [calls](int k) { return (k + calls - 1) % calls; };
  // One call first: it leaves the sum of call calls - 1, which the next call's producer checks.
  cluster.poison_outputs();
  cluster.produce(elements, calls - 1, 0, 0, false);
  c.run(elements);
  synchronize_all(cluster.queues());
  cluster.forget_wrong_sums();
  const Summary with_producer = time_on_gpus(reps, cluster.queues(), calls, [&](int k) {
    cluster.produce(elements, k, previous(k), c.gpus_with_sum, false);
    c.run(elements);
  });
  const Summary producer = time_on_gpus(reps, cluster.queues(), calls, [&](int k) {
    cluster.produce(elements, k, previous(k), c.gpus_with_sum, true);
  });
  for (int g = 0; g < c.gpus_with_sum; ++g) {
    report.checks.push_back(cluster.check_sum(name, g, elements, calls - 1));
    report.checks.push_back(check_exact(name + ", GPU " + std::to_string(g) + ": wrong sums in " +
                                            std::to_string(calls * (reps + 1)) +
                                            " calls, counted by the next call's producer",
                                        int64_t(cluster.wrong_sums(g)), 0));
  }
  Row row;
  row.name = name;
  row.vendor = c.vendor;
  row.work = double(bytes) * c.bus_factor;
  row.ms = {with_producer.min - producer.median, with_producer.median - producer.median,
            with_producer.max - producer.median};
  report.rows.push_back(row);
}
//! [check_and_time]

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

/// The copy that the all-reduce's bus bandwidth is compared with: one way, by the copy engines.
constexpr const char* kCopyEnginesRow = "copy 0 -> 1 cudaMemcpyPeerAsync";

//! [copies]
/// GPU 0's input into GPU 1's output three ways, and both ways at once: staged through the
/// host, by the copy engines (cudaMemcpyPeerAsync), and (with peer access) by a kernel, on
/// GPU 1 reading GPU 0's memory or on GPU 0 writing GPU 1's. Each is checked once on poisoned
/// outputs, then timed on the GPUs as the collectives are (time_on_gpus). GB/s: bytes over
/// time, both directions together for the row that copies both ways.
void time_copies(Report& report, Cluster& cluster, int reps, bool peers) {
  const size_t bytes = size_t(cluster.n()) * sizeof(int32_t);
  const std::vector<DeviceQueue*> q = cluster.queues();
  const std::vector<const int32_t*> in = cluster.ins();
  const std::vector<int32_t*> out = cluster.outs();
  const std::string host_row = "copy 0 -> 1 through the host";
  PinnedBuffer host(bytes);
  const auto copy = [&](const std::string& name, double work, bool both_ways, auto&& operation) {
    cluster.run_and_check(report, operation, [&](std::vector<Check>& checks) {
      checks.push_back(cluster.check_copy(name + ", GPU 1", 0, 1));
      if (both_ways) checks.push_back(cluster.check_copy(name + ", GPU 0", 1, 0));
    });
    Row r;
    r.name = name;
    r.work = work;
    r.baseline = host_row;  // the same bytes, the slow way
    r.stands_alone = name == host_row || both_ways;
    r.ms = time_on_gpus(reps, q, calls_for(int64_t(bytes)), [&](int) { operation(); });
    report.rows.push_back(r);
  };
  copy(host_row, double(bytes), false, [&] {  // both on GPU 0's stream: one after the other
    CUDA_CHECK(cudaMemcpyAsync(host.data(), in[0], bytes, cudaMemcpyDeviceToHost, q[0]->stream()));
    CUDA_CHECK(cudaMemcpyAsync(out[1], host.data(), bytes, cudaMemcpyHostToDevice, q[0]->stream()));
  });
  copy(kCopyEnginesRow, double(bytes), false,
       [&] { CUDA_CHECK(cudaMemcpyPeerAsync(out[1], 1, in[0], 0, bytes, q[0]->stream())); });
  copy("copy 0 <-> 1 cudaMemcpyPeerAsync, both ways", 2.0 * double(bytes), true, [&] {
    CUDA_CHECK(cudaMemcpyPeerAsync(out[1], 1, in[0], 0, bytes, q[0]->stream()));
    CUDA_CHECK(cudaMemcpyPeerAsync(out[0], 0, in[1], 1, bytes, q[1]->stream()));
  });
  if (!peers) return;
  PeerPointers from_0{};
  from_0.of[0] = in[0];
  from_0.count = 1;
  copy("copy 0 -> 1 kernel on GPU 1 reading GPU 0", double(bytes), false, [&] {
    DeviceScope scope(1);
    sum_from_peers<<<cluster.blocks_for(cluster.n(), 1), kCopyThreads, 0, q[1]->stream()>>>(
        from_0, out[1], cluster.n());
    CUDA_CHECK(cudaGetLastError());
  });
  copy("copy 0 -> 1 kernel on GPU 0 writing GPU 1", double(bytes), false, [&] {
    DeviceScope scope(0);
    sum_from_peers<<<cluster.blocks_for(cluster.n(), 0), kCopyThreads, 0, q[0]->stream()>>>(
        from_0, out[1], cluster.n());
    CUDA_CHECK(cudaGetLastError());
  });
}
//! [copies]

/// How the rows are timed, as a note of the report; tools/draw_sweep.py prints it on its chart.
constexpr const char* kTimingNote =
    "timing: on the GPUs, CUDA events around calls enqueued behind a gate, all GPUs let go at "
    "once; per call, the slowest GPU, less the input producer's own time";

/// "<method> @ <bytes> B": the sweep's row names, which tools/draw_sweep.py reads.
std::string sweep_name(const std::string& method, int64_t elements) {
  return method + " @ " + std::to_string(elements * int64_t(sizeof(int32_t))) + " B";
}

/// The sweep's sizes: 2 ints (8 bytes), then twice as many each step, up to @p n, and n.
std::vector<int64_t> sweep_sizes(int64_t n) {
  std::vector<int64_t> sizes;
  for (int64_t s = 2; s < n; s *= 2) sizes.push_back(s);
  sizes.push_back(n);
  return sizes;
}

/// The rate of the row named @p name, or 0.
double rate_named(const Report& report, const std::string& name) {
  for (const Row& row : report.rows) {
    if (row.name == name) return rate_of(row);
  }
  return 0;
}

#ifdef TUTORIAL_HAVE_NCCL
//! [run_one_rank]
/**
 * @brief One process of a job of one process per GPU: this rank's GPU (from its local rank,
 *        its place on its host), a communicator joined through the id rank 0 shares, and
 *        ncclAllReduce of this rank's n ints, checked against the sum of every rank's input
 *        and timed.
 *
 * The same code runs across hosts: only the id must reach every process (a file on a shared
 * disk, or the launcher), and each host's processes pick their own GPUs.
 */
Report run_one_rank(const Options& opt, const RankPlace& place) {
  int count = 0;
  (void)query_device();  // no device: exit 77 here, before any NCCL call
  CUDA_CHECK(cudaGetDeviceCount(&count));
  const int gpu = gpu_of(place.local_rank, count);
  CUDA_CHECK(cudaSetDevice(gpu));
  const DeviceFacts device = query_device();
  Report report = start_report(kChapter, device, opt);
  report.peak_rate = 0;
  report.clean_l2 = false;
  report.problem = std::to_string(opt.n) + " int32 on each of " + std::to_string(place.ranks) +
                   " processes, uniform in [-2^20, 2^20], seed " + std::to_string(opt.seed) +
                   " + the rank; this is rank " + std::to_string(place.rank) + " (local rank " +
                   std::to_string(place.local_rank) + "), on GPU " + std::to_string(gpu);
  const ncclUniqueId id = shared_unique_id(place);
  NcclRank comm(place.ranks, id, place.rank);
  if (place.rank == 0) remove_id_file(place);  // every rank has joined: no later job finds it
  DeviceQueue queue(gpu);
  DeviceBuffer<int32_t> in(opt.n), out(opt.n);
  std::vector<int32_t> expected(size_t(opt.n), 0);
  for (int r = 0; r < place.ranks; ++r) {  // every rank's input, as that rank makes it
    const std::vector<int32_t> input = reduction_input(opt.n, opt.seed + uint64_t(r));
    for (int64_t i = 0; i < opt.n; ++i) expected[size_t(i)] += input[size_t(i)];
    if (r == place.rank) in.copy_from(input);
  }
  // Poisoned with 0x7F7F7F7F (tutorial/harness/poison.hpp), a value no sum can take.
  out.poison();
  CUDA_CHECK(cudaDeviceSynchronize());  // the default stream's work before the queue's
  const auto all_reduce = [&] { comm.all_reduce(in.data(), out.data(), opt.n, queue.stream()); };
  all_reduce();
  CUDA_CHECK(cudaStreamSynchronize(queue.stream()));
  report.checks.push_back(check_elements(
      "ncclAllReduce, rank " + std::to_string(place.rank), out.to_host(), expected,
      [](size_t) { return 0.0; }, "exact"));
  const int64_t bytes = opt.n * int64_t(sizeof(int32_t));
  Row row;
  row.name = "ncclAllReduce, one process per GPU";
  row.vendor = true;
  row.work = double(bytes) * all_reduce_bus_factor(place.ranks);
  row.ms = time_on_gpus(opt.reps, {&queue}, calls_for(bytes), [&](int) { all_reduce(); });
  report.rows.push_back(row);
  report.headline = row.name;
  report.notes.push_back("rank " + std::to_string(place.rank) + " of " +
                         std::to_string(place.ranks) + ": its own output checked, its own time");
  return report;
}
//! [run_one_rank]
#endif

Report run_lesson(const Options& opt) {
  const RankPlace place = rank_place(opt.value("--ranks"), opt.value("--rank"),
                                     opt.value("--id-file"), opt.value("--job"));
  if (place.ranks > 0) {
#ifdef TUTORIAL_HAVE_NCCL
    return run_one_rank(opt, place);
#else
    throw UsageError("one process per GPU (--ranks) needs NCCL, and this build has none");
#endif
  }
  const DeviceFacts device = query_device();
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  count = std::min(count, kMaxGpus);
  const bool sweep = opt.has("--sweep");
  Report report = start_report(kChapter, device, opt);
  report.peak_rate = 0;     // no attribute gives a link's bandwidth
  report.clean_l2 = false;  // no flush: each call reads inputs its producer just wrote
  report.problem = std::to_string(opt.n) + " int32 on each of " + std::to_string(count) +
                   " GPU(s), uniform in [-2^20, 2^20], seed " + std::to_string(opt.seed) +
                   " + the GPU's number; all-reduce: their element-wise sum on every GPU" +
                   (sweep ? "; swept from 8 bytes a GPU to that size" : "");
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
        "some GPUs here cannot read each other's memory (no peer access): the copy by a "
        "kernel and the hand-written all-reduce, which need it, are left out");
  }

  Cluster cluster(count, opt.n, opt.seed);
  if (count > 1 && !sweep) time_copies(report, cluster, opt.reps, peers);

  std::vector<Collective> collectives;
  std::unique_ptr<AllReduceByHand> by_hand;
  const double factor = all_reduce_bus_factor(count);
  if (peers) {
    by_hand = std::make_unique<AllReduceByHand>(cluster.queues(), cluster.ins(), cluster.outs());
    collectives.push_back(
        {"one_shot", factor, false, count, [&](int64_t e) { by_hand->one_shot(e); }});
    collectives.push_back(
        {"two_shot", factor, false, count, [&](int64_t e) { by_hand->two_shot(e); }});
  }
#ifdef TUTORIAL_HAVE_NCCL
  NcclCollectives nccl(cluster.queues());
  collectives.push_back({"ncclAllReduce", factor, true, count,
                         [&](int64_t e) { nccl.all_reduce(cluster.ins(), cluster.outs(), e); }});
  if (!sweep) {
    collectives.push_back({"ncclReduce (root GPU 0)", 1.0, false, 1,
                           [&](int64_t e) { nccl.reduce(cluster.ins(), cluster.outs(), e); }});
  }
#else
  report.notes.push_back(
      "built without NCCL (CMake did not find it): its rows are left out; see the page");
#endif
  const std::vector<int64_t> sizes = sweep ? sweep_sizes(opt.n) : std::vector<int64_t>{opt.n};
  for (int64_t elements : sizes) {
    for (const Collective& c : collectives) {
      check_and_time(report, cluster, opt.reps, c, sweep ? sweep_name(c.name, elements) : c.name,
                     elements);
      // Each size against NCCL at the same size (no row of that name without NCCL: no ratio).
      if (sweep && !c.vendor) report.rows.back().baseline = sweep_name("ncclAllReduce", elements);
    }
  }

  // The headline: the hand-written two-shot all-reduce at the largest size, else NCCL's.
  const std::string method = peers ? "two_shot" : "ncclAllReduce";
  report.headline = sweep ? sweep_name(method, opt.n) : method;
  if (report.headline_row() == nullptr && !report.rows.empty()) {
    report.headline = report.rows.front().name;
  }
  const double peer_rate = rate_named(report, kCopyEnginesRow);
  for (const std::string& name : {std::string("two_shot"), std::string("ncclAllReduce")}) {
    const double rate = rate_named(report, name);
    if (rate > 0 && peer_rate > 0) {
      report.notes.push_back(name + "'s bus bandwidth over cudaMemcpyPeerAsync's one way: " +
                             format_number(rate / peer_rate));
    }
  }
  report.notes.push_back(
      "GB/s of the all-reduce rows: bus bandwidth = bytes / time x 2 (GPUs - 1) / GPUs, "
      "nccl-tests' busbw (bytes / time on one GPU, and for ncclReduce); of the copy rows: "
      "bytes / time, both directions together for the row that copies both ways");
  report.notes.push_back(std::string(kTimingNote));
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  OptionSpec spec;
  spec.program = kChapter.program();
  // 64 MiB on each GPU; the page's targets are measured with --n 2^26 (256 MiB).
  spec.default_n = int64_t{1} << 24;
  spec.default_reps = 10;
  spec.extra = {{"--sweep", "",
                 "time the all-reduces at every size from 8 bytes a GPU to n ints (x2 a step) "
                 "instead, for tools/draw_sweep.py's chart"},
                {"--ranks", "N",
                 "run as one of N processes, one per GPU (tools/run_ranks.sh starts them); 0: "
                 "one process drives every GPU",
                 "0"},
                {"--rank", "R",
                 "this process's rank, 0 to N - 1 (default: the launcher's, from "
                 "OMPI_COMM_WORLD_RANK, SLURM_PROCID or RANK)",
                 ""},
                {"--id-file", "F",
                 "where rank 0 leaves NCCL's id for the others (on a disk every host sees)", ""},
                {"--job", "J",
                 "the job's name, new for each launch and the same in every process: the "
                 "others take only an id file that carries it (default: the launcher's, from "
                 "PMIX_NAMESPACE or SLURM_JOB_ID and SLURM_STEP_ID)",
                 ""}};
  return run_main(argc, argv, spec, run_lesson);
}
