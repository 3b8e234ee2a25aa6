#!/usr/bin/env python3
"""Parses the JSON report of tests/report_json_sample.cpp with a real JSON parser and checks
every field the chapters and tools/compare.py rely on, with its type and value; the awkward
strings must come back exactly as the sample put them in.

    python3 tests/check_report_json.py build/tests/report_json_sample   # runs the program
    build/tests/report_json_sample | python3 tests/check_report_json.py  # or reads stdin

Exit code 0 when every check holds; otherwise a traceback names the first that failed.
"""
import json
import math
import subprocess
import sys

# What report_json_sample.cpp puts in, stated again here.
HEADLINE = 'mine "v1" \\ best'
STRINGS = {
    "chapter": '99_"quoted"\\chapter',
    "title": "line one\nline two\ttabbed",
    "device": "GPU \u2122 \u00b5s \u2014 Gr\u00f6\u00dfe",
    "problem": "n = 4, ctrl \x01\x1f, \b\f\r, C:\\dir\\",
    "rate_unit": "GB/s",
    "headline": HEADLINE,
    "op_name": 'add "int"',
}
CHECKS = [
    dict(what='sum "exact"', got="10", want="10", rule="exact", ok=True, informative=False),
    dict(what="vendor \u00b5 sum", got="1.5", want="1", rule="|error| <= 0.25", ok=False,
         informative=True),
]
# Rows: ms as (min, median, max); None where the JSON must hold null (NaN, inf, unknown).
ROWS = [
    dict(name=HEADLINE, vendor=False, baseline=None, symbol='_Z4mineILi8EEvv"',
         teaches='one "idea"', ops_per_byte=0.125,
         ms=(1, 2, 4), spread=1.5, rate=25, percent_of_peak=25,
         block_cycles=(10, 20, 30), cycles_per_element=2.5, grid_span_us=4.5,
         vs_vendor=0.5),
    dict(name="nan rate", vendor=False, baseline="lib2 \u00b5", symbol=None, teaches=None,
         ops_per_byte=None, ms=(1, 1, 1), spread=0, rate=None,
         percent_of_peak=None, block_cycles=None, cycles_per_element=None,
         grid_span_us=None, vs_vendor=4),
    dict(name="inf rate", vendor=False, baseline=None, symbol=None, teaches=None,
         ops_per_byte=None, ms=(1, 2, None), spread=None, rate=None,
         percent_of_peak=None, block_cycles=None, cycles_per_element=None,
         grid_span_us=None, vs_vendor=0.5),
    dict(name='CUB "DeviceReduce"', vendor=True, baseline=None, symbol=None, teaches=None,
         ops_per_byte=None, ms=(0.5, 1, 1.5), spread=1, rate=50,
         percent_of_peak=50, block_cycles=None, cycles_per_element=None,
         grid_span_us=None, vs_vendor=1),
    dict(name="lib2 \u00b5", vendor=True, baseline=None, symbol=None, teaches=None,
         ops_per_byte=None, ms=(4, 4, 4), spread=0, rate=12.5,
         percent_of_peak=12.5, block_cycles=None, cycles_per_element=None,
         grid_span_us=None, vs_vendor=0.25),
]
NOTES = ['a "note" with \\ and\nnewline', "", "\U0001f680 rocket"]


def reject_constant(name):
    """NaN and Infinity are not JSON; Python's parser accepts them unless told otherwise."""
    raise ValueError(f"not JSON: {name}")


def no_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), f"duplicate keys in {keys}"
    return dict(pairs)


def is_number(value):
    return type(value) in (int, float) and math.isfinite(value)


def check_number(where, got, want):
    """want None: the JSON must say null; else a finite number equal to want."""
    if want is None:
        assert got is None, f"{where}: want null, got {got!r}"
    else:
        assert is_number(got), f"{where}: want a number, got {got!r}"
        assert math.isclose(got, want, rel_tol=1e-9), f"{where}: want {want}, got {got}"


def check_summary(where, got, want):
    if want is None:
        assert got is None, f"{where}: want null, got {got!r}"
        return
    assert type(got) is dict and sorted(got) == ["max", "median", "min"], f"{where}: {got!r}"
    for key, value in zip(("min", "median", "max"), want):
        check_number(f"{where}.{key}", got[key], value)


def check_report(text):
    assert text.endswith("\n") and text.count("\n") == 1, "not one line ending in a newline"
    report = json.loads(text, parse_constant=reject_constant,
                        object_pairs_hook=no_duplicate_keys)
    assert type(report) is dict

    for key, want in STRINGS.items():
        assert report[key] == want, f"{key}: want {want!r}, got {report[key]!r}"
    check_number("peak_rate", report["peak_rate"], 100)
    check_number("ops_per_byte", report["ops_per_byte"], 0.25)
    assert type(report["reps"]) is int and report["reps"] == 7, report["reps"]
    assert type(report["build_type"]) is str and report["build_type"], report["build_type"]
    # The exact check passed and the failing one is informative: verified.
    assert report["verified"] is True, report["verified"]

    assert type(report["checks"]) is list and len(report["checks"]) == len(CHECKS)
    for i, (got, want) in enumerate(zip(report["checks"], CHECKS)):
        assert sorted(got) == sorted(want), f"checks[{i}] keys: {sorted(got)}"
        for key, value in want.items():
            assert type(got[key]) is type(value) and got[key] == value, \
                f"checks[{i}].{key}: want {value!r}, got {got[key]!r}"

    assert type(report["rows"]) is list and len(report["rows"]) == len(ROWS)
    for i, (got, want) in enumerate(zip(report["rows"], ROWS)):
        where = f"rows[{i}] ({want['name']!r})"
        assert sorted(got) == sorted(want), f"{where} keys: {sorted(got)}"
        assert got["name"] == want["name"], f"{where}: name {got['name']!r}"
        assert got["vendor"] is want["vendor"], f"{where}: vendor {got['vendor']!r}"
        for key in ("baseline", "symbol", "teaches"):
            assert got[key] == want[key], f"{where}.{key}: want {want[key]!r}, got {got[key]!r}"
        check_summary(f"{where}.ms", got["ms"], want["ms"])
        check_summary(f"{where}.block_cycles", got["block_cycles"], want["block_cycles"])
        for key in ("ops_per_byte", "spread", "rate", "percent_of_peak", "cycles_per_element",
                    "grid_span_us", "vs_vendor"):
            check_number(f"{where}.{key}", got[key], want[key])
    assert any(row["name"] == report["headline"] for row in report["rows"]), "no headline row"

    assert report["notes"] == NOTES, f"notes: {report['notes']!r}"
    expected_keys = set(STRINGS) | {"peak_rate", "ops_per_byte", "reps", "build_type",
                                    "verified", "checks", "rows", "notes"}
    assert set(report) == expected_keys, f"keys: {sorted(set(report) ^ expected_keys)}"


def main():
    if not __debug__:
        sys.exit("check_report_json.py: the checks are asserts; run it without -O")
    if len(sys.argv) > 1:
        result = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, check=True)
        data = result.stdout
    else:
        data = sys.stdin.buffer.read()
    check_report(data.decode("utf-8"))  # strict: invalid UTF-8 fails too
    print("report JSON: every field parsed and matched")


if __name__ == "__main__":
    main()
