#!/usr/bin/env python3
"""tools/snippets.py --check must fail, naming the page and the region, once a line inside a
source marker changes (and pass again after the pages are regenerated)."""
import pathlib
import subprocess
import sys
import tempfile

TOOL = pathlib.Path(__file__).resolve().parent.parent / "snippets.py"
SOURCE = "int before;\n//! [region]\nint shown = 1;\n//! [region]\nint after;\n"
PAGE = "# A page\n\n<!-- snippet: src/a.cu region -->\n```cpp\nint shown = 1;\n```\n\nText.\n"


def run(root, *args):
    return subprocess.run([sys.executable, str(TOOL), "--root", str(root), *args],
                          capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "src").mkdir()
    (root / "docs").mkdir()
    (root / "src/a.cu").write_text(SOURCE)
    (root / "docs/page.md").write_text(PAGE)
    ok = run(root, "--check")
    assert ok.returncode == 0, ok.stderr
    (root / "src/a.cu").write_text(SOURCE.replace("shown = 1", "shown = 2"))
    drift = run(root, "--check")
    assert drift.returncode == 1, drift.stderr
    assert "docs/page.md: its block of src/a.cu [region] differs" in drift.stderr, drift.stderr
    assert run(root).returncode == 0
    assert "int shown = 2;" in (root / "docs/page.md").read_text()
    assert run(root, "--check").returncode == 0
print("snippets_test: ok")
