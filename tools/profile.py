#!/usr/bin/env python3
"""Profiles each chapter's kernels with Nsight Compute and prints one table per chapter.

Each chapter directory has a profile.txt: the argument lines to run the chapter with (lines
that start with "--") and the hardware counters that show its lesson (every other line; "#"
starts a comment). Every run also collects the counters in COMMON_METRICS. The chapter runs
once per argument line under `ncu` (clocks left as they are: --clock-control none); each
kernel it launches is profiled, and the table keeps, per kernel, its launch with the largest
grid (the one over the whole input; later passes of a reduction are smaller).

    python3 tools/profile.py --bin build/bin --out build/profile [--only 03 04]

The tables and their numbers go to --out/profile.json (and the raw Nsight Compute reports to
--out/*.ncu-rep, for the Nsight Compute GUI). docs/profiling.md explains every counter.
Exit code: 0 when every chapter was profiled, 77 when there is no GPU, 1 otherwise (ncu
missing, counters not permitted, a chapter that failed).
"""
import argparse
import csv
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

SKIPPED = 77
ROOT = pathlib.Path(__file__).resolve().parent.parent

# Collected in every run: time, the DRAM traffic and how busy DRAM was.
COMMON_METRICS = [
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
]

# Column titles of the table; docs/profiling.md has one sentence on each.
LABELS = {
    "gpu__time_duration.sum": "time us",
    "dram__bytes_read.sum": "DRAM read",
    "dram__bytes_write.sum": "DRAM write",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "DRAM %",
    "lts__t_sector_hit_rate.pct": "L2 hit %",
    "lts__t_bytes.sum": "L2 bytes",
    "lts__t_sectors_srcunit_tex_op_read.sum": "L2 sectors read",
    "l1tex__t_sector_hit_rate.pct": "L1 hit %",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "gld sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "gld requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "gst sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "gst requests",
    "smsp__inst_executed.sum": "warp instr",
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads/instr",
    "smsp__sass_average_branch_targets_threads_uniform.pct": "uniform br %",
    "smsp__sass_inst_executed_op_shared_ld.sum": "shared ld instr",
    "smsp__sass_inst_executed_op_shared_st.sum": "shared st instr",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared ld wavefr",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared st wavefr",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "ld bank confl",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "st bank confl",
    "smsp__inst_executed_op_shared_atom.sum": "shared atom instr",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": "shared atom wavefr",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum": "atom bank confl",
    "smsp__inst_executed_op_global_red.sum": "global red instr",
    "lts__t_requests_op_red.sum": "L2 red requests",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy %",
    "sm__cycles_active.min": "SM active cyc min",
    "sm__cycles_active.avg": "SM active cyc avg",
    "sm__cycles_active.max": "SM active cyc max",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": "stall barrier",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "stall L1TEX",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio": "stall short scoreboard",
    "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio": "stall dispatch",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio": "stall LG throttle",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active": "FMA pipe %",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active": "tensor pipe %",
    "sm__inst_executed_pipe_tensor_op_gmma.sum": "wgmma instr",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue slots busy %",
    "launch__registers_per_thread": "registers",
    "sm__cycles_elapsed.avg.per_second": "SM clock Hz",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": "FFMA (threads)",
}

PERMISSION_HELP = """\
Nsight Compute may not read this GPU's performance counters for this user (ERR_NVGPUCTRPERM).
Either run the profile as root (sudo), or allow every user to profile, once, as root:
    echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' > /etc/modprobe.d/ncu.conf
then reboot (or reload the nvidia module). On Windows: NVIDIA Control Panel > Desktop >
Enable Developer Settings, then Developer > Manage GPU Performance Counters > allow all users.
NVIDIA's page on it: https://developer.nvidia.com/ERR_NVGPUCTRPERM"""


class ProfileError(Exception):
    """A failure that stops the profile, with what to do about it."""


