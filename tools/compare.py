#!/usr/bin/env python3
"""Runs every chapter in order, shows each chapter's report, then one side-by-side table.

First it runs the roofs tool (bin/roofs --json: the device's DRAM, L2 and FP32 roofs), where
built. Each chapter then runs once; its text report goes to the terminal and its JSON report
(written through TUTORIAL_REPORT_JSON) feeds the table. The table, the roofs, the roofline's
numbers and the raw reports are saved as comparison.json in --out and, where matplotlib is
installed for the Python running this and some GPU chapter measured a rate, drawn as
comparison.png (each chapter's best kernel next to the vendor library) and roofline.png (every
kernel against the roofs, docs/roofline.md; chapter 10's report adds its BF16 tensor-core peak
as a second compute roof). Without a GPU (every GPU chapter skipped, exit 77) there is no
chart: chapter 01 alone, on the CPU, would leave it nearly empty. Where matplotlib is missing
the run says which Python lacks it; `run_chapters` uses the one CMake found
(-DPython3_EXECUTABLE=... chooses another).

    python3 tools/compare.py --bin build/bin --out build/comparison [--n 2^24] [--reps 20]
                             [--profile build/profile/profile.json]
                             [--replay earlier/comparison.json]

--profile takes tools/profile.py's JSON: the roofline then also shows, for each profiled
kernel, its intensity counted from the DRAM bytes it really moved (a hollow marker), where the
profile ran the chapter at the size this comparison did. Sizes are compared as the chapter ran
them: each option given (--n, --m, --k, in any spelling the chapters take: 16M, 2^24) or else
its default, which each chapter's --help states.

--replay takes an earlier run's comparison.json and draws from it instead of running anything:
its roofs, table and reports, with the --profile given now (a GPU run's files redrawn on a
machine without a GPU). Give the options that run had (--n, --only); --bin is read for each
chapter's --help alone, for its default sizes.

Exit code: 0 when every chapter verified or was skipped for want of a GPU (77), 1 otherwise,
also when a chapter's headline names none of its rows. The spread column is the headline row's
(max - min) / median over the timed runs: differences smaller than it are noise.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

SKIPPED = 77


def find_chapters(bin_dir):
    """The chapter executables chNN_name, in chapter order."""
    return sorted(p for p in pathlib.Path(bin_dir).glob("ch[0-9][0-9]_*")
                  if p.is_file() and os.access(p, os.X_OK))


def chapter_usage(exe):
    """What @p exe --help prints (the usage text of tutorial/harness/options.hpp); "" when
    there is no such program (a replay's chapter that is not built here)."""
    if not (exe.is_file() and os.access(exe, os.X_OK)):
        return ""
    return subprocess.run([str(exe), "--help"], capture_output=True, text=True).stdout


def takes_size_n(usage):
    """Matrix chapters take --m --n --k; a lone --n means elements only elsewhere."""
    return "--m" not in usage


def default_sizes(usage):
    """The default of each size option, as the usage text states it: {'--n': 16777216}, or
    {'--m': 4096, '--n': 4096, '--k': 4096} for a matrix chapter; {} where it states none."""
    matmul = re.search(r"\(defaults (\d+), (\d+), (\d+)\)", usage)
    if matmul:
        return dict(zip(("--m", "--n", "--k"), map(int, matmul.groups())))
    elements = re.search(r"--n N +number of elements \(default (\d+)\)", usage)
    return {"--n": int(elements.group(1))} if elements else {}


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


def run_roofs(bin_dir):
    """The roofs tool's JSON object, or None (saying why in one line) when there is none."""
    exe = pathlib.Path(bin_dir) / "roofs"
    if not (exe.is_file() and os.access(exe, os.X_OK)):
        print(f"no roofs: {exe} is not built")
        return None
    result = subprocess.run([str(exe), "--json"], capture_output=True, text=True)
    if result.returncode != 0:
        why = "no GPU" if result.returncode == SKIPPED else f"exit {result.returncode}"
        print(f"no roofs: {exe.name} did not run ({why})")
        return None
    try:
        roofs = json.loads(result.stdout)
    except json.JSONDecodeError:
        roofs = None
    if not isinstance(roofs, dict):
        print(f"no roofs: {exe.name} printed no JSON object")
        return None
    print(f"roofs: DRAM {fmt(roofs.get('dram_peak_gbs'), '{:.0f}')} GB/s peak, "
          f"{fmt(roofs.get('dram_measured_gbs'), '{:.0f}')} measured; "
          f"L2 {fmt(roofs.get('l2_measured_gbs'), '{:.0f}')} GB/s measured; "
          f"FP32 FMA peak {fmt(roofs.get('fp32_peak_gflops'), '{:.0f}')} GFLOP/s\n")
    return roofs


def headline_row(report):
    """The row the chapter names as its headline; None (an error) when it names no row."""
    for row in report["rows"]:
        if row["name"] == report.get("headline"):
            return row
    return None


def vendor_row(report, row):
    """The vendor row @p row is compared with: the one its baseline names, else the first."""
    vendors = [r for r in report["rows"] if r.get("vendor")]
    named = [r for r in vendors if r["name"] == row.get("baseline")]
    return (named or vendors or [None])[0]


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
                cycles_per_element=row.get("cycles_per_element"))
    vendor = vendor_row(report, row)
    if vendor is not None:
        line.update(vendor=vendor["name"], vendor_rate=vendor["rate"],
                    vendor_percent_of_peak=vendor["percent_of_peak"])
    # Speedup over the previous chapter: the ratio of rates (for the same work, the ratio of
    # times), only where both chapters count the same unit.
    if previous and previous.get("unit") == line["unit"] and previous.get("rate"):
        line["speedup"] = row["rate"] / previous["rate"]
    return line


