#!/usr/bin/env python3
"""tools/compare.py's roofs, cyc/elem column, roofline numbers and charts, on fake chapters.

    compare_roofline_test.py rates    # three chapters with rates (one states a tensor-core peak),
                                      # a roofs tool and a profile; then the same at another
                                      # --n, and a replay of the first run's comparison.json
    compare_roofline_test.py skipped  # every program exits 77 (no GPU): no chart at all
    compare_roofline_test.py cpu_only # chapter 01 measures on the CPU, every GPU program exits
                                      # 77: no chart of chapter 01 alone

Each fake program is a script in a temporary bin folder: a chapter writes the JSON report it is
given (through TUTORIAL_REPORT_JSON), the roofs tool prints its JSON. "rates" checks the numbers
against values worked out by hand below, then runs again with matplotlib hidden; the image
checks are skipped where matplotlib is not installed.
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile

COMPARE = pathlib.Path(__file__).resolve().parent.parent / "compare.py"
FAKE = """#!{python}
import json, os, sys
if "--help" in sys.argv:
    print({usage!r}); sys.exit(0)
if {report!r} is not None:
    open(os.environ["TUTORIAL_REPORT_JSON"], "w").write(json.dumps({report!r}))
print({stdout!r})
sys.exit({code})
"""
PNG = b"\x89PNG"


# The usage texts of tutorial/harness/options.hpp, with the defaults compare.py reads.
USAGE_N = "usage: fake [--n N] [--reps R]\n  --n N       number of elements (default 16777216)\n"
USAGE_MNK = ("usage: fake [--m M] [--n N] [--k K] [--reps R]\n"
             "  --m M, --n N, --k K  C (MxN) = A (MxK) * B (KxN)   (defaults 4096, 4096, 4096)\n")


def fake(folder, name, report=None, stdout="", code=0, usage=USAGE_N):
    path = pathlib.Path(folder) / name
    path.write_text(FAKE.format(python=sys.executable, usage=usage, report=report,
                                stdout=stdout, code=code))
    path.chmod(0o755)


def row(name, rate, percent, ms, cycles_per_element=None, vendor=False, **extra):
    return dict(name=name, vendor=vendor, ms={"min": ms, "median": ms, "max": ms}, spread=0,
                rate=rate, percent_of_peak=percent, block_cycles=None,
                cycles_per_element=cycles_per_element, grid_span_us=None, vs_vendor=None,
                **extra)


def report(chapter, unit, intensity, op_name, headline, rows):
    return {"chapter": chapter, "rate_unit": unit, "peak_rate": 1, "ops_per_byte": intensity,
            "op_name": op_name, "headline": headline, "rows": rows, "build_type": "Release",
            "verified": True}


ROOFS = {"dram_peak_gbs": 3000.0, "dram_measured_gbs": 2700.0, "l2_measured_gbs": 6000.0,
         "fp32_peak_gflops": 60000.0}
SUM = report("02_fake_sum", "GB/s", 0.25, "add", "reduce_fake", [
    row("reduce_fake", 1000.0, 30.0, 0.5, cycles_per_element=1.234),
    row("reduce_other, 2 blocks", 500.0, 15.0, 1.0, cycles_per_element=2.5),
    row("cub::DeviceReduce::Sum", 2000.0, 60.0, 0.25, vendor=True)])
MATMUL = report("07_fake_matmul", "GFLOP/s", 300.0, "FLOP", "matmul_fake (16x16)", [
    row("matmul_fake (16x16)", 5000.0, 10.0, 2.0, cycles_per_element=12.5,
        baseline="cublasSgemm (FP32)", symbol="_Z11matmul_fakeILi16EEvv"),
    row("cublasFake (TF32)", 90000.0, 95.0, 0.1, vendor=True),
    row("cublasSgemm (FP32)", 40000.0, 70.0, 0.25, vendor=True)])
# Chapter 10's report states the BF16 tensor-core peak: the roofline's second compute roof.
TENSOR = dict(report("10_tensor_cores", "GFLOP/s", 1000.0, "FLOP", "wgmma_fake", [
    row("wgmma_fake", 700000.0, 70.0, 0.2, symbol="_Z10wgmma_fakev"),
    row("cublasGemmEx (BF16, FP32 accumulate)", 750000.0, 75.0, 0.19, vendor=True)]),
    peak_rate=1000000.0)
TENSOR_ROOF = {"bf16_tensor_peak_gflops": 1000000.0}
# One kernel of each chapter profiled; chapter 02's profile ran at another size than the
# comparison (which passes no --n: 2^24 by its --help), so its bytes must not be used. Chapter
# 10's names its default size, 4096^3, which is the comparison's: its bytes must be used.
PROFILE = {"chapters": {
    "02_fake_sum": {"runs": [{"args": "--n 1M --reps 1"}], "kernels": [
        {"kernel": "reduce_other<int>", "function": "reduce_other", "launches": 2,
         "metrics": {"dram__bytes_read.sum": 5e8, "dram__bytes_write.sum": 0.0}}]},
    "07_fake_matmul": {"runs": [{"args": "--reps 1"}], "kernels": [
        {"kernel": "matmul_fake<16>", "symbol": "_Z11matmul_fakeILi16EEvv",
         "function": "matmul_fake", "launches": 3,
         "metrics": {"dram__bytes_read.sum": 4e8, "dram__bytes_write.sum": 1e8}},
        # Same function, more bytes: the row names its kernel's symbol, so this one must not be
        # used.
        {"kernel": "matmul_fake<32>", "symbol": "_Z11matmul_fakeILi32EEvv",
         "function": "matmul_fake", "launches": 3,
         "metrics": {"dram__bytes_read.sum": 8e8, "dram__bytes_write.sum": 2e8}},
        {"kernel": "matmul_unlisted", "launches": 1, "metrics": {}}]},
    "10_tensor_cores": {"runs": [{"args": "--m 4096 --n 4096 --k 4K --reps 1"}], "kernels": [
        {"kernel": "wgmma_fake", "symbol": "_Z10wgmma_fakev", "function": "wgmma_fake",
         "launches": 1, "metrics": {"dram__bytes_read.sum": 2.4e8,
                                    "dram__bytes_write.sum": 4e7}}]}}}
# Where each row must land: x = operations per byte, y = G operations/s (GB/s x x for a GB/s
# chapter, the rate itself for GFLOP/s); the profiled matmul_fake did 5000e9 x 2e-3 = 1e10
# FLOP over 4e8 + 1e8 bytes: 20 FLOP/B; wgmma_fake 700000e9 x 0.2e-3 = 1.4e11 FLOP over
# 2.4e8 + 4e7 bytes: 500 FLOP/B.
WANT = {("02_fake_sum", "reduce_fake"): (0.25, 250.0, None),
        ("02_fake_sum", "reduce_other, 2 blocks"): (0.25, 125.0, None),
        ("02_fake_sum", "cub::DeviceReduce::Sum"): (0.25, 500.0, None),
        ("07_fake_matmul", "matmul_fake (16x16)"): (300.0, 5000.0, 20.0),
        ("07_fake_matmul", "cublasFake (TF32)"): (300.0, 90000.0, None),
        ("07_fake_matmul", "cublasSgemm (FP32)"): (300.0, 40000.0, None),
        ("10_tensor_cores", "wgmma_fake"): (1000.0, 700000.0, 500.0),
        ("10_tensor_cores", "cublasGemmEx (BF16, FP32 accumulate)"): (1000.0, 750000.0, None)}


def close(a, b):
    return a is not None and abs(a - b) <= 1e-9 * abs(b)


def run_compare(bin_dir, out, *extra, env=None):
    result = subprocess.run([sys.executable, str(COMPARE), "--bin", bin_dir, "--out", out, *extra],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}{result.stderr}"
    return result.stdout, json.loads((pathlib.Path(out) / "comparison.json").read_text())


def check_cycles_column(stdout):
    """The cyc/elem column holds each headline's cycles per element, 2 decimals."""
    lines = stdout.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith("chapter "))
    header, rows = lines[at], lines[at + 1:at + 3]
    assert "cyc/elem" in header and "cycles/blk" not in header, header
    end = header.index("cyc/elem") + len("cyc/elem")
    cells = {l.split()[0]: l[end - 10:end].strip() for l in rows}
    assert cells == {"02_fake_sum": "1.23", "07_fake_matmul": "12.50"}, cells


