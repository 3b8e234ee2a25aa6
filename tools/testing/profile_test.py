#!/usr/bin/env python3
"""tools/profile.py against a fake ncu: the table, the JSON, and the failures it must report.

The fake ncu answers --query-metrics with a list that lacks one counter, writes a canned raw
CSV into the report it --exports, and prints it on --import. Checks: one entry per kernel
from its largest launch, the timer's flush left out, long library names shortened, a counter
the GPU lacks left out with a line saying so; ERR_NVGPUCTRPERM gives the how-to and exit 1;
no ncu gives exit 1 and says where ncu comes from.
"""
import importlib.util
import json
import pathlib
import subprocess
import sys
import tempfile

PROFILE = pathlib.Path(__file__).resolve().parent.parent / "profile.py"
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
ABSENT = "smsp__thread_inst_executed_per_inst_executed.ratio"
COMMON = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
          "dram__throughput.avg.pct_of_peak_sustained_elapsed"]
METRICS = COMMON + [WAVEFRONTS]


def csv_row(cells):
    return ",".join(f'"{c}"' for c in cells)


HEADER = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
          "Block Size", "Grid Size", "Device", "CC"] + METRICS
UNITS = [""] * 11 + ["ns", "byte", "byte", "%", ""]
CUB = ("void cub::CUB_300000_SM_900::detail::reduce::DeviceReduceKernel<cub::detail::reduce::"
       "policy_hub<long long, int, cuda::std::plus<void>>::Policy1000, const int *, long long "
       "*, int, cuda::std::plus<void>, long long, cuda::std::identity>(T2, T3, T4, "
       "cub::GridEvenShare<T4>, T5, T7)")
CUBLAS = "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma"
TREE = ("void <unnamed>::reduce_tree<8, int>(const T2 *, long, long long *, "
        "tutorial::BlockCycleSlots)")
# What --print-kernel-base mangled prints instead of each name (the flush keeps its name).
SYMBOLS = {TREE: "_ZN12_GLOBAL__N_111reduce_treeILi8EiEEvPKT0_lPxN8tutorial15BlockCycleSlotsE",
           CUB: "_ZN3cub18DeviceReduceKernelEv", CUBLAS: CUBLAS}
LAUNCHES = [
    [TREE, "(256, 1, 1)", "(32, 1, 1)", "3000", "65536", "256", "1.0", "41000"],
    [TREE, "(256, 1, 1)", "(8192, 1, 1)", "52000", "67108864", "8192", "61.5", "10610000"],
    ["void tutorial::read_only_pass(const int4 *, long, int *)", "(512, 1, 1)", "(264, 1, 1)",
     "30000", "104857600", "0", "90.0", "0"],
    [CUB, "(256, 1, 1)", "(264, 1, 1)", "27000", "67108864", "4096", "88.0", "8000"],
    [CUBLAS, "(128, 1, 1)", "(16, 32, 1)", "2600000", "342070000", "54400000", "4.5", "330000"],
]
CSV = "\n".join([csv_row(HEADER), csv_row(UNITS)] + [
    csv_row([str(i), "1", "ch99_fake", "host", name, "1", "7", block, grid, "0", "9.0",
             t, rd, wr, pct, wave])
    for i, (name, block, grid, t, rd, wr, pct, wave) in enumerate(LAUNCHES)]) + "\n"

FAKE_NCU = """#!{python}
import os, pathlib, sys
args = sys.argv[1:]
mode = os.environ.get("FAKE_NCU_MODE", "ok")
if mode == "perm":
    print("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
          "Performance Counters on the target device 0.")
    sys.exit(1)
if "--query-metrics" in args:
    print("Device GH100\\n-----\\nMetric Name   Metric Description")
    for name in {bases!r}:
        print(name + "   a counter")
    sys.exit(0)
if "--export" in args:
    metrics = args[args.index("--metrics") + 1]
    if {absent!r} in metrics:
        print("==ERROR== Failed to find metric " + {absent!r}); sys.exit(1)
    pathlib.Path(args[args.index("--export") + 1]).write_text(pathlib.Path({csv!r}).read_text())
    sys.exit(0)
if "--import" in args:
    text = pathlib.Path(args[args.index("--import") + 1]).read_text()
    if "--print-kernel-base" in args and args[args.index("--print-kernel-base") + 1] == "mangled":
        for name, symbol in {symbols!r}.items():
            text = text.replace(name, symbol)
    print(text, end="")
    sys.exit(0)
sys.exit(2)
"""


def run(tmp, mode="ok", ncu=None):
    env = {"FAKE_NCU_MODE": mode, "PATH": "/usr/bin:/bin"}
    command = [sys.executable, str(PROFILE), "--bin", str(tmp / "bin"), "--out",
               str(tmp / "out"), "--chapters", str(tmp / "chapters"),
               "--ncu", ncu or str(tmp / "ncu")]
    return subprocess.run(command, capture_output=True, text=True, env=env)


