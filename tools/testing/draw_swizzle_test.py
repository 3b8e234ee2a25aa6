#!/usr/bin/env python3
"""Test of tools/draw_swizzle.py: from the chapter's sources it draws a valid SVG of two 8 x 8
grids, the plain one with chunk c in slot c and the swizzled one with the 128-byte pattern
(checked here against rows typed out by hand); a source that uses another swizzle or another
row width stops the script."""
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TOOL = ROOT / "tools/draw_swizzle.py"
CHAPTER = "chapters/10_tensor_cores"
NS = "{http://www.w3.org/2000/svg}"
# The 128-byte swizzle by hand: the chunk stored in each slot of rows 0, 1, 5 and 7.
SWIZZLED_ROWS = {0: [0, 1, 2, 3, 4, 5, 6, 7], 1: [1, 0, 3, 2, 5, 4, 7, 6],
                 5: [5, 4, 7, 6, 1, 0, 3, 2], 7: [7, 6, 5, 4, 3, 2, 1, 0]}


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True,
                          text=True)


def copy_sources(root, edit=None):
    (root / CHAPTER).mkdir(parents=True)
    for name in ("tensor_map.cuh", "hopper_ptx.cuh", "wgmma_kernel.cuh"):
        text = (ROOT / CHAPTER / name).read_text()
        if edit and edit[0] == name:
            assert edit[1] in text, edit[1]
            text = text.replace(edit[1], edit[2])
        (root / CHAPTER / name).write_text(text)


def grids(svg):
    """The two panels' cells as {(panel, row, slot): chunk}, from the rectangles' places."""
    cells = [e for e in ET.parse(svg).getroot().iter(NS + "rect")
             if (e.get("class") or "").startswith("chunk-")]
    xs = sorted({float(e.get("x")) for e in cells})
    ys = sorted({float(e.get("y")) for e in cells})
    assert len(xs) == 16 and len(ys) == 8, (xs, ys)
    return {(xs.index(float(e.get("x"))) // 8, ys.index(float(e.get("y"))),
             xs.index(float(e.get("x"))) % 8): int(e.get("class").split("-")[1]) for e in cells}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        out = tmp / "swizzle.svg"
        result = run("--out", out)
        assert result.returncode == 0, result.stderr
        assert ET.parse(out).getroot().tag == NS + "svg"
        cells = grids(out)
        assert len(cells) == 2 * 64
        assert all(cells[0, r, s] == s for r in range(8) for s in range(8)), "plain panel"
        for r, row in SWIZZLED_ROWS.items():
            drawn = [cells[1, r, s] for s in range(8)]
            assert drawn == row, (r, drawn)
        # Every row a permutation of its chunks; chunk 0 of the 8 rows in 8 different slots.
        assert all(sorted(cells[1, r, s] for s in range(8)) == list(range(8)) for r in range(8))
        zeros = [s for r in range(8) for s in range(8) if cells[1, r, s] == 0]
        assert sorted(zeros) == list(range(8)), zeros

        for name, edit in (("64b", ("tensor_map.cuh", "CU_TENSOR_MAP_SWIZZLE_128B",
                                    "CU_TENSOR_MAP_SWIZZLE_64B")),
                           ("narrow", ("tensor_map.cuh", "kTmaBoxDepth = 64;",
                                       "kTmaBoxDepth = 32;"))):
            copy_sources(tmp / name, edit)
            result = run("--root", tmp / name, "--out", tmp / f"{name}.svg")
            assert result.returncode == 1 and "draw_swizzle:" in result.stderr, result.stderr
            stale = run("--root", tmp / name, "--check", ROOT / "docs/images/10_swizzle128.svg")
            assert stale.returncode == 1, stale.stderr
    print("draw_swizzle: OK")


if __name__ == "__main__":
    main()
