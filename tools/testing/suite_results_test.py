#!/usr/bin/env python3
"""tools/suite_results.py must turn CTest's results into the GPU suite's summary lines, and
fail on every failure: a failed run, a run that never ran, a board not as required.

Builds a small CMake project whose tests are named as the suite's are (sizes, sanitizer runs,
boards; some pass, some fail, one program is not built), runs it with ctest as
tools/gpu_suite.sh does, and checks the lines and logs suite_results.py writes.

  suite_results_test.py [CMAKE CTEST]   (CTest passes its own; default: from PATH)
"""
import pathlib
import subprocess
import sys
import tempfile

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "suite_results.py"
CMAKE, CTEST = sys.argv[1:3] if len(sys.argv) > 2 else ("cmake", "ctest")
PROJECT = r"""cmake_minimum_required(VERSION 3.24)
project(fake_suite NONE)
enable_testing()
function(fake name code)  # [shell commands to run first]
  add_test(NAME ${name} COMMAND sh -c "echo output of ${name}\n${ARGV2}\nexit ${code}")
  set_tests_properties(${name} PROPERTIES LABELS "${LABEL}")
endfunction()
set(LABEL "suite")
fake(suite.ch01_fake.01 0)
fake(suite.ch01_fake.02 3)
fake(suite.ch02_fake.01 0)
set(LABEL "sanitize")
fake(sanitize.ch02_fake.memcheck 0)
fake(sanitize.ch02_fake.memcheck-explain 99)
fake(sanitize.ch02_fake.racecheck 0)
fake(sanitize.sol2.1_check.memcheck 0)
fake(sanitize.sol2.1_check.racecheck 0)
add_test(NAME sanitize.sol2.2_check.memcheck COMMAND not_built_check --small)
set_tests_properties(sanitize.sol2.2_check.memcheck PROPERTIES LABELS "sanitize")
set(LABEL "grade")
fake(board.grade-solutions 0
     "echo '==== exercise board (pass) ====' && echo 'PASS  2.1' && echo '1 graded: 1 PASS'")
fake(board.grade-wrong 1 "echo '2 graded: 1 PASS 1 FAIL'")
set(LABEL "gpu")
fake(chapter.01.run 0)
fake(chapter.10.run 0 "echo 'note   : wmma skipped: BF16 tensor-core instructions need 8.0' && \
echo 'note   : wgmma_tma and wgmma_persistent skipped: they need sm_90a'")
fake(solution.10.2 77 "echo 'sol10.2_check: exercise 10.2 needs 8.0: cannot run here' >&2")
set_tests_properties(chapter.10.run solution.10.2 PROPERTIES SKIP_RETURN_CODE 77)
fake(solution.9.1 3)
add_test(NAME solution.9.2 COMMAND not_built_check)
set_tests_properties(solution.9.2 PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
"""


def run(*command, cwd=None):
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True)


def summarize(build, out, kind, label, *extra):
    """What gpu_suite.sh does for one step: list, run, summarize."""
    tests, junit = out / f"{kind}_tests.json", out / f"{kind}.xml"
    listing = run(CTEST, "--test-dir", build, "-N", "--show-only=json-v1", "-L", label)
    tests.write_text(listing.stdout)
    run(CTEST, "--test-dir", build, "-L", label, "--output-junit", junit)
    return run(sys.executable, RESULTS, kind, "--tests", tests, "--junit", junit,
               "--logs", out, "--summary", out / "summary.txt", *extra)