with tempfile.TemporaryDirectory() as name:
    tmp = pathlib.Path(name)
    (tmp / "csv.txt").write_text(CSV)
    (tmp / "ncu").write_text(FAKE_NCU.format(
        python=sys.executable, symbols=SYMBOLS, bases=[m.split(".")[0] for m in METRICS], absent=ABSENT,
        csv=str(tmp / "csv.txt")))
    (tmp / "ncu").chmod(0o755)
    chapter = tmp / "chapters" / "99_fake"
    chapter.mkdir(parents=True)
    (chapter / "profile.txt").write_text(f"# a comment\n--reps 1\n{WAVEFRONTS}\n{ABSENT}\n")
    (tmp / "bin").mkdir()

    ok = run(tmp)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"does not offer {ABSENT}: left out" in ok.stdout, ok.stdout
    kernels = json.loads((tmp / "out" / "profile.json").read_text())["chapters"]["99_fake"]["kernels"]
    by_name = {k["kernel"]: k for k in kernels}
    assert set(by_name) == {"reduce_tree<8, int>", "DeviceReduceKernel<...>", CUBLAS[:45] + "..."}, \
        by_name.keys()
    tree = by_name["reduce_tree<8, int>"]
    assert tree["launches"] == 2 and tree["function"] == "reduce_tree", tree
    assert tree["grid"] == "(8192, 1, 1)", tree  # the launch over the whole input
    assert tree["metrics"][WAVEFRONTS] == 10610000, tree["metrics"]
    assert tree["symbol"] == SYMBOLS[TREE], tree  # what a report row names its kernel by
    assert "shared ld wavefr" in ok.stdout and "10.61M" in ok.stdout, ok.stdout

    denied = run(tmp, mode="perm")
    assert denied.returncode == 1, denied.stdout
    assert "NVreg_RestrictProfilingToAdminUsers=0" in denied.stdout, denied.stdout

    missing = run(tmp, ncu=str(tmp / "no-such-ncu"))
    assert missing.returncode == 1 and "was not found" in missing.stdout, missing.stdout

# The launch__ values are never in --query-metrics' list and are kept all the same; a counter
# the list lacks is left out.
spec = importlib.util.spec_from_file_location("profile_under_test", PROFILE)
profile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(profile)
kept, left = profile.usable(["launch__registers_per_thread", WAVEFRONTS, ABSENT],
                            {WAVEFRONTS.split(".")[0]})
assert kept == ["launch__registers_per_thread", WAVEFRONTS] and left == [ABSENT], (kept, left)
# A lesson's block body in the harness's kernel is listed under the body's name (the forms the
# demangler gives for a template body in an anonymous namespace and for a TMA body), and a
# name that only contains the wrapper's name is left alone.
WRAPPED = ("void tutorial::clocked_blocks<&(void (anonymous namespace)::reduce_tree<8, int>"
           "(int const*, long, long long*)), 256, 1, int const*, long, long long*>"
           "(tutorial::BlockCycleSlots, int const*, long, long long*)")
assert profile.short_kernel_name(WRAPPED) == "reduce_tree<8, int>", profile.short_kernel_name(WRAPPED)
TMA = ("void tutorial::clocked_blocks_tma<&chapter10::matmul_wgmma_tma, 384, 1, "
       "(tutorial::ClockStart)1, float *, long, long, long>(tutorial::BlockCycleSlots, "
       "CUtensorMap_st, CUtensorMap_st, float *, long, long, long)")
assert profile.short_kernel_name(TMA) == "matmul_wgmma_tma", profile.short_kernel_name(TMA)
TMA3 = ("void tutorial::clocked_blocks_tma3<&chapter10::matmul_wgmma_tma_store, 384, 1, 1, long, "
        "long, long>(tutorial::BlockCycleSlots, CUtensorMap_st, CUtensorMap_st, CUtensorMap_st, "
        "long, long, long)")
assert profile.short_kernel_name(TMA3) == "matmul_wgmma_tma_store", profile.short_kernel_name(TMA3)
BOUNDED = ("void tutorial::clocked_blocks_bounded<&chapter09::sgemm_tiles<8, (chapter09::Arrangement)1, "
           "2, false, 128, 8>, 256, 2, (tutorial::ClockStart)0, const float *, const float *, "
           "float *, long, long, long>(tutorial::BlockCycleSlots, T5...)")
assert profile.short_kernel_name(BOUNDED) == "sgemm_tiles<...>", profile.short_kernel_name(BOUNDED)
assert profile.short_kernel_name("void my_clocked_blocks<1>(int)") == "my_clocked_blocks<1>"
print("profile_test: ok")
