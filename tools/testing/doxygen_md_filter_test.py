#!/usr/bin/env python3
"""tools/doxygen_md_filter.py must give each heading GitHub's id as a Doxygen label, turn links
to a heading or to a source file into @ref links, and leave alone what it cannot resolve, code
blocks, and the number of lines."""
import pathlib
import subprocess
import sys
import tempfile

TOOL = pathlib.Path(__file__).resolve().parent.parent / "doxygen_md_filter.py"
HINTS = "# Hints for exercises 07\n\n## 7.3 C = alpha * A * B + beta * C\n\ntext\n"
PAGE = """# Exercises 07

## 7.1 Edge tiles (`edge.cu`, performance)

Stuck? [Hints for 7.3](HINTS.md#73-c--alpha--a--b--beta--c), [all hints](HINTS.md),
[their title](HINTS.md#hints-for-exercises-07), [above](#71-edge-tiles-edgecu-performance).
[The header](../common/include/tutorial/thing.cuh) and [a wrong anchor](HINTS.md#7-3).
![A picture](../docs/images/a.svg)

## 7.1 Edge tiles (`edge.cu`, performance)

```cpp
/// [not a link](HINTS.md#73-c--alpha--a--b--beta--c)
## not a heading
```

A link broken [over
two lines](HINTS.md#73-c--alpha--a--b--beta--c).
"""

with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "exercises").mkdir()
    (root / "common/include/tutorial").mkdir(parents=True)
    (root / "exercises/HINTS.md").write_text(HINTS)
    (root / "exercises/README.md").write_text(PAGE)
    header = root / "common/include/tutorial/thing.cuh"
    header.write_text("int thing();\n")
    result = subprocess.run([sys.executable, str(TOOL), "--root", str(root),
                             "--sources", str(root / "common/include"),
                             str(root / "exercises/README.md")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    out = result.stdout.split("\n")
    page = PAGE.split("\n")
    assert len(out) == len(page), result.stdout
    want = {
        2: "## 7.1 Edge tiles (`edge.cu`, performance) "
           "{#md_exercises_README_71-edge-tiles-edgecu-performance}",
        4: "Stuck? [Hints for 7.3](@ref md_exercises_HINTS_73-c--alpha--a--b--beta--c), "
           "[all hints](HINTS.md),",
        5: "[their title](HINTS.md), [above](@ref md_exercises_README_71-edge-tiles-edgecu-"
           "performance).",
        6: f"[The header](@ref {header.resolve()}) and [a wrong anchor](HINTS.md#7-3).",
        9: "## 7.1 Edge tiles (`edge.cu`, performance) "
           "{#md_exercises_README_71-edge-tiles-edgecu-performance-1}",
        17: "two lines](@ref md_exercises_HINTS_73-c--alpha--a--b--beta--c).",
    }
    for index, line in enumerate(page):
        expected = want.get(index, line)  # every other line, code blocks included, unchanged
        assert out[index] == expected, f"line {index + 1}:\n{out[index]}\nnot\n{expected}"
print("doxygen_md_filter_test: ok")
