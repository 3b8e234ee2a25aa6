#!/usr/bin/env python3
"""Draws what `chNN --explain --json` recorded: one SVG per kernel, one row per shared-memory
instruction of a warp, with the first warp's lanes (filled: takes part) and, for each of the
32 banks, one square per different 4-byte word the bank must deliver. The tallest stack sets
the turns (wavefronts) the instruction takes, written at the right of the row.

    build/bin/ch03_tree_bitmask --explain --json > ch03.json
    python3 tools/draw_banks.py ch03.json --out docs/images [--kernel reduce_compact_threads]

Files are named <chapter>_<kernel>.svg, the kernel's name with every run of other characters
than letters, digits and _ made one _ (matmul_tiled<16> -> 07_tiled_matmul_matmul_tiled_16.svg).
Standard library only, so that it runs wherever the chapters do. Exit 0, or 1 with a message.
"""
import argparse
import json
import pathlib
import re
import sys
from xml.sax.saxutils import escape

LANES = 32
CELL = 9          # a lane square
WORD = 4          # a word square in a bank's stack
STACK = 8         # words drawn per bank before the count is written instead
ROW = STACK * (WORD + 1) + 6
TEXT_W = 430      # the row's label: number, op, elements, warps
LANE_X = TEXT_W
BANK_X = LANE_X + LANES * (CELL + 1) + 24
TURNS_X = BANK_X + LANES * (CELL + 1) + 12
WIDTH = TURNS_X + 150
SHADES = ["#ffffff", "#4caf50", "#f2b233", "#e8762d", "#d23f31"]  # 0, 1, 2, 3-4, 5+ words


def file_name(chapter, kernel):
    return f"{chapter}_{re.sub(r'[^A-Za-z0-9_]+', '_', kernel).strip('_')}.svg"


def shade(words):
    return SHADES[0 if words == 0 else 1 if words == 1 else 2 if words == 2 else
                  3 if words <= 4 else 4]


def text(x, y, content, size=11, weight="normal", anchor="start"):
    return (f'<text x="{x}" y="{y}" font-family="monospace" font-size="{size}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="#222">{escape(content)}</text>')


def draw_row(y, row):
    parts = [text(4, y + ROW / 2 + 4,
                  f"{row['number']:>3} {row['op']:<7}{row['elements'][:34]:<35} warps {row['warps']}")]
    for lane, mark in enumerate(row["lanes"]):
        on = mark == "#"
        parts.append(f'<rect class="{"lane-on" if on else "lane-off"}" x="{LANE_X + lane * (CELL + 1)}" '
                     f'y="{y + (ROW - CELL) / 2:.0f}" width="{CELL}" height="{CELL}" '
                     f'fill="{"#2f6db5" if on else "#ffffff"}" stroke="#b0b0b0" stroke-width="0.5"/>')
    base = y + ROW - 3
    for bank, words in enumerate(row["words_per_bank"]):
        x = BANK_X + bank * (CELL + 1)
        parts.append(f'<line x1="{x}" y1="{base + 1}" x2="{x + CELL}" y2="{base + 1}" '
                     f'stroke="#b0b0b0" stroke-width="0.5"/>')
        for w in range(min(words, STACK)):
            parts.append(f'<rect class="word" x="{x}" y="{base - (w + 1) * (WORD + 1)}" '
                         f'width="{CELL}" height="{WORD}" fill="{shade(words)}"/>')
        if words > STACK:
            parts.append(text(x + CELL / 2, y + 7, str(words), size=7, anchor="middle"))
    parts.append(text(TURNS_X, y + ROW / 2 + 4,
                      f"{row['turns']} turn{'s' if row['turns'] != 1 else ''} (all warps {row['turns_all']})"))
    return parts


def draw_kernel(chapter, kernel, max_rows=None):
    rows = kernel["rows"]
    shown = rows if max_rows is None else rows[:max_rows]
    top = 56
    height = top + len(shown) * ROW + (ROW if len(shown) < len(rows) else 0) + 64
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
             text(4, 18, f"ch{chapter} --explain: {kernel['kernel']}: {kernel['launch']}", 13, "bold"),
             text(4, 44, "  # op     elements (first warp)"),
             text(LANE_X, 44, "lanes 0..31 (first warp)"),
             text(BANK_X, 44, "banks 0..31: one square per word"),
             text(TURNS_X, 44, "turns")]
    y = top
    for row in shown:
        parts += draw_row(y, row)
        y += ROW
    if len(shown) < len(rows):
        parts.append(text(4, y + ROW / 2, f"... {len(rows) - len(shown)} more rows (see --explain)"))
        y += ROW
    loads, stores = kernel["loads"], kernel["stores"]
    parts.append(text(4, y + 20, f"loads: {loads['instructions']} instructions, {loads['turns']} turns "
                                 f"(fewest {loads['fewest']}); stores: {stores['instructions']} "
                                 f"instructions, {stores['turns']} turns (fewest {stores['fewest']})"))
    parts.append(text(4, y + 40, "lanes: filled = takes part. banks: one square per different 4-byte "
                                 "word the bank must deliver; the tallest stack sets the turns "
                                 "(16-byte rows: per half-warp, added)", size=10))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=pathlib.Path, help="the JSON of chNN --explain --json")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="folder for the SVGs")
    parser.add_argument("--kernel", action="append", help="only this kernel (may repeat)")
    parser.add_argument("--max-rows", type=int, help="draw at most this many rows per kernel")
    args = parser.parse_args()
    try:
        explanation = json.loads(args.input.read_text())
        kernels = explanation["kernels"]
        chapter = explanation["chapter"]
    except (OSError, ValueError, KeyError) as e:
        print(f"draw_banks: cannot read {args.input}: {e}", file=sys.stderr)
        return 1
    names = [k["kernel"] for k in kernels]
    for wanted in args.kernel or []:
        if wanted not in names:
            print(f"draw_banks: no kernel '{wanted}' in {args.input}; it has: {', '.join(names)}",
                  file=sys.stderr)
            return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for kernel in kernels:
        if args.kernel and kernel["kernel"] not in args.kernel:
            continue
        path = args.out / file_name(chapter, kernel["kernel"])
        path.write_text(draw_kernel(chapter, kernel, args.max_rows))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
