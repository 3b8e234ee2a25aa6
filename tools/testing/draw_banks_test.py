#!/usr/bin/env python3
"""Test of tools/draw_banks.py on a small hand-made recording: one SVG per kernel, one filled
square per active lane, one word square per word a bank delivers, the row limit, and a clear
error for a kernel that is not there."""
import json
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOOL = pathlib.Path(__file__).resolve().parent.parent / "draw_banks.py"
NS = "{http://www.w3.org/2000/svg}"


def row(number, lanes, words):
    return {"number": number, "op": "ld.64", "elements": "partial[0..31]", "warps": "0",
            "lanes": lanes, "words_per_bank": words, "turns": max(words), "turns_all": max(words)}


def kernel(name, rows):
    totals = {"instructions": len(rows), "turns": 9, "fewest": 3}
    return {"kernel": name, "launch": "one block", "result": "right", "verified": True,
            "loads": totals, "stores": totals, "rows": rows}


def draw(path, out, *extra):
    return subprocess.run([sys.executable, str(TOOL), str(path), "--out", str(out), *extra],
                          capture_output=True, text=True)


def main():
    rows = [row(1, "#" * 32, [2] * 32), row(2, "#." * 16, [3] + [0] * 31)]
    recording = {"chapter": "99_test", "device": "none",
                 "kernels": [kernel("tree<8>", rows), kernel("other", rows[:1])]}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "r.json").write_text(json.dumps(recording))
        result = draw(tmp / "r.json", tmp / "out")
        assert result.returncode == 0, result.stderr
        svg = tmp / "out" / "99_test_tree_8.svg"
        assert svg.exists() and (tmp / "out" / "99_test_other.svg").exists(), result.stdout
        root = ET.parse(svg).getroot()
        rects = root.iter(NS + "rect")
        classes = [r.get("class") for r in rects]
        assert classes.count("lane-on") == 32 + 16, classes.count("lane-on")
        assert classes.count("word") == 2 * 32 + 3, classes.count("word")
        assert any("tree<8>" in (t.text or "") for t in root.iter(NS + "text"))

        limited = draw(tmp / "r.json", tmp / "lim", "--max-rows", "1", "--kernel", "tree<8>")
        assert limited.returncode == 0, limited.stderr
        root = ET.parse(tmp / "lim" / "99_test_tree_8.svg").getroot()
        assert [r.get("class") for r in root.iter(NS + "rect")].count("lane-on") == 32
        assert any("1 more rows" in (t.text or "") for t in root.iter(NS + "text"))

        missing = draw(tmp / "r.json", tmp / "x", "--kernel", "nope")
        assert missing.returncode == 1 and "tree<8>, other" in missing.stderr, missing.stderr
    print("draw_banks: OK")


if __name__ == "__main__":
    main()