def fmt(value, pattern):
    return "-" if value is None else pattern.format(value)


def print_table(lines):
    print("\n== side by side: each chapter's best kernel ==")
    header = (f"{'chapter':<22} {'kernel':<30} {'median ms':>10} {'spread':>7} {'cyc/elem':>10} "
              f"{'rate':>16} {'% peak':>7} {'% vendor':>9} {'vs prev':>8}  status")
    print(header)
    for l in lines:
        if "kernel" not in l:
            print(f"{l['chapter']:<22} {'-':<30} {'-':>10} {'-':>7} {'-':>10} {'-':>16} {'-':>7} "
                  f"{'-':>9} {'-':>8}  {l['status']}")
            continue
        rate = f"{l['rate']:.1f} {l['unit']}"
        print(f"{l['chapter']:<22} {l['kernel'][:30]:<30} {l['ms']:>10.4f} "
              f"{fmt(l['spread'] and 100 * l['spread'], '{:.1f}%'):>7} "
              f"{fmt(l['cycles_per_element'], '{:.2f}'):>10} {rate:>16} "
              f"{fmt(l['percent_of_peak'], '{:.1f}'):>7} "
              f"{fmt(l['vs_vendor'] and 100 * l['vs_vendor'], '{:.1f}%'):>9} "
              f"{fmt(l.get('speedup'), '{:.2f}x'):>8}  {l['status']}")


# The roofs of the roofline: what the roofs tool reports, how the chart names and draws each.
BANDWIDTH_ROOFS = [("dram_peak_gbs", "DRAM peak", "-"),
                   ("dram_measured_gbs", "DRAM measured", "--"),
                   ("l2_measured_gbs", "L2 measured", "-.")]
COMPUTE_ROOF = "fp32_peak_gflops"
# Compute roofs the roofs tool does not give: the peak a chapter's report states, taken from
# that chapter's report (key, chapter, label). Chapter 10's is the BF16 tensor-core peak it
# derives from the SM count, the reported clock and the FLOPs per SM and clock of the
# architecture (chapters/10_tensor_cores/tensor_peak.cuh); absent where it does not know it.
REPORT_COMPUTE_ROOFS = [("bf16_tensor_peak_gflops", "10_tensor_cores",
                         "BF16 tensor-core peak (chapter 10's report)")]
