#!/usr/bin/env python3
"""Test of tools/pages.py, what the tools that check the pages share: it lists exactly the pages
of PAGES, in order; it tells code from prose the way GitHub does (a fence closes only with its
own character, at least as long, with nothing after it); the command line gives an absolute
root; and the end of a run writes the pages only without --check, prints errors before drift
and the fix after it, and exits 1 exactly when something is left to report."""
import contextlib
import io
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import pages  # noqa: E402  (tools/pages.py)

# The repository this test is in is the default root.
assert pages.ROOT == pathlib.Path(__file__).resolve().parent.parent.parent, pages.ROOT

with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    listed = ["README.md", "CONTRIBUTING.md", "docs/a.md", "docs/b.md",
              "chapters/01_first/README.md", "chapters/02_second/README.md",
              "exercises/01_first/README.md"]
    not_listed = ["NOTES.md", "docs/notes.txt", "docs/images/a.md", "chapters/01_first/HINTS.md",
                  "exercises/01_first/HINTS.md", "solutions/01_first/README.md"]
    for name in reversed(listed + not_listed):  # written out of order: the order is the tool's
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n")
    found = [pages.relative(page, root) for page in pages.under(root)]
    assert found == listed, found

# Code and prose: (line, in_code) as GitHub shows them.
PAGE = [
    ("Text with ``` inside it.", False),
    ("```cpp", True),
    ("~~~", True),             # the other character: still code
    ("```python", True),       # something after it: an opener, not a closer: still code
    ("```", True),             # closes
    ("    ```", False),        # four spaces: an indented line, no fence
    ("````", True),
    ("```", True),             # shorter than the opener: still code
    ("`````  ", True),         # longer, spaces after: closes
    ("After.", False),
    ("   ~~~", True),          # up to three spaces
    ("```", True),
    ("~~~~", True),            # closes the ~~~ block
    ("", False),
]
flags = [(line, code) for _, line, code in pages.with_code_flags([line for line, _ in PAGE])]
assert flags == PAGE, [got for got, want in zip(flags, PAGE) if got != want]

# The command line.
args = pages.command_line("a tool", [])
assert (args.check, args.root) == (False, pages.ROOT), vars(args)
with tempfile.TemporaryDirectory() as tmp:
    here = os.getcwd()
    os.chdir(tmp)
    try:
        args = pages.command_line("a tool", ["--check", "--root", "tree"])
    finally:
        os.chdir(here)
    assert args.check and args.root == pathlib.Path(tmp).resolve() / "tree", vars(args)


def finish(root, check, errors, drifted):
    """pages.finish on one page that differs; returns (code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = pages.finish(pages.command_line("a tool", ["--root", str(root)] +
                                               (["--check"] if check else [])),
                            {root / "docs/a.md": "new\n"}, errors, drifted, "run the fix")
    return code, out.getvalue(), err.getvalue()


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "docs").mkdir()
    page = root / "docs/a.md"
    page.write_text("old\n")
    # --check: nothing written; errors, then drift, then the fix; exit 1.
    assert finish(root, True, ["an error"], ["a drift"]) == (
        1, "", "an error\na drift\nrun the fix\n")
    assert page.read_text() == "old\n"
    # ... drift alone fails too; errors alone print no fix.
    assert finish(root, True, [], ["a drift"]) == (1, "", "a drift\nrun the fix\n")
    assert finish(root, True, ["an error"], []) == (1, "", "an error\n")
    # A rewrite writes the page and names it; the drift is gone, an error still fails.
    assert finish(root, False, [], ["a drift"]) == (0, "updated docs/a.md\n", "")
    assert page.read_text() == "new\n"
    page.write_text("old\n")
    assert finish(root, False, ["an error"], ["a drift"]) == (1, "updated docs/a.md\n",
                                                               "an error\n")
    assert page.read_text() == "new\n"
    # Nothing to report: exit 0, silent.
    assert finish(root, True, [], []) == (0, "", "")
print("pages_test: ok")
