#!/usr/bin/env python3
"""Runs every chapter in order, shows each chapter's report, then one side-by-side table.

Each chapter runs once; its text report goes to the terminal and its JSON report (written
through TUTORIAL_REPORT_JSON) feeds the table. The table and the raw reports are saved as
comparison.json in --out, and, where matplotlib is installed, drawn as comparison.png.

    python3 tools/compare.py --bin build/bin --out build/comparison [--n 2^24] [--reps 20]

Exit code: 0 when every chapter verified or was skipped for want of a GPU (77), 1 otherwise,
also when a chapter's headline names none of its rows. The spread column is the headline row's
(max - min) / median over the timed runs: differences smaller than it are noise.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

SKIPPED = 77


def find_chapters(bin_dir):
    """The chapter executables chNN_name, in chapter order."""
    return sorted(p for p in pathlib.Path(bin_dir).glob("ch[0-9][0-9]_*")
                  if p.is_file() and os.access(p, os.X_OK))


def takes_size_n(exe):
    """Matrix chapters take --m --n --k; a lone --n means elements only elsewhere."""
    usage = subprocess.run([str(exe), "--help"], capture_output=True, text=True).stdout
    return "--m" not in usage


def run_chapter(exe, extra_args):
    """Runs one chapter, echoing its report; returns (exit code, JSON report or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        json_path = pathlib.Path(tmp) / "report.json"
        env = dict(os.environ, TUTORIAL_REPORT_JSON=str(json_path))
        result = subprocess.run([str(exe)] + extra_args, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        print(result.stdout, end="", flush=True)
        report = json.loads(json_path.read_text()) if json_path.exists() else None
    return result.returncode, report


def headline_row(report):
    """The row the chapter names as its headline; None (an error) when it names no row."""
    for row in report["rows"]:
        if row["name"] == report.get("headline"):
            return row
    return None


def summarize(name, code, report, previous):
    """One line of the side-by-side table, as a dict."""
    line = {"chapter": name, "exit_code": code}
    if report is None:
        line["status"] = "skipped (no GPU)" if code == SKIPPED else f"failed (exit {code})"
        return line
    row = headline_row(report)
    if row is None:
        line["status"] = f"ERROR: the headline {report.get('headline')!r} names no row"
        return line
    line.update(status="verified" if code == 0 else f"WRONG (exit {code})",
                kernel=row["name"], unit=report["rate_unit"], ms=row["ms"]["median"],
                spread=row.get("spread"), build_type=report.get("build_type"),
                rate=row["rate"], percent_of_peak=row["percent_of_peak"],
                vs_vendor=row["vs_vendor"],
                cycles=(row["block_cycles"] or {}).get("median"))
    # Speedup over the previous chapter: the ratio of rates (for the same work, the ratio of
    # times), only where both chapters count the same unit.
    if previous and previous.get("unit") == line["unit"] and previous.get("rate"):
        line["speedup"] = row["rate"] / previous["rate"]
    return line


def fmt(value, pattern):
    return "-" if value is None else pattern.format(value)


def print_table(lines):
    print("\n== side by side: each chapter's best kernel ==")
    header = (f"{'chapter':<22} {'kernel':<30} {'median ms':>10} {'spread':>7} {'cycles/blk':>11} "
              f"{'rate':>16} {'% peak':>7} {'% vendor':>9} {'vs prev':>8}  status")
    print(header)
    for l in lines:
        if "kernel" not in l:
            print(f"{l['chapter']:<22} {'-':<30} {'-':>10} {'-':>7} {'-':>11} {'-':>16} {'-':>7} "
                  f"{'-':>9} {'-':>8}  {l['status']}")
            continue
        rate = f"{l['rate']:.1f} {l['unit']}"
        print(f"{l['chapter']:<22} {l['kernel'][:30]:<30} {l['ms']:>10.4f} "
              f"{fmt(l['spread'] and 100 * l['spread'], '{:.1f}%'):>7} "
              f"{fmt(l['cycles'], '{:.0f}'):>11} {rate:>16} "
              f"{fmt(l['percent_of_peak'], '{:.1f}'):>7} "
              f"{fmt(l['vs_vendor'] and 100 * l['vs_vendor'], '{:.1f}%'):>9} "
              f"{fmt(l.get('speedup'), '{:.2f}x'):>8}  {l['status']}")


def draw_chart(lines, path):
    """GB/s and % of peak per chapter; silently nothing without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no chart drawn)")
        return
    bandwidth = [l for l in lines if l.get("unit") == "GB/s"]
    if not bandwidth:
        return
    names = [l["chapter"] for l in bandwidth]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    left.bar(names, [l["rate"] for l in bandwidth], color="tab:blue")
    left.set_ylabel("GB/s (best kernel)")
    left.set_yscale("log")
    right.bar(names, [l["percent_of_peak"] or 0 for l in bandwidth], color="tab:green")
    right.set_ylabel("% of theoretical DRAM bandwidth")
    for axis in (left, right):
        axis.tick_params(axis="x", rotation=30)
    fig.suptitle("Each chapter's best kernel")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"chart: {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="folder of the chNN_* executables")
    parser.add_argument("--out", required=True, help="folder for comparison.json/.png")
    parser.add_argument("--n", help="element count for the chapters that take one")
    parser.add_argument("--reps", help="timed repetitions per variant")
    parser.add_argument("--only", nargs="*", help="chapter numbers to run (default: all)")
    args = parser.parse_args()

    chapters = [c for c in find_chapters(args.bin) if not args.only or c.name[2:4] in args.only]
    if not chapters:
        sys.exit(f"no chapter executables in {args.bin}: build first")
    lines, reports, previous, failed = [], {}, None, False
    for exe in chapters:
        extra = ["--reps", args.reps] if args.reps else []
        if args.n and takes_size_n(exe):
            extra += ["--n", args.n]
        name = exe.name[2:]
        code, report = run_chapter(exe, extra)
        print()
        line = summarize(name, code, report, previous)
        failed |= code not in (0, SKIPPED) or line["status"].startswith("ERROR")
        lines.append(line)
        reports[name] = report
        if "kernel" in line:
            previous = line

    print_table(lines)
    builds = {l["build_type"] for l in lines if l.get("build_type")} - {"Release"}
    if builds:
        print(f"WARNING: built as {', '.join(sorted(builds))}: these timings are not comparable "
              "with a Release build's")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "comparison.json").write_text(json.dumps({"table": lines, "reports": reports},
                                                    indent=2))
    print(f"table: {out / 'comparison.json'}")
    draw_chart(lines, out / "comparison.png")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
