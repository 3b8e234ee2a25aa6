#!/usr/bin/env python3
"""Test of tools/draw_sweep.py on a hand-made sweep report: one line per method in each chart,
a point for every size, the report's timing note under the charts (or a line saying there is
none), and a clear error for a report without sweep rows."""
import json
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOOL = pathlib.Path(__file__).resolve().parent.parent / "draw_sweep.py"
NS = "{http://www.w3.org/2000/svg}"


def row(name, ms, rate):
    return {"name": name, "ms": {"min": ms, "median": ms, "max": ms}, "rate": rate}


def draw(report, out):
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "r.json"
        path.write_text(json.dumps(report))
        return subprocess.run([sys.executable, str(TOOL), str(path), "--out", str(out)],
                              capture_output=True, text=True)


def main():
    sizes = [8, 128, 2048, 1 << 20, 1 << 28]
    rows = [row(f"{m} @ {s} B", 0.01 + s / 1e8, s / (0.01 + s / 1e8) / 1e6)
            for m in ("one_shot", "two_shot", "ncclAllReduce") for s in sizes]
    rows.append(row("copy 0 -> 1 cudaMemcpyPeerAsync", 1.0, 100.0))  # not a sweep row
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "sweep.svg"
        note = "timing: on the GPUs, events around graph replays"
        result = draw({"rows": rows, "notes": ["GPU 0: a GPU", note]}, out)
        assert result.returncode == 0, result.stderr
        root = ET.parse(out).getroot()
        lines = [p for p in root.iter(NS + "polyline") if p.get("class") == "series"]
        assert len(lines) == 2 * 3, len(lines)  # two charts, three methods
        assert all(len(p.get("points").split()) == len(sizes) for p in lines)
        labels = [t.text for t in root.iter(NS + "text")]
        assert "ncclAllReduce" in labels and "128 MiB" in labels, labels
        assert note in labels, labels

        untold = pathlib.Path(tmp) / "untold.svg"
        assert draw({"rows": rows}, untold).returncode == 0
        labels = [t.text for t in ET.parse(untold).getroot().iter(NS + "text")]
        assert "timing: not stated in the report" in labels, labels

        empty = draw({"rows": rows[-1:]}, pathlib.Path(tmp) / "none.svg")
        assert empty.returncode == 1 and "--sweep" in empty.stderr, empty.stderr
    print("draw_sweep: OK")


if __name__ == "__main__":
    main()