SIZE_OPTIONS = ("--n", "--m", "--k")
# Each chapter's colour on the roofline, in chapter order: Matplotlib's ten (tab10), then navy
# and magenta, far from all ten and from each other. The chart is drawn on opaque white, so
# they read the same on GitHub's light and dark pages.
CHAPTER_COLORS = [f"tab:{c}" for c in ("blue", "orange", "green", "red", "purple", "brown",
                                       "pink", "gray", "olive", "cyan")] + ["#000080", "#ff00ff"]


def read_profile(path):
    """tools/profile.py's JSON, or None (saying why in one line) when it cannot be read."""
    if path is None:
        return None
    try:
        return json.loads(pathlib.Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        print(f"profile {path} not read ({error}): no measured intensities on the roofline")
        return None


def size_value(text):
    """A size as the chapters read it (parse_size, tutorial/harness/options.hpp): 4096, 16M
    (a suffix K, M, G multiplies by 1024, 1024^2, 1024^3) or 2^24; the text itself where it
    is none of these."""
    power = re.fullmatch(r"(\d+)\^(\d+)", text)
    if power:
        return int(power.group(1)) ** int(power.group(2))
    scaled = re.fullmatch(r"(\d+)([kKmMgG]?)", text)
    if scaled:
        return int(scaled.group(1)) * 1024 ** (" kmg".index(scaled.group(2).lower() or " "))
    return text


def size_options(args):
    """The size options (--n, --m, --k) of an argument list or string, with their values."""
    words = args.split() if isinstance(args, str) else list(args)
    return {w: v for w, v in zip(words, words[1:]) if w in SIZE_OPTIONS}


def sizes_run(args, defaults):
    """The sizes a chapter runs at with the arguments @p args: each size option given, else its
    default (@p defaults, from its --help). Sizes given as 4096 and as 4K are the same."""
    given = {option: size_value(value) for option, value in size_options(args).items()}
    return dict(defaults, **given)


def spelled(sizes):
    """{'--n': 4096, '--m': 64} -> '--m 64 --n 4096'; {} (defaults unknown) -> 'its defaults'."""
    order = ("--m", "--n", "--k")
    return " ".join(f"{option} {sizes[option]}" for option in order
                    if option in sizes) or "its defaults"


def bytes_moved_by_function(profile, chapter, sizes, defaults=None):
    """DRAM bytes (read + written) per profiled kernel function of @p chapter (and per kernel
    symbol, for rows that carry their kernel's symbol), from the profile's first run of the
    chapter at the same sizes as this comparison (@p sizes, as sizes_run() gives them, with the
    chapter's @p defaults); {} where it has none.

    tools/profile.py keeps, per kernel, its launch over the whole input. A function profiled
    as several kernels (a reduction's later passes, other element types) counts as the one
    that moved the most bytes: the pass over the input.
    """
    entry = ((profile or {}).get("chapters") or {}).get(chapter) or {}
    runs = entry.get("runs") or [{}]
    same = [i for i, run in enumerate(runs)
            if sizes_run(run.get("args", ""), defaults or {}) == sizes]
    if entry and not same:
        given = " and ".join(repr(run.get("args")) for run in runs)
        profiled = " and ".join(spelled(sizes_run(run.get("args", ""), defaults or {}))
                                for run in runs)
        print(f"{chapter}: the profile ran it with {given}, another size than this comparison "
              f"({profiled} against {spelled(sizes)}): no measured intensities for it")
        return {}
    # The entry's own "kernels" are its first run's (tools/profile.py; a test's fake profile
    # may give them there alone).
    run = same[0] if same else 0
    kernels = runs[run].get("kernels") or (entry.get("kernels") if run == 0 else None)
    moved = {}
    for kernel in kernels or []:
        metrics = kernel.get("metrics") or {}
        read, written = metrics.get("dram__bytes_read.sum"), metrics.get("dram__bytes_write.sum")
        function = kernel.get("function") or kernel.get("kernel", "").split("<", 1)[0]
        total = read + written if read is not None and written is not None else 0
        if kernel.get("symbol"):
            moved[kernel["symbol"]] = total  # listed even at 0: the row found its kernel
        if total > 0:
            moved[function] = max(moved.get(function, 0), total)
    return moved


def function_of_row(name):
    """The kernel function a row names: its name before the first ", " or " ("."""
    return re.split(r", | \(", name, maxsplit=1)[0]


def roofline_point(chapter, report, row):
    """Where @p row lands on the roofline, or None when it has no rate or no intensity.

    x: the algorithm's operations per byte it must move (docs/roofline.md); y: G operations/s,
    the rate itself for GFLOP/s, bytes/s x operations per byte for GB/s.
    """
    intensity = row.get("ops_per_byte") or report.get("ops_per_byte")
    unit = report.get("rate_unit")
    if not intensity or not row.get("rate") or unit not in ("GB/s", "GFLOP/s"):
        return None
    gops = row["rate"] * intensity if unit == "GB/s" else row["rate"]
    return {"chapter": chapter, "row": row["name"], "op_name": report.get("op_name"),
            "headline": row["name"] == report.get("headline"), "vendor": bool(row.get("vendor")),
            "ops_per_byte": intensity, "gops": gops}


def roofline_data(roofs, reports, profile, sizes, defaults=None):
    """The roofs and the points of the roofline, as numbers (comparison.json's "roofline").

    Without the roofs tool, the roofs are the peaks the reports state. @p sizes maps each
    chapter to the sizes it ran at (sizes_run()), @p defaults to its default sizes, to match
    the profile's run.
    """
    chosen = {key: (roofs or {}).get(key) for key, _, _ in BANDWIDTH_ROOFS}
    chosen[COMPUTE_ROOF] = (roofs or {}).get(COMPUTE_ROOF)
    own_roofs = {chapter for _, chapter, _ in REPORT_COMPUTE_ROOFS}
    for chapter, report in reports.items():
        if not report or chapter in own_roofs:  # its peak is another roof than FP32's
            continue
        key = {"GB/s": "dram_peak_gbs", "GFLOP/s": COMPUTE_ROOF}.get(report.get("rate_unit"))
        if key and not chosen[key]:
            chosen[key] = report.get("peak_rate")
    for key, chapter, _ in REPORT_COMPUTE_ROOFS:
        chosen[key] = (reports.get(chapter) or {}).get("peak_rate")
    chosen = {key: value for key, value in chosen.items() if value}
    points, unmatched = [], []
    for chapter, report in reports.items():
        if not report:
            continue
        moved = bytes_moved_by_function(profile, chapter, sizes.get(chapter, {}),
                                        (defaults or {}).get(chapter, {}))
        for row in report["rows"]:
            if moved and row.get("symbol") and row["symbol"] not in moved:
                # The row's kernel ran in the program but not in its profile: another size, or
                # a profile of another build; its measured intensity would silently be lost.
                unmatched.append(f"{chapter}: row {row['name']!r} ran kernel {row['symbol']!r}, "
                                 "which its profile does not list")
            point = roofline_point(chapter, report, row)
            if point is None:
                continue
            bytes_moved = moved.get(row.get("symbol") or function_of_row(row["name"]))
            if bytes_moved:
                operations = point["gops"] * 1e9 * row["ms"]["median"] * 1e-3
                point["measured_ops_per_byte"] = operations / bytes_moved
            points.append(point)
    data = {"roofs": chosen, "points": points, "unmatched_kernels": unmatched}
    # Ridge points: where a FLOP kernel stops being memory-bound, per compute roof.
    for compute, ridge in [(COMPUTE_ROOF, "ridge_flop_per_byte")] + [
            (key, f"ridge_{key}") for key, _, _ in REPORT_COMPUTE_ROOFS]:
        if compute in chosen:
            data[ridge] = {key: chosen[compute] / chosen[key]
                           for key, _, _ in BANDWIDTH_ROOFS if key in chosen}
    return data


def chapter_colors(chapters):
    """Each of @p chapters (in order) its own colour of CHAPTER_COLORS; past the last, they
    repeat, and a line says which chapters share one."""
    colors = {c: CHAPTER_COLORS[i % len(CHAPTER_COLORS)] for i, c in enumerate(chapters)}
    if len(chapters) > len(CHAPTER_COLORS):
        print(f"(more chapters than colours: {', '.join(chapters[len(CHAPTER_COLORS):])} share "
              "theirs with earlier chapters; add colours to CHAPTER_COLORS)")
    return colors


def grouped_bars(axis, names, mine, vendor, ylabel):
    """Each chapter's best kernel next to the vendor library (a missing value: no bar)."""
    missing = float("nan")
    positions = range(len(names))
    axis.bar([p - 0.2 for p in positions], [v or missing for v in mine], 0.4,
             color="tab:blue", label="best kernel")
    axis.bar([p + 0.2 for p in positions], [v or missing for v in vendor], 0.4,
             color="tab:gray", label="vendor library (CUB / cuBLAS)")
    axis.set_xticks(list(positions), names, rotation=30, ha="right")
    axis.set_ylabel(ylabel)
    axis.legend(fontsize="small")


def draw_chart(lines, path, plt):
    """Per chapter, the best kernel next to the vendor: GB/s, and % of the chapter's peak."""
    measured = [l for l in lines if l.get("rate")]
    bandwidth = [l for l in measured if l["unit"] == "GB/s"]
    fig, axes = plt.subplots(1, 2 if bandwidth else 1, figsize=(13 if bandwidth else 7, 5),
                             squeeze=False)
    if bandwidth:
        grouped_bars(axes[0][0], [l["chapter"] for l in bandwidth], [l["rate"] for l in bandwidth],
                     [l.get("vendor_rate") for l in bandwidth], "GB/s")
        axes[0][0].set_yscale("log")
    grouped_bars(axes[0][-1], [l["chapter"] for l in measured],
                 [l["percent_of_peak"] for l in measured],
                 [l.get("vendor_percent_of_peak") for l in measured],
                 "% of the chapter's peak\n(DRAM bandwidth; FP32 FMA rate for GFLOP/s)")
    fig.suptitle("Each chapter's best kernel and the vendor library")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"chart: {path}")


