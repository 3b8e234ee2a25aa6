#!/usr/bin/env python3
"""Draws the 128-byte swizzle of chapter 10's tensor maps: where TMA puts each 16-byte chunk of
a tile's 128-byte rows in shared memory, without a swizzle and with CU_TENSOR_MAP_SWIZZLE_128B,
for one group of 8 rows; the columns are the 16-byte slots of a row, each one group of 4 banks.

    python3 tools/draw_swizzle.py --out docs/images/10_swizzle128.svg
    python3 tools/draw_swizzle.py --check docs/images/10_swizzle128.svg

The facts it draws are read from the chapter's sources, which must still say them: the tensor
map's swizzle mode and data type, the box's row of kTmaBoxDepth values (128 bytes), the 1024-byte
swizzle atom (8 rows), and the rule the page and the comments state, chunk c of row r goes to
chunk c ^ (r % 8). The layout itself is computed the way the hardware applies it, on the byte
offset inside the 1024-byte atom (address bits 4-6 ^= bits 7-9), and checked against that rule
for every cell. --check fails when the checked-in picture is not what the script draws now.
Standard library only. Exit 0, or 1 with a message.
"""
import pathlib
import sys
from xml.sax.saxutils import escape

import drawn_from_code  # beside this script: what the pictures drawn from code share
from drawn_from_code import constant

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHAPTER = "chapters/10_tensor_cores"
CHUNK_BYTES = 16   # the swizzle moves 16-byte chunks
BANK_BYTES = 4     # a bank delivers 4 bytes; 32 banks span 128 bytes
BF16_BYTES = 2