def read_profile_spec(chapter_dir):
    """(argument lines, metrics) of chapter_dir/profile.txt; the metrics start with COMMON."""
    runs, metrics = [], list(COMMON_METRICS)
    for line in (chapter_dir / "profile.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("--"):
            runs.append(line.split())
        elif line not in metrics:
            metrics.append(line)
    return runs or [["--reps", "1"]], metrics


# The harness's kernels around a lesson's block body (tutorial/harness/block_cycles.cuh): a launch of
# clocked_blocks<&body, ...> is listed under the body's name.
HARNESS_WRAPPERS = (
    "clocked_blocks", "clocked_blocks_bounded", "clocked_blocks_tma", "clocked_blocks_tma3")


def first_template_argument(name, start):
    """The text of the first template argument of the list that opens at name[start] ('<')."""
    depth = 0
    for i in range(start, len(name)):
        c = name[i]
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
            if depth == 0:
                return name[start + 1:i]
        elif c == "," and depth == 1:
            return name[start + 1:i]
    return name[start + 1:]


def unwrap_harness(demangled):
    """'void tutorial::clocked_blocks<&(void ns::body<int>(int const*)), 256, 1, ...>(...)' ->
    'void ns::body<int>(int const*)': the body a harness kernel ran; other names unchanged."""
    for wrapper in HARNESS_WRAPPERS:
        at = demangled.find(wrapper + "<")
        if at < 0 or (at > 0 and demangled[at - 1] not in " :"):
            continue
        body = first_template_argument(demangled, at + len(wrapper)).strip()
        body = body.lstrip("&").strip()
        if body.startswith("(") and body.endswith(")"):
            body = body[1:-1].strip()
        return body
    return demangled


def short_kernel_name(demangled):
    """'void (anonymous namespace)::reduce_tree<8, int>(const T1 *, long)' -> 'reduce_tree<8, int>'.

    A harness kernel (clocked_blocks<&body, ...>) is named after its body. Long template
    argument lists (the libraries' kernels) shrink to '<...>', long names to 45 characters and
    '...'.
    """
    name = unwrap_harness(demangled.strip())
    # Drop the parameter list: the last top-level parenthesis group (an unwrapped body may
    # have none: its name ends with its template arguments).
    depth = 0
    for i in range(len(name) - 1 if name.endswith(")") else -1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[i], 0)
        if depth == 0 and name[i] == "(":
            name = name[:i]
            break
    # The last '::' component outside template brackets, and no return type before it.
    depth, start = 0, 0
    for i, c in enumerate(name):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if depth == 0 and (name.startswith("::", i) or c == " "):
            start = i + (2 if c == ":" else 1)
    name = name[start:].strip()
    if "<" in name and len(name) > 48:
        name = name[: name.index("<")] + "<...>"
    elif len(name) > 48:  # e.g. cuBLAS's kernels: one long name, no templates
        name = name[:45] + "..."
    return name


def function_of(kernel):
    """The kernel's function name without template arguments."""
    return kernel.split("<", 1)[0]


def parse_number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def parse_raw_csv(text, metrics, shorten=None):
    """Nsight Compute's `--page raw --csv` output -> one dict per launch.

    The first row names the columns, the second gives their units; each later row is one
    profiled launch. Its kernel's name goes through @p shorten (short_kernel_name by default).
    """
    shorten = shorten or short_kernel_name
    rows = list(csv.reader(io.StringIO(text)))
    header_at = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if header_at is None:
        return []
    header = rows[header_at]
    launches = []
    for row in rows[header_at + 2:]:
        if len(row) != len(header):
            continue
        cells = dict(zip(header, row))
        launches.append({
            "kernel": shorten(cells["Kernel Name"]),
            "grid": cells.get("Grid Size", ""),
            "block": cells.get("Block Size", ""),
            "metrics": {m: parse_number(cells[m]) for m in metrics if m in cells},
        })
    return launches


def grid_threads(grid):
    """'(256, 1, 1)' -> 256: the block count of a launch, for choosing the largest."""
    count = 1
    for part in re.findall(r"\d+", grid):
        count *= int(part)
    return count


def per_kernel(launches, ignore=("read_only_pass",)):
    """One entry per kernel (per symbol: two kernels may print the same short name): its
    launch with the largest grid, and how many launches it had.

    read_only_pass is the timer's L2 flush, not a kernel of the lesson.
    """
    kernels = {}
    for launch in launches:
        if function_of(launch["kernel"]) in ignore:
            continue
        key = launch.get("symbol") or launch["kernel"]
        entry = kernels.setdefault(key, {
            "kernel": launch["kernel"], "symbol": launch.get("symbol"),
            "function": function_of(launch["kernel"]), "launches": 0, "size": -1})
        entry["launches"] += 1
        if grid_threads(launch["grid"]) > entry["size"]:
            entry.update(size=grid_threads(launch["grid"]), grid=launch["grid"],
                         block=launch["block"], metrics=launch["metrics"])
    for entry in kernels.values():
        del entry["size"]
    return list(kernels.values())


def format_value(metric, value):
    if value is None:
        return "n/a"
    if metric.endswith((".pct", "pct_of_peak_sustained_elapsed", "pct_of_peak_sustained_active")):
        return f"{value:.1f}"
    if metric.endswith(".ratio"):
        return f"{value:.2f}"
    if metric == "gpu__time_duration.sum":
        return f"{value / 1e3:.1f}"  # ns -> us
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.2f}{suffix}"
    return f"{value:.0f}"