def separate_labels(fig, labels):
    """Moves a headline's label that would print over an earlier one (03 and 06 stand close):
    to the other side of its point, else up, a line at a time. The figure's layout is final."""
    renderer = fig.canvas.get_renderer()
    placed = []
    for label in labels:
        x, y = label.xyann
        for step in range(8):
            for dx in (x, -10 - x):  # this side, then the other: -18 <-> 8
                label.xyann = (dx, y + step * 12)
                box = label.get_window_extent(renderer)
                if not any(box.overlaps(other) for other in placed):
                    break
            else:
                continue
            break
        placed.append(box)


def draw_roofline(roofline, path, plt):
    """Every row against the roofs, log-log (docs/roofline.md)."""
    from matplotlib.lines import Line2D
    roofs, points = roofline["roofs"], roofline["points"]
    xs = [p["ops_per_byte"] for p in points] + [p["measured_ops_per_byte"] for p in points
                                                 if "measured_ops_per_byte" in p]
    for ridges in [roofline.get("ridge_flop_per_byte", {})] + [
            roofline.get(f"ridge_{key}", {}) for key, _, _ in REPORT_COMPUTE_ROOFS]:
        xs += list(ridges.values())
    span = [min(xs) / 4, max(xs) * 4]
    fig, axis = plt.subplots(figsize=(13, 6.5))
    for key, label, style in BANDWIDTH_ROOFS:
        if key in roofs:
            axis.plot(span, [roofs[key] * x for x in span], style, color="tab:red",
                      label=f"{label}: {roofs[key]:.0f} GB/s")
    if COMPUTE_ROOF in roofs:
        axis.axhline(roofs[COMPUTE_ROOF], color="black",
                     label=f"FP32 FMA peak: {roofs[COMPUTE_ROOF]:.0f} GFLOP/s (FP32 FLOP points)")
    for key, _, label in REPORT_COMPUTE_ROOFS:
        if key in roofs:
            axis.axhline(roofs[key], color="black", linestyle=":",
                         label=f"{label}: {roofs[key]:.0f} GFLOP/s (BF16 FLOP points)")
    chapters = sorted({p["chapter"] for p in points})
    colors = chapter_colors(chapters)
    labels = []
    for p in points:
        color, marker = colors[p["chapter"]], "s" if p["vendor"] else "o"
        size = 110 if p["headline"] else 30
        axis.scatter(p["ops_per_byte"], p["gops"], s=size, marker=marker, color=color, zorder=3,
                     edgecolors="black" if p["headline"] else "none")
        if p["headline"]:
            left = chapters.index(p["chapter"]) % 2  # chapters at one intensity: alternate sides
            # On a white patch above the markers: another chapter's may pass under it.
            labels.append(axis.annotate(
                p["chapter"][:2], (p["ops_per_byte"], p["gops"]), fontweight="bold",
                textcoords="offset points", xytext=(-18 if left else 8, 4), zorder=4,
                bbox=dict(boxstyle="square,pad=0.05", facecolor="white", edgecolor="none",
                          alpha=0.8)))
        if "measured_ops_per_byte" in p:
            axis.plot([p["ops_per_byte"], p["measured_ops_per_byte"]], [p["gops"]] * 2,
                      color=color, linewidth=0.8, zorder=2)
            axis.scatter(p["measured_ops_per_byte"], p["gops"], s=size, marker=marker, zorder=3,
                         facecolors="none", edgecolors=color)
    keys = [Line2D([], [], marker="o", color="gray", markeredgecolor="black", linestyle="",
                   markersize=10, label="headline kernel (chapter number)"),
            Line2D([], [], marker="o", color="gray", linestyle="", label="other kernels"),
            Line2D([], [], marker="s", color="gray", linestyle="", label="vendor library")]
    if any("measured_ops_per_byte" in p for p in points):
        keys.append(Line2D([], [], marker="o", color="gray", markerfacecolor="none", linestyle="",
                           label="intensity from the DRAM bytes moved (profile)"))
    keys += [Line2D([], [], marker="o", color=colors[c], linestyle="", label=c) for c in chapters]
    handles, _ = axis.get_legend_handles_labels()
    axis.legend(handles=handles + keys, fontsize="small", loc="upper left",
                bbox_to_anchor=(1.02, 1))
    axis.set_xscale("log")
    axis.set_yscale("log")
    ys = [p["gops"] for p in points] + [roofs.get(COMPUTE_ROOF, 0)]
    ys += [roofs.get(key, 0) for key, _, _ in REPORT_COMPUTE_ROOFS]
    axis.set_ylim(min(y for y in ys if y > 0) / 3, max(ys) * 3)  # bandwidth roofs: clipped
    axis.set_xlabel("arithmetic intensity: operations per byte of device memory")
    axis.set_ylabel("G operations/s (adds, or FLOPs)")
    axis.set_title("Roofline: every kernel of every chapter")
    axis.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    separate_labels(fig, labels)
    fig.savefig(path, dpi=100, facecolor="white")  # opaque: readable on a dark page too
    plt.close(fig)
    print(f"roofline: {path}")


