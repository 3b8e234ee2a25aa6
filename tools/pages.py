"""What the tools that check the pages share (tools/snippets.py, tools/measured_numbers.py,
tools/navigation.py): which pages there are, where a page's fenced code blocks are, the command
line, and the end of a run (write or report, then the exit code).

Each of those tools works the same way: it computes what every page should say from its sources
and either rewrites the pages that differ, or, with --check, rewrites nothing and fails (exit 1)
naming each difference. Either way it fails on an error in a page (a marker it cannot read, a
name nobody defines), which a rewrite cannot fix.

    python3 tools/TOOL.py                # rewrite the pages that differ
    python3 tools/TOOL.py --check        # fail naming each difference; write nothing
    python3 tools/TOOL.py --root DIR     # the same on another tree (the tools' tests do this)

Tested by tools/testing/pages_test.py (CTest: docs.pages_shared_by_the_checks).
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The pages a learner reads, as glob patterns under the repository's root.
PAGES = ["README.md", "CONTRIBUTING.md", "docs/*.md", "chapters/*/README.md",
         "exercises/*/README.md"]
# The line that opens or closes a fenced code block: up to three spaces, then ``` or ~~~.
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def under(root):
    """The pages under @p root: pattern by pattern of PAGES, each pattern's in name order."""
    for pattern in PAGES:
        yield from sorted(root.glob(pattern))


def relative(path, root):
    """@p path as the tools' messages name it: relative to @p root, with `/` between parts."""
    return path.relative_to(root).as_posix()


def with_code_flags(lines):
    """Yields (index, line, in_code) for every line; fence lines count as code.

    A block ends at a fence of its own character (` or ~), at least as long as the one that
    opened it, with nothing after it; any other fence line inside the block is code."""
    fence = None
    for index, line in enumerate(lines):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                yield index, line, True
            else:
                yield index, line, False
        else:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line.strip()[len(match.group(1)):].strip():
                fence = None
            yield index, line, True


def command_line(description, argv=None):
    """Parses the options every page tool takes (@p argv, default: the command line's).
    Returns them: `check` (True with --check) and `root` (the repository's root as an absolute
    path: --root, or the one this module is in)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only report drift (exit 1)")
    parser.add_argument("--root", help="the repository's root (default: this tool's)")
    args = parser.parse_args(argv)
    args.root = pathlib.Path(args.root).resolve() if args.root else ROOT
    return args


def finish(args, updates, errors, drifted, fix):
    """Ends a run: returns its exit code, 1 if anything is left to report, else 0.

    @p updates maps each page that differs to its new text; @p drifted says, one line each, how
    they differ; @p errors are the faults a rewrite cannot fix. Without --check the pages are
    written (each named on stdout as `updated PAGE`) and nothing has drifted any more. Then the
    errors and the drift go to stderr, in that order, and, after drift, @p fix: the command that
    rewrites the pages."""
    if not args.check:
        for path, text in updates.items():
            path.write_text(text)
            print(f"updated {relative(path, args.root)}")
        drifted = []
    for line in errors + drifted:
        print(line, file=sys.stderr)
    if drifted:
        print(fix, file=sys.stderr)
    return 1 if errors or drifted else 0