# What the drawing relies on, as it stands in the sources (file, text); each must be there.
SOURCE_FACTS = {
    "swizzle mode": ("tensor_map.cuh", "CU_TENSOR_MAP_SWIZZLE_128B"),
    "data type": ("tensor_map.cuh", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"),
    "box row": ("tensor_map.cuh", "{kTmaBoxDepth, box_rows}"),
    "the rule": ("tensor_map.cuh", "row r stores its 16-byte piece p at piece p ^ (r % 8)"),
    "wgmma's swizzle mode": ("hopper_ptx.cuh", "uint64_t(1) << 62;"),
    "steps use the maps": ("wgmma_kernel.cuh", "constexpr int kWgBlockM = 128, kWgBlockN = 256, "
                                               "kWgDepth = kTmaBoxDepth"),
}



def read_kernel(root):
    """Row bytes and rows per swizzle atom from the chapter's sources; ValueError if they moved."""
    texts = {}
    for what, (name, snippet) in SOURCE_FACTS.items():
        path = f"{CHAPTER}/{name}"
        if path not in texts:
            texts[path] = (root / path).read_text()
        if snippet not in texts[path]:
            raise ValueError(f"{path} no longer says what the drawing relies on ({what}):\n"
                             f"  {snippet}\nupdate tools/draw_swizzle.py to the code")
    row_bytes = constant(texts[f"{CHAPTER}/tensor_map.cuh"], "kTmaBoxDepth",
                         "tensor_map.cuh") * BF16_BYTES
    atom_bytes = constant(texts[f"{CHAPTER}/wgmma_kernel.cuh"], "kSwizzleAtomBytes",
                          "wgmma_kernel.cuh")
    if row_bytes != 128 or atom_bytes != 8 * 128:
        raise ValueError(f"the 128-byte swizzle needs rows of 128 bytes in atoms of 1024; the "
                         f"sources say {row_bytes} and {atom_bytes}")
    return {"row_bytes": row_bytes, "rows": atom_bytes // row_bytes}


def swizzle_128b(offset):
    """The byte offset inside a 1024-byte atom where TMA stores byte @p offset of the box (and
    where wgmma's 128-byte-swizzle descriptor reads it): the 16-byte chunk index, bits 4-6,
    XOR the row within the atom, bits 7-9."""
    return offset ^ (((offset >> 7) & 7) << 4)


def stored_chunk(row, chunk):
    """The rule as the sources state it: chunk c of row r is stored at chunk c ^ (r % 8)."""
    return chunk ^ (row % 8)


def layout(rows, row_bytes, swizzled):
    """[row][slot] = the chunk of the row stored in that 16-byte slot."""
    chunks = row_bytes // CHUNK_BYTES
    grid = [[None] * chunks for _ in range(rows)]
    for r in range(rows):
        for c in range(chunks):
            offset = r * row_bytes + c * CHUNK_BYTES
            at = swizzle_128b(offset) if swizzled else offset
            slot = (at - r * row_bytes) // CHUNK_BYTES
            if swizzled and slot != stored_chunk(r, c):
                raise ValueError(f"the address form and the rule disagree at row {r}, chunk {c}")
            grid[r][slot] = c
    return grid


# Drawing.
CELL_W, CELL_H = 50, 28
LABEL_W = 58
PANEL_W = LABEL_W + 8 * CELL_W + 30
TOP = 78
COLORS = ["#2f6db5", "#e8762d", "#4caf50", "#8e44ad", "#d23f31", "#17a2b8", "#b8860b", "#555555"]


def text(x, y, content, size=11, anchor="start", weight="normal", color="#222"):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{color}">'
            f'{escape(content)}</text>')


def panel(x0, title, grid):
    rows, slots = len(grid), len(grid[0])
    banks = CHUNK_BYTES // BANK_BYTES
    parts = [text(x0 + LABEL_W, TOP - 38, title, 12, weight="bold")]
    for slot in range(slots):
        parts.append(text(x0 + LABEL_W + (slot + 0.5) * CELL_W, TOP - 8,
                          f"{slot * banks}-{slot * banks + banks - 1}", 10, "middle"))
    parts.append(text(x0 + LABEL_W + slots * CELL_W / 2, TOP - 22,
                      "banks of each 16-byte slot of the row", 10, "middle", color="#555"))
    outlines = []
    for r in range(rows):
        y = TOP + r * CELL_H
        parts.append(text(x0 + LABEL_W - 6, y + CELL_H / 2 + 4, f"row {r}", 11, "end"))
        for slot, chunk in enumerate(grid[r]):
            x = x0 + LABEL_W + slot * CELL_W
            parts.append(f'<rect class="chunk-{chunk}" x="{x}" y="{y}" width="{CELL_W}" '
                         f'height="{CELL_H}" fill="{COLORS[chunk % len(COLORS)]}" '
                         f'fill-opacity="{1.0 if chunk == 0 else 0.55}" stroke="#fff"/>')
            parts.append(text(x + CELL_W / 2, y + CELL_H / 2 + 5, str(chunk), 13, "middle", "bold",
                              "#fff"))
            if chunk == 0:  # drawn last, over the neighbours' edges
                outlines.append(f'<rect class="outline" x="{x + 1.5}" y="{y + 1.5}" '
                                f'width="{CELL_W - 3}" height="{CELL_H - 3}" fill="none" '
                                f'stroke="#000" stroke-width="3"/>')
    parts += outlines
    slots_of_0 = [grid[r].index(0) for r in range(rows)]
    parts.append(text(x0 + LABEL_W, TOP + rows * CELL_H + 20,
                      f"chunk 0 of rows 0-{rows - 1} is in slots " + " ".join(map(str, slots_of_0)),
                      11))
    distinct = len(set(slots_of_0))
    parts.append(text(x0 + LABEL_W, TOP + rows * CELL_H + 36,
                      f"all {rows} in the same 4 banks" if distinct == 1 else
                      f"{distinct} different groups of 4 banks" +
                      (": no two rows share one" if distinct == rows else ""), 11))
    return parts


def draw(facts):
    rows, row_bytes = facts["rows"], facts["row_bytes"]
    width = 2 * PANEL_W + 10
    legend_y = TOP + rows * CELL_H + 66
    height = legend_y + 3 * 16
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">',
             f'<rect class="background" x="0" y="0" width="{width}" height="{height}" '
             'fill="#ffffff"/>',
             text(8, 20, f"Chapter 10: a tile's {rows} rows of {row_bytes} bytes (64 BF16 values "
                         "along K) as TMA stores them in shared memory", 13, weight="bold")]
    parts += panel(0, "no swizzle (CU_TENSOR_MAP_SWIZZLE_NONE)", layout(rows, row_bytes, False))
    parts += panel(PANEL_W, "CU_TENSOR_MAP_SWIZZLE_128B (the chapter's maps)",
                   layout(rows, row_bytes, True))
    legend = [
        "A cell is a 16-byte slot of a row in shared memory; its number (and colour) is the chunk "
        "of the row stored there: chunk c holds the row's values k = 8c to 8c + 7.",
        "With the swizzle, chunk c of row r is stored at slot c ^ (r % 8) "
        f"({CHAPTER}/tensor_map.cuh); the pattern repeats every {rows} rows "
        f"({rows * row_bytes} bytes, kSwizzleAtomBytes).",
        "Outlined: chunk 0 of every row, the same 8 values of K in 8 rows. wgmma's descriptor "
        "(swizzled_tile_descriptor) names the same swizzle, so it reads what TMA wrote.",
    ]
    for i, line in enumerate(legend):
        parts.append(text(8, legend_y + 16 * i, line, 11))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    return drawn_from_code.main("draw_swizzle", __doc__.splitlines()[0], ROOT,
                                lambda root: draw(read_kernel(root)), (OSError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