def format_table(kernels, metrics):
    """The kernel x counter table, as lines of text."""
    titles = [LABELS.get(m, m) for m in metrics]
    name_width = max([6] + [len(k["kernel"]) for k in kernels])
    widths = [max(len(t), 7) for t in titles]
    lines = ["  ".join([f"{'kernel':<{name_width}}", f"{'grid':>14}"] +
                       [f"{t:>{w}}" for t, w in zip(titles, widths)])]
    for k in kernels:
        cells = [format_value(m, k["metrics"].get(m)) for m in metrics]
        lines.append("  ".join([f"{k['kernel']:<{name_width}}", f"{k['grid']:>14}"] +
                               [f"{c:>{w}}" for c, w in zip(cells, widths)]))
    return lines


def available_metrics(ncu):
    """The base names of the counters this GPU offers, or None when ncu cannot say."""
    result = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True)
    if "ERR_NVGPUCTRPERM" in result.stdout + result.stderr:
        raise ProfileError(PERMISSION_HELP)
    if result.returncode != 0:
        return None
    names = {line.split()[0] for line in result.stdout.splitlines()
             if line and re.match(r"^[a-z0-9]+__\w+", line)}
    return names or None


def usable(metrics, offered):
    """The metrics this GPU offers (all, when that is unknown), and the ones it does not."""
    if offered is None:
        return metrics, []
    # The launch__ values (registers, grid) describe the launch, not a counter:
    # --query-metrics does not list them, and every GPU has them.
    keep = [m for m in metrics if m.startswith("launch__") or m.split(".", 1)[0] in offered]
    return keep, [m for m in metrics if m not in keep]