def check(condition, what, result):
    if not condition:
        sys.exit(f"suite_results_test: {what}\n{result.stdout}{result.stderr}")


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    (tmp / "src").mkdir()
    (tmp / "src" / "CMakeLists.txt").write_text(PROJECT)
    configured = run(CMAKE, "-S", tmp / "src", "-B", tmp / "build")
    check(configured.returncode == 0, "the fake project does not configure", configured)
    out = tmp / "out"
    out.mkdir()

    sizes = summarize(tmp / "build", out, "sizes", "^suite$")
    check(sizes.returncode == 1, "a failed size must fail the step", sizes)
    check("ch01_fake                  sizes   1/2  \n" in sizes.stdout, "ch01's line", sizes)
    check("ch02_fake                  sizes   1/1  \n" in sizes.stdout, "ch02's line", sizes)
    failures = (out / "failures.txt").read_text()
    check("FAIL: " in failures and "exit 3" in failures and "(FAIL)" in failures,
          f"failures.txt names the failed command: {failures!r}", sizes)
    log = (out / "ch01_fake.log").read_text()
    check("output of suite.ch01_fake.01" in log and "output of suite.ch01_fake.02" in log,
          "every run of a program goes to its log", sizes)

    sanitizers = summarize(tmp / "build", out, "sanitizers", "sanitize")
    check(sanitizers.returncode == 1, "a sanitizer report must fail the step", sanitizers)
    expected = ["ch02_fake                  sanitizers 1/2 clean: memcheck:FAIL(--explain) "
                "racecheck:ok",
                "sol2.1_check               sanitizers 2/2 clean: memcheck:ok racecheck:ok",
                "sol2.2_check               sanitizers 0/1 clean: memcheck:"]
    for line in expected:
        check(line in sanitizers.stdout, f"the line {line!r}", sanitizers)
    check((out / "sanitizer_ch02_fake_memcheck-explain.log").exists(),
          "a failed sanitizer run keeps its log", sanitizers)
    check(not (out / "sanitizer_ch02_fake_memcheck.log").exists(),
          "a clean sanitizer run leaves no log", sanitizers)

    boards = summarize(tmp / "build", out, "boards", "^grade$")
    check(boards.returncode == 1, "a board not as required must fail the step", boards)
    check("grade-solutions            as required (1 graded: 1 PASS)" in boards.stdout,
          "the solutions' line", boards)
    check("grade-wrong                FAILED (2 graded: 1 PASS 1 FAIL)" in boards.stdout,
          "the known-wrong answers' line", boards)
    check("==== exercise board (pass) ====\nPASS  2.1" in boards.stdout,
          "the board's table is printed", boards)

    # A build for another architecture: verified, verified with a step skipped (its note),
    # skipped with the reason it printed (exit 77), failed, and not built (a failure, though
    # CTest reports it as not run too).
    archs = summarize(tmp / "build", out, "archs", "^gpu$", "--title", "75-virtual")
    check(archs.returncode == 1, "a failed or missing program must fail the step", archs)
    line = ("build 75-virtual           5 run: 2 verified (1 with steps skipped, each with a "
            "note), 1 skipped with a reason (exit 77), 2 failed (archs_75-virtual.md)")
    check(line in archs.stdout, f"the line {line!r}", archs)
    table = (out / "archs_75-virtual.md").read_text()
    for row in ["| `chapter.10.run` | verified | wmma skipped: BF16 tensor-core instructions "
                "need 8.0; wgmma_tma and wgmma_persistent skipped: they need sm_90a |",
                "| `solution.10.2` | skipped | exercise 10.2 needs 8.0: cannot run here |",
                "| `solution.9.1` | FAIL |", "| `solution.9.2` | FAIL |"]:
        check(row in table, f"the row {row!r} in\n{table}", archs)

    # A run cut short: the tests were selected but no results were written.
    (out / "sizes.xml").unlink()
    cut = run(sys.executable, RESULTS, "sizes", "--tests", out / "sizes_tests.json", "--junit",
              out / "sizes.xml", "--logs", out, "--summary", out / "summary.txt")
    check(cut.returncode == 1 and "ch02_fake                  sizes   0/1" in cut.stdout,
          "tests without results count as failed", cut)
    # No tests for the selection (a label no test has) is a failure, not a pass.
    empty = summarize(tmp / "build", out, "boards", "^grade_99$")
    check(empty.returncode == 1 and "FAILED: no tests" in empty.stdout,
          "a selection without tests must fail", empty)

    summary = (out / "summary.txt").read_text()
    check(summary.count("\n") == 11, f"every line goes to the summary:\n{summary}", boards)
print("suite_results_test: ok")
