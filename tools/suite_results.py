#!/usr/bin/env python3
"""The GPU suite's summary lines from CTest's results (tools/gpu_suite.sh).

The suite's runs are CTest tests that cmake/Tutorial.cmake and tools/CMakeLists.txt register
with TUTORIAL_GPU_SUITE on. gpu_suite.sh runs one label of them with ctest, which writes the
list of tests it selected (`ctest -N --show-only=json-v1`) and their results (`--output-junit`);
this script reads both and writes one summary line per program or board:

  sizes       suite.<program>.<line>               ch03_tree_bitmask          sizes  21/21
  sanitizers  sanitize.<program>.<tool>[-<run>]    ch03_tree_bitmask          sanitizers 4/4 clean: memcheck:ok ...
  boards      board.<board>                        grade-solutions            as required (36 graded: 36 PASS)
  archs       chapter.NN.run, solution.N.M, ...    build 75-virtual           51 run: 47 verified, ...

A test that was selected but has no result (the run was cut short, or CTest could not start it)
counts as failed. Logs go to --logs: sizes, every run of a program in <program>.log and each
failed command in failures.txt; sanitizers, each failed run in
sanitizer_<program>_<tool>[-<run>].log; boards, each board's output in <board>.log (and its
table on stdout); archs, one row per program with its verdict in archs_<title>.md and every
run's output in archs_<title>.log. Exit 0 when every selected test passed, 1 otherwise.

  suite_results.py {sizes,sanitizers,boards,archs} --tests TESTS.json --junit RESULTS.xml
                   --logs DIR --summary SUMMARY.txt [--title TITLE]
"""
import argparse
import json
import re
import shlex
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def selected_tests(path):
    """The tests CTest selected, in registration order: {name: command as one line}. (CTest
    lists no command for a test whose program is not built.)"""
    tests = json.loads(Path(path).read_text())["tests"]
    return {test["name"]: shlex.join(test["command"]) if "command" in test
            else f"{test['name']} (its program is not built)" for test in tests}


def results(path):
    """{name: (status, output)} from CTest's JUnit file, status "run" for a pass and "skipped"
    for a program that exited with its SKIP_RETURN_CODE (77: it cannot run here); {} when the
    file is missing or unreadable (nothing ran)."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return {}
    found = {}
    for case in root.iter("testcase"):
        output = case.findtext("system-out") or ""
        status = case.get("status")
        skipped = case.find("skipped")
        if skipped is not None and skipped.get("message", "").startswith("SKIP_RETURN_CODE"):
            status = "skipped"
        found[case.get("name")] = (status, output)
    return found


def log_text(name, tests, ran, result):
    """A run's command, outcome and output, for a log file."""
    output = ran.get(name, ("", ""))[1]
    return f"== {tests[name]} ({result})\n{output}" + ("" if output.endswith("\n") else "\n")


def outcome(name, ran):
    """"ok", "FAIL" or "NOT RUN" for test name."""
    if name not in ran or ran[name][0] in ("notrun", "skipped"):
        return "NOT RUN"
    return "ok" if ran[name][0] == "run" else "FAIL"


def split_name(name):
    """"suite.sol3.1_check.memcheck-explain" -> ("sol3.1_check", "memcheck-explain"): the
    program between the kind and the last dot (a checker's name has dots of its own)."""
    program, _, last = name.split(".", 1)[1].rpartition(".")
    return program, last


def grouped(tests):
    """{program: [(last part of the name, test name)]}, programs in registration order."""
    programs = {}
    for name in tests:
        program, last = split_name(name)
        programs.setdefault(program, []).append((last, name))
    return programs


def sizes(tests, ran, logs):
    lines, failures, all_passed = [], [], True
    for program, runs in grouped(tests).items():
        passed = 0
        with open(logs / f"{program}.log", "w") as log:
            for _, name in runs:
                result = outcome(name, ran)
                log.write(log_text(name, tests, ran, result))
                if result == "ok":
                    passed += 1
                else:
                    failures.append(f"FAIL: {tests[name]} ({result})")
        all_passed &= passed == len(runs)
        lines.append(f"{program:<26} sizes {passed:3d}/{len(runs):<3d}")
    if failures:
        with open(logs / "failures.txt", "a") as out:
            out.write("".join(line + "\n" for line in failures))
        print("\n".join(failures))
    return lines, all_passed


