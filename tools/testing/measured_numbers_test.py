#!/usr/bin/env python3
"""tools/measured_numbers.py --check must fail, naming the page, the line, the name and both
values, once a quote differs from its definition (in a sentence, a table cell or a code block's
output); it must also fail on a quote of an undefined name, a name defined twice and a marker
left open; a rewrite must make the quotes equal again. The site's filter must remove every
marker and keep the text, the spaces and the number of lines."""
import pathlib
import subprocess
import sys
import tempfile

TOOLS = pathlib.Path(__file__).resolve().parent.parent
TOOL = TOOLS / "measured_numbers.py"
FILTER = TOOLS / "doxygen_md_filter.py"

CHAPTER = """# Chapter 09

Measured on a GPU on a date:

| step | 4096^3 |
|---|---|
| `tiled` | **<!-- number: ch09.tiled.ms -->2.8924<!-- /number --> ms, <!-- number: ch09.tiled.x -->0.92<!-- /number -->x** |

The run prints:

<!-- numbers in the next block:
ch09.scan.gbs ^ +scan +(?:\\S+ +){1}(\\S+)
-->
```
  kernel   median ms   GB/s
  scan        0.0820   2456.6
  scan_two    0.0900   2100.0
```

Write `<!-- number: NAME -->VALUE<!-- /number -->` to define one (shown, not a definition).
"""
QUOTES = """# The top page

| chapter | ms | vs cuBLAS | rate |
|---|---|---|---|
| 09 | <!-- quote: ch09.tiled.ms -->2.8924<!-- /quote --> | <!-- quote: ch09.tiled.x -->0.92<!-- /quote -->x | <!-- quote: ch09.scan.gbs -->2456.6<!-- /quote --> GB/s |

Chapter 09 reaches <!-- quote: ch09.tiled.x -->0.92<!-- /quote -->x cuBLAS at 4096^3.
"""


def run(root, *args):
    return subprocess.run([sys.executable, str(TOOL), "--root", str(root), *args],
                          capture_output=True, text=True)


def expect_failure(root, *needles):
    result = run(root, "--check")
    assert result.returncode == 1, result.stderr
    for needle in needles:
        assert needle in result.stderr, f"'{needle}' not in:\n{result.stderr}"


with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "chapters/09_x").mkdir(parents=True)
    chapter, top = root / "chapters/09_x/README.md", root / "README.md"
    chapter.write_text(CHAPTER)
    top.write_text(QUOTES)
    ok = run(root, "--check")
    assert ok.returncode == 0, ok.stderr

    # A drifted quote in a sentence, and the source of a table cell that changed.
    top.write_text(QUOTES.replace("reaches <!-- quote: ch09.tiled.x -->0.92",
                                  "reaches <!-- quote: ch09.tiled.x -->0.93"))
    expect_failure(root, "README.md:7: quotes ch09.tiled.x as '0.93', its source "
                   "chapters/09_x/README.md:7 says '0.92'")
    chapter.write_text(CHAPTER.replace("-->2.8924<", "-->2.9000<"))
    expect_failure(root, "README.md:5: quotes ch09.tiled.ms as '2.8924'", "says '2.9000'")
    # ... and of a number in a code block.
    chapter.write_text(CHAPTER.replace("2456.6", "2457.0"))
    expect_failure(root, "README.md:5: quotes ch09.scan.gbs as '2456.6', its source "
                   "chapters/09_x/README.md:16 says '2457.0'")
    # The rewrite takes every quote from its source; the check passes again.
    chapter.write_text(CHAPTER.replace("-->2.8924<", "-->2.9000<").replace("2456.6", "2457.0"))
    assert run(root).returncode == 0
    assert run(root, "--check").returncode == 0
    assert top.read_text() == QUOTES.replace("-->2.8924<", "-->2.9000<").replace(
        "-->0.93<", "-->0.92<").replace("2456.6", "2457.0"), top.read_text()

    # A quote of a name no page defines, a name defined twice, a marker left open, an
    # expression that matches no line of its block: each fails, named.
    chapter.write_text(CHAPTER)
    top.write_text(QUOTES + "<!-- quote: ch09.nothing -->1.0<!-- /quote -->\n")
    expect_failure(root, "README.md:8: quotes ch09.nothing, which no page defines")
    top.write_text(QUOTES + "Again <!-- number: ch09.tiled.x -->0.92<!-- /number -->x.\n")
    expect_failure(root, "ch09.tiled.x is defined 2 times: README.md:8, "
                   "chapters/09_x/README.md:7")
    top.write_text(QUOTES + "Open <!-- quote: ch09.tiled.x -->0.92x\n")
    expect_failure(root, "README.md:8: '<!-- quote: ch09.tiled.x -->' is not one of a pair")
    top.write_text(QUOTES)
    chapter.write_text(CHAPTER.replace("^ +scan +", "^ +scan_three +"))
    expect_failure(root, "chapters/09_x/README.md:12: the expression for ch09.scan.gbs must "
                   "have a group and match one line of the block below; it matched 0")

    # The site sees the numbers, not the markers (the example in a code span stays as it is).
    chapter.write_text(CHAPTER)
    filtered = subprocess.run([sys.executable, str(FILTER), "--root", str(root), str(chapter)],
                              capture_output=True, text=True)
    assert filtered.returncode == 0, filtered.stderr
    out = filtered.stdout.split("\n")
    assert len(out) == len(CHAPTER.split("\n")), filtered.stdout
    assert out[6] == "| `tiled` | **2.8924 ms, 0.92x** |", out[6]
    assert out[10:13] == ["", "", ""], out[10:13]
    assert out[13] == "```", out[13]
    assert out[-2] == CHAPTER.split("\n")[-2], out[-2]
    assert "number:" not in "\n".join(out[:-2]), filtered.stdout
    filtered = subprocess.run([sys.executable, str(FILTER), "--root", str(root), str(top)],
                              capture_output=True, text=True)
    assert "Chapter 09 reaches 0.92x cuBLAS at 4096^3." in filtered.stdout, filtered.stdout
    assert "<!--" not in filtered.stdout, filtered.stdout
print("measured_numbers_test: ok")