def profile_run(ncu, exe, args, metrics, report_path):
    """Runs @p exe under ncu; returns its launches, or None when the program had no GPU."""
    command = [ncu, "--clock-control", "none", "--metrics", ",".join(metrics), "--force-overwrite",
               "--export", str(report_path), str(exe)] + args
    result = subprocess.run(command, capture_output=True, text=True)
    output = result.stdout + result.stderr
    if "ERR_NVGPUCTRPERM" in output:
        raise ProfileError(PERMISSION_HELP)
    if result.returncode == SKIPPED:
        return None
    if result.returncode != 0:
        tail = "\n".join(output.splitlines()[-15:])
        raise ProfileError(f"{exe.name} {' '.join(args)} under ncu exited {result.returncode}:\n"
                           f"{tail}")
    launches = parse_raw_csv(import_csv(ncu, report_path, metrics), metrics)
    # The same launches again, named by their symbols: what a report row names its kernel by
    # (Row::symbol, from cudaFuncGetName), so that a row finds its counters without a typed name.
    symbols = [launch["kernel"] for launch in parse_raw_csv(
        import_csv(ncu, report_path, metrics[:1], "--print-kernel-base", "mangled"), metrics[:1],
        shorten=lambda name: name.strip())]
    if len(symbols) != len(launches):
        raise ProfileError(f"ncu --import {report_path} listed {len(launches)} launches by name "
                           f"but {len(symbols)} by symbol")
    for launch, symbol in zip(launches, symbols):
        launch["symbol"] = symbol
    return launches


def import_csv(ncu, report_path, metrics, *options):
    """The raw page of the Nsight Compute report at @p report_path as CSV, base units."""
    imported = subprocess.run([ncu, "--import", str(report_path), "--csv", "--page", "raw",
                               "--print-units", "base", *options, "--metrics", ",".join(metrics)],
                              capture_output=True, text=True)
    if imported.returncode != 0:
        raise ProfileError(f"ncu --import {report_path} failed:\n{imported.stderr}")
    return imported.stdout


def chapter_dirs(root, only):
    """The chapter directories that have a profile.txt, in order."""
    dirs = sorted(p for p in pathlib.Path(root).glob("[0-9][0-9]_*") if (p / "profile.txt").exists())
    return [d for d in dirs if not only or d.name[:2] in only]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="folder of the chNN_* executables")
    parser.add_argument("--out", required=True, help="folder for profile.json and the reports")
    parser.add_argument("--only", nargs="*", help="chapter numbers to profile (default: all)")
    parser.add_argument("--ncu", default=os.environ.get("NCU", "ncu"), help="the ncu to use")
    parser.add_argument("--chapters", default=ROOT / "chapters", help=argparse.SUPPRESS)
    args = parser.parse_args()

    ncu = shutil.which(args.ncu)
    if ncu is None:
        print(f"Nsight Compute ({args.ncu}) was not found on the PATH. It comes with the CUDA "
              "Toolkit (nsight-compute); add its folder to the PATH or pass --ncu PATH.")
        sys.exit(1)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results, failed, skipped = {}, False, False
    try:
        offered = available_metrics(ncu)
        for chapter in chapter_dirs(args.chapters, args.only):
            exe = pathlib.Path(args.bin) / f"ch{chapter.name}"
            runs, wanted = read_profile_spec(chapter)
            metrics, missing = usable(wanted, offered)
            if missing:
                print(f"{chapter.name}: this GPU does not offer {', '.join(missing)}: left out")
            entry = {"metrics": metrics, "runs": []}
            for number, run_args in enumerate(runs):
                print(f"== {chapter.name}: ncu on {exe.name} {' '.join(run_args)} ==", flush=True)
                launches = profile_run(ncu, exe, run_args, metrics,
                                       out / f"{chapter.name}_{number}.ncu-rep")
                if launches is None:
                    print("skipped: no CUDA device")
                    skipped = True
                    break
                kernels = per_kernel(launches)
                print("\n".join(format_table(kernels, metrics)), flush=True)
                entry["runs"].append({"args": " ".join(run_args), "kernels": kernels})
            if entry["runs"]:
                entry["kernels"] = entry["runs"][0]["kernels"]  # the first (default) run
                results[chapter.name] = entry
    except ProfileError as error:
        print(error)
        failed = True
    (out / "profile.json").write_text(json.dumps({"chapters": results}, indent=2))
    print(f"profile: {out / 'profile.json'}")
    sys.exit(1 if failed else SKIPPED if skipped and not results else 0)


if __name__ == "__main__":
    main()
