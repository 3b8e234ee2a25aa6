#!/usr/bin/env python3
"""Draws chapter 11's sweep: `ch11_multi_gpu --sweep --json` times each all-reduce at every
size, in rows named "<method> @ <bytes> B". Two charts in one SVG, one line per method: the
time per operation (latency: the small sizes) and the bus bandwidth (the large sizes), both
against the size, on logarithmic axes; under them, how the times were taken (the report's note
that starts with "timing:").

    build/bin/ch11_multi_gpu --sweep --json > sweep.json
    python3 tools/draw_sweep.py sweep.json --out docs/images/11_sweep.svg

Standard library only, so that it runs wherever the chapters do. Exit 0, or 1 with a message.
"""
import argparse
import json
import math
import pathlib
import re
import sys
from xml.sax.saxutils import escape

ROW_NAME = re.compile(r"^(?P<method>.+) @ (?P<bytes>\d+) B$")
WIDTH, HEIGHT = 520, 340           # one chart
FOOTER = 22                        # the line that says how the times were taken
TIMING = "timing:"
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 36, 48
COLORS = ["#2f6db5", "#d23f31", "#4caf50", "#e8762d", "#8e44ad", "#555555"]


def series(report):
    """{method: [(bytes, ms, rate), ...]} from the report's rows, sorted by size."""
    lines = {}
    for row in report.get("rows", []):
        match = ROW_NAME.match(row["name"])
        if match and row["ms"]["median"] > 0:
            lines.setdefault(match["method"], []).append(
                (int(match["bytes"]), row["ms"]["median"], row["rate"]))
    for points in lines.values():
        points.sort()
    return lines


def size_label(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size // scale} {unit}"
    return f"{size} B"


def text(x, y, content, size=11, anchor="middle", rotate=False):
    turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" fill="#222"{turn}>{escape(content)}</text>')


def chart(x0, title, y_title, lines, value):
    """One chart at horizontal offset x0: log2 of the size across, log10 of value() up."""
    points = [(p[0], value(p)) for ps in lines.values() for p in ps if value(p) > 0]
    if not points:
        return [text(x0 + WIDTH / 2, HEIGHT / 2, "no data")]
    lo_x, hi_x = math.log2(min(b for b, _ in points)), math.log2(max(b for b, _ in points))
    lo_y = math.floor(math.log10(min(v for _, v in points)))
    hi_y = math.ceil(math.log10(max(v for _, v in points)))
    hi_x, hi_y = max(hi_x, lo_x + 1), max(hi_y, lo_y + 1)
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(size, v):
        return (x0 + LEFT + (math.log2(size) - lo_x) / (hi_x - lo_x) * w,
                TOP + h - (math.log10(v) - lo_y) / (hi_y - lo_y) * h)

    parts = [text(x0 + WIDTH / 2, 20, title, 13),
             f'<rect x="{x0 + LEFT}" y="{TOP}" width="{w}" height="{h}" fill="none" stroke="#888"/>',
             text(x0 + WIDTH / 2, HEIGHT - 8, "size (bytes on each GPU)"),
             text(x0 + 16, TOP + h / 2, y_title, rotate=True)]
    for e in range(int(lo_y), int(hi_y) + 1):
        _, y = at(2 ** lo_x, 10.0 ** e)
        parts.append(f'<line x1="{x0 + LEFT}" y1="{y:.1f}" x2="{x0 + LEFT + w}" y2="{y:.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(text(x0 + LEFT - 6, y + 4, f"{10.0 ** e:g}", 10, "end"))
    for e in range(int(lo_x), int(hi_x) + 1, 4):
        x, _ = at(2.0 ** e, 10.0 ** lo_y)
        parts.append(text(x, TOP + h + 16, size_label(2 ** e), 10))
    for i, (method, ps) in enumerate(sorted(lines.items())):
        color = COLORS[i % len(COLORS)]
        xy = [at(p[0], value(p)) for p in ps if value(p) > 0]
        parts.append(f'<polyline class="series" fill="none" stroke="{color}" stroke-width="2" '
                     f'points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in xy)}"/>')
        parts.append(f'<text x="{x0 + LEFT + 8}" y="{TOP + 16 + 14 * i}" font-family="sans-serif" '
                     f'font-size="11" fill="{color}">{escape(method)}</text>')
    return parts


def timing(report):
    """The report's note on how its rows were timed, or a line saying it has none."""
    for note in report.get("notes", []):
        if note.startswith(TIMING):
            return note
    return f"{TIMING} not stated in the report"


def draw(report):
    lines = series(report)
    if not lines:
        raise ValueError("no row named '<method> @ <bytes> B': was the chapter run with --sweep?")
    parts = chart(0, "time per all-reduce", "microseconds", lines, lambda p: p[1] * 1e3)
    parts += chart(WIDTH, "bus bandwidth", "GB/s", lines, lambda p: p[2])
    parts.append(text(WIDTH, HEIGHT + FOOTER - 8, timing(report), 10))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * WIDTH}" '
            f'height="{HEIGHT + FOOTER}"><rect width="100%" height="100%" fill="#fff"/>'
            + "".join(parts) + "</svg>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=pathlib.Path, help="the chapter's --sweep --json output")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="the SVG to write")
    args = parser.parse_args()
    try:
        svg = draw(json.loads(args.report.read_text()))
    except (OSError, ValueError, KeyError) as e:
        print(f"draw_sweep: {e}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg)
    print(f"draw_sweep: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