def ran_on_a_gpu(line):
    """Whether @p line measured a GPU kernel: a GPU chapter sets its rate against the GPU's peak
    or the vendor library (CUB, cuBLAS, NCCL); chapter 01, on the CPU, against neither."""
    return bool(line.get("rate")) and (line.get("percent_of_peak") is not None
                                       or line.get("vendor_rate") is not None)


def matplotlib_missing(error):
    """Why there is no chart when matplotlib cannot be imported, naming the Python that tried:
    CMake may have found another python3 than the one matplotlib was installed for."""
    what = ("is not installed" if isinstance(error, ModuleNotFoundError)
            and error.name == "matplotlib" else f"cannot be imported ({error})")
    return (f"(matplotlib {what} for {sys.executable}, the Python running this: no chart drawn. "
            f"Install it for that Python ({sys.executable} -m pip install matplotlib), or use "
            "a Python that has it: configure with -DPython3_EXECUTABLE=<that python3> for "
            "run_chapters, or run <that python3> tools/compare.py with the same options)")


def draw_charts(lines, roofline, out):
    """comparison.png and roofline.png; nothing (no file) when no chapter measured a rate on a
    GPU: a chart of chapter 01 alone would be nearly empty."""
    for stale in ("comparison.png", "roofline.png"):  # a previous run's: they would mislead
        (out / stale).unlink(missing_ok=True)
    if not any(l.get("rate") for l in lines):
        print("(no chapter measured a rate: no chart drawn)")
        return
    if not any(ran_on_a_gpu(l) for l in lines):
        skipped = sum(1 for l in lines if l["exit_code"] == SKIPPED)
        print(f"(no GPU chapter ran ({skipped} skipped for want of a GPU they can use): "
              "no chart drawn)")
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print(matplotlib_missing(error))
        return
    draw_chart(lines, out / "comparison.png", plt)
    if roofline["points"]:
        draw_roofline(roofline, out / "roofline.png", plt)