def load_compare():
    """tools/compare.py as a module, for its functions."""
    spec = importlib.util.spec_from_file_location("compare", COMPARE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_colors():
    """Every chapter on the chart has its own colour: the eleven of the GPU suite's chart (02
    to 10, 12, 13), and as many as CHAPTER_COLORS holds."""
    compare = load_compare()
    suite = [f"{n:02d}_chapter" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13)]
    for chapters in (suite, [f"c{i}" for i in range(len(compare.CHAPTER_COLORS))]):
        colors = compare.chapter_colors(chapters)
        assert len(set(colors.values())) == len(chapters), colors
    assert compare.size_value("2^24") == compare.size_value("16M") == 16777216
    assert compare.size_value("4K") == compare.size_value("4096") == 4096


def check_roofline(data):
    assert data["roofs"] == ROOFS, data["roofs"]
    roofline = data["roofline"]
    assert roofline["roofs"] == dict(ROOFS, **TENSOR_ROOF), roofline["roofs"]
    assert close(roofline["ridge_flop_per_byte"]["dram_peak_gbs"], 20.0), roofline
    ridges = roofline["ridge_bf16_tensor_peak_gflops"]  # 1e6 GFLOP/s over each bandwidth roof
    assert close(ridges["dram_peak_gbs"], 1000000.0 / 3000.0), ridges
    assert close(ridges["l2_measured_gbs"], 1000000.0 / 6000.0), ridges
    points = {(p["chapter"], p["row"]): p for p in roofline["points"]}
    assert set(points) == set(WANT), sorted(points)
    for key, (x, y, measured_x) in WANT.items():
        p = points[key]
        assert close(p["ops_per_byte"], x) and close(p["gops"], y), (key, p)
        assert p.get("measured_ops_per_byte") is None if measured_x is None else close(
            p.get("measured_ops_per_byte"), measured_x), (key, p)
        assert p["headline"] == (key[1] in ("reduce_fake", "matmul_fake (16x16)",
                                            "wgmma_fake")), (key, p)
        assert p["vendor"] == key[1].startswith("cub"), (key, p)
    # The chart's vendor bar: the vendor row the headline's baseline names, else the first.
    vendors = {l["chapter"]: (l["vendor"], l["vendor_percent_of_peak"]) for l in data["table"]}
    assert vendors == {"02_fake_sum": ("cub::DeviceReduce::Sum", 60.0),
                       "07_fake_matmul": ("cublasSgemm (FP32)", 70.0),
                       "10_tensor_cores": ("cublasGemmEx (BF16, FP32 accumulate)", 75.0)}, vendors


