#!/usr/bin/env python3
"""Checks --explain against the hardware: the instructions, turns and extra turns it counts
from the recorded addresses must be the shared-memory instructions, wavefronts and bank
conflicts Nsight Compute counts for the same kernel.

For each chapter with --explain, runs `chNN --explain --json` twice: plainly (the recording,
saved as --out/chNN_explain.json for tools/draw_banks.py), and under ncu, which counts every
launch. --explain launches each kernel twice, plain (the code every timed run uses) then
recorded, so the launches pair up with the recorded kernels in order; the plain one is
compared. Where the compiler kept one instruction per access of the source, every count must
agree. Where it did not (it merged two of a thread's neighbouring loads into one wider
instruction, or reused a value it had just stored), the instruction counts differ, and the
row says "compiled differently" instead of failing: the page of the chapter explains it.
(The recorded launch is not compared: the recording's own atomics and shuffles can split a
warp's access in two, which the counters then see.) Prints one table (also
--out/explain_check.md) and exits 1 when a count differs where the instructions agree.

    python3 tools/explain_check.py --bin build/bin --out build/explain [--only 03 06]

Exit code: 0 when every count agrees, 77 when there is no GPU, 1 otherwise.
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import profile as ncu_profile  # noqa: E402  (tools/profile.py: running ncu, reading its CSV)

SKIPPED = 77
EXPLAINED = ["03_tree_bitmask", "04_divergence_free", "06_blelloch_scan", "07_tiled_matmul"]
METRICS = {
    ("loads", "instructions"): "smsp__sass_inst_executed_op_shared_ld.sum",
    ("loads", "turns"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ("loads", "conflicts"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    ("stores", "instructions"): "smsp__sass_inst_executed_op_shared_st.sum",
    ("stores", "turns"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ("stores", "conflicts"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}


def recorded_counts(kernel):
    """The recording's counts, keyed like METRICS (conflicts: turns beyond the fewest)."""
    counts = {}
    for kind in ("loads", "stores"):
        t = kernel[kind]
        counts[(kind, "instructions")] = t["instructions"]
        counts[(kind, "turns")] = t["turns"]
        counts[(kind, "conflicts")] = t["turns"] - t["fewest"]
    return counts


def measured_counts(launch):
    return {key: launch["metrics"].get(metric) for key, metric in METRICS.items()}


def compare(recorded, plain):
    """The keys whose counts differ."""
    return [key for key in recorded if recorded[key] != plain[key]]


def compiled_differently(recorded, plain):
    """True when the compiled kernel's shared instructions are not the source's accesses."""
    return any(recorded[(kind, "instructions")] != plain[(kind, "instructions")]
               for kind in ("loads", "stores"))


def check_chapter(ncu, exe, out):
    """Rows of the table for one chapter, and whether all agree; None without a GPU."""
    if not exe.exists():
        raise ncu_profile.ProfileError(f"{exe} not found: build the chapters first")
    run = subprocess.run([str(exe), "--explain", "--json"], capture_output=True, text=True)
    if run.returncode == SKIPPED:
        return None
    if run.returncode != 0:
        raise ncu_profile.ProfileError(f"{exe.name} --explain exited {run.returncode}:\n"
                                       f"{run.stderr}")
    explanation = json.loads(run.stdout)
    (out / f"{exe.name}_explain.json").write_text(run.stdout)
    launches = ncu_profile.profile_run(ncu, exe, ["--explain", "--json"], list(METRICS.values()),
                                       out / f"{exe.name}_explain.ncu-rep")
    kernels = explanation["kernels"]
    if launches is None or len(launches) != 2 * len(kernels):
        raise ncu_profile.ProfileError(
            f"{exe.name} --explain: expected {2 * len(kernels)} launches (plain and recorded "
            f"per kernel), ncu saw {0 if launches is None else len(launches)}")
    rows, ok = [], True
    for i, kernel in enumerate(kernels):
        recorded = recorded_counts(kernel)
        plain = measured_counts(launches[2 * i])
        differ = compare(recorded, plain)
        merged = compiled_differently(recorded, plain)
        ok = ok and (merged or not differ)
        rows.append((exe.name, kernel["kernel"], recorded, plain, differ, merged))
    return rows, ok


def format_table(rows):
    head = ("| program | kernel | loads: instr / turns / extra, recorded | ncu: instr / wavefronts"
            " / bank conflicts | stores: instr / turns / extra, recorded | ncu: instr / "
            "wavefronts / bank conflicts | agree |")
    lines = [head, "|" + "---|" * 7]

    def triple(counts, kind):
        return " / ".join(str(int(counts[(kind, k)])) if counts[(kind, k)] is not None else "?"
                          for k in ("instructions", "turns", "conflicts"))
    for program, kernel, recorded, plain, differ, merged in rows:
        if not differ:
            verdict = "yes"
        elif merged:
            verdict = "compiled differently (fewer instructions than the source's accesses)"
        else:
            verdict = "NO: " + ", ".join(f"{a} {b}" for a, b in differ)
        lines.append(f"| {program} | `{kernel}` | {triple(recorded, 'loads')} | "
                     f"{triple(plain, 'loads')} | {triple(recorded, 'stores')} | "
                     f"{triple(plain, 'stores')} | {verdict} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin", type=pathlib.Path)
    parser.add_argument("--out", default="build/explain", type=pathlib.Path)
    parser.add_argument("--only", nargs="*", help="chapter numbers, e.g. 03 06")
    parser.add_argument("--ncu", default=shutil.which("ncu"))
    args = parser.parse_args()
    if not args.ncu:
        print("explain_check: ncu (Nsight Compute) not found; it comes with the CUDA Toolkit "
              "(see docs/profiling.md)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    rows, all_ok, skipped = [], True, False
    for chapter in EXPLAINED:
        if args.only and chapter[:2] not in args.only:
            continue
        exe = args.bin / f"ch{chapter}"
        try:
            result = check_chapter(args.ncu, exe, args.out)
        except ncu_profile.ProfileError as e:
            print(f"explain_check: {e}", file=sys.stderr)
            return 1
        if result is None:
            skipped = True
            continue
        chapter_rows, ok = result
        rows += chapter_rows
        all_ok = all_ok and ok
    if skipped and not rows:
        print("explain_check: no GPU: skipped")
        return SKIPPED
    table = format_table(rows)
    print(table)
    (args.out / "explain_check.md").write_text(table + "\n")
    print("explain_check: " + ("every count agrees with Nsight Compute where the compiler kept "
                               "the source's accesses" if all_ok else "some counts differ (NO rows)"))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