def replayed(path, only):
    """The roofs, table lines and reports of an earlier run's comparison.json (--replay), of
    the chapters in @p only (all where it is empty)."""
    saved = json.loads(pathlib.Path(path).read_text())
    lines = [l for l in saved["table"] if not only or l["chapter"][:2] in only]
    return saved["roofs"], lines, {l["chapter"]: saved["reports"][l["chapter"]] for l in lines}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="folder of the chNN_* executables")
    parser.add_argument("--out", required=True, help="folder for comparison.json/.png")
    parser.add_argument("--n", help="element count for the chapters that take one")
    parser.add_argument("--reps", help="timed repetitions per variant")
    parser.add_argument("--only", nargs="*", help="chapter numbers to run (default: all)")
    parser.add_argument("--profile", help="tools/profile.py's profile.json, for the roofline")
    parser.add_argument("--replay", metavar="COMPARISON_JSON",
                        help="draw from an earlier run's comparison.json instead of running")
    args = parser.parse_args()

    if args.replay:
        roofs, lines, reports = replayed(args.replay, args.only)
        names = [l["chapter"] for l in lines]
        print(f"replay of {args.replay}: {len(names)} chapters, nothing run but their --help")
    else:
        chapters = [c for c in find_chapters(args.bin)
                    if not args.only or c.name[2:4] in args.only]
        if not chapters:
            sys.exit(f"no chapter executables in {args.bin}: build first")
        roofs = run_roofs(args.bin)
        lines, reports, names = [], {}, [exe.name[2:] for exe in chapters]
    sizes, defaults, previous, failed = {}, {}, None, False
    for name in names:
        exe = pathlib.Path(args.bin) / f"ch{name}"
        usage = chapter_usage(exe)
        if not exe.is_file():  # a replay's chapter
            print(f"({exe} is not built here: {name}'s default sizes are unknown, and its "
                  "profile must name the same size options as this comparison)")
        extra = ["--reps", args.reps] if args.reps else []
        if args.n and takes_size_n(usage):
            extra += ["--n", args.n]
        defaults[name] = default_sizes(usage)
        sizes[name] = sizes_run(extra, defaults[name])
        if args.replay:
            line = next(l for l in lines if l["chapter"] == name)
            code = line["exit_code"]
        else:
            code, report = run_chapter(exe, extra)
            print()
            line = summarize(name, code, report, previous)
            lines.append(line)
            reports[name] = report
            if "kernel" in line:
                previous = line
        failed |= code not in (0, SKIPPED) or line["status"].startswith("ERROR")

    print_table(lines)
    builds = {l["build_type"] for l in lines if l.get("build_type")} - {"Release"}
    if builds:
        print(f"WARNING: built as {', '.join(sorted(builds))}: these timings are not comparable "
              "with a Release build's")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    roofline = roofline_data(roofs, reports, read_profile(args.profile), sizes, defaults)
    for line in roofline["unmatched_kernels"]:
        print(f"ERROR: {line}")
        failed = True
    (out / "comparison.json").write_text(json.dumps(
        {"roofs": roofs, "roofline": roofline, "table": lines, "reports": reports}, indent=2))
    print(f"table: {out / 'comparison.json'}")
    draw_charts(lines, roofline, out)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