def has_matplotlib():
    return subprocess.run([sys.executable, "-c", "import matplotlib"],
                          capture_output=True).returncode == 0


def test_rates(tmp):
    bin_dir, out = tmp / "bin", tmp / "out"
    bin_dir.mkdir()
    fake(bin_dir, "roofs", stdout=json.dumps(ROOFS))
    fake(bin_dir, "ch02_fake_sum", SUM)
    fake(bin_dir, "ch07_fake_matmul", MATMUL, usage=USAGE_MNK)
    fake(bin_dir, "ch10_tensor_cores", TENSOR, usage=USAGE_MNK)
    profile = tmp / "profile.json"
    profile.write_text(json.dumps(PROFILE))
    stdout, data = run_compare(str(bin_dir), str(out), "--profile", str(profile))
    assert "roofs: DRAM 3000 GB/s peak, 2700 measured; L2 6000 GB/s measured" in stdout, stdout
    assert ("02_fake_sum: the profile ran it with '--n 1M --reps 1', another size than this "
            "comparison (--n 1048576 against --n 16777216)") in stdout, stdout
    assert "10_tensor_cores: the profile" not in stdout, stdout
    check_cycles_column(stdout)
    check_roofline(data)
    check_colors()

    # At --n 2^20, the size chapter 02's profile ran (1M): its bytes are used, 5e8 for
    # reduce_other's 500 GB/s x 1 ms x 1/4 add/B = 1.25e8 adds: 1/4 add/B.
    _, other = run_compare(str(bin_dir), str(tmp / "n2p20"), "--profile", str(profile),
                           "--n", "2^20")
    points = {(p["chapter"], p["row"]): p for p in other["roofline"]["points"]}
    assert close(points[("02_fake_sum", "reduce_other, 2 blocks")].get(
        "measured_ops_per_byte"), 0.25), points

    # A replay of the first run's comparison.json, with the same profile, runs no chapter (these
    # fail if run; their --help still states the defaults) and writes the same comparison.json.
    replay_bin = tmp / "replay_bin"
    replay_bin.mkdir()
    fake(replay_bin, "roofs", code=3)
    fake(replay_bin, "ch02_fake_sum", code=3)
    fake(replay_bin, "ch07_fake_matmul", code=3, usage=USAGE_MNK)
    fake(replay_bin, "ch10_tensor_cores", code=3, usage=USAGE_MNK)
    stdout, replay = run_compare(str(replay_bin), str(tmp / "replay"), "--profile", str(profile),
                                 "--replay", str(out / "comparison.json"))
    assert replay == data, "the replay wrote another comparison.json"
    if has_matplotlib():
        for image in ("comparison.png", "roofline.png"):
            assert (out / image).read_bytes()[:4] == PNG, f"{image} is not a PNG"
    else:
        print("matplotlib is not installed: the image checks are skipped")

    # Without matplotlib: one line says so, naming the Python that lacks it and how to choose
    # another; the numbers are the same, no image.
    hidden = tmp / "hidden"
    (hidden / "matplotlib").mkdir(parents=True)
    (hidden / "matplotlib" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'matplotlib'\", name='matplotlib')")
    env = dict(os.environ, PYTHONPATH=str(hidden))
    stdout, data = run_compare(str(bin_dir), str(tmp / "bare"), "--profile", str(profile),
                               env=env)
    missing = [l for l in stdout.splitlines() if l.startswith("(matplotlib ")]
    assert len(missing) == 1, stdout
    assert missing[0].startswith(f"(matplotlib is not installed for {sys.executable}, "), missing
    assert "-DPython3_EXECUTABLE=" in missing[0], missing
    check_roofline(data)
    assert not list((tmp / "bare").glob("*.png")), list((tmp / "bare").glob("*.png"))


