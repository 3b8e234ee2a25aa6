#!/usr/bin/env python3
"""tools/compare.py must fail loudly when a chapter's headline names none of its rows, and
when a row names a kernel its chapter's profile does not list.

Runs compare.py over a folder holding one fake chapter (a script that writes a JSON report
whose headline is HEADLINE), once with a headline that names a row (exit 0) and once with one
that does not (exit 1 and an ERROR line). Then roofline_data() on a row that names its kernel,
with a profile that lists it and with one that lists another name (the row's own name drifted).
"""
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile

COMPARE = pathlib.Path(__file__).resolve().parent.parent / "compare.py"
FAKE = """#!{python}
import json, os, sys
if "--help" in sys.argv:
    print("usage: ch99_fake [--n N]"); sys.exit(0)
row = {{"name": "mine", "vendor": False, "ms": {{"min": 1, "median": 1, "max": 1}}, "spread": 0,
       "rate": 1, "percent_of_peak": 1, "block_cycles": None, "grid_span_us": None,
       "vs_vendor": None}}
report = {{"chapter": "99_fake", "rate_unit": "GB/s", "headline": {headline!r}, "rows": [row],
          "build_type": "Release", "verified": True}}
open(os.environ["TUTORIAL_REPORT_JSON"], "w").write(json.dumps(report))
"""


def run_compare(headline):
    with tempfile.TemporaryDirectory() as tmp:
        fake = pathlib.Path(tmp) / "ch99_fake"
        fake.write_text(FAKE.format(python=sys.executable, headline=headline))
        fake.chmod(0o755)
        return subprocess.run([sys.executable, str(COMPARE), "--bin", tmp, "--out", tmp],
                              capture_output=True, text=True)


good = run_compare("mine")
assert good.returncode == 0, good.stdout + good.stderr
bad = run_compare("not a row")
assert bad.returncode == 1, f"exit {bad.returncode}\n{bad.stdout}{bad.stderr}"
assert "ERROR: the headline 'not a row' names no row" in bad.stdout, bad.stdout
spec = importlib.util.spec_from_file_location("compare_under_test", COMPARE)
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
ROW = {"name": "tiled", "symbol": "_Z12matmul_tiledILi16ELb0EEvv", "ms": {"median": 1.0},
       "rate": 1.0}
REPORT = {"rate_unit": "GFLOP/s", "ops_per_byte": 4.0, "peak_rate": 10.0, "rows": [ROW]}


def profile_listing(symbol):
    return {"chapters": {"99_fake": {"runs": [{"args": "--reps 1"}], "kernels": [
        {"kernel": "matmul_tiled<16, 0>", "symbol": symbol, "function": "matmul_tiled",
         "metrics": {"dram__bytes_read.sum": 100.0, "dram__bytes_write.sum": 28.0}}]}}}


matched = compare.roofline_data(None, {"99_fake": REPORT},
                                profile_listing("_Z12matmul_tiledILi16ELb0EEvv"), {"99_fake": {}})
assert matched["unmatched_kernels"] == [], matched["unmatched_kernels"]
assert "measured_ops_per_byte" in matched["points"][0], matched["points"]
other = compare.roofline_data(None, {"99_fake": REPORT},
                              profile_listing("_Z12matmul_tiledILi16ELb1EEvv"), {"99_fake": {}})
assert len(other["unmatched_kernels"]) == 1, other
assert "'_Z12matmul_tiledILi16ELb0EEvv'" in other["unmatched_kernels"][0], other
assert "measured_ops_per_byte" not in other["points"][0], other["points"]
print("compare_test: ok")