def sanitizers(tests, ran, logs):
    lines, all_passed = [], True
    for program, runs in grouped(tests).items():
        tools = {}  # tool -> {run that did not pass ("run", "--explain", "--tune"): outcome}
        for last, name in runs:
            tool, _, run = last.partition("-")
            failed = tools.setdefault(tool, {})
            result = outcome(name, ran)
            if result != "ok":
                failed[f"--{run}" if run else "run"] = result
                (logs / f"sanitizer_{program}_{last}.log").write_text(
                    log_text(name, tests, ran, result))
        clean = sum(1 for failed in tools.values() if not failed)
        all_passed &= clean == len(tools)
        report = ""
        for tool, failed in tools.items():
            if not failed:
                report += f" {tool}:ok"
            else:  # FAIL when any run failed, NOT RUN when they only did not run
                verdict = "FAIL" if "FAIL" in failed.values() else "NOT RUN"
                report += f" {tool}:{verdict}({', '.join(failed)})"
        lines.append(f"{program:<26} sanitizers {clean}/{len(tools)} clean:{report}")
    return lines, all_passed


def boards(tests, ran, logs):
    lines, all_passed = [], True
    for name in tests:
        board = name.split(".", 1)[1]
        result = outcome(name, ran)
        output = ran.get(name, ("", ""))[1]
        (logs / f"{board}.log").write_text(output)
        tallies = re.findall(r"^[0-9]+ graded:.*$", output, re.MULTILINE)
        tally = tallies[-1] if tallies else ""
        verdict = "as required" if result == "ok" else "FAILED" if result == "FAIL" else result
        all_passed &= result == "ok"
        print(f"{board}: {verdict} ({tally})")
        table = output.find("==== exercise board")
        if table >= 0:
            print(output[table:].rstrip())
        lines.append(f"{board:<26} {verdict} ({tally})")
    return lines, all_passed


def skip_reason(output):
    """The line a program printed on exiting 77 (after its own name: "prog: why"), or ""."""
    lines = [line for line in output.splitlines() if line.strip()]
    return re.sub(r"^\S+: ", "", lines[-1]) if lines else ""


def archs(tests, ran, logs, title):
    """The chapters and solutions of a build for another architecture's PTX: each must verify
    (exit 0), or exit 77 with its reason (a checker that cannot run there); a step a chapter
    cannot run there is a note of its report ("<step> skipped: <why>"), listed too."""
    rows, counts, all_passed = [], {"verified": 0, "skipped": 0, "FAIL": 0}, True
    with open(logs / f"archs_{title}.log", "w") as log:
        for name in tests:
            status, output = ran.get(name, ("notrun", ""))
            log.write(log_text(name, tests, ran, status))
            steps = re.findall(r"^note   : (.* skipped: .*)$", output, re.MULTILINE)
            if status == "run":
                verdict = "verified"
                detail = "; ".join(steps)
            elif status == "skipped":
                verdict, detail = "skipped", skip_reason(output)
            else:
                verdict, detail = "FAIL", "see " + f"archs_{title}.log"
                all_passed = False
            counts[verdict] += 1
            rows.append(f"| `{name}` | {verdict} | {detail} |")
    (logs / f"archs_{title}.md").write_text(
        f"| {title} | verdict | steps skipped, or why it cannot run |\n|---|---|---|\n"
        + "\n".join(rows) + "\n")
    steps_skipped = sum(1 for row in rows if "skipped:" in row and "| verified |" in row)
    line = (f"{'build ' + title:<26} {len(tests)} run: {counts['verified']} verified "
            f"({steps_skipped} with steps skipped, each with a note), {counts['skipped']} "
            f"skipped with a reason (exit 77), {counts['FAIL']} failed (archs_{title}.md)")
    return [line], all_passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["sizes", "sanitizers", "boards", "archs"])
    parser.add_argument("--tests", required=True, help="ctest -N --show-only=json-v1")
    parser.add_argument("--junit", required=True, help="ctest --output-junit")
    parser.add_argument("--logs", required=True, type=Path)
    parser.add_argument("--summary", required=True, help="summary lines are appended here")
    parser.add_argument("--title", default="", help="archs: the build, e.g. 75-virtual")
    args = parser.parse_args()

    try:
        tests = selected_tests(args.tests)
    except (OSError, ValueError, KeyError) as error:
        tests, problem = {}, f"no list of tests ({error})"
    else:
        problem = "no tests registered for this selection (see the configure log)"
    if tests:
        if args.kind == "archs":
            lines, all_passed = archs(tests, results(args.junit), args.logs, args.title)
        else:
            summarize = {"sizes": sizes, "sanitizers": sanitizers, "boards": boards}[args.kind]
            lines, all_passed = summarize(tests, results(args.junit), args.logs)
    else:
        lines, all_passed = [f"{args.kind:<26} FAILED: {problem}"], False
    with open(args.summary, "a") as summary:
        summary.write("".join(line + "\n" for line in lines))
    print("\n".join(lines))
    return 0 if all_passed else 1


if __name__ == "__main__":
    sys.exit(main())