def test_skipped(tmp):
    bin_dir, out = tmp / "bin", tmp / "out"
    bin_dir.mkdir()
    out.mkdir()
    (out / "comparison.png").write_bytes(PNG)  # a previous run's chart must not stay
    fake(bin_dir, "roofs", code=77)
    fake(bin_dir, "ch02_fake_sum", code=77)
    fake(bin_dir, "ch07_fake_matmul", code=77, usage="usage: fake [--m M] [--n N] [--k K]")
    stdout, data = run_compare(str(bin_dir), str(out))
    assert "no roofs: roofs did not run (no GPU)" in stdout, stdout
    assert "(no chapter measured a rate: no chart drawn)" in stdout, stdout
    assert data["roofs"] is None and data["roofline"]["points"] == [], data["roofline"]
    assert not list(out.glob("*.png")), list(out.glob("*.png"))


def test_cpu_only(tmp):
    """No GPU: chapter 01 measures a rate on the CPU (no peak, no vendor library), every GPU
    program exits 77. A chart of chapter 01 alone would be nearly empty: none is drawn, and no
    word about matplotlib either, installed or not."""
    bin_dir, out = tmp / "bin", tmp / "out"
    bin_dir.mkdir()
    out.mkdir()
    (out / "comparison.png").write_bytes(PNG)  # a previous run's chart must not stay
    cpu = dict(report("01_cpu_loop", "GB/s", None, "add", "int64 loop",
                      [row("int64 loop", 9.0, None, 7.5)]), peak_rate=None)
    fake(bin_dir, "roofs", code=77)
    fake(bin_dir, "ch01_cpu_loop", cpu)
    fake(bin_dir, "ch02_fake_sum", code=77)
    fake(bin_dir, "ch07_fake_matmul", code=77, usage="usage: fake [--m M] [--n N] [--k K]")
    stdout, data = run_compare(str(bin_dir), str(out))
    assert "(no GPU chapter ran (2 skipped for want of a GPU they can use): no chart drawn)" \
        in stdout, stdout
    assert "matplotlib" not in stdout, stdout
    assert [l["chapter"] for l in data["table"] if l.get("rate")] == ["01_cpu_loop"], data["table"]
    assert not list(out.glob("*.png")), list(out.glob("*.png"))


CASES = {"rates": test_rates, "skipped": test_skipped, "cpu_only": test_cpu_only}
if len(sys.argv) != 2 or sys.argv[1] not in CASES:
    sys.exit(f"usage: {sys.argv[0]} {'|'.join(CASES)}")
with tempfile.TemporaryDirectory() as folder:
    CASES[sys.argv[1]](pathlib.Path(folder))
print(f"compare_roofline_test {sys.argv[1]}: ok")
